"""runtime/tp_parallel.h: the adaptive OpenMP team width, and results that do not depend
on it.

The adaptation is driven through a small C library built here (a region whose second
thread stalls, as a descheduled peer does, and a hook that plants a sample); the width
is checked to drop to one thread and to come back after the probe interval. The same
programs compiled by ``jit`` must give the same bits at every forced width.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from transpile.backend.build import build
from transpile.resources import runtime_dir

cffi = pytest.importorskip("cffi")
pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE_S = 0.05

PLANT_SOURCE = r"""
/* Plants the finished sample of a two-thread region of wall_s seconds in which one
 * thread waited wait_s for the other. */
void tpp_plant(double wall_s, double wait_s)
{
    tp_par_state *s = tp_par_sp_;
    const double now = omp_get_wtime();
    s->n = 2;
    s->arrived = 2;
    s->start = now - wall_s;
    s->arrive_max = now;
    s->arrive_sum = 2 * now - wait_s;
    s->waited = 0;
}
"""

C_SOURCE = r"""
#define _POSIX_C_SOURCE 199309L
#include <time.h>
#include "tp_parallel.h"

int tpp_team(int64_t units) { return tp_par_team(units); }
void tpp_set_width(int n) { tp_par_set_width(n); }
void tpp_set_max_threads(int n) { omp_set_num_threads(n); }

/* A region as the kernels write it; thread 1 sleeps stall_s first (a descheduled peer,
 * as far as the others can tell; asleep, it leaves the core to them). Returns the team's
 * size. */
int tpp_region(int64_t units, double stall_s)
{
    int team = 0;
#pragma omp parallel num_threads(tp_par_team(units))
    {
        if (omp_get_thread_num() == 1 && stall_s > 0) {
            struct timespec ts;
            ts.tv_sec = 0;
            ts.tv_nsec = (long)(stall_s * 1e9);
            nanosleep(&ts, NULL);
        }
        if (omp_get_thread_num() == 0) team = omp_get_num_threads();
        tp_par_arrive();
    }
    return team;
}

""" + PLANT_SOURCE
CDEF = """
int tpp_team(int64_t units);
void tpp_set_width(int n);
void tpp_set_max_threads(int n);
int tpp_region(int64_t units, double stall_s);
void tpp_plant(double wall_s, double wait_s);
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    d = tmp_path_factory.mktemp("tp_parallel")
    (d / "t.c").write_text(C_SOURCE)
    so = d / "t.so"
    subprocess.run(["gcc", "-std=c99", "-O2", "-fopenmp", "-fPIC", "-shared", "-Wall",
                    "-Wextra", "-Werror", f"-DTP_PAR_PROBE_S={PROBE_S}",
                    f"-I{runtime_dir()}", str(d / "t.c"), "-o", str(so)], check=True)
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    L = ffi.dlopen(str(so))
    L.tpp_set_max_threads(2)
    L.tpp_set_width(0)
    return L


def _wait_past_probe(L):
    """Sleeps until the dropped width is probed again (the interval at most doubles up
    to 16 probe intervals)."""
    deadline = time.monotonic() + 40 * PROBE_S
    while L.tpp_team(2) == 1:
        assert time.monotonic() < deadline, "the full width did not come back"
        time.sleep(PROBE_S / 4)


def test_small_work_runs_on_one_thread(lib):
    assert lib.tpp_team(0) == 1 and lib.tpp_team(1) == 1
    assert lib.tpp_region(1, 0.0) == 1


def test_a_stalled_peer_drops_the_width_and_a_probe_restores_it(lib):
    _wait_past_probe(lib)
    for _ in range(64):                  # a window without a slow region
        lib.tpp_plant(0.010, 0.0001)
        lib.tpp_team(2)
    # stalls far above the slow threshold; the second drops the width (a loaded machine
    # can deschedule the waiting thread as well and hide one, hence a few tries)
    assert lib.tpp_region(2, 0.02) == 2
    regions = 1
    while lib.tpp_region(2, 0.02) == 2:
        regions += 1
        assert regions < 10, "stalled peers did not drop the width"
    assert regions >= 2
    assert lib.tpp_team(2) == 1
    assert lib.tpp_team(4096) == 2, "big work keeps the full width"
    assert lib.tpp_region(2, 0.0) == 1, "the dropped width holds within the interval"
    _wait_past_probe(lib)
    assert lib.tpp_team(2) == 2


def test_one_slow_probe_drops_again_and_fast_regions_keep_the_width(lib):
    slow, fast = (0.010, 0.008), (0.010, 0.0001)   # waited 8 or 0.1 of 10 ms
    _wait_past_probe(lib)
    for _ in range(64):                               # clears the earlier tests' history
        lib.tpp_plant(*fast)
        assert lib.tpp_team(2) == 2
    lib.tpp_plant(*slow)
    assert lib.tpp_team(2) == 2, "one slow region is not enough"
    lib.tpp_plant(*slow)
    assert lib.tpp_team(2) == 1, "two slow regions drop the width"
    _wait_past_probe(lib)
    lib.tpp_plant(*slow)
    assert lib.tpp_team(2) == 1, "a slow probe drops the width at once"
    _wait_past_probe(lib)
    for _ in range(64):
        lib.tpp_plant(*fast)
        assert lib.tpp_team(2) == 2
    lib.tpp_plant(*slow)
    assert lib.tpp_team(2) == 2, "one slow region after 64 fast ones is kept"
    for _ in range(40):
        lib.tpp_plant(*fast)
        assert lib.tpp_team(2) == 2
    lib.tpp_plant(*slow)
    assert lib.tpp_team(2) == 1, "two slow regions 41 apart drop the width"


def test_forced_width_ignores_waits(lib):
    lib.tpp_set_width(2)
    try:
        for _ in range(3):
            assert lib.tpp_region(2, 0.01) == 2
        assert lib.tpp_team(2) == 2
        assert lib.tpp_team(1) == 1, "small work stays on one thread"
    finally:
        lib.tpp_set_width(0)


@pytest.mark.parametrize("openmp", [True, False], ids=["openmp", "serial"])
def test_header_builds_strictly(tmp_path, openmp):
    src = tmp_path / "s.c"
    src.write_text('#include "tp_parallel.h"\n'
                   "int f(int64_t n) { int t = tp_par_team(n); tp_par_set_width(0);\n"
                   "  tp_par_arrive(); tp_par_barrier(); return t; }\n")
    flags = ["-fopenmp"] if openmp else []
    res = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror",
                          "-O2", "-c", *flags, f"-I{runtime_dir()}", str(src), "-o",
                          str(tmp_path / "s.o")], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


_PROGRAMS = textwrap.dedent("""
    import numpy as np, transpile as jax, transpile.numpy as jnp
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1024, 1024)).astype(np.float32)
    w = rng.standard_normal((1024, 384)).astype(np.float32)
    fns = [
        lambda v: jnp.tanh(v) * 3 + v,                                   # loop
        lambda v: (jnp.sum(v ** 2 - v), jnp.sum(v, axis=1), jnp.max(v, axis=0)),
        lambda v: jnp.exp(v - jnp.max(v, axis=1, keepdims=True)),        # fused rows
        lambda v: (lambda e: e / jnp.sum(e, axis=1, keepdims=True))(     # softmax
            jnp.exp(v - jnp.max(v, axis=1, keepdims=True))),
        lambda v: (lambda d: d / jnp.sqrt(jnp.mean(d * d, axis=1, keepdims=True) + 1e-5))(
            v - jnp.mean(v, axis=1, keepdims=True)),                     # layernorm
        lambda v: (jnp.sum(v, axis=0), jnp.max(v * 2, axis=0)),          # row chunks
        lambda v: v @ w,                                                 # matmul
        lambda v: jax.grad(lambda a: jnp.sum(jnp.tanh(a @ w)))(v),      # both
    ]
    out = []
    for f in fns:
        res = jax.jit(f)(x)
        for r in (res if isinstance(res, tuple) else (res,)):
            out.append(np.asarray(r).tobytes())
    print(b"".join(out).hex())
""")


def test_jit_results_have_the_same_bits_at_every_width():
    outs = {}
    for width in ("1", "2", "3"):
        env = dict(os.environ, TRANSPILE_PAR_WIDTH=width, OMP_NUM_THREADS="3",
                   PYTHONPATH=REPO)
        res = subprocess.run([sys.executable, "-c", _PROGRAMS], env=env,
                             capture_output=True, text=True, timeout=600)
        assert res.returncode == 0, res.stderr
        outs[width] = res.stdout
    assert len(outs["1"]) > 1000
    assert outs["1"] == outs["2"] == outs["3"]


def test_jit_results_agree_with_numpy_at_forced_width_two():
    script = textwrap.dedent("""
        import numpy as np, transpile as jax, transpile.numpy as jnp
        x = np.random.default_rng(1).standard_normal((512, 1024)).astype(np.float32)
        got = jax.jit(lambda v: (jnp.sum(v, axis=1), v @ v.T))(x)
        np.testing.assert_allclose(np.asarray(got[0]), x.astype(np.float64).sum(1),
                                   rtol=1e-4, atol=1e-3)
        np.testing.assert_allclose(np.asarray(got[1]), x.astype(np.float64) @ x.T.astype(
            np.float64), rtol=1e-4, atol=1e-2)
        print("ok")
    """)
    env = dict(os.environ, TRANSPILE_PAR_WIDTH="2", PYTHONPATH=REPO)
    res = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr


SHARED_SOURCE = r"""
#include "tp_parallel.h"
/* %s */
int tpp_team(int64_t units) { return tp_par_team(units); }
""" + PLANT_SOURCE


def test_libraries_loaded_by_the_backend_share_one_state():
    # what one library learns of a busy machine, every library loaded knows: two stalls
    # planted in the first drop the width of the second (both built first: a compile
    # can outlast the drop)
    cdef = "int tpp_team(int64_t units);\nvoid tpp_plant(double wall_s, double wait_s);"
    # (a library is closed once nothing holds its Library)
    libraries = [build(SHARED_SOURCE % name, cdef, name=f"par_{name}", signature="test")
                 for name in ("first", "second")]
    first, second = (lib.lib for lib in libraries)
    for _ in range(70):   # a window of fast regions: the next slow one alone keeps it
        first.tpp_plant(0.010, 0.0001)
        first.tpp_team(2)
    first.tpp_plant(0.010, 0.008)
    assert first.tpp_team(2) == 2
    first.tpp_plant(0.010, 0.008)
    assert first.tpp_team(2) == 1
    assert second.tpp_team(2) == 1, "the second library is at the learnt width"
    deadline = time.monotonic() + 5.0
    while second.tpp_team(2) == 1:   # and both come back together after the probe
        assert time.monotonic() < deadline
        time.sleep(0.02)
    for _ in range(70):
        second.tpp_plant(0.010, 0.0001)
        assert first.tpp_team(2) == 2

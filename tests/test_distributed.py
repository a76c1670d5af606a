"""transpile.distributed and the process collectives (lax/process_collectives.py).

In one process: the trivial collectives eager and under jit, grad and vmap, their
jaxpr text and errors, and ``initialize``'s errors against JAX 0.10.2's
(``tests/data/distributed.json``, ``tools/record_distributed.py``). Under ``mpirun -n 2``
(skipped when mpirun or mpi4py is missing): ``tests/mpi_programs/collectives.py`` checks
every collective eager and compiled against NumPy's answer and reports the device list,
compared here with JAX's run of two processes; ``export_mpi.py`` exports a function with
collectives, which is built with mpicc, run under mpirun without Python and compared
with the jitted outputs bit for bit.
"""
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile.backend import compilers, mpi_flags
from transpile.lax import process_collectives as pc

from mpi_launch import mpirun_prefix, run

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "mpi_programs"
RECORDED = json.loads((ROOT / "tests" / "data" / "distributed.json").read_text())
dist = sys.modules["transpile.distributed"]
devmod = sys.modules["transpile.devices"]

X = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5

# (name, function, expected output for X in a run of one process)
TRIVIAL = [
    ("allreduce_sum", lambda x: pc.process_allreduce(x), X),
    ("allreduce_max", lambda x: pc.process_allreduce(x, "max"), X),
    ("allreduce_min", lambda x: pc.process_allreduce(x, "min"), X),
    ("allgather", pc.process_allgather, X[None]),
    ("ppermute_self", lambda x: pc.process_ppermute(x, [(0, 0)]), X),
    ("ppermute_none", lambda x: pc.process_ppermute(x, []), np.zeros_like(X)),
    ("alltoall_0", lambda x: pc.process_alltoall(x, 0), X),
    ("alltoall_last", lambda x: pc.process_alltoall(x, -1), X),
]


@pytest.mark.parametrize("name,fn,want", TRIVIAL, ids=[t[0] for t in TRIVIAL])
def test_one_process_is_trivial(name, fn, want):
    for got in (fn(X), jax.jit(fn)(X)):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)


def test_weak_type_and_literal_operand():
    got = jax.jit(lambda: pc.process_allreduce(2.0))()
    assert got.weak_type and got.dtype == np.float32 and float(got) == 2.0
    assert jax.jit(lambda: pc.process_allgather(jnp.int32(3)))().tolist() == [3]


JAXPR = """{ lambda ; a:f32[2,3]. let
    b:f32[1,2,3] = process_allgather[axis_size=1] a
    c:f32[1,2,3] = process_ppermute[axis_size=1 perm=((0, 0),)] b
    d:f32[1,2,3] = process_alltoall[axis=1 axis_size=1] c
    e:f32[1,2,3] = process_allreduce[axis_size=1 op=max] d
  in (e,) }"""


def test_jaxpr_text():
    def f(x):
        y = pc.process_ppermute(pc.process_allgather(x), [(0, 0)])
        return pc.process_allreduce(pc.process_alltoall(y, 1), "max")
    assert str(jax.make_jaxpr(f)(X)) == JAXPR


# grad in one process: every collective is the identity (allgather adds an axis)
GRADS = [
    ("allreduce_sum", lambda x: jnp.sum(pc.process_allreduce(x) ** 2), 2 * X),
    ("allreduce_max", lambda x: jnp.sum(pc.process_allreduce(x, "max") ** 2), 2 * X),
    ("allgather", lambda x: jnp.sum(pc.process_allgather(x) * 3.0), np.full_like(X, 3.0)),
    ("ppermute", lambda x: jnp.sum(pc.process_ppermute(x, [(0, 0)]) * x), 2 * X),
    ("alltoall", lambda x: jnp.sum(pc.process_alltoall(x, 1) ** 2), 2 * X),
]


@pytest.mark.parametrize("name,fn,want", GRADS, ids=[g[0] for g in GRADS])
def test_grad_one_process(name, fn, want):
    np.testing.assert_allclose(np.asarray(jax.grad(fn)(X)), want, rtol=1e-6)
    # against central differences of the same function
    eps = 1e-2
    i = (1, 2)
    d = np.zeros_like(X)
    d[i] = eps
    fd = (float(fn(X + d)) - float(fn(X - d))) / (2 * eps)
    np.testing.assert_allclose(np.asarray(jax.grad(fn)(X))[i], fd, rtol=1e-3)


def test_vmap_one_process():
    got = jax.vmap(lambda v: pc.process_alltoall(v, 0), 1, 1)(X)
    np.testing.assert_array_equal(np.asarray(got), X)
    got = jax.vmap(pc.process_allgather)(X)
    assert got.shape == (2, 1, 3)
    np.testing.assert_array_equal(np.asarray(got)[:, 0], X)


ERRORS = [
    (lambda: pc.process_allreduce(X, "prod"), ValueError, "op must be one of"),
    (lambda: pc.process_allreduce(np.array([True])), TypeError, "does not accept dtype bool"),
    (lambda: pc.process_ppermute(X, [(0, 1)]), ValueError, "outside [0, 1)"),
    (lambda: pc.process_ppermute(X, [(0, 0), (0, 0)]), ValueError, "must be unique"),
    (lambda: pc.process_alltoall(X, 2), ValueError, "out of bounds"),
    (lambda: pc.process_allgather_p.bind(X, axis_size=3), ValueError,
     "traced for 3 processes but the run has 1"),
    (lambda: pc.process_allreduce_p.bind(X, op="sum", axis_size=2), ValueError,
     "process_allreduce: traced for 2 processes"),
]


@pytest.mark.parametrize("fn,exc,text", ERRORS, ids=[e[2] for e in ERRORS])
def test_errors(fn, exc, text):
    with pytest.raises(exc) as info:
        fn()
    assert text in str(info.value)


@pytest.fixture
def fresh_devices(monkeypatch):
    """No devices created yet and no launch in the environment; restored afterwards."""
    saved = list(devmod._cpu_devices)
    devmod._cpu_devices.clear()
    for v in dist.LAUNCH_VARIABLES:
        monkeypatch.delenv(v, raising=False)
    yield
    dist.shutdown()
    devmod._process.index, devmod._process.count = 0, 1
    devmod._cpu_devices[:] = saved


def _recorded_error(key):
    return RECORDED["errors"][key]


def test_initialize_without_launch(fresh_devices):
    kind, msg = _recorded_error("no_cluster")
    with pytest.raises(ValueError) as info:
        dist.initialize()
    assert (type(info.value).__name__, str(info.value)) == (kind, msg)
    assert not dist.is_initialized()


def test_initialize_after_devices(fresh_devices):
    jax.devices()
    kind, msg = _recorded_error("after_backend")
    with pytest.raises(RuntimeError) as info:
        dist.initialize("127.0.0.1:1", 1, 0)
    assert (type(info.value).__name__, str(info.value)) == (kind, msg)


def test_initialize_one_process_and_twice(fresh_devices):
    dist.initialize("127.0.0.1:1", num_processes=1, process_id=0)
    assert dist.is_initialized() and jax.process_count() == 1
    kind, msg = _recorded_error("twice")
    with pytest.raises(RuntimeError) as info:
        dist.initialize("127.0.0.1:1", num_processes=1, process_id=0)
    assert (type(info.value).__name__, str(info.value)) == (kind, msg)
    dist.shutdown()
    assert not dist.is_initialized()


def test_initialize_several_processes_needs_mpi(fresh_devices):
    with pytest.raises(NotImplementedError, match="MPI launches only"):
        dist.initialize("127.0.0.1:1", num_processes=2, process_id=0)


def test_launch_without_mpi4py(fresh_devices, monkeypatch):
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", "2")
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    with pytest.raises(ImportError, match=r"pip install 'transpile\[mpi\]'"):
        dist.initialize()


def test_mpi_flags_without_mpicc(monkeypatch):
    mpi_flags.mpi_arguments.cache_clear()
    monkeypatch.setenv("MPICC", str(ROOT / "no-such-mpicc"))
    try:
        with pytest.raises(compilers.CompilerNotFoundError):
            mpi_flags.mpi_arguments()
    finally:
        mpi_flags.mpi_arguments.cache_clear()
    assert mpi_flags.uses_mpi('x\n#include "tp_mpi.h"\n')
    assert not mpi_flags.uses_mpi('#include "tp_prelude.h"\n')


# ---------------------------------------------------------------------------------------
# under mpirun -n 2

_mpirun_prefix = mpirun_prefix
_run = run


@pytest.fixture(scope="module")
def collectives_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mpi")
    _run(_mpirun_prefix() + [sys.executable, "-m", "mpi4py",
                             str(PROGRAMS / "collectives.py"), str(folder)])
    found = [json.loads(p.read_text()) for p in sorted(folder.glob("result_rank*.json"))]
    return {d["rank"]: d for d in found}


CHECKS = ["mpi_rank", "is_initialized"] + [
    f"allreduce_{op}_{how}" for op in ("sum", "max", "min")
    for how in ("eager", "jit", "int32_jit")] + [
    "allreduce_sum_odd_jit", "allreduce_sum_f64_jit", "allgather_eager", "allgather_jit",
    "ppermute_ring_eager", "ppermute_ring_jit", "ppermute_half_jit",
    "alltoall_axis0_eager", "alltoall_axis0_jit", "alltoall_axis1_eager",
    "alltoall_axis1_jit", "grad_allreduce_jit", "grad_allgather_jit", "vmap_allreduce_jit",
    "vmap_alltoall_jit"]


@pytest.mark.parametrize("check", CHECKS)
def test_collectives_under_mpirun(collectives_run, check):
    assert sorted(collectives_run) == [0, 1]
    for rank in (0, 1):
        ok, detail = collectives_run[rank]["checks"][check]
        assert ok, f"rank {rank}: {check}: {detail}"


def test_collectives_three_processes(tmp_path):
    """From three processes a sum is the exchange of slices and fold in process order
    (two processes hand it to MPI_Allreduce): every check again."""
    _run(_mpirun_prefix(3) + [sys.executable, "-m", "mpi4py",
                              str(PROGRAMS / "collectives.py"), str(tmp_path)])
    found = [json.loads(p.read_text()) for p in sorted(tmp_path.glob("result_rank*.json"))]
    assert [d["rank"] for d in found] == [0, 1, 2]
    for d in found:
        failed = [name for name, (ok, _) in d["checks"].items() if not ok]
        assert not failed, f"rank {d['rank']}: {failed}"
        assert len(d["checks"]) == len(CHECKS)
        assert [dev[0] for dev in d["ranks"]["devices"]] == [0, 1, 2048, 2049, 4096, 4097]


def test_devices_under_mpirun_match_jax(collectives_run):
    for rank in (0, 1):
        assert collectives_run[rank]["ranks"] == RECORDED["two_processes"][rank]


_DRIVER = r"""
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "step.h"

/* the inputs export_mpi.py gives jit; each output's bytes into c_rank<r>_out<i>.bin */
static void save(const char *what, int rank, const void *p, size_t n)
{
    char name[64];
    FILE *f;
    snprintf(name, sizeof name, "c_rank%d_%s.bin", rank, what);
    f = fopen(name, "wb");
    fwrite(p, 1, n, f);
    fclose(f);
}

int main(int argc, char **argv)
{
    static float in0[STEP_IN0_SIZE], out0[STEP_OUT0_SIZE], out1[STEP_OUT1_SIZE],
        out2[STEP_OUT2_SIZE], out3[STEP_OUT3_SIZE], out4[STEP_OUT4_SIZE];
    void *ws;
    int rank, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < STEP_IN0_SIZE; i++) in0[i] = (float)((i % 7) + rank) * 0.37f;
    ws = malloc((size_t)step_workspace_size() + 1);
    if (step(in0, out0, out1, out2, out3, out4, ws) != 0) MPI_Abort(MPI_COMM_WORLD, 1);
    save("out0", rank, out0, sizeof out0);
    save("out1", rank, out1, sizeof out1);
    save("out2", rank, out2, sizeof out2);
    save("out3", rank, out3, sizeof out3);
    save("out4", rank, out4, sizeof out4);
    free(ws);
    MPI_Finalize();
    return 0;
}
"""


def test_export_under_mpirun(tmp_path):
    prefix = _mpirun_prefix()
    if mpi_flags.mpicc() is None or shutil.which("make") is None:
        pytest.skip("mpicc or make is not on the PATH")
    _run(prefix + [sys.executable, "-m", "mpi4py", str(PROGRAMS / "export_mpi.py"),
                   str(tmp_path)])
    makefile = (tmp_path / "Makefile").read_text()
    assert "CC = mpicc" in makefile and "mpirun -n 2" in makefile
    assert "find_package(MPI" in (tmp_path / "CMakeLists.txt").read_text()
    _run(["make", "-s"], cwd=tmp_path)          # the library and the example, with mpicc
    example = _run(prefix + ["./step_example"], cwd=tmp_path)
    assert "rank 0: out0" in example and "rank 1: out0" in example
    (tmp_path / "driver.c").write_text(_DRIVER)
    _run([mpi_flags.mpicc(), "-std=c99", "-O2", "-fopenmp", "driver.c", "step.o", "-o",
          "driver", "-lm"], cwd=tmp_path)
    _run(prefix + ["./driver"], cwd=tmp_path)
    meta = json.loads((tmp_path / "meta.json").read_text())
    for rank in (0, 1):
        for i, (shape, _) in enumerate(meta["outputs"]):
            jit_bytes = (tmp_path / f"jit_rank{rank}_out{i}.bin").read_bytes()
            c_bytes = (tmp_path / f"c_rank{rank}_out{i}.bin").read_bytes()
            assert len(jit_bytes) == 4 * int(np.prod(shape))
            assert c_bytes == jit_bytes, f"rank {rank} output {i} differs"

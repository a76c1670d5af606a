"""Eager application of primitives: NumPy rules, and loops that run compiled as in JAX."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import transpile as jax
from transpile import lax
from transpile import dispatch as ev
from transpile.interpreters import eval as eval_mod
from transpile.lax import control_flow as cf

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _body(c):
    return c[0] + 1, c[1] * np.float32(0.999) + np.float32(0.5)


def _py_loop(n):
    c = np.float32(1)
    for _ in range(n):
        c = c * np.float32(0.999) + np.float32(0.5)
    return c


def test_eager_while_loop_runs_compiled():
    before = len(ev._eager_exes)
    i, c = lax.while_loop(lambda c: c[0] < 3000, _body, (0, np.float32(1)))
    assert int(i) == 3000 and i.dtype == np.int32 and i.weak_type
    np.testing.assert_allclose(float(c), _py_loop(3000), rtol=1e-5)
    assert len(ev._eager_exes) > before
    exe = next(reversed(ev._eager_exes.values()))[0]
    source = os.path.join(os.path.dirname(exe.library.path), "source.c")
    with open(source, encoding="utf-8") as f:
        assert "for (;;)" in f.read()


def test_eager_cache_is_keyed_by_the_traced_functions():
    lax.while_loop(lambda c: c[0] < 10, _body, (0, np.float32(1)))
    n = len(ev._eager_exes)
    cond = lambda c: c[0] < 10  # noqa: E731 - one function object, traced once
    for _ in range(3):
        lax.while_loop(cond, _body, (0, np.float32(1)))
    assert len(ev._eager_exes) <= n + 1


def test_short_scans_stay_on_numpy_and_long_ones_compile():
    wants_c = eval_mod.compiled_eagerly[cf.scan_p]
    assert not wants_c({"length": cf.EAGER_SCAN_MIN_LENGTH - 1})
    assert wants_c({"length": cf.EAGER_SCAN_MIN_LENGTH})
    xs = np.arange(100, dtype=np.float32)
    c, ys = lax.scan(lambda c, x: (c + x, c), np.float32(0), xs)
    assert float(c) == xs.sum()
    np.testing.assert_array_equal(np.asarray(ys), np.concatenate([[0], np.cumsum(xs)[:-1]]))


def test_disable_jit_runs_python():
    calls = []

    def body(c):
        calls.append(1)
        return c + 1
    with jax.disable_jit():
        assert lax.while_loop(lambda c: c < 5, body, 0) == 5
    assert len(calls) == 5


def test_without_a_compiler_eager_loops_fall_back_to_numpy(tmp_path):
    script = textwrap.dedent("""
        import numpy as np
        from transpile import lax
        i = lax.while_loop(lambda c: c < 50, lambda c: c + 2, 1)
        print(int(i))
    """)
    env = dict(os.environ, PYTHONPATH=REPO, CC=str(tmp_path / "no-such-cc"),
               TRANSPILE_CACHE_DIR=str(tmp_path / "cache"))
    res = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "51"


@pytest.mark.parametrize("n", [0, 1, 257])
def test_eager_scan_matches_the_numpy_evaluator(n):
    xs = np.linspace(-2, 2, n, dtype=np.float32)
    closed = jax.make_jaxpr(lambda xs: lax.scan(lambda c, x: (c * 0.5 + x, c * x),
                                                np.float32(1), xs))(xs)
    want = eval_mod.eval_jaxpr_numpy(closed.jaxpr, closed.consts, xs)
    got = lax.scan(lambda c, x: (c * 0.5 + x, c * x), np.float32(1), xs)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), w)

"""What the ``tests/test_numpy_<topic>.py`` files of the ``jax.numpy`` long tail
(part B) share: building a case of ``numpy_long_tail_b_cases.py`` and comparing with
what JAX 0.10.2 recorded in ``tests/data/numpy_long_tail_b.json``.

Values are compared to float32 rounding (XLA contracts some multiply-adds into FMAs, so
the last bit can differ), dtypes, shapes and weak types exactly, errors by class and
message.
"""
from __future__ import annotations

import json
import pathlib
import re

import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from transpile import tree_util

from numpy_long_tail_b_cases import CASES

DATA = json.loads((pathlib.Path(__file__).parent / "data" /
                   "numpy_long_tail_b.json").read_text())
NS = {"jnp": jnp, "np": np}
EXC = {"ValueError": ValueError, "TypeError": TypeError,
       "NotImplementedError": NotImplementedError}


def names(topic: str, check: str = "") -> list:
    """The cases of ``topic`` (those with ``check`` among their checks)."""
    return [n for n, (_, _, c) in CASES.items() if n.split("/")[0] == topic and check in c]


def build(name: str):
    prog, args, _ = CASES[name]
    return eval(prog, NS), eval(args, NS)


def _leaves(out) -> list:
    if isinstance(out, list) and all(isinstance(p, tuple) for p in out):
        return [[list(p) for p in out]]
    return tree_util.tree_leaves(out)


def compare(got, want: dict, weak: bool = True, rtol: float = 2e-6) -> None:
    if "python" in want:
        assert got == want["python"] and type(got) is type(want["python"]), (got, want)
        return
    arr = np.asarray(got)
    exp = np.array(want["values"], dtype=want["dtype"]).reshape(want["shape"])
    assert arr.dtype == exp.dtype and arr.shape == exp.shape, (arr.dtype, arr.shape, exp)
    if weak:
        assert bool(getattr(got, "weak_type", False)) == want["weak_type"]
    if exp.dtype.kind == "f":
        np.testing.assert_allclose(arr, exp, rtol=rtol, atol=1e-6, equal_nan=True)
    else:
        np.testing.assert_array_equal(arr, exp)


def compare_all(out, recs, weak=True, rtol=2e-6) -> None:
    got = _leaves(out)
    assert len(got) == len(recs)
    for g, w in zip(got, recs, strict=True):
        compare(g, w, weak, rtol)


def check_eager(name: str) -> None:
    fn, args = build(name)
    rec = DATA[name]["eager"]
    if "error" in rec:
        with pytest.raises(EXC[rec["error"]], match="^" + re.escape(rec["message"]) + "$"):
            fn(*args)
        return
    compare_all(fn(*args), rec)


def check_jit(name: str) -> None:
    fn, args = build(name)
    compare_all(transpile.jit(fn)(*args), DATA[name]["eager"], weak=False)


def check_grad(name: str) -> None:
    """``grad`` of the summed first output: JAX's recorded gradient, and central
    differences of the function itself (in float64 NumPy arithmetic on the outputs)."""
    fn, args = build(name)

    def total(x, *rest):
        return jnp.sum(tree_util.tree_leaves(fn(x, *rest))[0])
    g = np.asarray(transpile.grad(total)(*args))
    compare(g, DATA[name]["grad"], weak=False, rtol=1e-4)
    x0 = np.asarray(args[0], np.float32)
    eps = 1e-2
    fd = np.zeros(x0.shape)
    for i in np.ndindex(x0.shape):
        hi, lo = x0.copy(), x0.copy()
        hi[i] += eps
        lo[i] -= eps
        fd[i] = (float(total(hi, *args[1:])) - float(total(lo, *args[1:]))) / (2 * eps)
    np.testing.assert_allclose(g, fd, rtol=2e-2, atol=2e-2)


def check_vmap(name: str) -> None:
    fn, args = build(name)
    batch = np.stack([args[0], np.flip(args[0])])
    out = transpile.vmap(fn, in_axes=(0,) + (None,) * (len(args) - 1))(batch, *args[1:])
    compare_all(out, DATA[name]["vmap"], weak=False)


def make_tests(topic: str):
    """The four parametrised tests of ``topic``, for a test module to bind."""
    @pytest.mark.parametrize("name", names(topic))
    def test_eager(name):
        check_eager(name)

    @pytest.mark.parametrize("name", names(topic, "j"))
    def test_jit(name):
        check_jit(name)

    @pytest.mark.parametrize("name", names(topic, "g"))
    def test_grad(name):
        check_grad(name)

    @pytest.mark.parametrize("name", names(topic, "v"))
    def test_vmap(name):
        check_vmap(name)
    return test_eager, test_jit, test_grad, test_vmap

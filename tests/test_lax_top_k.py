"""``lax.top_k``: jaxpr text, weak types, values and errors recorded from JAX 0.10.2
(``tests/data/top_k.json``, written by ``tools/record_linalg_data.py`` from the cases of
``tests/linalg_cases.py``), values against an independent NumPy reference over dtypes
and shapes, and the compiled kernel against the eager (NumPy) rule, bit for bit.

JAX 0.10.2's order: largest first, equal values in input order, floats by their total
order (``-NaN < -inf < -0.0 < 0.0 < inf < NaN``). Nothing here imports jax.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import transpile
from transpile import lax
from transpile.config import enable_x64
from transpile.interpreters.eval import eval_jaxpr_numpy
from transpile.jit import make_jaxpr
from transpile.stages import compile_many

from linalg_cases import TOP_K
from linalg_checks import build, check_error, expected, same_bits, x64_mode

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "top_k.json").read_text())

#: JAX 0.10.2 runs ``top_k(x, 2.0)`` eagerly (its impl path skips the shape check) but
#: refuses it under a trace; transpile refuses it in both.
EAGER_DIVERGES = {"err_k_float_int"}


def _build(name):
    return build(TOP_K, name)


_x64 = x64_mode


def _names(key):
    return [n for n, rec in DATA.items() if key in rec and n not in EAGER_DIVERGES
            and (key != "eager" or "error" not in rec[key])]


def _error_names(key):
    return [n for n, rec in DATA.items() if isinstance(rec.get(key), dict)
            and "error" in rec[key] and n not in EAGER_DIVERGES]




# --- recorded from JAX 0.10.2 ---------------------------------------------------------

def test_cases_were_recorded():
    assert set(DATA) == set(TOP_K)


@pytest.mark.parametrize("name", _names("jaxpr"))
def test_jaxpr_text(name):
    fn, args, x64 = _build(name)
    with _x64(x64):
        closed = make_jaxpr(fn)(*args)
    assert str(closed) == DATA[name]["jaxpr"]
    assert [v.aval.weak_type for v in closed.jaxpr.outvars] == DATA[name]["weak_types"]


@pytest.mark.parametrize("name", _error_names("trace"))
def test_trace_errors(name):
    fn, args, x64 = _build(name)
    with _x64(x64):
        check_error(lambda: make_jaxpr(fn)(*args), DATA[name]["trace"])


@pytest.mark.parametrize("name", _error_names("eager"))
def test_eager_errors(name):
    fn, args, x64 = _build(name)
    with _x64(x64):
        check_error(lambda: fn(*args), DATA[name]["eager"])


@pytest.mark.parametrize("name", _names("eager"))
def test_eager_values(name):
    fn, args, x64 = _build(name)
    with _x64(x64):
        outs = fn(*args)
    assert isinstance(outs, list) and len(outs) == 2
    for got, want in zip(outs, DATA[name]["eager"], strict=True):
        same_bits(got, expected(want))  # exact, signed zeros and NaN signs included


@pytest.mark.parametrize("name", _names("jaxpr"))
def test_compiled_matches_eager(name):
    fn, args, x64 = _build(name)
    with _x64(x64):
        got = transpile.jit(fn)(*args)
        want = fn(*args)
    for g, w in zip(got, want, strict=True):
        same_bits(g, w)


# --- against an independent reference -------------------------------------------------

def reference(x, k, axis):
    """Python's stable sort of each slice by (class, value, sign) descending."""
    x = np.moveaxis(np.asarray(x), axis, -1)
    flat = x.reshape(int(np.prod(x.shape[:-1])), x.shape[-1])

    def rank(v):
        if x.dtype.kind != "f":
            return (1, int(v), 0)
        if np.isnan(v):
            return (0 if np.signbit(v) else 2, 0.0, 0)
        return (1, float(v), 0 if np.signbit(v) else 1)

    # reverse=True keeps ties in input order (Python's sort is stable both ways).
    order = np.zeros(flat.shape, np.int64)
    for r, row in enumerate(flat):
        order[r] = sorted(range(flat.shape[1]), key=lambda i: rank(row[i]), reverse=True)
    order = order[:, :k].reshape(x.shape[:-1] + (k,))
    vals = np.take_along_axis(x, order, -1)
    return np.moveaxis(vals, -1, axis), np.moveaxis(order.astype(np.int32), -1, axis)


DTYPES = [np.float32, np.float64, np.float16, np.int8, np.int32, np.int64, np.uint8,
          np.uint16, np.uint64, np.bool_]
SPECIAL = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, 1e-3]


def sample(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind == "f":
        return rng.choice(np.array(SPECIAL, dt), size=shape)  # many ties
    info = np.iinfo(dt)
    vals = np.array([info.min, info.max, 0, 1, 2, info.max - 1], dt)
    return rng.choice(vals, size=shape)


SHAPES = [((7,), 3, -1), ((7,), 7, 0), ((3, 5), 2, 1), ((3, 5), 3, 0), ((2, 3, 4), 2, 1),
          ((2, 3, 40), 37, -1), ((2, 70), 5, 1), ((1, 50), 50, 1), ((4, 0), 0, 1),
          ((0, 3), 2, 1), ((5,), 0, 0)]


def _table():
    for dt in DTYPES:
        for i, (shape, k, axis) in enumerate(SHAPES):
            yield np.dtype(dt).name, shape, k, axis, sample(shape, dt, i)


TABLE = list(_table())


@pytest.mark.parametrize("dtype,shape,k,axis,x", TABLE,
                         ids=[f"{t[0]}-{t[1]}-k{t[2]}-ax{t[3]}" for t in TABLE])
def test_eager_against_reference(dtype, shape, k, axis, x):
    with _x64(x.dtype.itemsize == 8):
        v, i = lax.top_k(x, k, axis=axis)
    rv, ri = reference(x, k, axis)
    same_bits(i, ri)
    same_bits(v, rv)


def test_compiled_table_matches_eager():
    with enable_x64(True):
        items = [(f"topk{n}", make_jaxpr(lambda x, k=k, a=axis: lax.top_k(x, k, axis=a))(x),
                  x) for n, (_, _, k, axis, x) in enumerate(TABLE)]
        exes = compile_many([(name, closed) for name, closed, _ in items])
        for (name, closed, x), exe in zip(items, exes, strict=True):
            want = eval_jaxpr_numpy(closed.jaxpr, closed.consts, x)
            got = exe([x])
            for g, w in zip(got, want, strict=True):
                same_bits(g, w)


def test_large_k_and_fused_operand():
    # Large k takes the merge-sort path; the operand is a fused expression.
    x = sample((3, 300), np.float32, 7)
    f = lambda x: lax.top_k(x * 2, 200, axis=1)  # noqa: E731
    got = transpile.jit(f)(x)
    want = f(x)
    rv, ri = reference(x * 2, 200, 1)
    for g, w, r in zip(got, want, (rv, ri), strict=True):
        same_bits(g, w)
        same_bits(w, r)


def test_returns_a_list_of_two_arrays():
    v, i = out = lax.top_k(np.array([1, 3, 2], np.int32), 2)
    assert isinstance(out, list)
    assert np.asarray(i).dtype == np.int32 and np.asarray(v).tolist() == [3, 2]
    assert lax.top_k_p.multiple_results

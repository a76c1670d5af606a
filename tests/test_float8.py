"""The float8/float4 dtypes against JAX 0.10.2's recorded answers (``tests/data/float8.json``,
``tools/record_float8.py``) and against ``ml_dtypes``' conversions.

Values are compared bit for bit (uint8 patterns), eagerly and under ``jit``; each
dtype's table of conversions (or of arithmetic) is jitted as one program returning every
case, so the whole file costs one compile per dtype and table.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import dtypes, lax
from transpile.lax import _float8

DATA = json.loads((Path(__file__).parent / "data" / "float8.json").read_text())
FLOATS = list(DATA["finfo"])
MODES = ["eager", "jit"]
#: The recorded table's dtypes this project has (the 2- and 4-bit integers it lacks).
KNOWN = set(FLOATS) | {"bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32",
                       "int", "float"}


def _bits(x) -> list:
    a = np.asarray(x)
    if a.dtype.itemsize == 1 and a.dtype != np.bool_:
        return a.view(np.uint8).ravel().tolist()
    if a.dtype == np.float32:
        return a.view(np.uint32).ravel().tolist()
    if a.dtype.itemsize == 2 and a.dtype.kind not in "iu":
        return a.view(np.uint16).ravel().tolist()
    return a.ravel().tolist()


def _small(bits, name) -> jax.Array:
    return jnp.asarray(np.asarray(bits, np.uint8).view(jnp.dtype(name)))


def _check(got, want, what):
    assert str(got.dtype) == want["dtype"], what
    assert bool(got.aval.weak_type) == want["weak_type"], what
    assert list(got.shape) == want["shape"], what
    g, w = _bits(got), want["bits"]
    assert g == w, what


def _run(fn, mode, *args):
    return (jax.jit(fn) if mode == "jit" else fn)(*args)


def test_names_are_exported():
    for name in FLOATS:
        assert np.dtype(getattr(jnp, name)) == np.dtype(getattr(ml_dtypes, name))
        assert jnp.dtype(name).name == name
    assert set(FLOATS) <= set(DATA["names"])


PROMOTION = [(k, v) for k, v in DATA["result_type"].items()
             if set(k.split(",")) <= KNOWN]


def _names(msg):
    m = re.match(r"Input dtypes \((.*?)\) have", msg)
    return sorted(m.group(1).split(", ")), msg[m.end():]


@pytest.mark.parametrize("pair,want", PROMOTION, ids=[p for p, _ in PROMOTION])
def test_result_type(pair, want):
    a, b = pair.split(",")
    b = {"int": int, "float": float}.get(b, b)
    if "error" in want:
        with pytest.raises(dtypes.TypePromotionError) as info:
            jnp.result_type(a, b)
        assert type(info.value).__name__ == want["error"]
        # JAX names the operands in the order of a set: compare them as a set
        assert _names(str(info.value)) == _names(want["message"])
    else:
        assert str(jnp.result_type(a, b)) == want["result"]


@pytest.mark.parametrize("name", FLOATS)
def test_finfo(name):
    fi = jnp.finfo(getattr(jnp, name))
    for key, want in DATA["finfo"][name].items():
        got = str(getattr(fi, key)) if key == "dtype" else getattr(fi, key)
        assert got == want, key


@pytest.mark.parametrize("name", FLOATS)
def test_repr_and_jaxpr(name):
    x = jnp.array([1, 0.5, -3, 0], "float32").astype(name)
    assert repr(x) == DATA["repr"][name]
    two = jnp.ones(2, name)
    assert str(jax.make_jaxpr(lambda a, b: a + b)(two, two)) == DATA["jaxpr"][name]


CREATION = {"zeros": lambda n: jnp.zeros(3, n), "ones": lambda n: jnp.ones((2,), n),
            "array": lambda n: jnp.array([1.0, 0.0, 1.0], n),
            "full": lambda n: jnp.full((2,), 1, n)}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", FLOATS)
def test_creation_and_weak_scalars(name, mode):
    fns = {k: (lambda f=f: f(name)) for k, f in CREATION.items()}
    for key, fn in fns.items():
        _check(fn() if mode == "eager" else jax.jit(fn)(), DATA["creation"][name][key], key)
    _check(_run(lambda u: u * 2.0 + 1, mode, jnp.ones(3, name)), DATA["weak"][name], "weak")


def _dense_f32(name) -> np.ndarray:
    """float32 values around every value of ``name``: each, the ties between
    neighbours and their float32 neighbours, and a random sweep of float32 bits."""
    n = 16 if name.startswith("float4") else 256
    v = np.arange(n, dtype=np.uint8).view(np.dtype(getattr(jnp, name))).astype(np.float32)
    v = np.unique(v[np.isfinite(v)]).astype(np.float64)
    mid = ((v[:-1] + v[1:]) / 2).astype(np.float32)
    near = np.concatenate([np.nextafter(mid, np.float32(np.inf)),
                           np.nextafter(mid, np.float32(-np.inf))])
    rng = np.random.default_rng(0)
    sweep = rng.integers(0, 2 ** 32, 2000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    out = np.concatenate([v.astype(np.float32), mid, near, -mid, sweep])
    return out[~np.isnan(out)]


CONVERSIONS = {
    "to_f32": lambda u: u.astype(jnp.float32), "to_f16": lambda u: u.astype(jnp.float16),
    "to_bf16": lambda u: u.astype(jnp.bfloat16), "to_i32": lambda u: u.astype(jnp.int32),
    "to_bool": lambda u: u.astype(jnp.bool_), "to_e5m2": lambda u: u.astype(jnp.float8_e5m2)}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", FLOATS)
def test_conversions(name, mode):
    rec = DATA["convert"][name]
    n = 16 if name.startswith("float4") else 256
    every = _small(list(range(n)), name)
    src = jnp.asarray(np.asarray(rec["f32_operand"], np.uint32).view(np.float32))
    ints = jnp.asarray(np.array([0, 1, -3, 7, 17, 1000, -100000], np.int32))
    dense = _dense_f32(name)

    def table(every, src, ints, dense):
        out = {k: f(every) for k, f in CONVERSIONS.items()}
        out["from_f32"] = src.astype(name)
        out["from_f16"] = src.astype(jnp.float16).astype(name)
        out["from_i32"] = ints.astype(name)
        out["dense"] = dense.astype(name)
        return out

    with np.errstate(over="ignore"):
        got = _run(table, mode, every, src, ints, jnp.asarray(dense))
    for key, want in rec.items():
        if key != "f32_operand":
            _check(got[key], want, key)
    # the whole float32 neighbourhood of the format, against ml_dtypes' rounding
    with np.errstate(over="ignore", invalid="ignore"):
        want = dense.astype(np.dtype(getattr(ml_dtypes, name)))
    assert _bits(got["dense"]) == _bits(want)


def test_numpy_rule_matches_ml_dtypes_on_every_pattern():
    """Decoding every bit pattern (NaNs aside, whose payloads XLA does not keep)."""
    for name in FLOATS:
        dt = np.dtype(getattr(ml_dtypes, name))
        every = np.arange(16 if name.startswith("float4") else 256, dtype=np.uint8).view(dt)
        want = every.astype(np.float32)
        got = _float8.to_float32(every)
        nan = np.isnan(want)
        assert (np.isnan(got) == nan).all(), name
        assert _bits(got[~nan]) == _bits(want[~nan]), name


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", FLOATS)
def test_arithmetic(name, mode):
    rec = DATA["arith"][name]
    x, y = _small(rec["x"], name), _small(rec["y"], name)

    def table(x, y):
        out = {f"u_{u}": getattr(lax, u)(x) for u in rec["unary"]}
        out.update({f"b_{b}": getattr(lax, b)(x, y) for b in rec["binary"]})
        out["chain"] = x * y + x
        return out

    got = _run(table, mode, x, y)
    for u, want in rec["unary"].items():
        _check(got[f"u_{u}"], want, u)
    for b, want in rec["binary"].items():
        _check(got[f"b_{b}"], want, b)
    _check(got["chain"], rec["chain"], "chain")


#: Reductions, scans, sorts and products (``tools/record_float8.py``'s JIT_OPS): XLA:CPU
#: rounds every step of a sum to the small float, in windows of 32 for long dimensions
#: (blocks of 16 for scans), and computes dot_general in float32.
JIT_OPS = {
    "sum1": lambda x, p, y: jnp.sum(x, axis=1),
    "sum_all": lambda x, p, y: jnp.sum(x),
    "sum0": lambda x, p, y: jnp.sum(x, axis=0),
    "prod1": lambda x, p, y: jnp.prod(p, axis=1),
    "sum_fused": lambda x, p, y: jnp.sum(x * p, axis=1),
    "sum_long": lambda x, p, y: jnp.sum(jnp.tile(x, (1, 30)), axis=1),
    "max1": lambda x, p, y: jnp.max(x, axis=1),
    "min0": lambda x, p, y: jnp.min(x, axis=0),
    "argmax1": lambda x, p, y: jnp.argmax(x, axis=1),
    "argmin1": lambda x, p, y: jnp.argmin(x, axis=1),
    "cumsum1": lambda x, p, y: jnp.cumsum(x, axis=1),
    "cumsum_rev": lambda x, p, y: lax.cumsum(x, axis=1, reverse=True),
    "cumprod1": lambda x, p, y: jnp.cumprod(p, axis=1),
    "cummax1": lambda x, p, y: lax.cummax(x, axis=1),
    "cummin_rev": lambda x, p, y: lax.cummin(x, axis=1, reverse=True),
    "sort1": lambda x, p, y: jnp.sort(x, axis=1),
    "argsort1": lambda x, p, y: jnp.argsort(x, axis=1),
    "top_k": lambda x, p, y: lax.top_k(x, 5)[0],
    "top_k_index": lambda x, p, y: lax.top_k(x, 5)[1],
    "dot": lambda x, p, y: x @ y,
    "dot_f32": lambda x, p, y: lax.dot(x, y, preferred_element_type=jnp.float32),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", FLOATS)
def test_reductions_scans_sorts_and_dots(name, mode):
    rec = DATA["jit_ops"][name]
    assert set(JIT_OPS) <= set(rec)
    x = _small(rec["x"], name).reshape(3, 40)
    p = _small(rec["p"], name).reshape(3, 40)
    y = _small(rec["y"], name).reshape(40, 2)
    got = _run(lambda x, p, y: {k: f(x, p, y) for k, f in JIT_OPS.items()}, mode, x, p, y)
    for key in JIT_OPS:
        if "error" in rec[key]:
            # XLA itself fails here (float4 operands of a float32 dot, of top_k): values
            # decoded exactly, in float64 (sums of these products are exact in float32)
            assert rec[key]["error"] == "JaxRuntimeError"
            xf, yf = (_float8.to_float32(np.asarray(a)).astype(np.float64) for a in (x, y))
            order = np.argsort(-xf, axis=1, kind="stable")[:, :5]
            want = {"dot_f32": lambda: (xf @ yf).astype(np.float32),
                    "top_k": lambda: np.take_along_axis(np.asarray(x), order, 1),
                    "top_k_index": lambda: order.astype(np.int32)}[key]()
            assert _bits(got[key]) == _bits(want), key
        else:
            _check(got[key], rec[key], key)


@pytest.mark.parametrize("mode", MODES)
def test_sort_carries_operands_of_other_types(mode):
    """Small-float keys sort in the wider type; a float16 operand rides along unchanged
    (fnuz NaN first, as JAX orders it)."""
    keys = jnp.array([3.0, np.nan, 1.0, 2.0], "float32").astype(jnp.float8_e4m3fnuz)
    vals = jnp.array([0.1, 0.2, 0.3, 0.4], jnp.float16)
    k, v = _run(lambda a, b: lax.sort((a, b), num_keys=1), mode, keys, vals)
    assert str(k.dtype) == "float8_e4m3fnuz" and v.dtype == np.float16
    want = np.array([np.nan, 1, 2, 3], np.float32).astype(ml_dtypes.float8_e4m3fnuz)
    assert _bits(k) == _bits(want)
    assert _bits(v) == _bits(np.array([0.2, 0.3, 0.4, 0.1], np.float16))


#: Element moves: the result's bytes are the operand's, NaN payloads too. (A move fused
#: into a loop -- a slice, a transpose -- decodes and encodes, which keeps values but
#: not the payloads of the IEEE formats' non-canonical NaNs.)
MOVES = {
    "gather": lambda a, i: a[np.array([2, 0, 1])],
    "scatter": lambda a, i: a.at[np.array([1, 3])].set(a[:2]),
    "dynamic_slice": lambda a, i: lax.dynamic_slice(a, (i, 1), (2, 2)),
    "dynamic_update_slice": lambda a, i: lax.dynamic_update_slice(a, a[:1], (i, 0)),
    "concatenate": lambda a, i: jnp.concatenate([a, a]),
}


@pytest.mark.parametrize("name", ["float8_e5m2", "float8_e3m4", "float4_e2m1fn"])
def test_element_moves_keep_every_bit_pattern_under_jit(name):
    n = 16 if name.startswith("float4") else 256
    bits = np.arange(n, dtype=np.uint8).reshape(-1, 4)
    x = jnp.asarray(bits.view(jnp.dtype(name)))
    got = jax.jit(lambda a, i: {k: f(a, i) for k, f in MOVES.items()})(x, 1)
    for key, f in MOVES.items():  # the same moves on the bytes themselves, in NumPy
        want = f(bits, 1) if key not in ("scatter", "dynamic_update_slice") else None
        if key == "scatter":
            want = bits.copy()
            want[[1, 3]] = bits[:2]
        if key == "dynamic_update_slice":
            want = bits.copy()
            want[1:2] = bits[:1]
        assert _bits(got[key]) == np.asarray(want).ravel().tolist(), key


def test_unsupported_kernels_are_refused_under_jit():
    """Eager computes it; jit says clearly it cannot (no kernel rounds as XLA does)."""
    x = jnp.ones(4, jnp.float8_e4m3fn)
    assert lax.cumlogsumexp(x).dtype == jnp.float8_e4m3fn
    with pytest.raises(NotImplementedError, match="cumlogsumexp on float8_e4m3fn"):
        jax.jit(lax.cumlogsumexp)(x)


def test_no_implicit_promotion_in_arithmetic():
    a = jnp.ones(2, jnp.float8_e4m3fn)
    with pytest.raises(dtypes.TypePromotionError, match="8-bit floats do not support"):
        a + jnp.ones(2, jnp.float8_e5m2)
    with pytest.raises(dtypes.TypePromotionError, match="8-bit floats do not support"):
        a + jnp.ones(2, jnp.float32)

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


@pytest.mark.parametrize("name", FLOATS)
def test_sum_eager_and_jit_refusal(name):
    """Eager sums round every step (as XLA reduces); jit refuses them clearly."""
    x = _small(DATA["arith"][name]["x"], name)
    _check(jnp.sum(x), DATA["arith"][name]["sum"], "sum")
    with pytest.raises(NotImplementedError, match=f"reduce_sum on {name}"):
        jax.jit(jnp.sum)(x)


def test_no_implicit_promotion_in_arithmetic():
    a = jnp.ones(2, jnp.float8_e4m3fn)
    with pytest.raises(dtypes.TypePromotionError, match="8-bit floats do not support"):
        a + jnp.ones(2, jnp.float8_e5m2)
    with pytest.raises(dtypes.TypePromotionError, match="8-bit floats do not support"):
        a + jnp.ones(2, jnp.float32)

"""JAX's 2- and 4-bit integers (int4, uint4, int2, uint2) against JAX 0.10.2's recorded
answers (``tools/record_int4.py`` -> ``tests/data/int4.json``): names, promotion and
its errors, iinfo, repr, jaxpr names, creation, every recorded operation eagerly and
under jit (bit-exact: values and the stored bytes), the operations JAX refuses, and
structural operations (byte copies) against NumPy on int64 values."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import dtypes, lax

DATA = json.loads((Path(__file__).parent / "data" / "int4.json").read_text())
INTS = ["int4", "uint4", "int2", "uint2"]
OPS = DATA["ops"]
BITS = {"int4": (4, True), "uint4": (4, False), "int2": (2, True), "uint2": (2, False)}

FROM_I32 = list(range(-20, 21)) + [127, 128, 255, 256, -129, 2 ** 31 - 1, -(2 ** 31)]
FROM_F32 = [0.0, -0.0, 0.4, 0.5, 0.6, 1.5, 2.5, -1.5, -2.5, 3.7, -3.7, 7.0, 7.5, 8.0, -8.0,
            -8.5, -9.0, 15.0, 15.9, 16.0, 17.0, 100.0, -100.0, 1e10, -1e10, float("inf"),
            float("-inf"), float("nan")]
_BIN = {"and": lax.bitwise_and, "or": lax.bitwise_or, "xor": lax.bitwise_xor}
_UN = {"not": lax.bitwise_not}
_CONV = {"to_i32": jnp.int32, "to_u8": jnp.uint8, "to_i8": jnp.int8, "to_f32": jnp.float32,
         "to_bool": jnp.bool_, "to_f16": jnp.float16}


def _cases(n: str) -> dict:
    """Every recorded case of dtype ``n``: name -> (expected, fn of the inputs)."""
    r, out = OPS[n], {}
    for b, exp in r["binary"].items():
        fn = _BIN.get(b) or getattr(lax, b)
        out["bin_" + b] = exp, (lambda fn, safe: lambda a: fn(
            a["x"], a["ysafe"] if safe else a["y"]))(fn, b in ("div", "rem"))
    for u, exp in r["unary"].items():
        out["un_" + u] = exp, (lambda fn: lambda a: fn(a["x"]))(_UN.get(u) or getattr(lax, u))
    out["weak"] = r["weak"], lambda a: a["x"] * 3 + 1
    for src in ("i32", "f32", "bool"):
        out["from_" + src] = r["from_" + src], (lambda s: lambda a: a[s].astype(n))(src)
    for k, t in _CONV.items():
        out["conv_" + k] = r["convert"][k], (lambda t: lambda a: a["x"].astype(t))(t)
    out["sum"] = r["sum"], lambda a: jnp.sum(a["x"])
    out["max"] = r["max"], lambda a: jnp.max(a["x"])
    return out


def _inputs(n: str) -> dict:
    r = OPS[n]
    x = jnp.asarray(np.array(r["x"]).astype(n))
    y = jnp.asarray(np.array(r["y"]).astype(n))
    return {"x": x, "y": y, "ysafe": jnp.where(y == 0, jnp.ones_like(y), y),
            "i32": jnp.asarray(FROM_I32, jnp.int32), "f32": jnp.asarray(FROM_F32, jnp.float32),
            "bool": jnp.asarray([True, False])}


def _stored(n: str, values) -> list:
    """The bytes ``ml_dtypes`` stores for narrow-integer ``values``: the low bits."""
    return [v & ((1 << BITS[n][0]) - 1) for v in values]


def _check(got, exp: dict) -> None:
    assert str(got.dtype) == exp["dtype"]
    assert bool(got.aval.weak_type) == exp["weak_type"]
    assert list(got.shape) == exp["shape"]
    a = np.asarray(got)
    if a.dtype == np.float32:
        assert a.view(np.uint32).ravel().tolist() == exp["values"]
        return
    assert a.astype(np.int64).ravel().tolist() == exp["values"]
    if exp["dtype"] in BITS:  # bit-exact storage, as ml_dtypes (and JAX's arrays) hold it
        assert a.view(np.uint8).ravel().tolist() == _stored(exp["dtype"], exp["values"])


_TUPLE = re.compile(r"^Input dtypes (\(.*?\)) have")


def _message_key(msg: str):
    """JAX names the dtypes of a Python set, in an order that varies with each process's
    hashes: compare that tuple as a set."""
    m = _TUPLE.match(msg)
    if not m:
        return msg, None
    names = frozenset(re.findall(r"\"[^\"]*\"|'[^']*'", m.group(1)))
    return msg[m.end(1):], names


def _check_error(excinfo, exp: dict) -> None:
    assert type(excinfo.value).__name__ == exp["error"]
    assert _message_key(str(excinfo.value).split("\n")[0]) == _message_key(exp["message"])


# ---------------------------------------------------------------------------------------

def test_names():
    assert sorted(n for n in INTS if hasattr(jnp, n)) == DATA["names"]
    for n in INTS:
        assert getattr(jnp, n).dtype == np.dtype(n) == getattr(dtypes, n)
        assert jnp.dtype(n) == np.dtype(n)
        assert jnp.issubdtype(getattr(jnp, n), jnp.integer)
        cat = jnp.signedinteger if BITS[n][1] else jnp.unsignedinteger
        assert jnp.issubdtype(getattr(jnp, n), cat)
        assert not jnp.issubdtype(getattr(jnp, n), jnp.floating)
        assert dtypes.is_integer(n) and dtypes.bit_width(n) == BITS[n][0]
        assert dtypes.is_signed(n) == BITS[n][1]


@pytest.mark.parametrize("key", sorted(DATA["result_type"]))
def test_result_type(key):
    a, b = key.split(",")
    b = {"int": int, "float": float}.get(b, b)
    exp = DATA["result_type"][key]
    if "result" in exp:
        assert str(jnp.result_type(a, b)) == exp["result"]
        return
    with pytest.raises(Exception) as excinfo:
        jnp.result_type(a, b)
    _check_error(excinfo, exp)


@pytest.mark.parametrize("n", INTS)
def test_iinfo_repr_jaxpr(n):
    info = jnp.iinfo(n)
    exp = DATA["iinfo"][n]
    assert (int(info.min), int(info.max), int(info.bits), str(info.dtype)) == \
        (exp["min"], exp["max"], exp["bits"], exp["dtype"])
    assert repr(jnp.array([1, 0, 1], n)) == DATA["repr"][n]
    text = str(jax.make_jaxpr(lambda a: (a + a, a.astype(jnp.int32)))(jnp.zeros(3, n)))
    assert text == DATA["jaxpr"][n]


_CREATION = {"zeros": lambda n: jnp.zeros((2,), n), "ones": lambda n: jnp.ones((2,), n),
             "full": lambda n: jnp.full((2,), 9, n), "array_list": lambda n: jnp.array([9, 1], n),
             "array_scalar": lambda n: jnp.array(9, n), "plus_int": lambda n: jnp.ones(2, n) + 9}


@pytest.mark.parametrize("n", INTS)
@pytest.mark.parametrize("kind", sorted(_CREATION))
def test_creation(n, kind):
    _check(_CREATION[kind](n), DATA["creation"][n][kind])


@pytest.mark.parametrize("n,name", [(n, k) for n in INTS for k in sorted(_cases(n))])
def test_ops_eager(n, name):
    exp, fn = _cases(n)[name]
    args = _inputs(n)
    if "error" in exp:
        with pytest.raises(Exception) as excinfo:
            fn(args)
        _check_error(excinfo, exp)
    else:
        _check(fn(args), exp)


@pytest.mark.parametrize("n", INTS)
def test_ops_jit(n):
    """Every recorded computed case of ``n`` in one jitted program (one compile)."""
    ok = {k: v for k, v in _cases(n).items() if "error" not in v[0]}
    outs = jax.jit(lambda a: {k: fn(a) for k, (_, fn) in ok.items()})(_inputs(n))
    for k, (exp, _) in ok.items():
        _check(outs[k], exp)


@pytest.mark.parametrize("n,name", [(n, k) for n in INTS for k, (e, _) in _cases(n).items()
                                    if "error" in e])
def test_refused_under_jit(n, name):
    """The operations JAX refuses raise its error while tracing, too."""
    exp, fn = _cases(n)[name]
    with pytest.raises(Exception) as excinfo:
        jax.jit(fn)(_inputs(n))
    _check_error(excinfo, exp)


# ---------------------------------------------------------------------------------------
# Structural operations and selections: byte copies, checked against NumPy on int64 values

_STRUCT = {
    "slice": (lambda x: x[::-1, 1:], lambda v: v[::-1, 1:]),
    "concatenate": (lambda x: jnp.concatenate([x, x[:1]], 0),
                    lambda v: np.concatenate([v, v[:1]], 0)),
    "reshape_T": (lambda x: x.reshape(3, 2).T, lambda v: v.reshape(3, 2).T),
    "gather": (lambda x: x[jnp.array([1, 0, 1])], lambda v: v[[1, 0, 1]]),
    "scatter": (lambda x: x.at[0, 1].set(x[1, 2]),
                lambda v: np.where(np.arange(6).reshape(2, 3) == 1, v[1, 2], v)),
    "where": (lambda x: jnp.where(x > x[0, 0], x, x[1, 1]),
              lambda v: np.where(v > v[0, 0], v, v[1, 1])),
    "sort": (lambda x: jnp.sort(x, axis=1), lambda v: np.sort(v, axis=1)),
    "max": (lambda x: jnp.max(x, axis=0), lambda v: v.max(axis=0)),
    "argmin": (lambda x: jnp.argmin(x, axis=1), lambda v: v.argmin(axis=1)),
}


@pytest.mark.parametrize("n", INTS)
def test_structural(n):
    info = jnp.iinfo(n)
    v = np.array([[int(info.max), int(info.min), 1], [0, int(info.max) - 1, int(info.min)]])
    x = jnp.asarray(v.astype(n))
    fns = {k: f for k, (f, _) in _STRUCT.items()}
    for outs in ({k: f(x) for k, f in fns.items()}, jax.jit(lambda a: {
            k: f(a) for k, f in fns.items()})(x)):
        for k, (_, ref) in _STRUCT.items():
            want = ref(v)
            got = outs[k]
            assert np.asarray(got).astype(np.int64).tolist() == want.tolist(), k
            if k != "argmin":
                assert got.dtype == np.dtype(n), k
                assert np.asarray(got).view(np.uint8).ravel().tolist() == \
                    _stored(n, want.ravel().tolist()), k

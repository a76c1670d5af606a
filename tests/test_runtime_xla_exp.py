"""float32 exp, tanh and logistic with the bits of JAX 0.10.2 on CPU:
``runtime/tp_xla_math.h`` (``tp_xla_exp_f32`` etc.) and their NumPy twins in
``transpile/lax/_xla_exp.py``, and the NumPy rules and compiled kernels built on them.

Checks:

1. bit-exact against JAX's outputs recorded in ``tests/data/xla_exp.npz``
   (``tools/record_xla_exp.py``), NaN payloads included: the twins, the primitives'
   NumPy rules, and the C functions in the native build (with and without FTZ/DAZ) and
   the generic one (no hardware fma). All 2^32 inputs were checked once against
   checksums of JAX's results (``tools/check_xla_exp_full.py``);
2. the twins and the C functions agree bit for bit on a million more arguments;
3. accuracy against correctly rounded references at the bounds XLA's algorithms meet;
4. special values; gcc vectorizes the wrappers' loops;
5. compiled programs (``jit``) give the NumPy rules' bits, float16 included.
"""
from __future__ import annotations

import pathlib

import numpy as np
import pytest

import transpile as tp
from transpile import lax
from transpile.lax import _xla_exp as xe

try:
    import test_runtime_math as rt
except ImportError:  # run as part of the tests package
    from tests import test_runtime_math as rt

pytestmark = rt.pytestmark
call = rt.call  # the session fixture: one library for all the runtime test modules
DATA = pathlib.Path(__file__).resolve().parent / "data" / "xla_exp.npz"
FNS = ["exp", "tanh", "logistic"]
TWINS = {"exp": xe.xla_exp_f32, "tanh": xe.xla_tanh_f32, "logistic": xe.xla_logistic_f32}
PRIMS = {"exp": lax.exp, "tanh": lax.tanh, "logistic": lax.logistic}

for _fn in FNS:
    rt.register(f"x_{_fn}_f32", ["f32"], "f32", f"tp_xla_{_fn}_f32(x0[i])", generic=True)
    # the header is not part of test_runtime_math's prelude: include it (guarded)
    _name, _sig, _src, _gen = rt._WRAPPERS[-1]
    rt._WRAPPERS[-1] = (_name, _sig, '#include "tp_xla_math.h"\n' + _src, _gen)


@pytest.fixture(scope="module")
def data():
    if not DATA.exists():
        pytest.skip("tests/data/xla_exp.npz missing: run tools/record_xla_exp.py")
    with np.load(DATA) as f:
        return {k: f[k] for k in f.files}


def _mismatches(got: np.ndarray, want_bits: np.ndarray, x: np.ndarray) -> str:
    bad = np.nonzero(got.view(np.uint32) != want_bits)[0]
    show = ", ".join(f"x={x[i]!r} ({x.view(np.uint32)[i]:#x}): got "
                     f"{got.view(np.uint32)[i]:#x}, JAX {want_bits[i]:#x}" for i in bad[:5])
    return f"{bad.size} of {x.size} differ; {show}"


@pytest.mark.parametrize("fn", FNS)
def test_twin_bit_exact(data, fn):
    x = data["x"].view(np.float32)
    got = TWINS[fn](x)
    assert got.dtype == np.float32 and got.shape == x.shape
    assert np.array_equal(got.view(np.uint32), data[fn]), _mismatches(got, data[fn], x)


@pytest.mark.parametrize("fn", FNS)
def test_rule_bit_exact(data, fn):
    """The primitive's NumPy rule (what eager mode and constant folding run)."""
    x = data["x"].view(np.float32)
    got = np.asarray(PRIMS[fn](tp.numpy.asarray(x)))
    assert np.array_equal(got.view(np.uint32), data[fn]), _mismatches(got, data[fn], x)


def test_twin_shapes_and_scalars():
    x = np.array([[0.5, 2.0], [0.25, 1.0]], np.float32)
    for twin in TWINS.values():
        assert twin(x).shape == (2, 2)
        y = twin(np.float32(0.5))
        assert y.shape == () and y.dtype == np.float32
        assert twin(x[:, :1]).shape == (2, 1)   # non-contiguous input
        assert twin(np.zeros((0, 3), np.float32)).shape == (0, 3)
        assert not np.shares_memory(twin(x), x)
    assert xe.xla_exp_f32(np.float32(0.0)) == 1.0


@pytest.mark.parametrize("key,ftz", [("native", 1), ("native", 0), ("generic", 1)])
@pytest.mark.parametrize("fn", FNS)
def test_c_bit_exact(tmp_path_factory, data, fn, key, ftz):
    ffi, lib, _, _ = rt.runtime_lib(tmp_path_factory, key)
    x = data["x"].view(np.float32)
    got = rt.Caller(ffi, lib)(f"x_{fn}_f32", x, result="f32", ftz=ftz)
    assert np.array_equal(got.view(np.uint32), data[fn]), _mismatches(got, data[fn], x)


@pytest.mark.parametrize("fn", FNS)
def test_twin_matches_c(call, fn):
    x = rt.f32_samples(fn)   # every 4093rd bit pattern and runs around the edges
    got = TWINS[fn](x)
    want = call(f"x_{fn}_f32", x, result="f32")
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), \
        _mismatches(got, want.view(np.uint32), x)


# the ulp bounds XLA's algorithms meet against the correctly rounded function (measured
# over rt.f32_samples); exp loses up to 6 ulp above 88, where n is clamped to 127 and the
# reduced argument grows past ln2 / 2
ULP_BOUND = {"exp": 1, "tanh": 4, "logistic": 2}


@pytest.mark.parametrize("fn", FNS)
def test_accuracy(call, fn):
    x = rt.f32_samples(fn)
    y = call(f"x_{fn}_f32", x, result="f32")
    ref = rt.reference32(fn, x, 1)
    if fn == "tanh":   # XLA returns a subnormal x itself where the reference flushes it
        keep = np.abs(x) >= np.float32(2.0 ** -126)
        x, y, ref = x[keep], y[keep], ref[keep]
    top = np.abs(x) >= 88 if fn == "exp" else np.zeros(x.shape, bool)
    err, where = rt.worst(y[~top], ref[~top], x[~top])
    assert err <= ULP_BOUND[fn], f"{fn}: {err} ulp at {where}"
    if top.any():
        err, where = rt.worst(y[top], ref[top], x[top])
        assert err <= 6, f"{fn}: {err} ulp at {where}"


@pytest.mark.parametrize("fn,arg,want", [
    ("exp", 0.0, 1.0), ("exp", -0.0, 1.0), ("exp", 1e-40, 1.0), ("exp", np.inf, np.inf),
    ("exp", -np.inf, 0.0), ("exp", 89.0, np.inf), ("exp", -88.0, 0.0),
    ("exp", -87.0, 1.6458115e-38), ("exp", np.nan, np.nan),
    ("tanh", 0.0, 0.0), ("tanh", -0.0, -0.0), ("tanh", 1e-40, 1e-40), ("tanh", 25.0, 1.0),
    ("tanh", -np.inf, -1.0), ("tanh", 8.5, 1.0), ("tanh", np.nan, np.nan),
    ("logistic", 0.0, 0.5), ("logistic", np.inf, 1.0), ("logistic", -np.inf, 0.0),
    ("logistic", -87.5, 0.0), ("logistic", 1e-40, 0.5), ("logistic", np.nan, np.nan)])
def test_special_values(call, fn, arg, want):
    x = np.array([arg], np.float32)
    for y in (call(f"x_{fn}_f32", x, result="f32", ftz=0)[0], TWINS[fn](x)[0]):
        if np.isnan(want):
            assert np.isnan(y)
        else:
            assert y == np.float32(want) and np.signbit(y) == np.signbit(np.float32(want)), \
                (fn, arg, y)


def test_signalling_nan_comes_back_quiet(call):
    x = np.array([0x7F800001, 0xFFA00005], np.uint32).view(np.float32)
    for fn in ("exp", "tanh"):
        for y in (call(f"x_{fn}_f32", x, result="f32", ftz=0), TWINS[fn](x)):
            assert list(y.view(np.uint32)) == [0x7FC00001, 0xFFE00005], fn


def test_gcc_vectorizes(tmp_path_factory, call):
    done = rt.vectorized_wrappers(tmp_path_factory)
    assert {f"x_{fn}_f32" for fn in FNS} <= done


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("fn", FNS)
def test_compiled_matches_rule(fn, dtype):
    with np.errstate(over="ignore"):   # large float32 samples become float16 infinities
        x = rt.f32_samples(fn)[::37].astype(dtype)
    x = x[np.isfinite(x) | np.isnan(x)]
    prim = PRIMS[fn]
    want = np.asarray(prim(tp.numpy.asarray(x)))
    with np.errstate(all="ignore"):
        got = np.asarray(tp.jit(prim)(x))
    assert np.array_equal(got.view(np.uint16 if dtype == np.float16 else np.uint32),
                          want.view(np.uint16 if dtype == np.float16 else np.uint32))

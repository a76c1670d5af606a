"""``runtime/tp_ops.h`` against the NumPy rules of ``transpile/lax/elementwise.py``, bit for
bit, for every dtype, over edge values (0, -0, +-1, the integer extremes, shift amounts
around the width, NaN, infinities, subnormals, rounding halves) and all their pairs.

The helpers flush explicitly where the rule flushes and the hardware would not, so they
give the rule with FTZ/DAZ on (as kernels run) and off alike: both are checked. The C
wrappers are registered with ``test_runtime_math`` and built in its single gcc call.
"""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from transpile.lax import elementwise as ew

try:
    import test_runtime_math as rt
except ImportError:  # run as part of the tests package
    from tests import test_runtime_math as rt

call = rt.call  # the session fixture: one library for both modules

INTS = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
FLOATS = ["f32", "f64"]
NP = rt.NPTYPES

BINARY_INT = {"add": ew.add_p, "sub": ew.sub_p, "mul": ew.mul_p, "div": ew.div_p,
              "rem": ew.rem_p, "max": ew.max_p, "min": ew.min_p,
              "shift_left": ew.shift_left_p, "shift_right_logical": ew.shift_right_logical_p,
              "shift_right_arithmetic": ew.shift_right_arithmetic_p}
UNARY_INT = {"neg": ew.neg_p, "sign": ew.sign_p, "abs": ew.abs_p}
BINARY_FLOAT = {"max": ew.max_p, "min": ew.min_p, "rem": ew.rem_p, "pow": ew.pow_p,
                "nextafter": ew.nextafter_p}
UNARY_FLOAT = {"sign": (ew.sign_p, {}), "floor": (ew.floor_p, {}), "ceil": (ew.ceil_p, {}),
               "round_away": (ew.round_p, {"rounding_method": 0}),
               "round_even": (ew.round_p, {"rounding_method": 1}),
               "rsqrt": (ew.rsqrt_p, {}), "cbrt": (ew.cbrt_p, {})}
IPOWS = {"int": [0, 1, 2, 3, 5, 8, 13, 64, 200],
         "float": [-5, -3, -2, -1, 0, 1, 2, 3, 4, 7, 13, 200]}

# One wrapper per dtype and family, each op an output of the same loop (fewer functions
# for gcc to compile); what cannot vectorize (integer division, libm, float -> 64-bit
# integers) is kept apart so that the rest of its family is checked to vectorize.
INT_BIN = [op for op in BINARY_INT if op not in ("div", "rem")]
FLOAT_BIN = ["max", "min", "nextafter"]
FLOAT_UN = [op for op in UNARY_FLOAT if op != "cbrt"]
SMALL_INTS = ["i8", "i16", "i32", "u8", "u16", "u32"]
FAMILIES: dict[str, tuple[list[str], list[str]]] = {}  # name -> (ops, result dtypes)


def family(name: str, args: list[str], exprs: dict[str, str], results=None) -> None:
    results = results or [args[0]] * len(exprs)
    FAMILIES[name] = (list(exprs), results)
    rt.register(name, args, results, list(exprs.values()))


def outputs(call, name, *arrays, **kw) -> dict[str, np.ndarray]:
    """Run a family wrapper; its outputs by op name."""
    ops, results = FAMILIES[name]
    return dict(zip(ops, call(name, *arrays, result=results, **kw), strict=True))


for _dt in INTS:
    family(f"o_bin_{_dt}", [_dt, _dt], {op: f"tp_{op}_{_dt}(x0[i], x1[i])" for op in INT_BIN})
    family(f"o_div_{_dt}", [_dt, _dt], {op: f"tp_{op}_{_dt}(x0[i], x1[i])"
                                        for op in ("div", "rem")})
    family(f"o_un_{_dt}", [_dt], {**{op: f"tp_{op}_{_dt}(x0[i])" for op in UNARY_INT
                                     if op != "abs" or _dt[0] == "i"},  # abs: signed only
                                  "ipow3": f"tp_ipow_{_dt}(x0[i], 3)"})
    rt.register(f"o_ipow_{_dt}", [_dt], _dt, f"tp_ipow_{_dt}(x0[i], k)", "long long k")
    rt.register(f"o_clamp_{_dt}", [_dt, _dt, _dt], _dt, f"tp_clamp_{_dt}(x0[i], x1[i], x2[i])")
    rt.register(f"o_select_{_dt}", ["i32", _dt, _dt], _dt,
                f"tp_select_{_dt}(x0[i], x1[i], x2[i])")
for _dt in FLOATS:
    family(f"o_bin_{_dt}", [_dt, _dt], {op: f"tp_{op}_{_dt}(x0[i], x1[i])" for op in FLOAT_BIN})
    family(f"o_libm_{_dt}", [_dt, _dt], {"rem": f"tp_rem_{_dt}(x0[i], x1[i])",
                                         "pow": f"tp_pow_{_dt}(x0[i], x1[i])",
                                         "cbrt": f"tp_cbrt_{_dt}(x0[i])"})
    family(f"o_un_{_dt}", [_dt], {**{op: f"tp_{op}_{_dt}(x0[i])" for op in FLOAT_UN},
                                  "ipowm2": f"tp_ipow_{_dt}(x0[i], -2)",
                                  "is_finite": f"tp_is_finite_{_dt}(x0[i])"},
           results=[_dt] * (len(FLOAT_UN) + 1) + ["b"])
    rt.register(f"o_ipow_{_dt}", [_dt], _dt, f"tp_ipow_{_dt}(x0[i], k)", "long long k")
    rt.register(f"o_clamp_{_dt}", [_dt, _dt, _dt], _dt, f"tp_clamp_{_dt}(x0[i], x1[i], x2[i])")
    rt.register(f"o_select_{_dt}", ["i32", _dt, _dt], _dt,
                f"tp_select_{_dt}(x0[i], x1[i], x2[i])")
    family(f"o_toint_{_dt}", [_dt], {it: f"tp_{_dt}_to_{it}(x0[i])" for it in SMALL_INTS},
           results=SMALL_INTS)
    family(f"o_toint64_{_dt}", [_dt], {it: f"tp_{_dt}_to_{it}(x0[i])" for it in ("i64", "u64")},
           results=["i64", "u64"])
family("o_f16_to_float", ["f16"], {"f32": "tp_f16_to_f32(x0[i])", "f64": "tp_f16_to_f64(x0[i])"},
       results=["f32", "f64"])
rt.register("o_f32_to_f16", ["f32"], "f16", "tp_f32_to_f16(x0[i])")
rt.register("o_f64_to_f16", ["f64"], "f16", "tp_f64_to_f16(x0[i])")
rt.register("o_fmul_f32", ["f32", "f32"], "f32", "x0[i] * x1[i]")


# ---------------------------------------------------------------------------------------
# Edge values

def int_edges(dt: str) -> np.ndarray:
    t = np.dtype(NP[dt])
    info = np.iinfo(t)
    bits = 8 * t.itemsize
    vals = [0, 1, -1, 2, -2, 3, -3, 7, -7, 100, -100, bits - 1, bits, bits + 1, -bits,
            info.min, info.min + 1, info.max, info.max - 1, info.max // 2, info.min // 2,
            0x55, 0x5555, 0x55555555, 0x5555555555555555]
    rng = np.random.default_rng(bits)
    rand = rng.integers(info.min, info.max, 12, dtype=t, endpoint=True)
    wrapped = np.array([int(v) % 2 ** bits for v in vals], f"u{t.itemsize}").view(t)
    return np.unique(np.concatenate([wrapped, rand]))


def float_edges(dt: str) -> np.ndarray:
    t = NP[dt]
    fi = np.finfo(t)
    big = 2.0 ** (fi.nmant) - 0.5  # the last halves: x + 1/2 must stay exact
    vals = [0.0, 1.0, 0.5, 1.5, 2.5, 3.0, 0.1, 7.25, 1e10, big, 2.0 ** fi.nmant + 1,
            fi.tiny, fi.smallest_subnormal, fi.tiny - fi.smallest_subnormal, fi.tiny / 2,
            fi.max, np.inf, 2.0 ** 31, 2.0 ** 63, 2.0 ** 64, 127.5, 255.9, 32768.0]
    v = np.array(vals, t)
    return np.concatenate([v, -v, np.array([np.nan], t)])


def same(y: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Bitwise equality, any NaN matching any NaN."""
    if y.dtype.kind == "f":
        nan = np.isnan(y) & np.isnan(want)
        return nan | (y.view(f"u{y.itemsize}") == want.view(f"u{y.itemsize}"))
    return y == want


def check(y, want, *args, what=""):
    want = np.asarray(want).astype(y.dtype)
    ok = same(y, want)
    if not ok.all():
        i = int(np.argmin(ok))
        raise AssertionError(f"{what}: args {[a[i] for a in args]!r} gave {y[i]!r}, "
                             f"the rule {want[i]!r} ({(~ok).sum()} of {ok.size} differ)")


def rule(p, *args, **params):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(p.impl(*args, **params))


def pairs(v):
    a, b = zip(*itertools.product(v, v))
    return np.array(a, v.dtype), np.array(b, v.dtype)


# ---------------------------------------------------------------------------------------
# Integers

@pytest.mark.parametrize("dt", INTS)
def test_int_binary(call, dt):
    x, y = pairs(int_edges(dt))
    got = {**outputs(call, f"o_bin_{dt}", x, y), **outputs(call, f"o_div_{dt}", x, y)}
    for op, p in BINARY_INT.items():
        check(got[op], rule(p, x, y), x, y, what=f"tp_{op}_{dt}")


@pytest.mark.parametrize("dt", INTS)
def test_int_unary(call, dt):
    x = int_edges(dt)
    got = outputs(call, f"o_un_{dt}", x)
    for op, p in UNARY_INT.items():
        if op in got:
            check(got[op], rule(p, x), x, what=f"tp_{op}_{dt}")
    check(got["ipow3"], rule(ew.integer_pow_p, x, y=3), x, what=f"tp_ipow_{dt}(., 3)")


@pytest.mark.parametrize("dt", INTS)
def test_int_pow_clamp_select(call, dt):
    x = int_edges(dt)
    for n in IPOWS["int"]:
        check(call(f"o_ipow_{dt}", x, result=dt, extra=(n,)), rule(ew.integer_pow_p, x, y=n),
              x, what=f"tp_ipow_{dt}(., {n})")
    lo, hi = pairs(x[::3])
    for v in x[::2]:
        xs = np.full(lo.shape, v, lo.dtype)
        check(call(f"o_clamp_{dt}", lo, xs, hi, result=dt), rule(ew.clamp_p, lo, xs, hi),
              lo, xs, hi, what=f"tp_clamp_{dt}")
    a, b = pairs(x)
    c = (np.arange(a.size) % 3 == 0).astype(np.int32)
    check(call(f"o_select_{dt}", c, a, b, result=dt), rule(ew.select_n_p, c != 0, b, a),
          c, a, b, what=f"tp_select_{dt}")


# ---------------------------------------------------------------------------------------
# Floats

@pytest.mark.parametrize("ftz", [1, 0], ids=["ftz", "noftz"])
@pytest.mark.parametrize("dt", FLOATS)
def test_float_binary(call, dt, ftz):
    x, y = pairs(float_edges(dt))
    got = {**outputs(call, f"o_bin_{dt}", x, y, ftz=ftz),
           **outputs(call, f"o_libm_{dt}", x, y, ftz=ftz)}
    for op, p in BINARY_FLOAT.items():
        check(got[op], rule(p, x, y), x, y, what=f"tp_{op}_{dt}")
    check(got["cbrt"], rule(ew.cbrt_p, x), x, what=f"tp_cbrt_{dt}")


@pytest.mark.parametrize("dt", FLOATS)
def test_pow_integer_exponent(call, dt):
    """The rule converts an integer exponent to the base's type: (FT)n in C."""
    x = float_edges(dt)
    n = np.array([0, 1, -1, 2, 3, -3, 2 ** 31 - 1, -2 ** 31], np.int32)
    xs, ns = (np.repeat(x, n.size), np.tile(n, x.size))
    got = outputs(call, f"o_libm_{dt}", xs, ns.astype(NP[dt]))
    check(got["pow"], rule(ew.pow_p, xs, ns), xs, ns, what=f"tp_pow_{dt} (integer exponent)")


@pytest.mark.parametrize("ftz", [1, 0], ids=["ftz", "noftz"])
@pytest.mark.parametrize("dt", FLOATS)
def test_float_unary(call, dt, ftz):
    rng = np.random.default_rng(5)
    quarters = (rng.uniform(-50, 50, 2000) * 4).round().astype(NP[dt]) / 4  # rounding ties
    x = np.concatenate([float_edges(dt), quarters, rng.standard_normal(2000).astype(NP[dt])])
    got = outputs(call, f"o_un_{dt}", x, ftz=ftz)
    for op in FLOAT_UN:
        p, params = UNARY_FLOAT[op]
        check(got[op], rule(p, x, **params), x, what=f"tp_{op}_{dt}")
    check(got["is_finite"], rule(ew.is_finite_p, x), x, what=f"tp_is_finite_{dt}")
    check(got["ipowm2"], rule(ew.integer_pow_p, x, y=-2), x, what=f"tp_ipow_{dt}(., -2)")
    for n in IPOWS["float"]:
        check(call(f"o_ipow_{dt}", x, result=dt, ftz=ftz, extra=(n,)),
              rule(ew.integer_pow_p, x, y=n), x, what=f"tp_ipow_{dt}(., {n})")


@pytest.mark.parametrize("ftz", [1, 0], ids=["ftz", "noftz"])
@pytest.mark.parametrize("dt", FLOATS)
def test_float_clamp_select(call, dt, ftz):
    e = float_edges(dt)
    lo, hi = pairs(e[::2])
    for v in e:
        xs = np.full(lo.shape, v, lo.dtype)
        check(call(f"o_clamp_{dt}", lo, xs, hi, result=dt, ftz=ftz), rule(ew.clamp_p, lo, xs, hi),
              lo, xs, hi, what=f"tp_clamp_{dt}")
    a, b = pairs(e)
    c = (np.arange(a.size) % 3 == 0).astype(np.int32)
    check(call(f"o_select_{dt}", c, a, b, result=dt, ftz=ftz), np.where(c != 0, a, b),
          c, a, b, what=f"tp_select_{dt}")


@pytest.mark.parametrize("ftz", [1, 0], ids=["ftz", "noftz"])
@pytest.mark.parametrize("dt", FLOATS)
def test_float_to_int(call, dt, ftz):
    t = NP[dt]
    near = np.array([v for it in INTS for v in (np.iinfo(NP[it]).max, np.iinfo(NP[it]).min)],
                    np.float64).astype(t)
    x = np.concatenate([float_edges(dt), near, np.nextafter(near, t(np.inf)),
                        np.nextafter(near, t(-np.inf)), near + t(0.5), near - t(0.5),
                        np.array([-0.7, 0.7, -1.0, 255.5, -128.9], t)])
    got = {**outputs(call, f"o_toint_{dt}", x, ftz=ftz),
           **outputs(call, f"o_toint64_{dt}", x, ftz=ftz)}
    for it in INTS:
        want = rule(ew.convert_element_type_p, x, new_dtype=np.dtype(NP[it]), weak_type=False)
        check(got[it], want, x, what=f"tp_{dt}_to_{it}")


# ---------------------------------------------------------------------------------------
# float16

ALL_HALVES = np.arange(2 ** 16, dtype=np.uint16)


@pytest.mark.parametrize("ftz", [1, 0], ids=["ftz", "noftz"])
def test_f16_to_float(call, ftz):
    h = ALL_HALVES.view(np.float16)
    got = outputs(call, "o_f16_to_float", ALL_HALVES, ftz=ftz)
    for dt in FLOATS:
        want = rule(ew.convert_element_type_p, h, new_dtype=np.dtype(NP[dt]), weak_type=False)
        check(got[dt], want, h, what=f"tp_f16_to_{dt}")


def _half_boundaries(t):
    """Every half, the midpoints between neighbours (the ties) and the floats of type t just
    either side of each: every rounding decision of a conversion to float16."""
    h = ALL_HALVES.view(np.float16)
    h = h[np.isfinite(h)].astype(np.float64)
    h = np.unique(h)
    mids = (h[:-1] + h[1:]) / 2
    edge = np.array([65504.0, 65519.99, 65520.0, 1e6, 2.0 ** -25, 2.0 ** -26, 3 * 2.0 ** -26])
    x = np.concatenate([h, mids, edge, -edge]).astype(t)
    x = np.concatenate([x, np.nextafter(x, t(np.inf)), np.nextafter(x, t(-np.inf))])
    nans = np.array([0x7FC00000, 0x7F800001, 0xFFC12345], np.uint32).view(np.float32)
    return np.concatenate([x, nans.astype(t), np.array([np.inf, -np.inf, 0.0, -0.0], t)])


@pytest.mark.parametrize("ftz", [1, 0], ids=["ftz", "noftz"])
@pytest.mark.parametrize("dt", FLOATS)
def test_float_to_f16(call, dt, ftz):
    with np.errstate(invalid="ignore"):
        x = _half_boundaries(NP[dt])
        x = np.concatenate([x, np.arange(0, 2 ** 32, 65537, dtype=np.uint64).astype(np.uint32)
                            .view(np.float32).astype(NP[dt])])
    want = rule(ew.convert_element_type_p, x, new_dtype=np.dtype(np.float16), weak_type=False)
    got = call(f"o_{dt}_to_f16", x, result="f16", ftz=ftz)
    check(got.view(np.float16), want, x, what=f"tp_{dt}_to_f16")
    nan = np.isnan(x)
    assert ((got[nan] & 0x7E00) == 0x7E00).all(), "NaN must become a quiet NaN"


# No SIMD instruction for these: integer division, libm calls (fmod, pow, cbrt), and
# float -> 64-bit integer conversion (AVX-512 only). integer_pow's exponent is static in
# kernels: with it constant (ipow3, ipowm2 in o_un_*) the squarings unroll and vectorize;
# o_ipow_* takes it at run time.
SCALAR_BY_DESIGN = ({f"o_{f}_{dt}" for f in ("div", "ipow") for dt in INTS}
                    | {f"o_{f}_{dt}" for f in ("libm", "ipow", "toint64") for dt in FLOATS})


def test_gcc_vectorizes(tmp_path_factory, call):
    done = rt.vectorized_wrappers(tmp_path_factory)
    mine = {w[0] for w in rt._WRAPPERS if w[0].startswith("o_")}
    assert mine - SCALAR_BY_DESIGN - done == set()


def test_ftz_begin_end(call):
    """tp_ftz_begin flushes in the wrapper; tp_ftz_end gives the caller its MXCSR back."""
    x, y = np.array([1e-30], np.float32), np.array([1e-10], np.float32)
    assert call("o_fmul_f32", x, y, result="f32", ftz=1)[0] == 0
    assert call("o_fmul_f32", x, y, result="f32", ftz=0)[0] == x[0] * y[0] != 0

"""Every primitive's generated C against its NumPy rule, over dtypes and shapes.

All programs of a table are rendered into one C file and built with one compiler call
(``stages.compile_many``), so the whole table costs a few seconds.
"""
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.interpreters.eval import eval_jaxpr_numpy
from transpile.passes import optimize
from transpile.stages import compile_many

DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
          np.uint8, np.uint16, np.uint32, np.uint64, np.bool_]

#: Within this many ulps of the NumPy rule (which rounds a float64 result once).
TRANSCENDENTAL_ULPS = 2
INEXACT = {"exp", "exp2", "expm1", "log", "log1p", "sin", "cos", "tan", "tanh", "logistic",
           "erf", "erf_inv", "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh",
           "atanh", "cbrt", "pow", "atan2"}


def _special(dtype, n_random=24, seed=0):
    dt = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if dt == np.bool_:
        return np.array([False, True, True, False])
    if dt.kind == "f":
        fi = np.finfo(dt)
        vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 3.0, 0.75, 1e-3, -7.25, 100.0,
                -100.0, np.inf, -np.inf, np.nan, float(fi.max), float(-fi.max),
                float(fi.tiny), float(fi.tiny) / 4, 0.999, -0.999]
        rnd = rng.standard_normal(n_random) * 4
        return np.concatenate([np.array(vals), rnd]).astype(dt)
    info = np.iinfo(dt)
    vals = [0, 1, 2, 3, 7, 100, int(info.max), int(info.min), int(info.max) - 1]
    if dt.kind == "i":
        vals += [-1, -2, -3, -7, -100, int(info.min) + 1]
    rnd = rng.integers(int(info.min), int(info.max), n_random, dtype=dt, endpoint=True)
    return np.concatenate([np.array(vals, dtype=dt), rnd])


def _pairs(dtype):
    v = _special(dtype, n_random=6)
    a, b = np.meshgrid(v, v, indexing="ij")
    return a.ravel(), b.ravel()


def _ulp_diff(a, b):
    """Distance in units in the last place, for floats of one dtype (NaN == NaN)."""
    dt = a.dtype
    ibits = {2: np.int16, 4: np.int32, 8: np.int64}[dt.itemsize]
    ai = a.view(ibits).astype(np.int64)
    bi = b.view(ibits).astype(np.int64)
    # Map to a monotonic integer line (negative floats below positive ones).
    top = np.int64(1) << (dt.itemsize * 8 - 1)
    ai = np.where(ai < 0, -(ai + top), ai)
    bi = np.where(bi < 0, -(bi + top), bi)
    d = np.abs(ai - bi)
    both_nan = np.isnan(a) & np.isnan(b)
    return np.where(both_nan, 0, d)


def _compare(name, got, want, ulps=0):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    assert got.shape == want.shape, (name, got.shape, want.shape)
    if got.dtype.kind == "f":
        d = _ulp_diff(got, want)
        # A signed zero against the other is one ulp on this line; only exact ops
        # must keep the sign, which ulps=0 checks.
        bad = d > ulps
        assert not bad.any(), (name, got[bad][:8], want[bad][:8], d.max())
    else:
        np.testing.assert_array_equal(got, want, err_msg=name)


UNARY = {
    "neg": lax.neg, "sign": lax.sign, "floor": lax.floor, "ceil": lax.ceil,
    "round": lax.round, "round_even": lambda x: lax.round(x, 1), "is_finite": lax.is_finite,
    "exp": lax.exp, "exp2": lax.exp2, "expm1": lax.expm1, "log": lax.log,
    "log1p": lax.log1p, "sqrt": lax.sqrt, "rsqrt": lax.rsqrt, "cbrt": lax.cbrt,
    "sin": lax.sin, "cos": lax.cos, "tan": lax.tan, "asin": lax.asin, "acos": lax.acos,
    "atan": lax.atan, "sinh": lax.sinh, "cosh": lax.cosh, "tanh": lax.tanh,
    "asinh": lax.asinh, "acosh": lax.acosh, "atanh": lax.atanh, "logistic": lax.logistic,
    "erf": lax.erf, "erf_inv": lax.erf_inv, "abs": lax.abs, "not": lax.bitwise_not,
    "square": lax.square, "pow0": lambda x: lax.integer_pow(x, 0),
    "pow1": lambda x: lax.integer_pow(x, 1), "pow3": lambda x: lax.integer_pow(x, 3),
    "pow7": lambda x: lax.integer_pow(x, 7), "pow_m2": lambda x: lax.integer_pow(x, -2),
    "stop_gradient": lax.stop_gradient,
}
BINARY = {
    "add": lax.add, "sub": lax.sub, "mul": lax.mul, "div": lax.div, "rem": lax.rem,
    "pow": lax.pow, "max": lax.max, "min": lax.min, "atan2": lax.atan2,
    "nextafter": lax.nextafter, "and": lax.bitwise_and, "or": lax.bitwise_or,
    "xor": lax.bitwise_xor, "shift_left": lax.shift_left,
    "shift_right_logical": lax.shift_right_logical,
    "shift_right_arithmetic": lax.shift_right_arithmetic, "eq": lax.eq, "ne": lax.ne,
    "lt": lax.lt, "le": lax.le, "gt": lax.gt, "ge": lax.ge,
    # Not `select(x > y, x, y)`: gcc turns that into maxps, which (like XLA's own
    # fused code) reads a subnormal chosen operand as zero under DAZ.
    "select": lambda x, y: lax.select(x > 1, x, y) if x.dtype != np.bool_ else
    lax.select(x, x, y),
    "clamp": lambda x, y: lax.clamp(y[0], x, y[-1]),
}


def _table():
    """(case name, function, argument arrays, ulps) for every primitive and dtype it takes."""
    cases = []
    for dt in DTYPES:
        x = _special(dt)
        a, b = _pairs(dt)
        for name, fn in UNARY.items():
            cases.append((f"{name}-{np.dtype(dt).name}", fn, (x,), name))
            # 0-d and 0-size operands, and a transposed (non-contiguous) one
            cases.append((f"{name}-{np.dtype(dt).name}-0d", fn, (x[3],), name))
            cases.append((f"{name}-{np.dtype(dt).name}-empty", fn, (x[:0].reshape(0, 3),),
                          name))
            cases.append((f"{name}-{np.dtype(dt).name}-T", fn,
                          (np.resize(x, 12).reshape(3, 4).T,), name))
        for name, fn in BINARY.items():
            cases.append((f"{name}-{np.dtype(dt).name}", fn, (a, b), name))
            cases.append((f"{name}-{np.dtype(dt).name}-scalar", fn, (a, b[5:6].reshape(())),
                          name))
        for to in DTYPES:
            cases.append((f"convert-{np.dtype(dt).name}-{np.dtype(to).name}",
                          lambda v, to=to: lax.convert_element_type(v, to), (x,), "convert"))
    return cases


def _traceable(cases):
    out = []
    for case_name, fn, args, prim in cases:
        try:
            closed = jax.make_jaxpr(fn)(*args)
        except (TypeError, ValueError, IndexError):
            continue  # the primitive does not take this dtype (or shape)
        out.append((case_name, closed, args, prim))
    return out


@pytest.fixture(scope="module")
def elementwise_results():
    with jax.enable_x64():  # 64-bit dtypes are real only in x64 mode
        cases = _traceable(_table())
        exes = compile_many([(f"t{i}", closed) for i, (_, closed, _, _) in
                             enumerate(cases)])
    return cases, exes


def test_every_elementwise_primitive_matches_numpy_rule(elementwise_results):
    cases, exes = elementwise_results
    assert len(cases) > 1300
    failures = []
    for (name, closed, args, prim), exe in zip(cases, exes, strict=True):
        args = [np.asarray(a, aval.dtype) for a, aval in zip(args, closed.in_avals)]
        want = eval_jaxpr_numpy(closed.jaxpr, closed.consts, *args)
        got = exe(list(args))
        ulps = TRANSCENDENTAL_ULPS if prim in INEXACT else 0
        if prim in ("pow_m2", "pow7") and args[0].dtype == np.float16:
            ulps = 0
        try:
            for g, w in zip(got, want, strict=True):
                _compare(name, g, w, ulps)
        except AssertionError as e:
            failures.append(str(e)[:300])
    assert not failures, "\n".join(failures[:40]) + f"\n({len(failures)} failures)"


# ---------------------------------------------------------------------------------------
# Structural, reductions, own-kernel primitives, fused programs; shapes and layouts

rng = np.random.default_rng(1)
X = rng.standard_normal((4, 5)).astype(np.float32)
Y = rng.standard_normal((5, 3)).astype(np.float32)
I = rng.integers(-50, 50, (4, 5)).astype(np.int32)
B3 = rng.standard_normal((2, 3, 4)).astype(np.float32)
XNAN = X.copy()
XNAN[1, 2] = np.nan
XNAN[3, 0] = -0.0

#: Float bit patterns a bitcast must keep: signed zeros, NaNs, infinities, subnormals.
XBITS = np.array([0.0, -0.0, 1.5, -2.0, np.nan, -np.nan, np.inf, -np.inf, 1e-40, -1e-40],
                 np.float32)
IBITS = np.array([0, 1, -1, 0x7F800001, 0x7FC00000, -0x800000, 0x00000001, 12345678,
                  0x7F7FFFFF, -0x7F000000], np.int32)  # incl. a signalling NaN
I8BITS = np.arange(-128, 128, 8, dtype=np.int8)
E03 = np.zeros((0, 3), np.float32)
U32K = np.array([0x13198a2e, 0x03707344], np.uint32)
U32X = np.random.default_rng(7).integers(0, 1 << 32, (2, 3, 4), dtype=np.uint32)

PROGRAMS = {
    "sum_sq": (lambda x: jnp.sum(x ** 2 - x ** 3 - x), (X,)),
    "sum_axis0": (lambda x: jnp.sum(x, axis=0), (X,)),
    "sum_axis1": (lambda x: jnp.sum(x, axis=1), (X,)),
    "sum_mid": (lambda x: jnp.sum(x, axis=1), (B3,)),
    "prod": (lambda x: jnp.prod(x, axis=0), (X,)),
    "max_nan": (lambda x: jnp.max(x, axis=1), (XNAN,)),
    "min_nan": (lambda x: jnp.min(x), (XNAN,)),
    "int_sum_wrap": (lambda a: jnp.sum(a * 100000000, dtype=jnp.int32), (I,)),
    "any_all": (lambda x: (jnp.any(x > 1), jnp.all(x > -3, axis=0)), (X,)),
    "xor_reduce": (lambda a: lax.reduce_xor(a, (0,)), (I,)),
    "mean_empty_axis": (lambda x: jnp.sum(x, axis=0), (np.zeros((0, 3), np.float32),)),
    "zero_size": (lambda x: x * 2 + 1, (np.zeros((0, 4), np.float32),)),
    "scalar": (lambda x: jnp.sin(x) * 2, (np.float32(0.5),)),
    "transpose": (lambda x: x.T * 2, (X,)),
    "transpose3": (lambda x: jnp.transpose(x, (2, 0, 1)) + 1, (B3,)),
    "broadcast": (lambda x, v: x * v[None, :] + v, (X, X[0])),
    "broadcast_col": (lambda x, v: x - v[:, None], (X, X[:, 0])),
    "reshape": (lambda x: (x.reshape(5, 4) + 1).reshape(20), (X,)),
    "reshape_T": (lambda x: x.T.reshape(20) * 3, (X,)),
    "rev_slice": (lambda x: x[::-1, 1:4:2], (X,)),
    "pad": (lambda x: lax.pad(x, np.float32(-1), ((1, 2, 1), (-1, 0, 0))), (X,)),
    "concat": (lambda x: jnp.concatenate([x, x * 2, x[:, :1]], axis=1), (X,)),
    "concat0": (lambda x: jnp.concatenate([x, x], axis=0), (X,)),
    "iota": (lambda x: x + lax.broadcasted_iota(np.float32, (4, 5), 1), (X,)),
    "iota_i8": (lambda: lax.iota(np.int8, 300), ()),
    "dot": (lambda x, y: x @ y, (X, Y)),
    "dot_TT": (lambda x, y: y.T @ x.T, (X, Y)),
    "dot_vec": (lambda x: x @ x[0], (X.T.copy(),)),
    "dot_batch": (lambda a: jnp.einsum("bij,bkj->bik", a, a), (B3,)),
    "dot_int": (lambda a: a @ a.T, (I,)),
    "dot_int8_pref": (lambda a: lax.dot(a.astype(np.int8), a.T.astype(np.int8),
                                        preferred_element_type=np.int32), (I,)),
    "dot_f16": (lambda x, y: x.astype(np.float16) @ y.astype(np.float16), (X, Y)),
    "dot_empty_k": (lambda x, y: x @ y, (np.zeros((3, 0), np.float32),
                                          np.zeros((0, 2), np.float32))),
    "cumsum": (lambda x: jnp.cumsum(x, axis=1), (X,)),
    "cumprod_rev": (lambda x: lax.cumprod(x, axis=0, reverse=True), (X,)),
    "cummax": (lambda x: lax.cummax(x, axis=0), (XNAN,)),
    "cumsum_int": (lambda a: jnp.cumsum(a, axis=0), (I,)),
    "sort": (lambda x: jnp.sort(x, axis=0), (XNAN,)),
    "sort_last": (lambda x: jnp.sort(x), (XNAN,)),
    "sort_kv": (lambda x, a: lax.sort_key_val(x, a, 1), (np.round(X), I)),
    "argsort": (lambda x: jnp.argsort(x, axis=1), (XNAN,)),
    "argmax": (lambda x: jnp.argmax(x, axis=1), (XNAN,)),
    "argmin0": (lambda a: jnp.argmin(a, axis=0), (I,)),
    "softmax": (lambda x: jnp.exp(x - x.max(axis=1, keepdims=True)) / jnp.sum(
        jnp.exp(x - x.max(axis=1, keepdims=True)), axis=1, keepdims=True), (X,)),
    "selu": (lambda x: 1.05 * jnp.where(x > 0, x, 1.67 * jnp.exp(x) - 1.67), (X,)),
    "outputs_mixed": (lambda x: (x, 2.0, jnp.sin(x), x, jnp.sin(x)), (X,)),
    "nested_jit": (lambda x: jax.jit(lambda y: jax.jit(jnp.cos)(y) * 2)(x) + 1, (X,)),
    "const_capture": (lambda x: x + np.arange(5, dtype=np.float32), (X,)),
    "f16_chain": (lambda x: (x.astype(np.float16) * 3 + 1) / 7, (X,)),
    "bool_ops": (lambda x: (x > 0) & ~(x > 1), (X,)),
    "where_scalar": (lambda x: jnp.where(x > 0, x, 0.0).sum(), (X,)),
    "clip": (lambda x: jnp.clip(x, -0.5, 0.5), (XNAN,)),
    "int_ops": (lambda a: (a // 3, a % -4, a << 2, a >> 1), (I,)),
    # Layout primitives. Bitcasts end in integers, so every bit is compared.
    "bitcast_same": (lambda x, a: (lax.bitcast_convert_type(x, np.int32),
                                   lax.bitcast_convert_type(a, np.uint32),
                                   lax.bitcast_convert_type(lax.bitcast_convert_type(
                                       a, np.float32), np.int32)), (XBITS, IBITS)),
    "bitcast_narrow": (lambda x: (lax.bitcast_convert_type(x, np.int8),
                                  lax.bitcast_convert_type(x, np.uint16),
                                  lax.bitcast_convert_type(lax.bitcast_convert_type(
                                      x, np.float16), np.int16)), (XBITS,)),
    "bitcast_wide": (lambda a: (lax.bitcast_convert_type(lax.bitcast_convert_type(
        a.reshape(-1, 4), np.float32), np.int32) + 1, lax.bitcast_convert_type(
            a.reshape(-1, 2), np.uint16)), (I8BITS,)),
    "bitcast_f16": (lambda x: (lax.bitcast_convert_type(x.astype(np.float16), np.int16),
                               lax.bitcast_convert_type(x > 0, np.bool_)), (XBITS,)),
    "bitcast_empty": (lambda x: (lax.bitcast_convert_type(x, np.int8),
                                 lax.bitcast_convert_type(x.reshape(0, 3, 1), np.int32),
                                 lax.bitcast_convert_type(x.astype(np.int8).reshape(0, 3)
                                                          [:, :2], np.int16)), (E03,)),
    "bitcast_literal": (lambda x: (lax.bitcast_convert_type(1.5, np.int16),
                                   lax.bitcast_convert_type(3, np.float32) + x), (X,)),
    "signbit": (lambda x: (jnp.signbit(x), jnp.signbit(x.astype(np.float16)),
                           jnp.copysign(X[0], x[:5])), (XBITS,)),
    "copy": (lambda x: (lax.copy_p.bind(x) * 2, jnp.array(x.astype(np.float16)),
                        jnp.array(x > 0), jnp.array(x.astype(np.int8)), jnp.array(x[:0])),
             (X,)),
    "stack": (lambda x: (jnp.stack([x, x * 2], axis=1), jnp.stack([x[0], x[1], x[2]], -1),
                         jnp.stack([x])), (X,)),
    "stack_dtypes": (lambda x: (jnp.stack([x.astype(np.float16)] * 2),
                                jnp.stack([x > 0, x < 1], axis=2),
                                jnp.stack([x.astype(np.int8)] * 3, axis=1)), (X,)),
    "stack_empty": (lambda x: (jnp.stack([x, x], axis=1), jnp.stack([x[:, :0]] * 2)),
                    (E03,)),
    "stack_literal": (lambda x: (lax.stack([x, 1.0]), lax.stack([2, 3], axis=-1)),
                      (np.float32(2.5),)),
    "split": (lambda x: (*jnp.split(x, [1, 3], axis=1), *jnp.split(x * 2, 2),
                         *jnp.array_split(x, 3)), (X,)),
    "split_dtypes": (lambda x: (*lax.split(x.astype(np.float16), (2, 3), axis=1),
                                *lax.split(x > 0, (3, 1)),
                                *lax.split(x.astype(np.int8), (5,), axis=1)), (X,)),
    "split_empty": (lambda x: (*lax.split(x, (0, 3, 0), axis=1),
                               *lax.split(x.reshape(0, 3) + 1, (1, 2), axis=1)), (E03,)),
    "tile": (lambda x: (jnp.tile(x, (2, 1)) + 1, jnp.tile(x[:1], (3, 2)),
                        jnp.tile(x, (2, 1, 3))), (X,)),
    # threefry2x32: scalar keys (hoisted), per-element and size-1-broadcast operands,
    # literal keys, zero size, and the threefry_2x32 helper around it.
    "threefry": (lambda k, x: lax.threefry2x32_p.bind(k[0], k[1], x[0], x[1]),
                 (U32K, U32X)),
    "threefry_bcast": (lambda x: (*lax.threefry2x32_p.bind(x[0], x[1, :1], x[1, :, :1], x[0]),
                                  *lax.threefry2x32_p.bind(np.uint32(7), np.uint32(9),
                                                           x[0, :0], x[1, :0])), (U32X,)),
    "threefry_helper": (lambda k, x: lax.threefry_2x32(k, x[:, :, :3] * np.uint32(3)),
                        (U32K, U32X)),
    "tile_dtypes": (lambda x: (jnp.tile(x.astype(np.float16), 2), jnp.tile(x > 0, (1, 2)),
                               jnp.tile(x.astype(np.int8), (3, 1)),
                               jnp.tile(x, (0, 2))), (X,)),
}

#: Programs whose float results may differ in rounding (summation order, matmul).
_TOLERANT = {"sum_sq", "sum_axis0", "sum_axis1", "sum_mid", "prod", "dot", "dot_TT",
             "dot_vec", "dot_batch", "dot_f16", "softmax", "nested_jit",
             "selu", "where_scalar", "outputs_mixed"}


@pytest.fixture(scope="module")
def program_results():
    items = [(name, jax.make_jaxpr(fn)(*args), args) for name, (fn, args) in
             PROGRAMS.items()]
    exes = compile_many([(f"p_{name}", closed) for name, closed, _ in items])
    return items, exes


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_matches_numpy_evaluator(program_results, name):
    items, exes = program_results
    i = [n for n, _, _ in items].index(name)
    _, closed, args = items[i]
    # The oracle evaluates the jaxpr the C was generated from: optimised, multiply-adds
    # fused (passes/contract.py), so that float results can be compared bit for bit.
    opt = optimize(closed)
    want = eval_jaxpr_numpy(opt.jaxpr, opt.consts, *args)
    got = exes[i](list(args))
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        if name in _TOLERANT and g.dtype.kind == "f":
            rtol = 2e-3 if g.dtype == np.float16 else 2e-6
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol)
        else:
            _compare(name, g, w)


def test_non_contiguous_and_misaligned_inputs_are_read_correctly():
    f = jax.jit(lambda x: x * 2 + 1)
    base = np.arange(40, dtype=np.float32).reshape(8, 5)
    strided = base[::2, ::-1]
    np.testing.assert_array_equal(np.asarray(f(strided)), strided * 2 + 1)
    raw = np.zeros(4 * 20 + 1, np.uint8)
    mis = raw[1:].view(np.float32).reshape(4, 5)
    mis[...] = base[:4]
    assert not mis.flags.aligned
    np.testing.assert_array_equal(np.asarray(f(mis)), base[:4] * 2 + 1)
    np.testing.assert_array_equal(np.asarray(f(base.T)), base.T * 2 + 1)


def test_generated_c_is_named_after_the_jaxpr():
    def f(x):
        return jnp.sum(x ** 2 - x ** 3 - x)
    text = jax.jit(f).lower(np.ones(16, np.float32)).as_text()
    assert "/* b = integer_pow[y=2] a */" in text
    assert "const float b = (a * a);" in text
    assert text.count("static void") == 1  # one fused pass, no temporaries
    assert "#pragma omp simd reduction(+:acc)" in text


def test_tutorial_cse_computes_the_division_once():
    def f(x):
        return x / 2 + x / 2 + x / 2
    text = jax.jit(f).lower(np.ones(8, np.float32)).as_text()
    assert text.count(" / 2.0f") == 1


# ---------------------------------------------------------------------------------------
# Random chains of index maps: every composition must read the right elements

def _random_chain(seed):
    r = np.random.default_rng(seed)
    ops = []
    shape = tuple(int(d) for d in r.integers(1, 5, r.integers(1, 4)))
    cur = shape
    for _ in range(int(r.integers(2, 7))):
        kind = r.choice(["transpose", "reshape", "broadcast", "rev", "slice", "pad",
                         "squeeze", "sin", "sum"])
        nd = len(cur)
        if kind == "transpose" and nd > 1:
            perm = tuple(int(p) for p in r.permutation(nd))
            ops.append(lambda x, p=perm: lax.transpose(x, p))
            cur = tuple(cur[p] for p in perm)
        elif kind == "reshape":
            size = int(np.prod(cur))
            dims = []
            rest = size
            for f in (2, 3, 2):
                if rest % f == 0 and r.random() < 0.5:
                    dims.append(f)
                    rest //= f
            new = tuple(dims + [rest]) if r.random() < 0.5 else tuple([rest] + dims)
            ops.append(lambda x, n=new: lax.reshape(x, n))
            cur = new
        elif kind == "broadcast" and nd < 4:
            pos = int(r.integers(0, nd + 1))
            n = int(r.integers(1, 4))
            new = cur[:pos] + (n,) + cur[pos:]
            bd = tuple(d if d < pos else d + 1 for d in range(nd))
            ops.append(lambda x, s=new, b=bd: lax.broadcast_in_dim(x, s, b))
            cur = new
        elif kind == "rev" and nd:
            dims = tuple(d for d in range(nd) if r.random() < 0.5)
            ops.append(lambda x, d=dims: lax.rev(x, d))
        elif kind == "slice" and nd and 0 not in cur:
            start = [int(r.integers(0, n)) for n in cur]
            limit = [int(r.integers(s + 1, n + 1)) for s, n in zip(start, cur)]
            strides = [int(r.integers(1, 3)) for _ in cur]
            ops.append(lambda x, a=start, b=limit, c=strides: lax.slice(x, a, b, c))
            cur = tuple(-(-(b - a) // c) for a, b, c in zip(start, limit, strides))
        elif kind == "pad" and nd:
            cfg = [(int(r.integers(-1, 3)), int(r.integers(-1, 3)), int(r.integers(0, 2)))
                   for _ in cur]
            cfg = [(lo, hi, i) if n + max(n - 1, 0) * i + lo + hi >= 0 else (0, 0, i)
                   for (lo, hi, i), n in zip(cfg, cur)]
            ops.append(lambda x, c=cfg: lax.pad(x, np.float32(-9), c))
            cur = tuple(lo + hi + n + max(n - 1, 0) * i for (lo, hi, i), n in zip(cfg, cur))
        elif kind == "squeeze" and 1 in cur:
            dims = tuple(d for d, n in enumerate(cur) if n == 1)
            ops.append(lambda x, d=dims: lax.squeeze(x, d))
            cur = tuple(n for n in cur if n != 1)
        elif kind == "sin":
            ops.append(lambda x: lax.sin(x) * 2)
        elif kind == "sum" and nd:
            axes = tuple(d for d in range(nd) if r.random() < 0.5)
            ops.append(lambda x, a=axes: lax.reduce_sum(x, a))
            cur = tuple(n for d, n in enumerate(cur) if d not in axes)

    def f(x):
        for op in ops:
            x = op(x)
        return x
    return f, np.arange(1, int(np.prod(shape)) + 1, dtype=np.float32).reshape(shape)


def test_random_index_map_chains():
    items = []
    for seed in range(150):
        f, x = _random_chain(seed)
        items.append((seed, jax.make_jaxpr(f)(x), x))
    exes = compile_many([(f"chain{s}", c) for s, c, _ in items])
    for (seed, closed, x), exe in zip(items, exes, strict=True):
        want = eval_jaxpr_numpy(closed.jaxpr, closed.consts, x)[0]
        got = np.asarray(exe([x])[0])
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"seed {seed}\n{closed}")


def test_lowering_entries_are_complete():
    """Each lowering-table entry carries what its kind needs (which primitives have an
    entry at all: tests/test_primitives.py)."""
    from transpile.codegen import lowering, plan  # noqa: F401  (plan fills the table)
    needs = {lowering.ELEMENTWISE: "emit", lowering.RANDOM_SOURCE: "emit",
             lowering.KERNEL: "build", lowering.CONTROL: "build",
             lowering.REDUCTION: "reduction"}
    bad = sorted(p.name for p, low in lowering.LOWERINGS.items()
                 if low.kind in needs and getattr(low, needs[low.kind]) is None)
    assert not bad, f"lowering entries missing their rule: {bad}"
    kinds = {p.name: low.kind for p, low in lowering.LOWERINGS.items()}
    assert kinds["exp"] == "elementwise" and kinds["reduce_sum"] == "reduction"
    assert kinds["dot_general"] == "kernel" and kinds["while"] == "control"
    assert kinds["broadcast_in_dim"] == "index_map" and kinds["random_bits"] == "random_source"
    # a bitcast fuses where its elements map one to one, else copies bytes (a kernel)
    assert kinds["bitcast_convert_type"] == "elementwise" and kinds["random_wrap"] == "kernel"
    bitcast = next(low for p, low in lowering.LOWERINGS.items()
                   if p.name == "bitcast_convert_type")
    assert bitcast.emit is not None and bitcast.build is not None


def _ordered_extreme(x, op):
    """Row max/min with -0 < +0 (XLA's rule; NumPy leaves the zero's sign to its
    vectorisation order) and NaN propagated."""
    out = np.empty(x.shape[0], x.dtype)
    for r, row in enumerate(x):
        v = row.max() if op == "max" else row.min()
        if v == 0:
            zeros = row[row == 0]
            neg = np.signbit(zeros).all() if op == "max" else np.signbit(zeros).any()
            v = -zeros.dtype.type(0) if neg else zeros.dtype.type(0)
        out[r] = v
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_max_and_min_in_lanes_match_numpy(dtype):
    """Rows of at least 64 elements reduce max/min in 16 lanes; the values (signed zeros,
    infinities, NaN rows included) must be those of an in-order reduction."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((37, 203)).astype(dtype)
    x[1] = -0.0
    x[2, :100] = 0.0
    x[2, 100:] = -0.0
    x[3, 150] = np.inf
    x[4, 201] = -np.inf
    x[4, :201] = -np.inf
    x[5, 7] = np.nan
    x[6, 202] = np.nan
    x[7] = np.inf
    with jax.enable_x64(dtype == np.float64):
        got_max, got_min = jax.jit(lambda v: (jnp.max(v * 2, axis=1),
                                              jnp.min(v * 2, axis=1)))(x)
    for got, op in ((got_max, "max"), (got_min, "min")):
        got, want = np.asarray(got), _ordered_extreme(x * 2, op)
        assert got.dtype == dtype
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        ok = ~np.isnan(want)
        np.testing.assert_array_equal(got[ok], want[ok])
        np.testing.assert_array_equal(np.signbit(got[ok]), np.signbit(want[ok]))

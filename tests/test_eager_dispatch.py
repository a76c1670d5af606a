"""Eager dispatch (``transpile.dispatch``): compiled routes give the NumPy evaluator's bits.

The oracle is the NumPy evaluator itself: every eager primitive on its NumPy rule (the
table of compiled routes emptied). Each case runs through the compiled route (the size
threshold lowered to 0 so that small operands compile too) and is compared byte for
byte, with the dtype and weak type, against the evaluator's result.
"""
from __future__ import annotations

import contextlib
import threading

import numpy as np
import pytest

import transpile as tp
from transpile import dispatch, eager_kernels, lax, stages
from transpile.lax import reduction
from transpile.array import Array
from transpile.backend.build import CompilerNotFoundError
from transpile.backend.load import PooledArray
from transpile.memory import pool

F32, F64, I32, BOOL = np.float32, np.float64, np.int32, np.bool_

_rng = np.random.default_rng(19)


def _floats(dtype, shape=(64, 65)):
    n = int(np.prod(shape))
    tiny = np.finfo(dtype).tiny
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, tiny / 4, -tiny / 8, tiny,
                        1.0, -1.0, 0.5, 88.7, -103.0, 1e30, 3.1415927], dtype)
    vals = (_rng.standard_normal(n) * _rng.choice([0.01, 1, 4, 30, 300], n)).astype(dtype)
    vals[:min(n, special.size)] = special[:n]
    return _rng.permutation(vals).reshape(shape)


def _ints(shape=(64, 65)):
    n = int(np.prod(shape))
    vals = _rng.integers(-1000, 1000, n).astype(I32)
    special = np.array([0, 1, -1, 2 ** 31 - 1, -2 ** 31, 7, -7], I32)
    vals[:min(n, special.size)] = special[:n]
    return vals.reshape(shape)


def _bools(shape=(64, 65)):
    return _rng.integers(0, 2, int(np.prod(shape))).astype(BOOL).reshape(shape)


def _operand(dtype, shape=(64, 65), weak=False):
    if dtype == BOOL:
        v = _bools(shape)
    elif dtype == I32:
        v = _ints(shape)
    else:
        v = _floats(dtype, shape)
    return Array._new(v, weak)


@pytest.fixture
def compile_all(monkeypatch):
    """Every compilable eager primitive runs compiled, whatever its size."""
    monkeypatch.setattr(dispatch, "COMPILE_MIN_ELEMENTS", 0)
    monkeypatch.setattr(dispatch, "BACKGROUND_BUILDS", False)
    dispatch.clear_eager_cache()
    yield
    dispatch.clear_eager_cache()


def _bits(a):
    v = np.asarray(a._value)
    return v.dtype, v.shape, v.tobytes(), a._weak_type


@contextlib.contextmanager
def _evaluator_only():
    """Every eager primitive on its NumPy rule, all else unchanged."""
    saved, saved_sum = dispatch._COMPILABLE, dispatch.SUM_MIN_ELEMENTS
    dispatch._COMPILABLE = {}
    dispatch.SUM_MIN_ELEMENTS = 1 << 62   # the prebuilt float32 sum too
    dispatch.clear_eager_cache()
    try:
        yield
    finally:
        dispatch._COMPILABLE, dispatch.SUM_MIN_ELEMENTS = saved, saved_sum
        dispatch.clear_eager_cache()


def _check(fn, *args, compiled=True):
    with _evaluator_only():
        want = fn(*args)
    got = fn(*args)  # compiled, or the NumPy rule while a background build runs
    assert _bits(got) == _bits(want)
    dispatch.wait_for_builds()
    assert _bits(fn(*args)) == _bits(want)
    if compiled:
        assert any(r.exe is not None for r in dispatch._routes.values()), \
            "no primitive of the case went through a compiled route"


UNARY_FLOAT = ["log", "log1p", "sqrt", "rsqrt", "cbrt", "acosh", "atanh", "erf_inv", "exp",
               "tanh", "logistic", "floor", "ceil", "round", "neg", "abs", "sign",
               "is_finite", "square"]
#: compiled and NumPy emulations still differ in the last bit: they stay on the evaluator
NOT_ROUTED_F32 = ["sin", "cos", "tan", "exp2", "expm1", "asin", "acos", "atan", "sinh",
                  "cosh", "asinh", "erf"]


@pytest.mark.parametrize("name", UNARY_FLOAT)
def test_unary_f32_matches_evaluator(compile_all, name):
    _check(getattr(lax, name), _operand(F32))


@pytest.mark.parametrize("name", NOT_ROUTED_F32)
def test_inexact_kernels_stay_on_the_evaluator(compile_all, name):
    _check(getattr(lax, name), _operand(F32), compiled=False)
    assert all(r.exe is None for r in dispatch._routes.values())


@pytest.mark.parametrize("name", ["sqrt", "neg", "abs", "sign", "square"])
def test_unary_f64_matches_evaluator(compile_all, name):
    with tp.enable_x64():
        _check(getattr(lax, name), _operand(F64))


@pytest.mark.parametrize("name", ["neg", "abs", "sign", "bitwise_not", "square"])
def test_unary_i32_matches_evaluator(compile_all, name):
    _check(getattr(lax, name), _operand(I32))


BINARY_FLOAT = ["add", "sub", "mul", "div", "rem", "pow", "max", "min", "atan2",
                "nextafter", "eq", "ne", "lt", "le", "gt", "ge"]
BINARY_INT = ["add", "sub", "mul", "div", "max", "min", "eq", "ne", "lt", "le", "gt", "ge",
              "bitwise_and",
              "bitwise_or", "bitwise_xor", "shift_left", "shift_right_arithmetic",
              "shift_right_logical"]


@pytest.mark.parametrize("name", BINARY_FLOAT)
def test_binary_f32_matches_evaluator(compile_all, name):
    _check(getattr(lax, name), _operand(F32), _operand(F32))


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "max", "min", "eq", "lt"])
def test_binary_f64_matches_evaluator(compile_all, name):
    with tp.enable_x64():
        _check(getattr(lax, name), _operand(F64), _operand(F64))


@pytest.mark.parametrize("name", BINARY_INT)
def test_binary_i32_matches_evaluator(compile_all, name):
    y = _operand(I32)
    if name.startswith("shift"):
        y = Array._new(np.abs(y._value) % 40, False)  # also past the bit width
    _check(getattr(lax, name), _operand(I32), y)


@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor", "eq", "ne"])
def test_binary_bool_matches_evaluator(compile_all, name):
    _check(getattr(lax, name), _operand(BOOL), _operand(BOOL))


def test_bool_not_matches_evaluator(compile_all):
    _check(lax.bitwise_not, _operand(BOOL))


@pytest.mark.parametrize("weak", [(False, True), (True, False), (True, True)])
def test_weak_types_and_broadcast(compile_all, weak):
    x = _operand(F32, weak=weak[0])
    y = _operand(F32, weak=weak[1])
    s = Array._new(np.array(2.5, F32), weak[1])
    _check(lax.mul, x, y)
    _check(lax.sub, y, x)
    _check(lax.mul, x, s, compiled=False)  # scalar broadcast stays on NumPy
    _check(lax.sub, s, x, compiled=False)


@pytest.mark.parametrize("name", ["add", "mul", "sub", "max", "pow"])
def test_nan_payloads_propagate_as_numpy(compile_all, name):
    # Which NaN survives an operation on two NaNs depends on the operand order.
    bits = np.array([0x7FC00000, 0xFFC00000, 0xFFFFFFFF, 0x7F800001], np.uint32)
    a = Array._new(np.repeat(bits, 4).view(F32), False)
    b = Array._new(np.tile(bits, 4).view(F32), False)
    _check(getattr(lax, name), a, b)
    scalar = Array._new(bits[2:3].view(F32).reshape(()), False)
    _check(getattr(lax, name), a, scalar, compiled=False)  # broadcast: NumPy's
    col = Array._new(bits.view(F32).reshape(4, 1), False)
    row = Array._new(bits[::-1].copy().view(F32).reshape(1, 4), False)
    _check(getattr(lax, name), col, row, compiled=False)  # broadcast in the kernel: NumPy's


def test_scalars(compile_all):
    a = Array._new(np.array(0.75, F32), False)
    b = Array._new(np.array(-3, I32), True)
    _check(lax.log, a)
    _check(lax.mul, b, b)


@pytest.mark.parametrize("shape", [(0,), (3, 0)])
def test_empty_arrays(compile_all, shape):
    x = _operand(F32, shape)
    _check(lax.log, x, compiled=False)
    _check(lax.add, x, x, compiled=False)
    _check(lambda v: lax.reduce_sum(v, (0,)), x, compiled=False)


@pytest.mark.parametrize("dtype", [F32, I32])
def test_convert_and_select(compile_all, dtype):
    x = _operand(dtype)
    for to in {F32, I32, BOOL} - {dtype}:
        _check(lambda v: lax.convert_element_type(v, to), x)
    which = _operand(BOOL)
    _check(lax.select_n, which, x, _operand(dtype))


@pytest.mark.parametrize("axes", [(0,), (1,), (0, 1)])
@pytest.mark.parametrize("name", ["reduce_sum", "reduce_max", "reduce_min", "reduce_prod",
                                  "argmax"])
def test_reductions_f32(compile_all, name, axes):
    x = Array._new((_rng.standard_normal((64, 33)) * 2).astype(F32), False)
    if name == "argmax":
        _check(lambda v: lax.argmax(v, axes[-1], np.int32), x)
    else:
        # float sums and products keep the evaluator's order: not routed
        _check(lambda v: getattr(lax, name)(v, axes), x, compiled=name in ("reduce_max",
                                                                           "reduce_min"))


@pytest.mark.parametrize("dtype", [I32, BOOL])
def test_reductions_int_bool(compile_all, dtype):
    x = _operand(dtype, (17, 12))
    if dtype == BOOL:
        _check(lambda v: lax.reduce_or(v, (1,)), x)
        _check(lambda v: lax.reduce_and(v, (0,)), x)
    else:
        _check(lambda v: lax.reduce_sum(v, (0, 1)), x)
        _check(lambda v: lax.reduce_max(v, (1,)), x)
    _check(lambda v: lax.argmax(v, 1, np.int32), x)


def test_large_operands_compile_without_lowering_the_threshold():
    dispatch.clear_eager_cache()
    x = Array._new(_floats(F32, (dispatch.COMPILE_MIN_ELEMENTS + 3,)), False)
    _check(lax.log, x)
    _check(lambda v: lax.reduce_max(v, (0,)), x)


def test_jnp_eager_matches_evaluator(compile_all):
    # Rank promotion and broadcasting happen in jnp, before the compiled primitives.
    x = _operand(F32, (4, 1))
    y = _operand(F32, (6,))
    _check(lambda a, b: tp.numpy.log(a) * b + tp.numpy.sqrt(b), x, y)
    _check(lambda a: tp.numpy.max(a * a), y)


def test_without_a_compiler_the_evaluator_answers(compile_all, monkeypatch):
    def no_compiler(*args, **kwargs):
        raise CompilerNotFoundError("no C compiler (simulated)")
    monkeypatch.setattr(stages, "executable_for", no_compiler)
    x = _operand(F32)
    got = lax.log(x)
    assert all(r.exe is None for r in dispatch._routes.values())
    with _evaluator_only():
        want = lax.log(x)
    assert _bits(got) == _bits(want)
    for _ in range(dispatch.HOT_CALLS + 1):  # a hot signature does not retry forever
        assert _bits(lax.log(x)) == _bits(want)


def test_hot_small_signature_is_compiled_once(monkeypatch):
    dispatch.clear_eager_cache()
    builds = []
    real = stages.executable_for
    monkeypatch.setattr(stages, "executable_for",
                        lambda *a, **k: builds.append(a) or real(*a, **k))
    x = _operand(F32, (3, 3))
    with _evaluator_only():   # rsqrt: no prebuilt kernel (those answer hot calls)
        want = _bits(lax.rsqrt(x))
    for _ in range(3 * dispatch.HOT_CALLS):
        assert _bits(lax.rsqrt(x)) == want
    dispatch.wait_for_builds()
    assert _bits(lax.rsqrt(x)) == want
    assert len(builds) == 1
    assert [r.exe is not None for r in dispatch._routes.values()] == [True]


def test_abstract_eval_runs_once_per_signature(monkeypatch):
    dispatch.clear_eager_cache()
    calls = []
    prim = lax.sin_p
    real = prim.abstract_eval
    monkeypatch.setattr(prim, "abstract_eval", lambda *a, **k: calls.append(1) or real(*a, **k))
    x, y = _operand(F32, (2,)), _operand(F32, (3,))
    for _ in range(5):
        lax.sin(x)
    lax.sin(y)
    assert len(calls) == 2


def test_background_build_answers_with_the_evaluator_meanwhile(monkeypatch):
    monkeypatch.setattr(dispatch, "COMPILE_MIN_ELEMENTS", 0)
    monkeypatch.setattr(dispatch, "BACKGROUND_BUILDS", True)
    dispatch.clear_eager_cache()
    started, release = [], threading.Event()
    real = stages.executable_for

    def slow_build(*a, **k):
        started.append(1)
        release.wait(30)
        return real(*a, **k)
    monkeypatch.setattr(stages, "executable_for", slow_build)
    x = _operand(F32, (7, 5))
    with _evaluator_only():
        want = _bits(lax.sqrt(x))
    assert _bits(lax.sqrt(x)) == want  # the build is held: the NumPy rule answered
    assert [r.exe for r in dispatch._routes.values()] == [None]
    release.set()
    dispatch.wait_for_builds()
    assert started == [1]
    assert [r.exe is not None for r in dispatch._routes.values()] == [True]
    assert _bits(lax.sqrt(x)) == want


# ---------------------------------------------------------------------------------------
# The prebuilt library (eager_kernels): float32 XLA-style functions run compiled from
# the first calls, with the evaluator's bits; without a compiler the evaluator answers.

# (the twins of rules whose float64 function is the C library's on this machine)
PREBUILT = sorted(p.name for p in (*eager_kernels.PRIMITIVES, *filter(
    eager_kernels.has_rule_twin, eager_kernels.RULE_TWINS)))


@pytest.fixture
def prebuilt():
    eager_kernels.reset()
    eager_kernels.load()
    dispatch.clear_eager_cache()
    yield
    dispatch.clear_eager_cache()


# (300, 400): past 65,536 elements, the kernels' parallel loop
@pytest.mark.parametrize("shape", [(9,), (64, 65), (), (300, 400)])
@pytest.mark.parametrize("name", PREBUILT)
def test_prebuilt_kernels_match_evaluator(prebuilt, name, shape):
    fn = getattr(lax, name)
    x = _operand(F32, shape)
    with _evaluator_only():
        want = fn(x)
    got = fn(x)   # the library is loaded: no worker involved
    assert _bits(got) == _bits(want)
    assert any(r.prebuilt is not None for r in dispatch._routes.values())
    weak = Array._new(np.asarray(x._value), True)   # the weak type rides along
    with _evaluator_only():
        want = fn(weak)
    assert _bits(fn(weak)) == _bits(want)


def test_prebuilt_large_results_come_from_the_pool(prebuilt):
    # a large eager result is written into a pooled block (pages mapped already), which
    # goes back to the pool when the Array dies
    x = _operand(F32, (300, 400))
    lax.exp(x)   # the route
    before = dict(pool.stats())
    y = lax.exp(x)
    assert type(y) is PooledArray
    del y
    after = pool.stats()
    assert after["returned"] == before["returned"] + 1
    assert after["hits"] + after["misses"] == before["hits"] + before["misses"] + 1


def test_prebuilt_skips_non_contiguous_operands(prebuilt):
    x = _operand(F32, (8, 6))
    view = Array._new(np.asarray(x._value)[:, ::2], False)
    with _evaluator_only():
        want = lax.exp(view)
    assert _bits(lax.exp(view)) == _bits(want)


def test_prebuilt_is_loaded_on_the_worker_and_the_evaluator_answers_meanwhile(monkeypatch):
    eager_kernels.reset()
    dispatch.clear_eager_cache()
    gate = threading.Event()
    real_load = eager_kernels.load

    def slow_load():
        gate.wait(30)
        real_load()
    monkeypatch.setattr(eager_kernels, "load", slow_load)
    x = _operand(F32, (9,))
    with _evaluator_only():
        want = lax.tanh(x)
    assert _bits(lax.tanh(x)) == _bits(want)   # the NumPy rule: the library is not there
    assert not eager_kernels.loaded()
    gate.set()
    dispatch.wait_for_builds()
    assert _bits(lax.tanh(x)) == _bits(want)
    assert any(r.prebuilt is not None for r in dispatch._routes.values())
    dispatch.clear_eager_cache()


def test_prebuilt_without_a_compiler_the_evaluator_answers(monkeypatch):
    def no_compiler(*a, **k):
        raise CompilerNotFoundError("no compiler in this test")
    eager_kernels.reset()
    dispatch.clear_eager_cache()
    monkeypatch.setattr(eager_kernels, "build", no_compiler)
    x = _operand(F32, (9,))
    with _evaluator_only():
        want = lax.logistic(x)
    for _ in range(3):
        assert _bits(lax.logistic(x)) == _bits(want)
        dispatch.wait_for_builds()
    assert eager_kernels.loaded() and eager_kernels.kernel_for(lax.logistic_p) is None
    assert all(r.prebuilt is None for r in dispatch._routes.values())
    eager_kernels.reset()
    dispatch.clear_eager_cache()


def _sum_operands():
    rng = np.random.default_rng(7)
    for n in (dispatch.SUM_MIN_ELEMENTS, 5003, 70_000, 1_000_003):
        # magnitudes over 54 decades (above 2**-103, where the rule flushes): the
        # summation order shows in the last bits
        v = (rng.standard_normal(n) * 10.0 ** rng.uniform(-24, 30, n)).astype(F32)
        yield f"{n}", v
        yield f"{n} 2-d", v[:n - n % 4].reshape(4, -1)
    sub = np.full(5000, 1e-40, F32)   # subnormals: read as zeros (the rule, as XLA)
    sub[::3] = -3e-39
    yield "subnormal", sub
    late = rng.standard_normal(100_000).astype(F32)   # one, in the second thread's half
    late[90_000] = 1e-40
    yield "late subnormal", late
    special = rng.standard_normal(6000).astype(F32)
    special[[7, 900]] = [np.inf, -np.inf]
    yield "inf - inf", special
    special = special.copy()
    special[33] = np.nan
    yield "nan", special


@pytest.mark.parametrize("label,v", list(_sum_operands()), ids=lambda p: str(p)[:20])
def test_prebuilt_full_float32_sum_is_the_evaluators_pairwise_sum(prebuilt, label, v):
    # the prebuilt pairwise sum replaces np.sum's float32 pairwise summation bit for bit
    x = Array._new(v, False)
    with np.errstate(invalid="ignore"):   # inf - inf
        want = reduction.reduce_sum_p.impl(v, axes=tuple(range(v.ndim)))
    got = lax.reduce_sum(x, tuple(range(v.ndim)))
    assert np.asarray(got).tobytes() == np.asarray(want).astype(F32).tobytes()
    assert any(r.prebuilt is not None for r in dispatch._routes.values())

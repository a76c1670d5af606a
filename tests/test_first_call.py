"""first_call: a cold first call evaluated on NumPy gives the compiled code's bits.

Each road an equation can take (the prebuilt library, an exact NumPy rule, a move, the
exact float sum) is checked against the library compiled from the same jaxpr, bit for
bit (NaN payloads and signed zeros included), over special and random values; then the
first call of ``jit`` end to end: evaluated, then compiled, errors, the switch, and the
exit of a process whose first call left a compile running.
"""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import eager_kernels, first_call, lax, stages
from transpile.backend.build import CompileError
from transpile.backend.load import Executable
from transpile.config import config
from transpile.lax import elementwise as ew
from transpile.lax import numpy_bits
from transpile.passes import optimize

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
F16, F32, F64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))


@pytest.fixture(autouse=True)
def interpreted():
    config.update("transpile_interpret_first_call", True)
    yield
    first_call.wait_for_compiles()
    config.update("transpile_interpret_first_call", False)


@pytest.fixture(scope="module")
def library():
    eager_kernels.load()   # once per machine: later processes find it on disk
    assert eager_kernels.kernel_for(ew.sin_p, F32) is not None


def _floats(dt, n=1200, seed=0) -> np.ndarray:
    """Special values (signed zeros, infinities, NaNs of both signs, subnormals, the
    extremes), then values of every magnitude."""
    fi = np.finfo(dt)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, float(fi.tiny),
               -float(fi.tiny), float(fi.tiny) / 4, -float(fi.tiny) / 4, float(fi.max),
               -float(fi.max), 1.0, -1.0, 0.5, 2.0, np.pi, 1e-4, 88.7, -87.3, 710.0]
    rng = np.random.default_rng(seed)
    scale = 10.0 ** rng.uniform(-6, 6 if dt == F32 else 12, n)
    with np.errstate(over="ignore"):
        return np.concatenate([np.array(special, dt), (rng.standard_normal(n) * scale)
                               .astype(dt), rng.uniform(-12, 12, n).astype(dt)])


def _both(fn, *args):
    """``(evaluated, compiled)``: ``fn``'s jaxpr on ``args`` through ``first_call`` and
    through its compiled library (64-bit mode for float64 operands)."""
    if any(getattr(a, "dtype", None) == F64 for a in args) and not config.x64_enabled:
        with jax.enable_x64():
            return _both(fn, *args)
    closed = jax.make_jaxpr(fn)(*args)
    optimized = optimize(closed)
    steps = first_call.plan(optimized)
    assert steps is not None, f"not evaluable:\n{optimized}"
    got = first_call.evaluate(optimized, steps, list(args))
    want = stages.executable_for(closed, "first_call_case")(list(args))
    return got, want


def _assert_same_bits(got, want, names):
    for g, w, name in zip(got, want, names, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), name
        if g.tobytes() != w.tobytes():
            bad = np.flatnonzero(g.view(np.uint8).reshape(g.size, -1).tolist() !=
                                 w.view(np.uint8).reshape(w.size, -1).tolist())
            pytest.fail(f"{name}: {len(bad)} elements differ, e.g. {g.ravel()[bad[:3]]} "
                        f"against {w.ravel()[bad[:3]]}")


# ---------------------------------------------------------------------------------------
# Each road, against the compiled library

@pytest.mark.parametrize("dt", [F32, F64], ids=str)
def test_library_functions_give_the_compiled_bits(library, dt):
    prims = [p for (p, d) in eager_kernels.KERNELS if d == dt]
    got, want = _both(lambda x: tuple(p.bind(x) for p in prims), _floats(dt))
    _assert_same_bits(got, want, [p.name for p in prims])


UNARY_EXACT = ["neg", "abs", "sign", "square", "floor", "ceil", "is_finite", "sqrt", "exp",
               "log", "tanh", "logistic", "log1p", "rsqrt", "cbrt"]
BINARY_EXACT = ["add", "sub", "mul", "div", "max", "min", "lt", "le", "gt", "ge", "eq",
                "ne", "pow", "atan2", "rem", "nextafter"]


@pytest.mark.parametrize("dt", [F32, F64], ids=str)
def test_exact_numpy_rules_give_the_compiled_bits(dt):
    names = [n for n in UNARY_EXACT + BINARY_EXACT
             if dt in numpy_bits.ELEMENTWISE.get(getattr(ew, n + "_p"), ())]
    x = _floats(dt)
    y = np.roll(_floats(dt, seed=1), 7)
    y[np.isnan(x) & np.isnan(y)] = 1.5     # two NaNs meeting: refused (tested below)

    def f(x, y):
        out = []
        for n in names:
            p = getattr(ew, n + "_p")
            out.append(p.bind(x, y) if n in BINARY_EXACT else p.bind(x))
        if dt == F32:
            out.append(x * np.asarray(1.25, dt) + y)   # the passes make it an fma
            out += [lax.integer_pow(x, n) for n in (-3, 0, 2, 3, 7)]
            out += [lax.clamp(np.float32(-1), x, np.float32(2)), lax.clamp(x[0], y, x[1])]
        return tuple(out)
    # (without the library: every function of the table through its NumPy rule)
    saved = eager_kernels._state.copy()
    eager_kernels._state.clear()
    eager_kernels._state["failed"] = True
    try:
        got, want = _both(f, x, y)
    finally:
        eager_kernels._state.clear()
        eager_kernels._state.update(saved)
    _assert_same_bits(got, want, names + ["fma", "ipow-3", "ipow0", "ipow2", "ipow3", "ipow7",
                                          "clamp", "clamp_arrays"] * (dt == F32))


def test_int32_and_bool_rules_give_the_compiled_bits():
    rng = np.random.default_rng(3)
    x = np.concatenate([[0, 1, -1, 2**31 - 1, -2**31], rng.integers(-2**31, 2**31, 300)]
                       ).astype(np.int32)
    y = np.concatenate([[3, -1, 7, -1, -1], rng.integers(-40, 40, 300)]).astype(np.int32)
    y[y == 0] = 5

    def f(x, y):
        b = x < y
        return (x + y, x - y, x * y, lax.div(x, y), jnp.maximum(x, y),
                -x, jnp.abs(x), x & y, x | y, x ^ y, ~x, lax.shift_left(x, y & 31),
                lax.shift_right_arithmetic(x, y & 31), lax.shift_right_logical(x, y & 31),
                b & (x > 0), b | (y < 0), x == y, lax.select(b, x, y),
                b.astype(np.float32), b.astype(np.int32), lax.integer_pow(x, 3),
                lax.clamp(np.int32(-7), x, np.int32(9)))
    got, want = _both(f, x, y)
    _assert_same_bits(got, want, [str(i) for i in range(22)])


MOVE_DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.float16, jnp.bfloat16,
               np.float32, np.float64]


def test_moves_give_the_compiled_bits_for_every_dtype():
    rng = np.random.default_rng(5)
    xs = [np.asarray(rng.standard_normal((6, 8)) * 50).astype(d) for d in MOVE_DTYPES]

    def moves(x):
        t = x.T
        return (t, x[::-1, 1:7:2], x.reshape(4, 12), jnp.concatenate([x, x[:2]], axis=0),
                lax.pad(x, np.zeros((), x.dtype), [(1, 2, 0), (0, 1, 1)]),
                jnp.broadcast_to(x[:1], (3, 6, 8)), x[None][:, 2], lax.rev(t, (0, 1)))

    def f(*xs):
        return tuple(o for x in xs for o in moves(x))
    got, want = _both(f, *xs)
    _assert_same_bits(got, want, [f"{d.__name__}:{i}" for d in MOVE_DTYPES
                                  for i in range(8)])


@pytest.mark.parametrize("dt", [F32, F64], ids=str)
@pytest.mark.parametrize("axes", [None, 0, 1, (0, 2)], ids=str)
def test_exact_sums_give_the_compiled_bits(dt, axes):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((5, 300, 3)) * 3).astype(dt)
    if dt == F64:   # random doubles' sums depend on the order: sixteenths do not
        x = np.round(x * 16) / 16
    x[0, :, 0] = -0.0                      # a sum of negative zeros is +0.0
    x[1, :40, 1] = np.finfo(dt).tiny / 8   # subnormals read as zero (DAZ)
    got, want = _both(lambda x: (jnp.sum(x, axis=axes), jnp.mean(x, axis=axes)), x)
    _assert_same_bits(got, want, ["sum", "mean"])


@pytest.mark.parametrize("values", [[1e30, 1.0, -1e30], [1.0, 1e-8, 3e7], [np.inf, 1.0],
                                    [np.nan, 2.0]], ids=str)
def test_sums_whose_order_could_matter_are_refused(values):
    x = np.array(values, np.float32)
    optimized = optimize(jax.make_jaxpr(jnp.sum)(x))
    steps = first_call.plan(optimized)
    with pytest.raises(first_call.NotReproducible):
        first_call.evaluate(optimized, steps, [x])


def test_two_nans_meeting_are_refused():
    x = np.array([np.nan, 1.0], np.float32)
    y = np.array([-np.nan, 2.0], np.float32)
    optimized = optimize(jax.make_jaxpr(lambda x, y: x + y)(x, y))
    with pytest.raises(first_call.NotReproducible):
        first_call.evaluate(optimized, first_call.plan(optimized), [x, y])


@pytest.mark.parametrize("fn, args", [
    (lambda a, b: a @ b, (np.ones((4, 4), np.int32),) * 2),        # not tp_gemm's
    (lambda x: jax.lax.while_loop(lambda c: c.sum() < 100, lambda c: c * 2, x),
     (np.ones(4, np.float32),)),
    (lambda x: jnp.cumsum(x), (np.ones(8, np.float32),)),
    (lambda x: x.astype(np.complex64) * 1j, (np.ones(4, np.float32),)),
], ids=["int_dot", "loop", "cumsum", "complex"])
def test_programs_without_an_exact_evaluation_compile(fn, args):
    assert first_call.plan(optimize(jax.make_jaxpr(fn)(*args))) is None


def test_evaluations_dearer_than_the_compile_compile(monkeypatch):
    optimized = optimize(jax.make_jaxpr(lambda x: jnp.sin(x) * 2)(np.ones(1000, np.float32)))
    assert first_call.plan(optimized) is not None
    monkeypatch.setattr(first_call, "COMPILE_BASE_S", 1e-6)
    monkeypatch.setattr(first_call, "COMPILE_PER_EQN_S", 1e-6)
    assert first_call.plan(optimized) is None


# ---------------------------------------------------------------------------------------
# jit end to end

@pytest.fixture
def evaluations(monkeypatch, tmp_path):
    """Counts the first calls evaluated, in an empty cache (a cached library is loaded
    at once: nothing to evaluate)."""
    config.update("jax_compilation_cache_dir", str(tmp_path))
    calls = []
    real = first_call.evaluate

    def counting(*a):
        calls.append(1)
        return real(*a)
    monkeypatch.setattr(first_call, "evaluate", counting)
    yield calls
    first_call.wait_for_compiles()
    config.update("jax_compilation_cache_dir", None)


def _fresh_selu():
    def selu(x):   # a new function object: its own trace cache, nothing compiled
        return 1.0507 * jnp.where(x > 0, x, 1.6733 * jnp.exp(x) - 1.6733)
    return jax.jit(selu)


def test_the_first_call_is_evaluated_and_later_calls_run_compiled(evaluations):
    x = _floats(F32)[:400].reshape(20, 20) + np.float32(0.25)
    f = _fresh_selu()
    first = f(x)
    assert evaluations == [1]
    second, third = f(x), f(x)
    assert evaluations == [1]
    entry = next(iter(sys.modules["transpile.jit"]._cache_for(f._fun).values()))
    assert isinstance(entry.executable, Executable)
    for a in (second, third):
        assert np.asarray(a).tobytes() == np.asarray(first).tobytes()
        assert a.dtype == first.dtype and a.weak_type == first.weak_type


def test_values_refused_at_run_time_wait_for_the_library(evaluations):
    x = np.array([1e30, 1.0, -1e30], np.float32)
    f = jax.jit(lambda x: jnp.sum(x) * 2)
    first = f(x)
    assert evaluations == [1]
    assert np.asarray(first).tobytes() == np.asarray(f(x)).tobytes()


def test_a_failed_compile_is_raised_by_the_next_call(monkeypatch, evaluations):
    def failing(closed, name, prepared):
        raise CompileError("gcc failed (a test)")
    monkeypatch.setattr(stages, "build_executable", failing)
    f = jax.jit(lambda x: x * 3.0 + 1.0)
    x = np.arange(6, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(f(x)), x * 3 + 1)
    with pytest.raises(CompileError, match="gcc failed"):
        f(x)
    assert evaluations == [1]


def test_the_switch_and_ahead_of_time_compiles_wait_for_the_library(evaluations):
    x = np.arange(6, dtype=np.float32)
    config.update("transpile_interpret_first_call", False)
    f = jax.jit(lambda x: x * 5.0 - 1.0)
    f(x)
    jax.jit(lambda x: x * 7.0).lower(x).compile()(x)
    assert evaluations == []


def test_the_result_does_not_share_the_callers_buffer(evaluations):
    x = np.arange(12, dtype=np.float32)
    y = jax.jit(lambda x: x.reshape(3, 4))(x)
    assert evaluations == [1]
    x[:] = -1
    np.testing.assert_array_equal(np.asarray(y), np.arange(12).reshape(3, 4))


def test_an_exit_waits_for_the_compile_and_leaves_it_cached(tmp_path):
    script = textwrap.dedent("""
        import sys, numpy as np, transpile as jax
        from transpile import first_call, stages
        f = lambda x: x * 2.5 + 1.0
        x = np.arange(8, dtype=np.float32)
        closed = jax.make_jaxpr(f)(x)
        cached = stages.cached_executable(closed, "f")[0] is not None
        exe = first_call.executable_for(closed, "f")
        print(cached, type(exe).__name__, np.asarray(exe([x])[0])[3])
    """)
    env = dict(os.environ, PYTHONPATH=REPO, TRANSPILE_CACHE_DIR=str(tmp_path / "cache"),
               TRANSPILE_INTERPRET_FIRST_CALL="1")
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                           text=True, timeout=120) for _ in range(2)]
    assert [r.stdout.split() for r in runs] == [["False", "FirstCall", "8.5"],
                                               ["True", "Executable", "8.5"]], \
        [r.stderr[-2000:] for r in runs]


@pytest.mark.parametrize("axis", [None, 0, 1], ids=str)
def test_exact_reductions_give_the_compiled_bits(axis):
    rng = np.random.default_rng(11)
    x = rng.standard_normal((40, 70)).astype(np.float32)
    x[3, 5], x[3, 9] = np.nan, -np.nan        # two NaNs in one row and one column
    x[7, :] = -0.0
    x[8, ::3] = 0.0
    x[9, 4] = np.inf
    i = rng.integers(-50, 50, (40, 70)).astype(np.int32)
    b = x > 0.5

    def f(x, i, b):
        return (jnp.max(x, axis), jnp.min(x, axis), jnp.argmax(x, axis), jnp.argmin(x, axis),
                jnp.max(i, axis), jnp.min(i, axis), jnp.sum(i, axis), jnp.any(b, axis),
                jnp.all(b, axis), jnp.argmax(i, axis))
    got, want = _both(f, x, i, b)
    _assert_same_bits(got, want, ["max", "min", "argmax", "argmin", "imax", "imin", "isum",
                                  "any", "all", "iargmax"])


DOTS = [  # (name, lhs shape, rhs shape, dimension numbers)
    ("mlp", (128, 784), (784, 64), (((1,), (0,)), ((), ()))),
    ("tiny", (3, 4), (4, 5), (((1,), (0,)), ((), ()))),
    ("row_vector", (1, 300), (300, 70), (((1,), (0,)), ((), ()))),
    ("column", (70, 300), (300, 1), (((1,), (0,)), ((), ()))),
    ("lhs_transposed", (300, 40), (300, 50), (((0,), (0,)), ((), ()))),
    ("rhs_transposed", (40, 300), (50, 300), (((1,), (1,)), ((), ()))),
    ("both_transposed", (33, 17), (29, 33), (((0,), (1,)), ((), ()))),
    ("batched", (4, 30, 20), (4, 20, 10), (((2,), (1,)), ((0,), (0,)))),
    ("batch_not_leading", (30, 4, 20), (20, 4, 10), (((2,), (0,)), ((1,), (1,)))),
    ("two_contracting", (6, 7, 8), (7, 8, 9), (((1, 2), (0, 1)), ((), ()))),
    ("vector_dot", (500,), (500,), (((0,), (0,)), ((), ()))),
    ("empty_k", (5, 0), (0, 6), (((1,), (0,)), ((), ()))),
]


@pytest.mark.parametrize("dt", [F32, F64], ids=str)
def test_dots_give_the_compiled_bits(library, dt):
    rng = np.random.default_rng(13)
    args, fns = [], []
    for _, ls, rs, dims in DOTS:
        args += [rng.standard_normal(ls).astype(dt), rng.standard_normal(rs).astype(dt)]
        fns.append(lambda a, b, dims=dims: lax.dot_general(a, b, dims))

    def f(*xs):
        return tuple(fn(xs[2 * i], xs[2 * i + 1]) for i, fn in enumerate(fns))
    got, want = _both(f, *args)
    _assert_same_bits(got, want, [d[0] for d in DOTS])


def test_an_mlp_step_is_evaluated_with_the_compiled_bits(library):
    rng = np.random.default_rng(17)
    params = (rng.standard_normal((784, 64)).astype(np.float32) * 0.05,
              np.zeros(64, np.float32), rng.standard_normal((64, 10)).astype(np.float32) * 0.05,
              np.zeros(10, np.float32))
    x = rng.random((32, 784)).astype(np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 32)]

    def loss(params, x, y):
        w1, b1, w2, b2 = params
        h = jnp.maximum(x @ w1 + b1, 0.0)
        z = h @ w2 + b2
        logp = z - jax.nn.logsumexp(z, axis=1, keepdims=True)
        return -jnp.mean(jnp.sum(logp * y, axis=1))

    def step(*leaves):
        value, grads = jax.value_and_grad(loss)(leaves[:4], leaves[4], leaves[5])
        return (value, *grads)
    got, want = _both(step, *params, x, y)
    _assert_same_bits(got, want, ["loss", "w1", "b1", "w2", "b2"])


def test_random_bits_give_the_compiled_bits():
    key = jax.random.key(42)
    got, want = _both(lambda k: (jax.random.normal(k, (3000,)),
                                 jax.random.uniform(jax.random.split(k, 4)[2], (7, 5)),
                                 jax.random.bernoulli(jax.random.fold_in(k, 3), 0.3, (64,)),
                                 jax.random.bits(k, (9,), np.uint32)), key)
    _assert_same_bits(got, want, ["normal", "uniform", "bernoulli", "bits"])


def test_indexing_gives_the_compiled_bits():
    rng = np.random.default_rng(19)
    x = rng.standard_normal((50, 7)).astype(np.float32)
    idx = rng.integers(-60, 60, 30).astype(np.int32)
    i = np.int32(45)

    def f(x, idx, i):
        return (x[idx], x[i], lax.dynamic_slice(x, (i, 2), (10, 3)),
                lax.dynamic_update_slice(x, x[:3, :2] * 2, (i, 6)),
                jnp.take(x, idx, axis=1, mode="clip"), x[idx % 50, idx % 7], x[::2][idx],
                x.at[idx].get(mode="fill", fill_value=-1.0), lax.rem(idx, i - 45 + idx))
    got, want = _both(f, x, idx, i)
    _assert_same_bits(got, want, ["take", "row", "dynamic_slice", "dynamic_update_slice",
                                  "take_clip", "pairs", "strided", "fill", "rem"])


def test_without_a_compiler_the_first_call_raises_as_before(tmp_path):
    script = textwrap.dedent("""
        import numpy as np, transpile as jax
        from transpile.backend.build import CompilerNotFoundError
        try:
            jax.jit(lambda x: x * 2.0)(np.ones(3, np.float32))
        except CompilerNotFoundError:
            print("raised")
    """)
    env = dict(os.environ, PYTHONPATH=REPO, CC=str(tmp_path / "no-such-cc"),
               TRANSPILE_CACHE_DIR=str(tmp_path / "cache"), TRANSPILE_INTERPRET_FIRST_CALL="1")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.stdout.split() == ["raised"], out.stderr[-2000:]


def test_scans_and_conds_give_the_compiled_bits(library):
    rng = np.random.default_rng(23)
    h0 = rng.standard_normal((2, 16)).astype(np.float32)
    xs = rng.standard_normal((12, 2, 16)).astype(np.float32)
    w = (rng.standard_normal((16, 16)) * 0.3).astype(np.float32)

    def f(h0, xs, w, k):
        def step(h, x):
            h = jnp.tanh(h @ w + x)
            return h, (jnp.sum(h * h), jnp.sin(h[0]))
        h, (norms, firsts) = jax.lax.scan(step, h0, xs)
        hr, _ = jax.lax.scan(lambda c, x: (c * 0.5 + x, None), h0, xs, reverse=True)
        loop = jax.lax.fori_loop(0, 5, lambda i, c: c * 1.5 + i, h0)
        branch = jax.lax.switch(k, [lambda v: v - 1.0, lambda v: jnp.exp(v), lambda v: v @ w],
                                h0)
        picked = jax.lax.cond(k > 0, lambda v: v.sum(0), lambda v: v.max(0), h)
        return h, norms, firsts, hr, loop, branch, picked
    names = ["h", "norms", "firsts", "reversed", "fori", "switch", "cond"]
    for k in (np.int32(-3), np.int32(1), np.int32(7)):   # clamped into range
        got, want = _both(f, h0, xs, w, k)
        _assert_same_bits(got, want, names)

"""Test programs written once against a JAX-like API, run under both JAX and transpile.

Every function here takes the API modules as parameters (``jax, jnp, lax, np``), so the
same source runs under JAX 0.10.2 (``tools/record_jax_data.py`` records what JAX does
into ``tests/data/*.json``) and under transpile (the ``tests/test_*.py`` files compare).
Nothing here imports jax or transpile.

Tables
------
``cases(jax, jnp, lax, np)``
    Programs to trace: a list of :class:`Case`; ``case.build()`` returns ``(fn, args)``.
``promotion_operands(jnp, np)``
    Named operands for the ``jnp.add`` promotion table.
``tracer_repr_cases(jax, jnp, lax, np)``
    Programs whose captured stdout shows tracer reprs.
``array_repr_cases(jax, jnp, lax, np)``
    Expressions whose ``repr``/``str`` are recorded.
``error_cases(jax, jnp, lax, np)``
    Programs that raise; ``case.trigger()`` raises the error.

Builders create their arrays lazily, so one broken API function breaks only the cases
that use it. Line numbers in this file appear in recorded error messages only after
normalisation (``<file>:<line>``), so editing the file does not invalidate the data.
"""
from __future__ import annotations

import json
import operator
import re
from pathlib import Path

__all__ = ["Case", "ErrorCase", "cases", "promotion_operands", "tracer_repr_cases",
           "array_repr_cases", "error_cases", "normalise_message", "key_lines", "load_data"]

DATA_DIR = Path(__file__).resolve().parent / "data"


def load_data(name: str) -> dict:
    """The recorded JSON file ``tests/data/<name>``."""
    with open(DATA_DIR / name, encoding="utf-8") as f:
        return json.load(f)


class Case:
    """A traced program: ``build() -> (fn, args)``.

    ``static_argnums`` is passed to ``make_jaxpr`` and to ``jit`` when the recorder and
    the tests execute ``fn``; ``values`` says whether output values are recorded.
    """

    __slots__ = ("name", "build", "static_argnums", "values")

    def __init__(self, name, build, static_argnums=(), values=True):
        self.name = name
        self.build = build
        self.static_argnums = tuple(static_argnums)
        self.values = values

    def __repr__(self):
        return f"Case({self.name!r})"


class ErrorCase:
    """A program that raises: ``trigger()`` raises; ``keys`` picks extra key lines.

    ``keys`` are substrings: every line of the recorded message containing one of
    them is a key line, besides the first line and any "depends on the value" line.
    """

    __slots__ = ("name", "trigger", "keys")

    def __init__(self, name, trigger, keys=()):
        self.name = name
        self.trigger = trigger
        self.keys = tuple(keys)

    def __repr__(self):
        return f"ErrorCase({self.name!r})"


# ---------------------------------------------------------------------------------------
# Message normalisation, shared by the recorder and the tests

_PATH_RE = re.compile(r"(?:[A-Za-z]:)?(?:[\w.\-<>~]*[/\\])+[\w.\-<>]+\.py|<(?:stdin|string)>")
_LINE_RE = re.compile(r"<file>:\d+(?::\d+)?")
_ADDR_RE = re.compile(r"0x[0-9a-fA-F]+")
_OBJID_RE = re.compile(r"object id \d+")


def normalise_message(msg: str) -> str:
    """Replace file paths by ``<file>``, line(:col) numbers by ``<line>``, addresses
    by ``0x...`` and object ids by ``object id <id>``."""
    msg = _PATH_RE.sub("<file>", msg)
    msg = _LINE_RE.sub("<file>:<line>", msg)
    msg = _ADDR_RE.sub("0x...", msg)
    msg = _OBJID_RE.sub("object id <id>", msg)
    return msg


def key_lines(message: str, keys=()) -> list:
    """The lines of a (normalised) message that a reimplementation must reproduce:
    the first line, any "depends on the value(s) of the argument(s)" line, and lines
    containing one of ``keys``."""
    lines = message.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        if ("depends on the value" in line or any(k in line for k in keys)) \
                and line not in out:
            out.append(line)
    return out


# ---------------------------------------------------------------------------------------
# Traced programs

def cases(jax, jnp, lax, np):
    """The jaxpr test programs, as a list of :class:`Case`."""
    out = []

    def case(name=None, static_argnums=(), values=True):
        def deco(build):
            out.append(Case(name or build.__name__, build, static_argnums, values))
            return build
        return deco

    # --- JAX_BEHAVIOUR 1.7 examples ---------------------------------------------------
    def log2(x):
        return jnp.log(x) / jnp.log(2.0)

    @case()
    def ex1_log2():
        return log2, (3.0,)

    @case()
    def ex1_log2_jit():
        return jax.jit(log2), (3.0,)

    @case()
    def ex2_sum_powers():
        return (lambda x: jnp.sum(x ** 2 - x ** 3 - x)), (jnp.ones(100),)

    @case()
    def ex2_pow_float():
        return (lambda x: x ** 2.5), (jnp.ones(3),)

    @case()
    def ex3_sin_plus_cos():
        return (lambda x: jnp.sin(x) + jnp.cos(x)), (jnp.ones(3),)

    @case()
    def ex4_maximum_float_zero():
        return (lambda x: jnp.maximum(0., x)), (jnp.ones(3),)

    @case()
    def ex4_maximum_int_zero():
        return (lambda x: jnp.maximum(0, x)), (jnp.ones(3),)

    @case()
    def ex5_selu():
        def selu(x):
            return 1.05 * jnp.where(x > 0, x, 1.67 * jnp.exp(x) - 1.67)
        return selu, (jnp.arange(5.0) - 2.0,)

    @case(values=False)
    def ex6_dot_big():
        return (lambda W, X: jnp.dot(W, X)), (jnp.zeros((100, 1000)), jnp.zeros((1000, 2000)))

    def h(x):
        if x.ndim == 0:
            return jnp.sin(x)
        else:
            return jnp.cos(x).sum()

    @case()
    def ex7_ndim_branch_scalar():
        return h, (1.0,)

    @case()
    def ex7_ndim_branch_vector():
        return h, (jnp.ones(3),)

    @case()
    def ex8_pytree_output():
        def g(x, y):
            return (x + y, {"a": x * y, "b": [x, None]})
        return g, (1.0, jnp.array([1, 2], dtype=jnp.int32))

    @case()
    def ex9_shared_jit_twice():
        def inner(x):
            return jnp.sin(x) * 2.0
        inner = jax.jit(inner)

        def outer(x):
            return inner(x) + inner(x + 1.0)
        return outer, (1.0,)

    # --- side effects -------------------------------------------------------------------
    @case()
    def side_effect_append():
        global_list = []

        def f(x):
            global_list.append(x)
            return x * 2.0
        return f, (jnp.ones(3),)

    # --- literals and constvars ---------------------------------------------------------
    @case()
    def lit_python_float():
        return (lambda x: x * 2.5), (jnp.ones(3),)

    @case()
    def lit_python_int_on_float():
        return (lambda x: x + 1), (jnp.ones(3),)

    @case()
    def lit_python_int_on_int():
        return (lambda x: x + 1), (jnp.arange(3),)

    @case()
    def lit_python_bool():
        return (lambda x: x & True), (jnp.array([True, False]),)

    @case()
    def lit_np_float32_scalar():
        return (lambda x: x * np.float32(3.0)), (jnp.ones(3),)

    @case()
    def lit_np_0d_array():
        return (lambda x: x * np.array(3.0)), (jnp.ones(3),)

    @case()
    def lit_np_int64_scalar():
        return (lambda x: x + np.int64(7)), (jnp.arange(3),)

    @case()
    def lit_float_expansions():
        return (lambda x: x * 1.67 + 1e-30 - 0.1), (jnp.ones(3),)

    @case()
    def lit_float_with_weak_operand():
        # With a weak operand the literal keeps the Python float: prints 1.67, 1e-30.
        return (lambda x: x * 1.67 + 1e-30), (1.0,)

    @case()
    def lit_float_with_weak_int_operand():
        return (lambda x: x + 0.1), (2,)

    @case()
    def lit_float_after_op_on_weak():
        return (lambda x: jnp.sin(x) * 1.67), (1.0,)

    @case()
    def lit_inf():
        return (lambda x: jnp.minimum(x, float("inf"))), (jnp.ones(3),)

    @case()
    def lit_int32_max():
        return (lambda x: x + 2147483647), (jnp.zeros(2, dtype=jnp.int32),)

    @case()
    def const_np_1d_array():
        c = np.array([1.0, 2.0, 3.0])
        return (lambda x: x + c), (jnp.ones(3),)

    @case()
    def const_jnp_1d_array():
        c = jnp.array([1.0, 2.0, 3.0])
        return (lambda x: x + c), (jnp.ones(3),)

    @case()
    def const_jnp_0d_weak():
        c = jnp.array(3.0)
        return (lambda x: x * c), (jnp.ones(3),)

    @case()
    def const_jnp_float32_scalar():
        c = jnp.float32(3.0)
        return (lambda x: x * c), (jnp.ones(3),)

    @case()
    def const_closure_under_jit():
        c = jnp.array([1.0, 2.0, 3.0])
        d = np.array([4.0, 5.0, 6.0], dtype=np.float32)

        def f(x):
            return x * c + d
        return jax.jit(f), (jnp.ones(3),)

    # --- broadcasting and promotion -----------------------------------------------------
    @case()
    def rank_promotion_vector():
        return (lambda a, b: a * b), (jnp.ones((2, 4)), jnp.arange(4.0))

    @case()
    def rank_promotion_size1():
        return (lambda a, b: a * b), (jnp.ones((2, 4)), jnp.ones((2, 1)) * 2.0)

    @case()
    def promote_int_times_float():
        return (lambda a, b: a * b), (jnp.arange(3), jnp.ones(3) * 1.5)

    @case()
    def promote_int_plus_weak_float():
        return (lambda x: x + 1.5), (jnp.arange(3),)

    @case()
    def promote_bool_plus_weak_int():
        return (lambda x: x + 1), (jnp.array([True, False]),)

    @case()
    def promote_f16_plus_weak_float():
        return (lambda x: x + 1.0), (jnp.ones(2, dtype=jnp.float16),)

    @case()
    def promote_u8_plus_weak_int_overflow():
        return (lambda x: x + 300), (jnp.ones(2, dtype=jnp.uint8),)

    @case()
    def promote_u8_plus_i8():
        return (lambda a, b: a + b), (jnp.ones(2, dtype=jnp.uint8), jnp.ones(2, dtype=jnp.int8))

    @case()
    def weak_scalar_args():
        return (lambda x, y: x * y + x), (2.0, 3)

    @case()
    def weak_scalar_with_strong_array():
        return (lambda s, x: s * x), (2.0, jnp.ones(3))

    @case()
    def strong_scalar_with_weak():
        return (lambda s: s + 1.0), (jnp.float32(2.0),)

    # --- jit structure ------------------------------------------------------------------
    @case()
    def jit_long_body_hoisted():
        def long_body(x):
            y = jnp.sin(x)
            y = y + 1.0
            y = y * x
            y = jnp.exp(y)
            y = y - x
            y = jnp.cos(y)
            y = y / 2.0
            y = jnp.abs(y)
            y = y + x
            y = jnp.tanh(y)
            y = y * 3.0
            return y
        return jax.jit(long_body), (jnp.ones(3),)

    @case()
    def jit_identity():
        def identity(x):
            return x
        return jax.jit(identity), (jnp.ones(3),)

    @case()
    def make_jaxpr_identity():
        return (lambda x: x), (jnp.ones(3),)

    @case()
    def jit_nested():
        @jax.jit
        def inner(x):
            return x * 2.0

        def outer(x):
            return inner(x) + 1.0
        return jax.jit(outer), (jnp.ones(3),)

    @case()
    def jit_inside_make_jaxpr():
        @jax.jit
        def double(x):
            return x * 2.0
        return (lambda x: double(jnp.sin(x))), (jnp.ones(3),)

    @case()
    def jit_static_argnums_closed():
        def scale(x, n):
            return x * n
        js = jax.jit(scale, static_argnums=1)
        return (lambda x: js(x, 3)), (jnp.ones(3),)

    @case(static_argnums=(1,))
    def make_jaxpr_static_argnums():
        def power(x, n):
            return x ** n
        return power, (jnp.ones(3), 3)

    @case(static_argnums=(1,))
    def jit_static_argnums_make_jaxpr():
        def repeat_add(x, n):
            for _ in range(n):
                x = x + 1.0
            return x
        return jax.jit(repeat_add, static_argnums=1), (jnp.ones(3), 2)

    # --- outputs and naming -------------------------------------------------------------
    @case()
    def multiple_outputs():
        return (lambda x, y: (x + y, x - y, x * y)), (jnp.ones(3), jnp.arange(3.0))

    @case()
    def pytree_input():
        def f(d):
            return d["a"] * d["b"][0] + d["b"][1]
        return f, ({"a": 1.0, "b": (jnp.ones(2), 3)},)

    @case()
    def twelve_inputs():
        def f(a, b, c, d, e, f, g, h, i, j, k, l):  # noqa: E741
            return a + b + c + d + e + f + g + h + i + j + k + l
        return f, tuple(jnp.float32(i) for i in range(12))

    @case()
    def chain_30_steps():
        def f(x):
            for _ in range(30):
                x = jnp.sin(x)
            return x
        return f, (1.0,)

    @case()
    def unused_intermediate():
        def f(x):
            _ = jnp.sin(x)
            return jnp.cos(x)
        return f, (1.0,)

    @case()
    def no_inputs_arange():
        return (lambda: jnp.arange(5)), ()

    # --- array creation -----------------------------------------------------------------
    @case()
    def zeros_plus_x():
        return (lambda x: jnp.zeros(3) + x), (jnp.ones(3),)

    @case()
    def arange_plus_x():
        return (lambda x: jnp.arange(5) + x), (jnp.ones(5),)

    @case()
    def ones_int_dtype():
        return (lambda x: jnp.ones(3, dtype=jnp.int32) * x), (jnp.arange(3),)

    # --- reductions ---------------------------------------------------------------------
    @case()
    def sum_axis0():
        return (lambda x: jnp.sum(x, axis=0)), (jnp.arange(6.0).reshape(2, 3),)

    @case()
    def max_axis1_keepdims():
        return (lambda x: jnp.max(x, axis=1, keepdims=True)), (jnp.arange(6.0).reshape(2, 3),)

    @case()
    def min_all():
        return (lambda x: jnp.min(x)), (jnp.arange(6.0).reshape(2, 3),)

    @case()
    def prod_axis_tuple():
        return (lambda x: jnp.prod(x, axis=(0, 1))), (jnp.arange(1.0, 7.0).reshape(2, 3),)

    @case()
    def sum_int():
        return (lambda x: x.sum()), (jnp.arange(4),)

    @case()
    def sum_bool():
        return (lambda x: jnp.sum(x)), (jnp.array([True, False, True]),)

    @case()
    def mean_all():
        return (lambda x: jnp.mean(x)), (jnp.arange(7.0),)

    @case()
    def mean_axis0():
        return (lambda x: jnp.mean(x, axis=0)), (jnp.arange(6.0).reshape(2, 3),)

    @case()
    def mean_int():
        return (lambda x: jnp.mean(x)), (jnp.arange(4),)

    @case()
    def argmax_all():
        return (lambda x: jnp.argmax(x)), (jnp.array([1.0, 3.0, 2.0]),)

    @case()
    def argmax_axis1():
        return (lambda x: jnp.argmax(x, axis=1)), (jnp.array([[1.0, 3.0, 2.0], [5.0, 4.0, 0.0]]),)

    # --- structural ---------------------------------------------------------------------
    @case()
    def reshape_transpose():
        return (lambda x: x.reshape(2, 2).T), (jnp.arange(4.0),)

    @case()
    def index_static_int():
        return (lambda x: x[1]), (jnp.arange(5.0),)

    @case()
    def index_negative_int():
        return (lambda x: x[-1]), (jnp.arange(5.0),)

    @case()
    def index_reverse():
        return (lambda x: x[::-1]), (jnp.arange(5.0),)

    @case()
    def index_new_axis():
        return (lambda x: x[:, None]), (jnp.arange(5.0),)

    @case()
    def index_slice():
        return (lambda x: x[1:3]), (jnp.arange(5.0),)

    @case()
    def index_2d_scalar():
        return (lambda x: x[0, 1]), (jnp.arange(6.0).reshape(2, 3),)

    @case()
    def concatenate_1d():
        return (lambda a, b: jnp.concatenate([a, b])), (jnp.ones(2), jnp.arange(3.0))

    @case()
    def concatenate_axis1():
        return (lambda a, b: jnp.concatenate([a, b], axis=1)), (jnp.ones((2, 1)), jnp.zeros((2, 2)))

    # --- elementwise jnp wrappers ---------------------------------------------------------
    @case()
    def where_scalar_false():
        return (lambda x: jnp.where(x > 0, x, 0.0)), (jnp.array([-1.0, 2.0]),)

    @case()
    def where_two_arrays():
        return (lambda c, x, y: jnp.where(c, x, y)), (
            jnp.array([True, False, True]), jnp.ones(3), jnp.zeros(3))

    @case()
    def clip_floats():
        return (lambda x: jnp.clip(x, 0.0, 1.0)), (jnp.array([-1.0, 0.5, 2.0]),)

    @case()
    def round_default():
        return (lambda x: jnp.round(x)), (jnp.array([0.5, 1.5, 2.4, -0.6]),)

    @case()
    def floor_divide_float():
        return (lambda x: x // 2), (jnp.array([-3.0, 5.0, 7.5]),)

    @case()
    def floor_divide_int():
        return (lambda x: x // 2), (jnp.array([-3, 5, 7]),)

    @case()
    def sort_1d():
        return (lambda x: jnp.sort(x)), (jnp.array([3.0, 1.0, 2.0]),)

    @case()
    def cumsum_1d():
        return (lambda x: jnp.cumsum(x)), (jnp.arange(5.0),)

    @case()
    def astype_int():
        return (lambda x: x.astype(int)), (jnp.array([1.7, -2.2, 3.0]),)

    @case()
    def astype_float_from_int():
        return (lambda x: x.astype(float)), (jnp.arange(3),)

    @case()
    def true_divide_ints():
        return (lambda a, b: a / b), (jnp.arange(3), jnp.array([1, 2, 4]))

    @case()
    def dot_matrix_vector():
        return (lambda a, b: jnp.dot(a, b)), (jnp.ones((2, 3)), jnp.arange(3.0))

    @case()
    def matmul_operator():
        return (lambda a, b: a @ b), (jnp.ones((2, 3)), jnp.ones((3, 4)))

    @case()
    def comparisons_and_logic():
        return (lambda x: (x > 1.0) & (x < 3.0)), (jnp.arange(5.0),)

    @case()
    def unary_ops():
        return (lambda x: jnp.sqrt(jnp.abs(-x)) + jnp.tanh(x) - jnp.exp(x)), (jnp.ones(3),)

    @case()
    def lax_ops_direct():
        return (lambda x, y: lax.mul(lax.add(x, y), lax.sin(x))), (jnp.ones(3), jnp.ones(3))

    return out


# ---------------------------------------------------------------------------------------
# Promotion operands

PROMOTION_ORDER = ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32",
                   "float16", "bfloat16", "float32", "complex64", "weak_int", "weak_float",
                   "weak_complex", "np_int64", "np_uint64", "np_float64", "np_complex128")


def promotion_operands(jnp, np):
    """``{name: builder}``; each builder returns one operand for ``jnp.add``.

    Strong small dtypes are jnp arrays of length 2, weak operands are Python scalars,
    and the 64-bit operands are raw numpy arrays (canonicalised by the API).
    """
    def strong(dt, vals=(1, 2)):
        return lambda: jnp.asarray(np.array(vals, dtype=dt))

    return {
        "bool": strong(np.bool_, (True, False)),
        "int8": strong(np.int8),
        "int16": strong(np.int16),
        "int32": strong(np.int32),
        "uint8": strong(np.uint8),
        "uint16": strong(np.uint16),
        "uint32": strong(np.uint32),
        "float16": strong(np.float16, (1.5, 2.0)),
        "bfloat16": strong(jnp.bfloat16, (1.5, 2.0)),
        "float32": strong(np.float32, (1.5, 2.0)),
        "complex64": strong(np.complex64, (1.5 + 1j, -2.0)),
        "weak_int": lambda: 3,
        "weak_float": lambda: 2.5,
        "weak_complex": lambda: 0.5 - 2j,
        "np_int64": lambda: np.array([1, 2], dtype=np.int64),
        "np_uint64": lambda: np.array([1, 2], dtype=np.uint64),
        "np_float64": lambda: np.array([1.5, 2.0], dtype=np.float64),
        "np_complex128": lambda: np.array([1.5, 2.0 - 1j], dtype=np.complex128),
    }


# ---------------------------------------------------------------------------------------
# Tracer reprs: each case is (name, run) where run(emit) calls emit(str) at trace time.

def tracer_repr_cases(jax, jnp, lax, np):
    """``[(name, run)]``; ``run(emit)`` traces a program that calls ``emit`` with text."""
    out = []

    def case(build):
        out.append((build.__name__, build))
        return build

    def jit_print(arg_builder):
        def run(emit):
            def f(x):
                emit(str(x))
                emit(repr(x))
                return x
            jax.jit(f)(arg_builder())
        return run

    out.append(("jit_f32_vector", jit_print(lambda: jnp.ones(3))))
    out.append(("jit_python_float", jit_print(lambda: 3.0)))
    out.append(("jit_python_int", jit_print(lambda: 3)))
    out.append(("jit_python_bool", jit_print(lambda: True)))
    out.append(("jit_np_float32", jit_print(lambda: np.float32(3.0))))
    out.append(("jit_jnp_float32", jit_print(lambda: jnp.float32(3.0))))
    out.append(("jit_int32_matrix", jit_print(lambda: jnp.zeros((2, 3), dtype=jnp.int32))))
    out.append(("jit_bool_vector", jit_print(lambda: jnp.array([True, False]))))
    out.append(("jit_float16", jit_print(lambda: jnp.ones(2, dtype=jnp.float16))))
    out.append(("jit_uint8", jit_print(lambda: jnp.ones(2, dtype=jnp.uint8))))

    @case
    def jit_print_builtin(emit):
        import contextlib
        import io
        buf = io.StringIO()

        def f(x):
            print(x)
            return x
        with contextlib.redirect_stdout(buf):
            jax.jit(f)(jnp.ones(3))
        emit(buf.getvalue())

    @case
    def jit_pytree_arg(emit):
        def f(d):
            emit(str(d))
            return d["a"]
        jax.jit(f)({"a": 1.0, "b": (jnp.ones(2), 3)})

    @case
    def jit_intermediate(emit):
        def f(x):
            y = x * 2
            emit(str(y))
            z = x > 0
            emit(str(z))
            return y
        jax.jit(f)(jnp.ones(3))

    @case
    def jit_weak_intermediate(emit):
        def f(x):
            emit(str(x + 1))
            emit(str(x * 2.5))
            return x
        jax.jit(f)(2)

    @case
    def jit_static_attrs(emit):
        def f(x):
            emit(repr((x.shape, x.ndim, x.size)))
            emit(str(x.dtype))
            return x
        jax.jit(f)(jnp.ones((2, 3)))

    @case
    def make_jaxpr_python_float(emit):
        def f(x):
            emit(str(x))
            return x
        jax.make_jaxpr(f)(3.0)

    @case
    def make_jaxpr_array(emit):
        def f(x):
            emit(str(x))
            return x
        jax.make_jaxpr(f)(jnp.ones((4,), dtype=jnp.int32))

    @case
    def nested_jit(emit):
        def inner(y):
            emit(str(y))
            return y * 2

        def outer(x):
            emit(str(x))
            return jax.jit(inner)(x + 1)
        jax.jit(outer)(1.0)

    return out


# ---------------------------------------------------------------------------------------
# Array reprs: (name, thunk) where thunk() returns the text to record.

def array_repr_cases(jax, jnp, lax, np):
    """``[(name, thunk)]``; ``thunk()`` returns a string (a repr or str)."""
    def jitted_identity(x):
        return x

    def named(f):
        return f

    return [
        ("repr_ones3", lambda: repr(jnp.ones(3))),
        ("str_ones3", lambda: str(jnp.ones(3))),
        ("repr_weak_float", lambda: repr(jnp.array(1.0))),
        ("repr_weak_int", lambda: repr(jnp.array(1))),
        ("repr_bool_scalar", lambda: repr(jnp.array(True))),
        ("repr_float32_scalar", lambda: repr(jnp.float32(2.5))),
        ("repr_int_vector", lambda: repr(jnp.arange(3))),
        ("repr_bool_vector", lambda: repr(jnp.array([True, False, True]))),
        ("repr_2d", lambda: repr(jnp.zeros((2, 3)))),
        ("repr_2d_int", lambda: repr(jnp.arange(6).reshape(2, 3))),
        ("repr_empty", lambda: repr(jnp.ones(0))),
        ("repr_empty_2d", lambda: repr(jnp.zeros((0, 3)))),
        ("repr_float16", lambda: repr(jnp.ones(3, dtype=jnp.float16))),
        ("repr_uint8", lambda: repr(jnp.ones(2, dtype=jnp.uint8))),
        ("repr_mixed_floats", lambda: repr(jnp.array([1.5, -2.0, 0.25]))),
        ("repr_jit_weak_output", lambda: repr(jax.jit(jitted_identity)(1.0))),
        ("repr_jit_tuple_output", lambda: repr(jax.jit(lambda x: (x, None, 3))(1.0))),
        ("repr_eager_op_weak", lambda: repr(jnp.array(2.0) * 3)),
        ("str_weak_scalar", lambda: str(jnp.array(1.0))),
        ("str_2d", lambda: str(jnp.arange(6.0).reshape(2, 3))),
        ("repr_jit_function", lambda: repr(jax.jit(named))),
    ]


# ---------------------------------------------------------------------------------------
# Errors (JAX_BEHAVIOUR 3); each trigger raises. Function names appear in messages.

def error_cases(jax, jnp, lax, np):
    """A list of :class:`ErrorCase`."""
    out = []

    def case(*keys):
        def deco(trigger):
            out.append(ErrorCase(trigger.__name__, trigger, keys))
            return trigger
        return deco

    @case()
    def bool_conversion_if():
        def f1(x):
            if x % 2 == 0:
                return x
            return x + 1
        jax.jit(f1)(3)

    @case()
    def bool_conversion_two_args():
        def f2(x, y):
            if x > y:
                return x
            return y
        jax.jit(f2)(1.0, 2.0)

    @case("The problem arose with the `int` function")
    def int_conversion():
        def f3(x):
            return int(x)
        jax.jit(f3)(1.0)

    @case("The problem arose with the `float` function")
    def float_conversion():
        def f4(x):
            return float(x)
        jax.jit(f4)(1.0)

    @case("item() method")
    def item_method():
        def f5(x):
            return x.item()
        jax.jit(f5)(1.0)

    @case()
    def range_of_tracer():
        def f6(x):
            return sum(range(x))
        jax.jit(f6)(3)

    @case()
    def operator_index():
        def f6b(x):
            return operator.index(x)
        jax.jit(f6b)(3)

    @case()
    def np_asarray_of_tracer():
        def f7(x):
            return np.asarray(x)
        jax.jit(f7)(jnp.ones(3))

    @case()
    def boolean_mask_index():
        def f9(x):
            return x[x > 0]
        jax.jit(f9)(jnp.ones(3))

    @case("It arose in the jnp.arange argument")
    def arange_of_tracer():
        def f10(x):
            return jnp.arange(x)
        jax.jit(f10)(5)

    @case("If using `jit`, try using `static_argnums`")
    def ones_of_tracer():
        def f8(n):
            return jnp.ones(n)
        jax.jit(f8)(3)

    @case("JAX transformations require that functions explicitly return their outputs",
          "The function being traced when the value leaked was")
    def leaked_tracer():
        stash = []

        def leak(x):
            stash.append(x * 2.0)
            return x
        jax.jit(leak)(1.0)
        return stash[0] + 1.0

    @case()
    def bool_of_concrete_array():
        return bool(jnp.ones(3))

    @case()
    def item_assignment():
        a = jnp.zeros(3)
        a[1] = 0

    @case()
    def list_index():
        x = jnp.arange(3.0)
        return x[[0, 1]]

    @case("This typically means that a jit-wrapped function was called with a non-array")
    def jit_str_argument():
        def f(x, n):
            return x
        jax.jit(f)(1.0, "hello")

    @case()
    def jit_returns_str():
        jax.jit(lambda x: "not an array")(1.0)

    @case()
    def python_int_too_large():
        return jnp.array(2 ** 40)

    @case()
    def jit_int_argument_overflow():
        def add(x, y):
            return x + y
        jax.jit(add)(jnp.ones(2, dtype=jnp.int32), 2 ** 31)

    @case("TypeError: unhashable type")
    def unhashable_static_arg():
        def f(x, n):
            return x
        jax.jit(f, static_argnums=1)(1.0, [1, 2])

    @case()
    def static_argnums_out_of_range():
        def f(x, y):
            return x
        jax.jit(f, static_argnums=5)

    @case()
    def static_argnames_unknown():
        def f(x, n):
            return x
        jax.jit(f, static_argnames="m")

    @case()
    def lax_add_shape_mismatch():
        return lax.add(jnp.ones(3), jnp.ones(4))

    @case()
    def jnp_broadcast_mismatch():
        return jnp.ones(3) + jnp.ones(4)

    @case()
    def jnp_broadcast_mismatch_2d():
        return jnp.ones((2, 3)) * jnp.ones((3, 2))

    @case()
    def dot_contraction_mismatch():
        return jnp.dot(jnp.ones((2, 3)), jnp.ones((4, 5)))

    @case()
    def reduction_axis_out_of_range():
        return jnp.sum(jnp.ones(3), axis=1)

    @case()
    def reshape_bad_size():
        return jnp.ones(6).reshape(4, 2)

    return out

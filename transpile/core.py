"""Abstract values, primitives, and the stack of traces that binds them.

Every operation is ``prim.bind(*args, **params)``. ``bind`` picks the innermost active
trace among its arguments' tracers and the current dynamic trace (the jaxpr trace of
``jit``/``make_jaxpr``, which stages every operation, constants included), raises the
arguments into it and lets it process the primitive. With no trace active, the eval
trace runs the primitive's NumPy rule at once.
"""
from __future__ import annotations

import contextlib
import operator
import threading
from typing import Any, Callable

import numpy as np

from . import dtypes
from .errors import (ConcretizationTypeError, jax_array_error, TracerArrayConversionError,
                     TracerBoolConversionError, TracerIntegerConversionError,
                     UnexpectedTracerError)

__all__ = ["ShapedArray", "Cost", "Primitive", "Trace", "Tracer", "EvalTrace", "get_aval",
           "new_main", "find_top_trace", "concrete_or_error", "canonicalize_shape"]


# ---------------------------------------------------------------------------------------
# Abstract values

_NO_VMA: frozenset = frozenset()


class ShapedArray:
    """The abstract value of an array: shape, dtype and weak type.

    Parameters
    ----------
    shape : tuple of int
    dtype : numpy.dtype
    weak_type : bool
        True when the dtype is only a default (the value came from a Python scalar).
    vma : frozenset of str
        The manual mesh axes the value varies over inside a ``shard_map`` body traced
        with ``check_vma`` (JAX's varying manual axes, printed ``f32[2]{V:x}``); empty
        everywhere else.
    """

    __slots__ = ("shape", "dtype", "weak_type", "vma")
    array_abstraction_level = 1

    def __init__(self, shape, dtype, weak_type: bool = False, vma=_NO_VMA):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.weak_type = bool(weak_type)
        self.vma = frozenset(vma)

    @classmethod
    def _trusted(cls, shape: tuple, dtype: np.dtype, weak_type: bool) -> "ShapedArray":
        """An aval from fields already canonical (an array's own shape and dtype):
        skips the conversions of ``__init__``, which dominate eager dispatch."""
        self = object.__new__(cls)
        self.shape, self.dtype, self.weak_type = shape, dtype, weak_type
        self.vma = _NO_VMA
        return self

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def update(self, shape=None, dtype=None, weak_type=None, vma=None) -> "ShapedArray":
        """A copy with the given fields replaced."""
        return ShapedArray(self.shape if shape is None else shape,
                           self.dtype if dtype is None else dtype,
                           self.weak_type if weak_type is None else weak_type,
                           self.vma if vma is None else vma)

    def strip_weak_type(self) -> "ShapedArray":
        return self.update(weak_type=False) if self.weak_type else self

    def str_short(self, short_dtypes: bool = True) -> str:
        """``f32[3,4]`` (short dtypes) or ``float32[3,4]``."""
        name = dtypes.short_dtype_name(self.dtype) if short_dtypes else \
            dtypes.dtype_name(self.dtype)
        vma = ""
        if self.vma:  # JAX's text: {V:x}, {V:(x,y)}
            names = ",".join(sorted(map(str, self.vma)))
            vma = "{V:" + (names if len(self.vma) == 1 else f"({names})") + "}"
        return f"{name}[{','.join(map(str, self.shape))}]{vma}"

    def str_long(self) -> str:
        return self.str_short(short_dtypes=False)

    def str_weak(self) -> str:
        """``~float32[]`` for weakly typed values, as tracer reprs show them."""
        return ("~" if self.weak_type else "") + self.str_long()

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.str_long()}{weak})"

    # JAX's str: the short type (``float32[3]``, ``~float32[]`` when weak), as
    # ``print(jax.typeof(x))`` shows it
    __str__ = str_weak

    def __eq__(self, other) -> bool:
        return (isinstance(other, ShapedArray) and self.shape == other.shape
                and self.dtype == other.dtype and self.weak_type == other.weak_type
                and self.vma == other.vma)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.weak_type, self.vma))


def canonicalize_shape(shape, context: str = "") -> tuple:
    """Turn ``shape`` (an int or a sequence of ints) into a tuple of Python ints.

    Raises the JAX ``TypeError`` when an entry is a tracer or not an integer.
    """
    if isinstance(shape, (tuple, list)):
        seq = tuple(shape)
    else:
        try:
            seq = tuple(shape) if np.ndim(shape) > 0 else (shape,)
        except TypeError:
            seq = (shape,)
    if any(isinstance(d, Tracer) for d in seq) or not all(
            isinstance(d, (int, np.integer)) and not isinstance(d, bool) or
            (isinstance(d, np.ndarray) and d.ndim == 0 and d.dtype.kind in "iu")
            for d in seq):
        shown = shape if isinstance(shape, (tuple, list)) else seq
        tracer = next((d for d in seq if isinstance(d, Tracer)), None)
        msg = ("Shapes must be 1D sequences of concrete values of integer type, "
               f"got {shown!r}.")
        if tracer is not None:
            msg += ("\nIf using `jit`, try using `static_argnums` or applying `jit` to "
                    "smaller subfunctions.")
            origin = tracer._origin_msg()
            if origin:
                msg += "\n" + origin
        raise TypeError(msg)
    out = tuple(operator.index(d) for d in seq)
    if any(d < 0 for d in out):
        raise TypeError(f"Shapes must be non-negative, got {out}{context}.")
    return out


# Maps Python/NumPy types (and Array, registered by array.py) to aval constructors.
pytype_aval_mappings: dict[type, Callable[[Any], ShapedArray]] = {}


def _scalar_aval(x) -> ShapedArray:
    dt, weak = dtypes.dtype_and_weak(x)
    return ShapedArray((), dt, weak)


for _t in (bool, int, float, complex):
    pytype_aval_mappings[_t] = _scalar_aval


def get_aval(x) -> ShapedArray:
    """The abstract value of a tracer, Array, NumPy value or Python scalar."""
    if isinstance(x, Tracer):
        return x.aval
    fn = pytype_aval_mappings.get(type(x))
    if fn is not None:
        return fn(x)
    if isinstance(x, (np.ndarray, np.generic)):
        if x.dtype == dtypes.float0:  # tangents of integers: a shape and no data
            return ShapedArray(np.shape(x), dtypes.float0, False)
        return ShapedArray(np.shape(x), dtypes.canonicalize_dtype(x.dtype), False)
    if isinstance(x, (bool, int, float, complex)):
        return _scalar_aval(x)
    if hasattr(x, "__jax_array__"):  # honoured by jnp.asarray/array and operators only
        raise jax_array_error()
    raise TypeError(f"Value {x!r} of type {type(x)} is not a valid JAX type")


def is_valid_value(x) -> bool:
    """True if ``x`` can be an operand (array-like, scalar or tracer)."""
    if isinstance(x, Tracer) or type(x) in pytype_aval_mappings:
        return True
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype in dtypes._SUPPORTED_SET
    return isinstance(x, (bool, int, float, complex))


def to_numpy(x, aval: ShapedArray | None = None) -> np.ndarray:
    """A NumPy array with the canonical dtype of the concrete value ``x``."""
    aval = aval or get_aval(x)
    if hasattr(x, "_value"):
        return x._value
    if isinstance(x, int) and not isinstance(x, (bool, np.integer)):
        if dtypes.is_narrow_int(aval.dtype):  # JAX wraps them without a check
            return dtypes.to_narrow(x, aval.dtype)
        info = np.iinfo(aval.dtype)
        if not info.min <= x <= info.max:
            raise OverflowError(f"Python int {x} too large to convert to {aval.dtype}")
    return np.asarray(x, dtype=aval.dtype)


# ---------------------------------------------------------------------------------------
# Primitives

class Cost:
    """How costly one output element of a primitive is to compute (``Primitive.cost``).

    The fusion planner does not recompute an expensive value once per element of a
    broadcast of it, the multiply-add contraction leaves a product shared by an expensive
    reader rounded, and the cost model counts flops and transcendentals from it.
    """
    #: moves or selects data, no arithmetic (index maps, copies, sort, gather)
    FREE = "free"
    #: one arithmetic operation per element (the default)
    ARITH = "arith"
    #: a division or square root: several times an add's latency
    DIVIDE = "divide"
    #: a libm-style function evaluated by a polynomial
    TRANSCENDENTAL = "transcendental"
    #: a round of the counter-based PRNG's cipher per element
    HASH = "hash"

    ALL = (FREE, ARITH, DIVIDE, TRANSCENDENTAL, HASH)
    #: worth computing once rather than once per use
    EXPENSIVE = frozenset({DIVIDE, TRANSCENDENTAL, HASH})


class Primitive:
    """An operation of the IR, with its rules.

    ``abstract_eval(*avals, **params)`` gives the output aval(s); ``impl(*arrays,
    **params)`` evaluates with NumPy. Transformation and emission rules live in tables
    owned by the modules that use them, keyed by the primitive. The properties below
    are set next to the primitive's definition.

    Parameters
    ----------
    name : str
        The name printed in jaxprs.
    multiple_results : bool
        Whether the primitive returns a list of outputs.

    Attributes
    ----------
    cost : str
        One of ``Cost.ALL`` (default ``Cost.ARITH``).
    effectful : bool
        Whether an equation must run even when its outputs are unused or duplicated
        (host callbacks that print or do I/O): passes never fold, merge or delete it.
    updates_in_place : bool
        Whether the first operand is the array the primitive updates (scatter,
        ``dynamic_update_slice``): codegen may write the result into its buffer.
    unflushed_dtypes : frozenset of numpy.dtype
        The float dtypes whose subnormal operands and results the primitive keeps
        (XLA:CPU evaluates it without flush-to-zero/denormals-are-zero, e.g. ``sin``);
        in the others, subnormals flush to zero.
    """

    def __init__(self, name: str, multiple_results: bool = False):
        self.name = name
        self.multiple_results = multiple_results
        self.abstract_eval: Callable | None = None
        self.impl: Callable | None = None
        self.cost: str = Cost.ARITH
        self.effectful = False
        self.updates_in_place = False
        self.unflushed_dtypes: frozenset = frozenset()

    @property
    def expensive(self) -> bool:
        """Whether the cost is in ``Cost.EXPENSIVE``."""
        return self.cost in Cost.EXPENSIVE

    def __repr__(self) -> str:
        return self.name

    def def_abstract_eval(self, fn: Callable) -> Callable:
        self.abstract_eval = fn
        return fn

    def def_impl(self, fn: Callable) -> Callable:
        self.impl = fn
        return fn

    def bind(self, *args, **params):
        """Apply the primitive within the innermost relevant trace."""
        if not _state.stack:
            # No trace at all: eager dispatch, unless a leaked tracer must be reported.
            for a in args:
                if isinstance(a, Tracer):
                    break
            else:
                return eager_apply(self, args, params)
        trace = find_top_trace(args)
        tracers = [trace.full_raise(a) for a in args]
        out = trace.process_primitive(self, tracers, params)
        if self.multiple_results:
            return [full_lower(o) for o in out]
        return full_lower(out)


# Every primitive ever defined, for rule-completeness tests.
primitives: dict[str, Primitive] = {}


def new_primitive(name: str, multiple_results: bool = False) -> Primitive:
    """Create and register a primitive."""
    p = Primitive(name, multiple_results)
    primitives[name] = p
    return p


# ---------------------------------------------------------------------------------------
# Traces

class MainTrace:
    """One entry of the trace stack: a level, a Trace class and its shared state."""

    def __init__(self, level: int, trace_type: type, payload: Any = None):
        self.level = level
        self.trace_type = trace_type
        self.payload = payload
        self.active = True

    def __repr__(self) -> str:
        return f"MainTrace({self.level}, {self.trace_type.__name__})"


class _TraceState(threading.local):
    # Per thread, as JAX keeps it: a library compiled on a worker thread (dispatch,
    # first_call) or a user's own threads never see another thread's traces.
    def __init__(self):
        self.stack: list[MainTrace] = []
        self.dynamic: MainTrace | None = None


_state = _TraceState()


@contextlib.contextmanager
def new_main(trace_type: type, dynamic: bool = False, payload: Any = None):
    """Push a new trace level; with ``dynamic``, it also captures constant operations."""
    main = MainTrace(len(_state.stack), trace_type, payload)
    _state.stack.append(main)
    prev_dynamic = _state.dynamic
    if dynamic:
        _state.dynamic = main
    try:
        yield main
    finally:
        _state.stack.pop()
        _state.dynamic = prev_dynamic
        main.active = False


@contextlib.contextmanager
def ensure_compile_time_eval():
    """Evaluate operations on concrete values at once, even inside ``jit``
    (``jax.ensure_compile_time_eval``): the dynamic trace is set aside, so only tracer
    operands stage equations."""
    prev, _state.dynamic = _state.dynamic, None
    try:
        yield
    finally:
        _state.dynamic = prev


class Trace:
    """How one kind of transformation processes primitives on its tracers."""

    def __init__(self, main: MainTrace):
        self.main = main

    def pure(self, val):
        raise NotImplementedError

    def lift(self, tracer):
        raise NotImplementedError

    def process_primitive(self, primitive: Primitive, tracers, params):
        raise NotImplementedError

    def full_raise(self, val):
        if not isinstance(val, Tracer):
            return self.pure(val)
        main = val._trace.main
        if main is self.main:
            return val
        if not main.active:
            raise _leak_error(val)
        if main.level < self.main.level:
            return self.lift(val)
        raise _leak_error(val)


# ---------------------------------------------------------------------------------------
# Named axes (collectives) and varying manual axes

#: The named axes bound around the code being run: ``(name, size, main)`` entries,
#: innermost last. ``main`` is the batch trace's ``MainTrace`` doing the batching
#: (``vmap(axis_name=...)``, a ``shard_map`` run) or None while a ``shard_map`` body
#: is traced to a jaxpr.
axis_env: list = []


@contextlib.contextmanager
def extend_axis_env(bindings):
    """Bind ``(name, size, main)`` entries for the duration of the block."""
    n = len(axis_env)
    axis_env.extend(bindings)
    try:
        yield
    finally:
        del axis_env[n:]


def axis_frame(name, what: str = "psum"):
    """``(size, main)`` of the innermost binding of the axis ``name``; JAX's NameError
    when it is unbound."""
    for n, size, main in reversed(axis_env):
        if n == name:
            return size, main
    if not axis_env:
        raise NameError(f"unbound axis name: {name}")
    raise NameError(f"Found an unbound axis name: {name}. To fix this, please call "
                    f"{what} under `jax.shard_map`.")


#: primitive -> ``rule(in_avals, **params) -> vma of each output``, for the primitives
#: that change the varying manual axes (the collectives); every other primitive's
#: outputs vary over the union of its operands' axes (``interpreters.tracing``).
vma_rules: dict = {}

#: Whether varying manual axes are tracked (the innermost ``shard_map`` body being
#: traced has ``check_vma``): a stack, innermost last.
check_vma: list = [False]

#: ``lax.pvary`` (bound on operands that vary over fewer axes than the others);
#: ``lax.parallel`` sets it.
pvary: Callable = None


def _no_lax(*args, **kwargs):
    raise RuntimeError("transpile.lax is not imported (import transpile sets "
                       "core.index_in_dim)")


#: ``lax.index_in_dim``, which iterating over a tracer binds; ``lax.slicing`` sets it.
index_in_dim: Callable = _no_lax


def _no_dispatch(primitive, args, params):
    raise RuntimeError(f"eager {primitive.name}: transpile.dispatch is not imported "
                       "(import transpile fills core.eager_apply)")


#: ``(primitive, args, params) -> result``: how the eval trace applies a primitive to
#: concrete values. Eager dispatch needs arrays, devices and the compiler, all above this
#: module, so ``transpile.dispatch`` sets it when imported (``import transpile`` does).
eager_apply: Callable = _no_dispatch


class EvalTrace(Trace):
    """No transformation: primitives run their NumPy rule at once."""

    def pure(self, val):
        return val

    lift = pure

    def process_primitive(self, primitive, tracers, params):
        return eager_apply(primitive, tracers, params)


def _leak_error(tracer) -> UnexpectedTracerError:
    payload = tracer._trace.main.payload
    where = getattr(payload, "debug", None)
    fn_desc = where.describe() if where is not None else "an unknown function"
    return UnexpectedTracerError(
        "Encountered an unexpected tracer. A function transformed by JAX had a side "
        "effect, allowing for a reference to an intermediate value with type "
        f"{tracer.aval.str_long()} wrapped in a {tracer._class_name()} to escape the scope "
        "of the transformation.\nJAX transformations require that functions explicitly "
        "return their outputs, and disallow saving intermediate values to global state.\n"
        f"The function being traced when the value leaked was {fn_desc}.\n"
        "To catch the leak earlier, try setting the environment variable "
        "JAX_CHECK_TRACER_LEAKS or using the `jax.checking_leaks` context manager.")


def find_top_trace(xs) -> Trace:
    """The trace that must process an operation on ``xs``."""
    top = _state.dynamic
    for x in xs:
        if isinstance(x, Tracer):
            main = x._trace.main
            if not main.active:
                raise _leak_error(x)
            if top is None or main.level > top.level:
                top = main
    if top is None:
        return _EVAL
    return top.trace_type(top)


_EVAL = EvalTrace(MainTrace(-1, EvalTrace))


def full_lower(x):
    return x.full_lower() if isinstance(x, Tracer) else x


def cur_dynamic_level() -> int:
    return -1 if _state.dynamic is None else _state.dynamic.level


# ---------------------------------------------------------------------------------------
# Tracers

class Tracer:
    """A value standing for an array during a transformation.

    Array methods and operators are installed by ``transpile.numpy`` so that tracers
    and ``Array`` share one implementation.
    """

    __array_priority__ = 1000
    __slots__ = ("_trace",)

    @property
    def aval(self) -> ShapedArray:
        raise NotImplementedError

    def full_lower(self):
        return self

    def _class_name(self) -> str:
        return type(self).__name__

    def _origin_msg(self) -> str:
        """Where this tracer came from, for error messages."""
        return ""

    def to_concrete_value(self):
        """The concrete NumPy value if this tracer has one (e.g. under plain grad)."""
        return None

    @property
    def shape(self):
        return self.aval.shape

    @property
    def dtype(self):
        return self.aval.dtype

    @property
    def ndim(self):
        return self.aval.ndim

    @property
    def size(self):
        return self.aval.size

    @property
    def weak_type(self):
        return self.aval.weak_type

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        # Unstacked with unit-stride slices, as JAX's tracers iterate (``x[i]`` would
        # print ``strides=None``).
        return (index_in_dim(self, i, 0, keepdims=False) for i in range(self.shape[0]))

    def __bool__(self):
        v = self.to_concrete_value()
        if v is None:
            raise TracerBoolConversionError(self)
        return bool(v)

    def __int__(self):
        return int(concrete_or_error(
            self, "The problem arose with the `int` function. If trying to convert the data "
                  "type of a value, try using `x.astype(int)` or `jnp.array(x, int)` instead."))

    def __float__(self):
        return float(concrete_or_error(
            self, "The problem arose with the `float` function. If trying to convert the "
                  "data type of a value, try using `x.astype(float)` or "
                  "`jnp.array(x, float)` instead."))

    def __complex__(self):
        return complex(concrete_or_error(self, "The problem arose with the `complex` function."))

    def __index__(self):
        v = self.to_concrete_value()
        if v is None:
            raise TracerIntegerConversionError(self)
        return operator.index(v.item() if hasattr(v, "item") else v)

    def __array__(self, dtype=None, copy=None):
        v = self.to_concrete_value()
        if v is None:
            raise TracerArrayConversionError(self)
        return np.asarray(v, dtype=dtype)

    def item(self, *args):
        v = concrete_or_error(self, "This occurred in the item() method of jax.Array")
        return np.asarray(v).item(*args)

    def tolist(self):
        v = concrete_or_error(
            self, f"The tolist() method was called on traced array with shape "
                  f"{self.aval.str_long()}.")
        return np.asarray(v).tolist()

    def __hash__(self):
        raise TypeError(f"unhashable type: '{type(self).__name__}'")

    def __setitem__(self, idx, value):
        raise TypeError(_IMMUTABLE_MSG)

    def __delitem__(self, idx):
        raise AttributeError("__delitem__")


_IMMUTABLE_MSG = (
    "JAX arrays are immutable and do not support in-place item assignment. Instead of "
    "x[idx] = y, use x = x.at[idx].set(y) or another .at[] method: "
    "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html")


def concrete_or_error(x, context: str = ""):
    """Return the concrete value of ``x`` or raise ``ConcretizationTypeError``."""
    if isinstance(x, Tracer):
        v = x.to_concrete_value()
        if v is None:
            raise ConcretizationTypeError(x, context)
        return v
    return x


def is_concrete(x) -> bool:
    return not isinstance(x, Tracer) or x.to_concrete_value() is not None

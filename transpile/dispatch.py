"""Eager dispatch: what the eval trace does with a primitive applied to concrete values
outside any transformation.

Each (primitive, params, operand signature) is resolved once into a ``_Route``: its
output avals (so abstract evaluation runs once per signature, as JAX caches it) and how
it runs. Elementwise and reduction primitives on large operands
(``COMPILE_MIN_ELEMENTS`` and up) and the primitives ``interpreters.eval.compiled_eagerly``
names (loops) run compiled through the C backend, one executable per signature, built
once per machine into the disk cache (elementwise and reduction kernels on a worker
thread, the NumPy rule answering until the kernel is ready); small signatures are
compiled once called ``HOT_CALLS`` times. Only primitives and dtypes whose kernels give
the NumPy rule's bits are compiled (``_COMPILABLE``); the rest run their NumPy rule
(``interpreters.eval.run_impl``). Float32 XLA-style transcendental functions (exp,
tanh, logistic, log...) whose NumPy rules are slow run on a prebuilt library
(``eager_kernels``, loaded on the worker thread at their first call) until their own
kernel is ready. Without a compiler, or under ``jax_disable_jit``,
everything runs on the NumPy rules. Results are ``Array``s,
or ``CudaArray``s beside a GPU operand. This module sits above the stages it calls, so
``core`` reaches it through the ``core.eager_apply`` hook, set at the bottom of this file.
"""
from __future__ import annotations

import collections
import logging
import queue
import threading

import numpy as np

from . import core, eager_kernels, stages
from .array import Array
from .backend.build import CompileError, CompilerNotFoundError
from .backend.load import PooledArray, wrap_pooled
from .config import config
from .interpreters import eval as eval_mod
from .ir import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from .lax import numpy_bits
from .memory.device_array import CudaArray
from .passes.cse import params_key
from .placement import argument_device
from .sharding import propagate, shards

__all__ = ["apply_primitive", "COMPILE_MIN_ELEMENTS", "HOT_CALLS", "BACKGROUND_BUILDS",
           "clear_eager_cache", "wait_for_builds", "request_prebuilt"]

_logger = logging.getLogger("transpile")

#: Elementwise and reduction primitives whose operands or results have at least this
#: many elements run compiled: there the multithreaded kernel beats NumPy's emulation
#: of XLA's math by 10-30x, and one build per signature is repaid; below it the NumPy
#: rule is about as fast as a compiled call and never waits for a compiler.
COMPILE_MIN_ELEMENTS = 1 << 15
#: Calls of one small signature after which it is compiled too (JAX compiles every
#: signature at its first call; a C build costs more than XLA's, so only hot ones).
HOT_CALLS = 16
#: Build elementwise and reduction kernels on a worker thread: until one is ready its
#: calls run the NumPy rule (the same bits), so no eager call waits for the compiler.
BACKGROUND_BUILDS = True

_F32 = np.dtype(np.float32)


#: primitive -> the operand dtypes for which its compiled kernel gives the NumPy rule's
#: bits (``lax.numpy_bits``; tests/test_eager_dispatch.py checks it case by case)
_COMPILABLE: dict = numpy_bits.ELEMENTWISE
_REDUCTIONS = numpy_bits.REDUCTIONS

#: Full float32 sums at least this long run on the prebuilt library's pairwise sum (the
#: NumPy rule's bits, without its float64 copy); shorter ones cost NumPy little.
SUM_MIN_ELEMENTS = 4096

_ARRAYS = (Array, PooledArray)
_ROUTE_CACHE_SIZE = 4096
_routes: dict = {}
_EAGER_CACHE_SIZE = 256
_eager_exes: "collections.OrderedDict" = collections.OrderedDict()


class _Route:
    """How one (primitive, params, operand signature) runs eagerly."""

    __slots__ = ("out_avals", "weak", "exe", "params", "calls", "compilable", "prebuilt",
                 "prebuilt_ok")

    def __init__(self, out_avals, exe, params, compilable):
        self.out_avals = out_avals
        self.weak = [a.weak_type for a in out_avals]
        self.exe = exe
        #: the prebuilt library's kernel (eager_kernels), used until ``exe`` is ready
        self.prebuilt = None
        self.prebuilt_ok = False
        #: NumPy-rule calls left before a compilable small signature is compiled
        self.calls = HOT_CALLS
        self.compilable = compilable
        # The params ride along so that the ids in the key stay theirs.
        self.params = params


def clear_eager_cache() -> None:
    """Forget every resolved eager signature and its executable."""
    _routes.clear()
    _eager_exes.clear()


_builds: "queue.Queue" = queue.Queue()
_builder_lock = threading.Lock()
_builder: list = []


def wait_for_builds() -> None:
    """Return once every kernel build queued by eager dispatch has finished."""
    _builds.join()


def _build_later(primitive, params, avals, route) -> None:
    """Queue the build of ``route``'s kernel for the worker thread (started on first
    use; a daemon, so a pending build never delays the interpreter's exit)."""
    with _builder_lock:
        if not _builder:
            t = threading.Thread(target=_build_worker, name="transpile-eager-builds",
                                 daemon=True)
            t.start()
            _builder.append(t)
    _builds.put((primitive, params, avals, route))


def _build_worker() -> None:
    while True:
        primitive, params, avals, route = _builds.get()
        try:
            if primitive is None:   # the prebuilt library (built once per machine)
                eager_kernels.load()
                continue
            exe = _build(primitive, params, avals, route.out_avals)
            if exe is not None:
                route.exe = exe
        except Exception:  # noqa: BLE001 - the NumPy rule keeps answering
            _logger.debug("eager build of %s failed", primitive.name, exc_info=True)
        finally:
            _builds.task_done()


def _build(primitive, params, avals, out_avals):
    """The executable of one equation, or None when it cannot be compiled here."""
    ins = tuple(Var(a) for a in avals)
    outs = tuple(Var(a) for a in out_avals)
    eqn = JaxprEqn(ins, outs, primitive, dict(params))
    try:
        return stages.executable_for(ClosedJaxpr(Jaxpr((), ins, outs, (eqn,)), []),
                                     primitive.name)
    except (CompilerNotFoundError, CompileError, NotImplementedError):
        return None


def _compiled_apply(primitive, params, avals, out_avals, vals):
    """Run one equation through the C backend; None when it cannot be compiled here."""
    if config.jax_disable_jit:
        return None
    key = (primitive.name, params_key(params), tuple(avals))
    hit = _eager_exes.get(key)
    if hit is None:
        hit = _eager_exes[key] = (_build(primitive, params, avals, out_avals), params)
        if len(_eager_exes) > _EAGER_CACHE_SIZE:
            _eager_exes.popitem(last=False)
    else:
        _eager_exes.move_to_end(key)
    return None if hit[0] is None else hit[0](vals)


def _wants_compiled(primitive, params, avals, out_avals) -> bool:
    wants_c = eval_mod.compiled_eagerly.get(primitive)
    if wants_c is not None:
        return bool(wants_c(params))
    if not _compilable(primitive, avals):
        return False
    big = max(int(np.prod(a.shape, dtype=np.int64)) for a in (*avals, *out_avals))
    return big >= COMPILE_MIN_ELEMENTS


def _resolve(primitive, args, params) -> _Route:
    avals = [a.aval for a in args]
    out = primitive.abstract_eval(*avals, **params)
    out_avals = list(out) if primitive.multiple_results else [out]
    route = _Route(out_avals, None, params, _compilable(primitive, avals))
    route.prebuilt_ok = ((primitive in eager_kernels.PRIMITIVES and route.compilable
                          or eager_kernels.has_rule_twin(primitive)) and len(avals) == 1
                         and avals[0].dtype == _F32
                         and all(v is None for v in params.values())) or (
        primitive is eager_kernels.SUM and avals[0].dtype == _F32
        and len(params["axes"]) == len(avals[0].shape) >= 1
        and int(np.prod(avals[0].shape, dtype=np.int64)) >= SUM_MIN_ELEMENTS)
    if route.prebuilt_ok:
        request_prebuilt()   # queued before this signature's own build: it is quicker
    if not config.jax_disable_jit and _wants_compiled(primitive, params, avals, out_avals):
        route.compilable = False
        if BACKGROUND_BUILDS and primitive not in eval_mod.compiled_eagerly:
            _build_later(primitive, params, avals, route)
        else:  # loops: their NumPy rule is far slower than a build
            route.exe = _build(primitive, params, avals, out_avals)
    return route


def _compilable(primitive, avals) -> bool:
    dts = _COMPILABLE.get(primitive)
    if dts is None or not avals or avals[-1].dtype not in dts:
        return False
    if len(avals) > 1 and primitive not in _REDUCTIONS:
        # Operands of one shape only: a kernel broadcasting one operand (a scalar, or
        # (4, 1) against (1, 6)) may combine them in the other order, and which of two
        # NaNs propagates then differs from NumPy's.
        shape = avals[0].shape
        return all(a.shape == shape for a in avals)
    return True


def _promote(primitive, args, params, route) -> None:
    """A small signature called ``HOT_CALLS`` times gets its compiled kernel: a cached
    compiled call costs a few microseconds, the NumPy emulation of XLA's math several
    times that; rarely used signatures never wait for the compiler."""
    route.compilable = False
    if config.jax_disable_jit:
        return
    avals = [a.aval for a in args]
    if BACKGROUND_BUILDS:
        _build_later(primitive, params, avals, route)
        return
    exe = _build(primitive, params, avals, route.out_avals)
    if exe is not None:
        route.exe = exe


def apply_primitive(primitive, args, params):
    """Evaluate ``primitive`` on concrete values, returning ``Array``(s)."""
    if shards.STATE.placed:  # some array was placed: results follow their operands
        return propagate.eager(_apply_primitive, primitive, args, params)
    return _apply_primitive(primitive, args, params)


def _apply_primitive(primitive, args, params):
    key = _signature(primitive, args, params)
    if key is None:
        return _apply_general(primitive, args, params)
    route = _routes.get(key)
    if route is None:
        route = _resolve(primitive, args, params)
        if len(_routes) >= _ROUTE_CACHE_SIZE:
            _routes.clear()
        _routes[key] = route
    if route.exe is not None and not config.jax_disable_jit:
        arrays = route.exe.call(args)
    elif route.prebuilt_ok and not config.jax_disable_jit and _prebuilt(primitive, route) \
            and args[0]._value.flags.c_contiguous:
        y, block = route.prebuilt(args[0]._value, pooled=True)
        return Array._new(y, route.weak[0]) if block is None else \
            wrap_pooled(y, block, route.weak[0])
    else:
        if route.compilable:
            route.calls -= 1
            if route.calls <= 0:
                _promote(primitive, args, params, route)
        if not primitive.multiple_results:
            return _run_one(primitive, args, params, route)
        res = eval_mod.run_impl(primitive, [a._value for a in args], params, route.out_avals)
        new = Array._new
        arrays = [new(r, w) for r, w in zip(res, route.weak, strict=True)]
    return arrays if primitive.multiple_results else arrays[0]


def _prebuilt(primitive, route) -> bool:
    """Whether ``route`` has its prebuilt kernel; the first asks for the library to be
    loaded on the worker thread (the NumPy rule answers meanwhile)."""
    if route.prebuilt is None:
        if not eager_kernels.loaded():
            request_prebuilt()
            return False
        route.prebuilt = eager_kernels.kernel_for(primitive, rule=True)
        if route.prebuilt is None:   # no library here (no compiler)
            route.prebuilt_ok = False
            return False
    return True


def request_prebuilt() -> None:
    """Queue the loading (or the one build per machine) of the prebuilt library, once."""
    if not config.jax_disable_jit and eager_kernels.request():
        _build_later(None, None, None, None)


def _run_one(primitive, args, params, route) -> Array:
    """``run_impl`` for one result, with the checks that almost always pass first."""
    with np.errstate(all="ignore"):
        r = primitive.impl(*[a._value for a in args], **params)
    aval = route.out_avals[0]
    if type(r) is not np.ndarray or r.dtype != aval.dtype or r.shape != aval.shape:
        r = eval_mod.conform(r, aval)
    return Array._new(r, route.weak[0])


def _signature(primitive, args, params):
    """The route key of a call on host ``Array``s only (None otherwise): what decides
    the output avals and the compiled code."""
    sig = [primitive, config._trace_key]
    for a in args:
        if type(a) not in _ARRAYS:
            return None
        v = a._value
        sig.append((v.shape, v.dtype, a._weak_type))
    if params:
        try:
            sig.append(params_key(params))
        except TypeError:
            return None
    return tuple(sig)


def _apply_general(primitive, args, params):
    """Operands that are not all host ``Array``s: Python scalars, NumPy values, GPU
    arrays."""
    avals = [core.get_aval(a) for a in args]
    out = primitive.abstract_eval(*avals, **params)
    out_avals = out if primitive.multiple_results else [out]
    vals = [core.to_numpy(a, av) for a, av in zip(args, avals, strict=True)]
    wants_c = eval_mod.compiled_eagerly.get(primitive)
    arrays = None
    if wants_c is not None and wants_c(params):
        arrays = _compiled_apply(primitive, params, avals, out_avals, vals)
    if arrays is None:
        res = eval_mod.run_impl(primitive, vals, params, out_avals)
        arrays = [Array._new(r, aval.weak_type)
                  for r, aval in zip(res, out_avals, strict=True)]
    gpu = argument_device(args)
    if gpu is not None:
        arrays = _onto(gpu, arrays)
    return arrays if primitive.multiple_results else arrays[0]


def _onto(device, arrays) -> list:
    """``arrays`` uploaded to ``device``: an eager operation on a GPU array is computed
    on the host (one primitive is not worth an nvcc build), but its result lives where
    JAX puts it, beside its operand, so the next jitted call runs there too."""
    return [CudaArray.from_host(a._value, a._weak_type, device) for a in arrays]


core.eager_apply = apply_primitive

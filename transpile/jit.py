"""``jit``: signature -> cache -> trace -> execute, and ``make_jaxpr``.

A jitted function is traced once per abstract signature: the pytree structure of
``(args, kwargs)``, each leaf's shape, dtype and weak type, the static arguments'
values, and the trace-changing config options. The cache belongs to the underlying
Python function, so two ``jit(f)`` wrappers share it. Called with tracers (inside
another trace) it stages a ``jit`` equation holding the traced jaxpr; called with
concrete values it runs the jaxpr.
"""
from __future__ import annotations

import dataclasses
import functools
import logging
import time
import weakref
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from . import core, first_call, float_checks, monitoring, tree_util
from .config import config
from .core import Tracer
from .interpreters.eval import eval_jaxpr, eval_jaxpr_numpy
from .interpreters.tracing import DebugInfo, split_tracer_consts, trace_to_jaxpr
from . import stages
from .backend.build import CompilerNotFoundError
from .call_keys import fast_key as _fast_key, same_leaves as _same_leaves, \
    tree_key as _tree_key, unflattener as _unflattener
from .ir import ClosedJaxpr, typecheck
from .jit_args import HashableStatic as _HashableStatic, ShapeDtypeStruct, \
    check_outputs as _check_outputs, describe_at as _describe_at, \
    hash_static as _hash_static, leaf_aval as _leaf_aval, resolve_static as _resolve_static
from .lax import call as lax_call
from .lax.call import jit_p
from .passes import optimize
from .placement import lowering_target, placement
from .sharding import jit_shardings, propagate, shards
from .tree_util import argument_paths as _leaf_paths

_logger = logging.getLogger("transpile")

__all__ = ["jit", "make_jaxpr", "jit_p", "ShapeDtypeStruct", "eval_shape"]


# ---------------------------------------------------------------------------------------
# The jit primitive

# ``jit_p`` is defined in ``lax.call`` (below the passes); its NumPy rule runs the
# optimised jaxpr, which needs the passes, so it is installed here.

#: jaxpr -> its optimised form, which ``_jit_impl`` evaluates
_OPTIMIZED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


@jit_p.def_impl
def _jit_impl(*args, jaxpr: ClosedJaxpr, name: str):
    # A jitted call computes what its compiled code computes: the optimised jaxpr, with
    # multiply-adds fused as XLA fuses them (JAX runs every jit through XLA, eagerly
    # too), while op-by-op eager arithmetic stays unfused, as JAX's.
    run = _OPTIMIZED.get(jaxpr)
    if run is None:
        run = _OPTIMIZED[jaxpr] = optimize(jaxpr)
    return eval_jaxpr_numpy(run.jaxpr, run.consts, *args)


# ---------------------------------------------------------------------------------------
# Trace caches, owned by the underlying function

_caches: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()
_strong_caches: dict = {}


def _cache_for(fun) -> dict:
    try:
        c = _caches.get(fun)
        if c is None:
            c = _caches[fun] = {}
        return c
    except TypeError:
        return _strong_caches.setdefault(id(fun), {})


_wrappers: "weakref.WeakSet[JitWrapped]" = weakref.WeakSet()


def clear_caches() -> None:
    """Drop every jit entry (traced jaxprs and their executables) held in memory."""
    for c in list(_caches.values()) + list(_strong_caches.values()):
        c.clear()
    for w in list(_wrappers):
        w._fast.clear()


@dataclass
class _Entry:
    closed_jaxpr: ClosedJaxpr
    out_tree: tree_util.PyTreeDef
    in_avals: tuple
    has_tracer_consts: bool
    executable: Any = None
    #: CUDA executables by device id
    device_executables: dict = dataclasses.field(default_factory=dict)
    #: whether the program places its results itself (shard_map, with_sharding_constraint)
    places: bool = False


class JitWrapped:
    """The callable ``jit(f)`` returns (``PjitFunction`` in JAX)."""

    def __init__(self, fun: Callable, static_argnums=None, static_argnames=None,
                 donate_argnums=None, donate_argnames=None, inline: bool = False,
                 backend: str | None = None, device=None, keep_unused: bool = False,
                 in_shardings=None, out_shardings=None):
        if not callable(fun):
            raise TypeError(f"Expected a callable value, got {fun!r}")
        jit_shardings.check_spec_tree(in_shardings, "in_shardings")
        jit_shardings.check_spec_tree(out_shardings, "out_shardings")
        self._in_shardings, self._out_shardings = in_shardings, out_shardings
        self._placing = in_shardings is not None or out_shardings is not None
        self._fun = fun
        self._static_argnums, self._static_argnames = _resolve_static(
            fun, static_argnums, static_argnames)
        self._inline = inline
        self._backend = backend
        self._device = device
        self._options_key = (self._static_argnums, self._static_argnames, backend, device)
        self._name = getattr(fun, "__name__", type(fun).__name__)
        self._has_statics = bool(self._static_argnums or self._static_argnames)
        self._fast: dict = {}
        _wrappers.add(self)  # clear_caches empties each one's fast path too
        self._native = True  # False for library helpers: eager calls stay in NumPy
        functools.update_wrapper(self, fun, updated=())

    def __repr__(self) -> str:
        return f"<PjitFunction of {self._fun!r}>"

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)

    # --- signature --------------------------------------------------------------------
    def _split(self, args, kwargs):
        nums, names = self._static_argnums, self._static_argnames
        if nums:
            dyn_args = tuple(a for i, a in enumerate(args) if i not in nums)
            statics = tuple((i, _HashableStatic(a)) for i, a in enumerate(args) if i in nums)
        else:
            dyn_args, statics = tuple(args), ()
        if names and kwargs:
            dyn_kwargs = {k: v for k, v in kwargs.items() if k not in names}
            statics += tuple((k, _HashableStatic(v)) for k, v in sorted(kwargs.items())
                             if k in names)
        else:
            dyn_kwargs = kwargs
        for _, s in statics:
            _hash_static(s.val)
        return dyn_args, dyn_kwargs, statics

    def _signature(self, args, kwargs):
        dyn_args, dyn_kwargs, statics = self._split(args, kwargs)
        leaves, in_tree = tree_util.tree_flatten((dyn_args, dyn_kwargs))
        paths: list = []

        def describe(what, i):
            if what == "fun":
                return repr(self._fun)
            if not paths:
                paths.extend(_leaf_paths(self._fun, args, kwargs))
            return paths[i]

        avals = []
        for i, x in enumerate(leaves):
            aval = getattr(x, "aval", None)
            if aval is None or type(x) is int:
                aval = _leaf_aval(x, functools.partial(_describe_at, describe, i))
            avals.append(aval)
        key = (self._options_key, in_tree, tuple(avals), statics, config.trace_context())
        return key, leaves, in_tree, tuple(avals), statics

    def _rebuild_call(self, in_tree, statics, leaves):
        dyn_args, dyn_kwargs = tree_util.tree_unflatten(in_tree, leaves)
        args = list(dyn_args)
        kwargs = dict(dyn_kwargs)
        for k, s in statics:
            if isinstance(k, int):
                args.insert(k, s.val)
            else:
                kwargs[k] = s.val
        return args, kwargs

    def _trace(self, key, in_tree, avals, statics, args, kwargs, traced_for="jit") -> _Entry:
        out_tree_box = []
        fun = self._fun

        def flat_fun(*tracers):
            a, kw = self._rebuild_call(in_tree, statics, tracers)
            out = fun(*a, **kw)
            out_leaves, out_tree = tree_util.tree_flatten(out)
            _check_outputs(fun, out_leaves)
            out_tree_box.append(out_tree)
            return out_leaves

        debug = DebugInfo.of(fun, traced_for, _leaf_paths(fun, args, kwargs))
        closed = trace_to_jaxpr(flat_fun, avals, debug)
        if config.jax_enable_checks:  # the traced jaxpr's types, checked as JAX does
            typecheck(closed)
        has_tracers = any(isinstance(c, Tracer) for c in closed.consts)
        entry = _Entry(closed, out_tree_box[0], avals, has_tracers,
                       places=propagate.places_results(closed.jaxpr))
        if not has_tracers:
            _cache_for(fun)[key] = entry
        return entry

    def _get_entry(self, args, kwargs):
        key, leaves, in_tree, avals, statics = self._signature(args, kwargs)
        cache = _cache_for(self._fun)
        entry = cache.get(key)
        if entry is None:
            if config.jax_explain_cache_misses or config.jax_log_compiles:
                _explain_miss(self, cache, key, args, kwargs)
            if config.jax_no_tracing:
                raise RuntimeError(f"re-tracing function {_source_info(self._fun)} for "
                                   "`jit`, but 'no_tracing' is set")
            t0 = time.perf_counter()
            entry = self._trace(key, in_tree, avals, statics, args, kwargs)
            monitoring.record_event_duration_secs("/jax/core/compile/jaxpr_trace_duration",
                                                  time.perf_counter() - t0)
            if config.jax_log_compiles:
                _logger.warning("Finished tracing %s for signature (%s) in %.4f s",
                                self._name, ", ".join(a.str_short() for a in avals),
                                time.perf_counter() - t0)
        if entry.places:  # its results carry shardings on every call from now on
            self._placing = True
        return entry, leaves

    def _executable(self, entry: _Entry, device=None):
        if device is not None and device.platform != "cpu":
            exe = entry.device_executables.get(device.id)
            if exe is None:
                exe = entry.device_executables[device.id] = stages.executable_for(
                    entry.closed_jaxpr, self._name, device)
            return exe
        exe = entry.executable
        if exe is None:
            # (the first call may run on NumPy while the library compiles: first_call.py)
            exe = entry.executable = first_call.executable_for(entry.closed_jaxpr,
                                                               self._name)
        elif type(exe) is first_call.FirstCall and not exe.fresh:
            exe = entry.executable = exe.finished()
        return exe

    def _run_device(self, leaves):
        """The device a call with these arguments runs on (None: the CPU): jit's
        ``device``/``backend``, else that of an argument already on a GPU, else the
        default device (``default_device``, ``jax_platform_name``)."""
        return placement(self._backend, self._device, leaves)

    # --- calling ----------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        placing = self._placing
        if (placing or shards.STATE.placed) and not core._state.stack \
                and not config.jax_disable_jit:
            # shardings given, or placed arrays about: the results carry shardings
            return jit_shardings.call(self, self._call, self._in_shardings,
                                      self._out_shardings, args, kwargs)
        out = self._call(*args, **kwargs)
        if self._placing and not placing and not core._state.stack:
            # the first trace found a program that places its results (shard_map)
            return jit_shardings.place(self, out, self._in_shardings, self._out_shardings,
                                       args, kwargs)
        return out

    def _call(self, *args, **kwargs):
        # The cached call: positional arrays only, outside every transformation. The
        # key is what determines the signature (type, shape, dtype, weak type) plus the
        # configuration, so a hit needs no pytree walk, no aval and no tracing.
        key = fast_leaves = None
        if not core._state.stack and self._native and not config._check_special:
            if not kwargs:
                key = _fast_key(args)
                if key is not None:
                    hit = self._fast.get(key)
                    if hit is not None:
                        exe, unflatten = hit
                        return unflatten(exe(args))
            if key is None and not self._has_statics:
                # Containers or keywords: one walk gives both the key and the leaves.
                fast_leaves = []
                key = _tree_key(args, kwargs, fast_leaves)
                if key is not None:
                    hit = self._fast.get(key)
                    if hit is not None:
                        exe, unflatten = hit
                        return unflatten(exe(fast_leaves))
        if config.jax_disable_jit:
            return self._fun(*args, **kwargs)
        entry, leaves = self._get_entry(args, kwargs)
        if core.cur_dynamic_level() < 0 and not entry.has_tracer_consts \
                and not any(isinstance(x, Tracer) for x in leaves) and \
                (self._native or self._compiles_eagerly(entry)):
            # Outside any transformation: run the compiled C (or CUDA).
            exe = self._executable(entry, self._run_device(leaves))
            unflatten = _unflattener(entry.out_tree)
            if key is not None and not self._has_statics and \
                    type(exe) is not first_call.FirstCall and _same_leaves(
                    args if fast_leaves is None else fast_leaves, leaves):
                self._fast[key] = (exe.call, unflatten)
            outs = exe(leaves)
            if config._check_special:  # jax_debug_nans / jax_debug_infs
                float_checks.check_jit_call(self._name, self._fun, args, kwargs, outs)
            return unflatten(outs)
        if self._inline and core.cur_dynamic_level() >= 0:
            # inline=True: splice the body into the enclosing trace, no jit equation.
            outs = eval_jaxpr(entry.closed_jaxpr, None, *leaves)
        else:
            closed, extra = split_tracer_consts(entry.closed_jaxpr)
            outs = jit_p.bind(*extra, *leaves, jaxpr=closed, name=self._name)
        return tree_util.tree_unflatten(entry.out_tree, outs)

    # --- staging API ------------------------------------------------------------------
    def trace(self, *args, **kwargs) -> "Traced":
        """Trace at the given (possibly abstract) arguments; ``.jaxpr`` is the body."""
        entry, _ = self._get_entry(args, kwargs)
        return Traced(self, entry)

    def lower(self, *args, **kwargs):
        """Trace and render C for these arguments (arrays or ``ShapeDtypeStruct``\\ s).

        Returns
        -------
        stages.Lowered
            ``.as_text()`` is the generated C; ``.compile()`` builds it.
        """
        key, leaves, in_tree, avals, statics = self._signature(args, kwargs)
        entry, _ = self._get_entry(args, kwargs)
        target = lowering_target(self._backend, self._device, leaves)
        return stages.Lowered(stages.lower_jaxpr(entry.closed_jaxpr, self._name, target=target),
                              in_tree, entry.out_tree, statics, self._fun)

    def eval_shape(self, *args, **kwargs):
        """The output as a pytree of ``ShapeDtypeStruct``s, without running anything."""
        entry, _ = self._get_entry(args, kwargs)
        return _out_info(entry)

    def _compiles_eagerly(self, entry) -> bool:
        """Whether a library helper called eagerly runs compiled, as JAX runs it: when
        its outputs are large enough (``eager_compile_min`` elements) to repay the
        compiler, and a compiler is there."""
        limit = getattr(self, "_eager_compile_min", None)
        if limit is None or config.jax_disable_jit:
            return False
        size = sum(int(np.prod(a.shape, dtype=np.int64)) for a in entry.closed_jaxpr.out_avals)
        if size < limit:
            return False
        try:
            self._executable(entry)
        except CompilerNotFoundError:
            self._eager_compile_min = None  # no compiler: NumPy from now on
            return False
        return True

    def clear_cache(self) -> None:
        """Forget every traced signature of the underlying function."""
        _cache_for(self._fun).clear()
        self._fast.clear()

    def _cache_size(self) -> int:
        return sum(1 for k in _cache_for(self._fun) if k[0] == self._options_key)


def _source_info(fun) -> str:
    """``name at file:line`` of a Python function, as JAX's messages name it."""
    code = getattr(fun, "__code__", None)
    name = getattr(fun, "__name__", type(fun).__name__)
    return f"{name} at {code.co_filename}:{code.co_firstlineno}" if code else name


def _explain_miss(wrapped, cache, key, args, kwargs) -> None:
    """Log why ``key`` missed: which argument's type differs from a cached signature."""
    options, in_tree, avals, statics, ctx = key
    same = [k for k in cache if k[0] == options]
    if not same:
        _logger.warning("TRACING CACHE MISS at %s: never seen function %s before",
                        wrapped._name, wrapped._name)
        return
    paths = _leaf_paths(wrapped._fun, args, kwargs)
    reasons = []
    for k in same:
        if k[1] != in_tree:
            reasons.append("different input pytree structure")
        elif k[3] != statics:
            reasons.append("different static argument values")
        elif k[4] != ctx:
            reasons.append("different configuration (e.g. jax_enable_x64)")
        else:
            for p, old, new in zip(paths, k[2], avals):
                if old != new:
                    reasons.append(f"for {p} the type changed from {old.str_weak()} "
                                   f"to {new.str_weak()}")
                    break
    _logger.warning("TRACING CACHE MISS at %s because:\n  %s", wrapped._name,
                    "\n  ".join(dict.fromkeys(reasons)) or "new signature")


def _out_info(entry: _Entry):
    return tree_util.tree_unflatten(entry.out_tree, [
        ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type)
        for a in entry.closed_jaxpr.out_avals])


class Traced:
    """The result of ``jit(f).trace(*args)``."""

    def __init__(self, wrapped: JitWrapped, entry: _Entry):
        self._wrapped = wrapped
        self._entry = entry

    @property
    def jaxpr(self) -> ClosedJaxpr:
        return self._entry.closed_jaxpr

    @property
    def fun_name(self) -> str:
        return self._wrapped._name

    @property
    def in_avals(self):
        return self._entry.in_avals

    @property
    def out_avals(self):
        return self._entry.closed_jaxpr.out_avals

    @property
    def out_tree(self):
        return self._entry.out_tree

    @property
    def out_info(self):
        return _out_info(self._entry)


def jit(fun: Callable | None = None, /, *, static_argnums=None, static_argnames=None,
        donate_argnums=None, donate_argnames=None, keep_unused: bool = False, device=None,
        backend: str | None = None, inline: bool = False, in_shardings=None,
        out_shardings=None, compiler_options=None):
    """Compile ``fun`` per abstract signature (``jax.jit``).

    Parameters
    ----------
    fun : callable, optional
        The function to compile. If omitted, ``jit`` returns a decorator.
    static_argnums, static_argnames : int, str or sequences of them
        Arguments passed to ``fun`` as Python values; each new value retraces. They
        must be hashable.
    in_shardings, out_shardings : Sharding, PartitionSpec, or pytree prefixes of them
        The shardings of the positional arguments (a committed argument must already
        have it) and of the results (``None``: derived from the arguments', see
        ``sharding/propagate.py``). A ``PartitionSpec`` takes the mesh of ``set_mesh``.
    donate_argnums, donate_argnames, keep_unused, compiler_options
        Accepted for compatibility.
    device : Device, optional
        Run there (``CpuDevice`` or ``CudaDevice``).
    backend : str, optional
        ``"cpu"`` or ``"cuda"`` (``"gpu"`` too). By default a call runs where its array
        arguments live, else on the default device (``default_device``,
        ``jax_platform_name``/``TRANSPILE_PLATFORM``), else on the CPU.
        ``jit(f, backend="cuda").lower(*args).as_text()`` is the CUDA source on any
        machine; compiling or running it needs a GPU.
    inline : bool
        Accepted for compatibility.

    Returns
    -------
    callable
        With methods ``trace``, ``lower``, ``eval_shape`` and ``clear_cache``.
    """
    def wrap(f):
        return JitWrapped(f, static_argnums, static_argnames, donate_argnums, donate_argnames,
                          inline, backend, device, keep_unused, in_shardings, out_shardings)
    return wrap if fun is None else wrap(fun)


def internal_jit(fun: Callable | None = None, /, *, eager_compile_min: int | None = None,
                 **kwargs):
    """``jit`` for transpile's own library helpers (``jnp.where``, ``jnp.clip``, ...).

    Under a trace they stage a ``jit`` equation exactly as ``jit`` does, so jaxprs read
    as JAX's; called eagerly they run on the NumPy evaluator, like every other eager
    operation, instead of compiling C for each new signature; with
    ``eager_compile_min``, eager calls whose outputs have at least that many elements
    run compiled (the results are the same bits).
    """
    if fun is None:
        return lambda f: internal_jit(f, eager_compile_min=eager_compile_min, **kwargs)
    wrapped = jit(fun, **kwargs)
    wrapped._native = False
    wrapped._eager_compile_min = eager_compile_min
    return wrapped


def make_jaxpr(fun: Callable, static_argnums=(), axis_env=None, return_shape: bool = False):
    """A function that returns the ``ClosedJaxpr`` of ``fun`` at given arguments.

    Parameters
    ----------
    fun : callable
    static_argnums : int or tuple of int
        Arguments to pass as Python values.
    axis_env : None
        Accepted for compatibility.
    return_shape : bool
        Also return the output shapes as ``ShapeDtypeStruct``s.

    Returns
    -------
    callable
        ``(*args, **kwargs) -> ClosedJaxpr`` (or ``(ClosedJaxpr, shapes)``).
    """
    if isinstance(static_argnums, int):
        static_argnums = (static_argnums,)
    static_argnums = tuple(static_argnums)

    @functools.wraps(fun)
    def make(*args, **kwargs):
        statics = tuple((i, _HashableStatic(a)) for i, a in enumerate(args)
                        if i in static_argnums)
        dyn = tuple(a for i, a in enumerate(args) if i not in static_argnums)
        leaves, in_tree = tree_util.tree_flatten((dyn, kwargs))
        paths = _leaf_paths(fun, args, kwargs)
        avals = tuple(_leaf_aval(x, functools.partial(
            _describe_at, lambda w, i: repr(fun) if w == "fun" else paths[i], i))
            for i, x in enumerate(leaves))
        out_tree_box = []

        def flat_fun(*tracers):
            a, kw = tree_util.tree_unflatten(in_tree, tracers)
            a = list(a)
            for i, s in statics:
                a.insert(i, s.val)
            out = fun(*a, **kw)
            out_leaves, out_tree = tree_util.tree_flatten(out)
            _check_outputs(fun, out_leaves)
            out_tree_box.append(out_tree)
            return out_leaves

        debug = DebugInfo.of(fun, "jit", paths)  # JAX says "for jit" here too
        closed = trace_to_jaxpr(flat_fun, avals, debug)
        if return_shape:
            shapes = tree_util.tree_unflatten(out_tree_box[0], [
                ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type)
                for a in closed.out_avals])
            return closed, shapes
        return closed

    return make


def eval_shape(fun: Callable, *args, **kwargs):
    """The output shapes and dtypes of ``fun`` at ``args``, as ``ShapeDtypeStruct``s."""
    return jit(fun).eval_shape(*args, **kwargs)



lax_call.internal_jit = internal_jit

"""JAX's smaller top-level functions: ``jacobian``, ``linear_transpose``,
``closure_convert``, ``clear_caches``, ``named_scope``, ``named_call``,
``ensure_compile_time_eval``, ``live_arrays``.

``transpile/__init__.py`` re-exports them.
"""
from __future__ import annotations

import contextlib
import functools
import gc

import numpy as np

from . import core, tree_util
from .array import Array
from .autodiff import jacrev, vjp
from .interpreters import tracing
from .interpreters.eval import eval_jaxpr
from .jit import clear_caches as _clear_jit_caches
from .memory.device_array import CudaArray

__all__ = ["jacobian", "linear_transpose", "closure_convert", "clear_caches",
           "named_scope", "named_call", "ensure_compile_time_eval", "live_arrays"]

jacobian = jacrev


def clear_caches() -> None:
    """Forget every traced and compiled ``jit`` entry held in memory
    (``jax.clear_caches``); the next call traces again. The on-disk compile cache is
    kept (see ``python -m transpile cache``)."""
    _clear_jit_caches()


@contextlib.contextmanager
def named_scope(name: str):
    """A context naming the operations inside it (``jax.named_scope``).

    transpile keeps no name stack (jaxprs print the same inside and outside), so this
    only checks ``name``.

    Raises
    ------
    TypeError
        When ``name`` is not a string.
    """
    if not isinstance(name, str):
        raise TypeError("named_scope name argument must be a string.")
    yield


def named_call(fun, *, name: str | None = None):
    """``fun`` under a name (``jax.named_call``); like ``named_scope``, no effect on the
    staged program."""
    @functools.wraps(fun)
    def named(*args, **kwargs):
        with named_scope(name if name is not None else getattr(fun, "__name__", "fun")):
            return fun(*args, **kwargs)
    return named


ensure_compile_time_eval = core.ensure_compile_time_eval


def live_arrays(platform=None) -> list:
    """The arrays (host ``Array`` and GPU ``CudaArray``) alive in this process, found
    through the garbage collector. ``platform`` ``'cpu'`` or ``'gpu'``/``'cuda'``
    keeps one kind."""
    kinds = {None: (Array, CudaArray), "cpu": (Array,), "gpu": (CudaArray,),
             "cuda": (CudaArray,)}[platform]
    out = []
    for o in gc.get_objects():
        if isinstance(o, kinds) and (platform != "cpu" or not isinstance(o, CudaArray)):
            out.append(o)
    return out


def _inexact(dt) -> bool:
    return np.issubdtype(dt, np.inexact)


def linear_transpose(fun, *primals, reduce_axes=()):
    """The transpose of the linear function ``fun``: a function from an output
    cotangent to the tuple of input cotangents (``jax.linear_transpose``).

    ``primals`` give the input shapes and dtypes only (arrays or ``ShapeDtypeStruct``).
    transpile transposes ``fun``'s derivative at zero, which is ``fun``'s transpose when
    ``fun`` is linear (and its linearisation at 0 otherwise).

    Raises
    ------
    TypeError
        For a function mixing float and integer types; from the transposed function,
        for a cotangent of the wrong structure, shape or dtype.
    """
    flat, in_tree = tree_util.tree_flatten(primals)
    in_avals = [core.ShapedArray(tuple(x.shape), np.dtype(x.dtype))
                if hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, Array)
                else core.get_aval(x) for x in flat]
    zeros = tree_util.tree_unflatten(
        in_tree, [np.zeros(a.shape, a.dtype) if not a.weak_type else
                  a.dtype.type(0).item() for a in in_avals])
    out, fun_vjp = vjp(fun, *zeros)
    out_leaves, out_tree = tree_util.tree_flatten(out)
    out_avals = [core.get_aval(o) for o in out_leaves]
    in_dtypes = [a.dtype for a in in_avals]
    out_dtypes = [a.dtype for a in out_avals]
    every = in_dtypes + out_dtypes
    if not (all(_inexact(d) for d in every) or all(np.issubdtype(d, np.integer)
                                                   for d in every)):
        raise TypeError("linear_transpose only supports [float or complex] -> [float or "
                        "complex], and integer -> integer functions, but got "
                        f"{in_dtypes} -> {out_dtypes}.")

    def transposed(out_cotangent):
        cts, ct_tree = tree_util.tree_flatten(out_cotangent)
        if ct_tree != out_tree:
            raise TypeError("cotangent tree does not match function output, expected "
                            f"{out_tree} but got {ct_tree}")
        for a, c in zip(out_avals, cts, strict=True):
            got = core.get_aval(c)
            if got.shape != a.shape or got.dtype != a.dtype:
                raise TypeError("cotangent type does not match function output, expected "
                                f"{tuple(out_avals)} but got {cts}")
        return fun_vjp(out_cotangent)

    return tree_util.Partial(transposed)


def _hoistable(c) -> bool:
    # A closed-over tracer of a float type may carry a tangent: it becomes an argument.
    return isinstance(c, core.Tracer) and _inexact(c.aval.dtype)


def closure_convert(fun, *example_args):
    """``fun`` with the float values it closes over (tracers of enclosing
    transformations) made explicit arguments (``jax.closure_convert``).

    Returns
    -------
    converted : callable
        ``converted(*args, *hoisted)`` computes ``fun(*args)``.
    hoisted : list
        The closed-over values, to pass after the arguments.

    Raises
    ------
    TypeError
        When ``converted`` gets arguments of another structure than ``example_args``.
    """
    flat, in_tree = tree_util.tree_flatten(example_args)
    store: dict = {}

    def flat_fun(*leaves):
        out = fun(*tree_util.tree_unflatten(in_tree, list(leaves)))
        out_leaves, store["tree"] = tree_util.tree_flatten(out)
        return out_leaves

    closed = tracing.trace_to_jaxpr(flat_fun, [core.get_aval(x) for x in flat])
    out_tree = store["tree"]
    hoist = [_hoistable(c) for c in closed.consts]
    kept = [c for c, h in zip(closed.consts, hoist, strict=True) if not h]
    hoisted = [c for c, h in zip(closed.consts, hoist, strict=True) if h]

    def converted(*args_and_consts):
        n = len(args_and_consts) - len(hoisted)
        args, given = args_and_consts[:n], iter(args_and_consts[n:])
        kept_it = iter(kept)
        consts = [next(given) if h else next(kept_it) for h in hoist]
        leaves, tree2 = tree_util.tree_flatten(tuple(args))
        if tree2 != in_tree:
            raise TypeError("The inputs to the closure produced by closure_convert must "
                            "have the same Pytree structure as the example arguments "
                            f"passed when closure_convert was called. Expected {in_tree}, "
                            f"but got {tree2}")
        return tree_util.tree_unflatten(out_tree, eval_jaxpr(closed.jaxpr, consts, *leaves))

    return converted, hoisted

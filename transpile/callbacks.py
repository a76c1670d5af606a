"""Host callbacks' API: ``jax.debug.print``, ``jax.debug.callback``, ``pure_callback``
and ``io_callback``.

The primitives and their rules are in ``lax.callbacks``; this module builds their
equations from user functions and pytrees, and gives the backend's loader the Python
function a compiled program calls back into (``backend.load.host_function``).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from . import tree_util
from .backend import load
from .core import ShapedArray
from .lax.callbacks import (HOST_CALLBACKS, _FlatCallback, debug_callback_p,  # noqa: F401
                            debug_print_p, host_function, io_callback_p, pure_callback_p)

__all__ = ["debug_print_p", "debug_callback_p", "pure_callback_p", "io_callback_p",
           "HOST_CALLBACKS", "debug_print", "debug_callback", "pure_callback",
           "io_callback", "host_function"]


def debug_print(fmt: str, *args, ordered: bool = False, **kwargs) -> None:
    """Print ``fmt.format(*args, **kwargs)`` with the runtime values of traced arguments
    (``jax.debug.print``): under ``jit`` when the compiled code runs, once per execution
    and once per loop iteration; under ``vmap`` once per example."""
    leaves, in_tree = tree_util.tree_flatten((args, kwargs))
    has_placeholders = "{" in fmt
    debug_print_p.bind(*leaves, fmt=fmt, in_tree=in_tree, has_placeholders=has_placeholders,
                       np_printoptions=tuple(np.get_printoptions().items()),
                       ordered=bool(ordered))


def debug_callback(callback: Callable, *args, ordered: bool = False, **kwargs) -> None:
    """Call ``callback(*args, **kwargs)`` with runtime values, for its effect only
    (``jax.debug.callback``)."""
    leaves, in_tree = tree_util.tree_flatten((args, kwargs))
    debug_callback_p.bind(*leaves, callback=_FlatCallback(callback, in_tree),
                          ordered=bool(ordered))


def _result_avals(result_shape_dtypes):
    leaves, tree = tree_util.tree_flatten(result_shape_dtypes)
    return tuple(ShapedArray(np.shape(x) if not hasattr(x, "shape") else x.shape,
                             np.dtype(x.dtype)) for x in leaves), tree


def pure_callback(callback: Callable, result_shape_dtypes, *args, sharding=None,
                  vmap_method=None, **kwargs):
    """Call the pure Python function ``callback`` on the runtime values of ``args``; its
    results (of ``result_shape_dtypes``' shapes and dtypes) feed the rest of the program.

    Returns
    -------
    pytree of Array
    """
    leaves, in_tree = tree_util.tree_flatten((args, kwargs))
    avals, out_tree = _result_avals(result_shape_dtypes)
    outs = pure_callback_p.bind(*leaves, callback=_FlatCallback(callback, in_tree),
                                result_avals=avals, vmap_method=vmap_method)
    return tree_util.tree_unflatten(out_tree, outs)


def io_callback(callback: Callable, result_shape_dtypes, *args, sharding=None,
                ordered: bool = False, **kwargs):
    """Call ``callback`` (which may have side effects) on runtime values; its results
    feed the rest of the program (``jax.experimental.io_callback``).

    Returns
    -------
    pytree of Array
    """
    leaves, in_tree = tree_util.tree_flatten((args, kwargs))
    avals, out_tree = _result_avals(result_shape_dtypes)
    outs = io_callback_p.bind(*leaves, callback=_FlatCallback(callback, in_tree),
                              result_avals=avals, ordered=bool(ordered))
    return tree_util.tree_unflatten(out_tree, outs)


load.host_function = host_function  # the loader sits below lax: it is handed this

"""Host callbacks' primitives and rules: ``debug.print``, ``debug.callback``,
``pure_callback`` and ``io_callback`` (JAX's names and jaxpr text; their API functions
are in ``transpile.callbacks``).

Each is a primitive whose NumPy rule calls the Python function. Under ``jit`` the
compiled C calls back into Python at that point of the program (``codegen/plan.py``
plans it as a ``host`` step; ``backend/load.py`` passes a cffi callback), so prints
happen in program order, once per execution and once per loop iteration; an exception
raised by the callback stops the compiled function and is raised again by the jitted
call. ``debug_print``, ``debug_callback`` and ``io_callback`` are effects: passes never
remove, merge, fold or hoist them. Under ``vmap`` a callback runs once per example.
Standalone C export refuses functions with callbacks.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .. import core, tree_util
from ..core import ShapedArray
from ..interpreters import ad, batching
from ..ir import pp_param_rules
from .layout import stack
from .slicing import index_in_dim

__all__ = ["debug_print_p", "debug_callback_p", "pure_callback_p", "io_callback_p",
           "HOST_CALLBACKS", "host_function"]


class _FlatCallback:
    """The Python function of a callback equation, as JAX prints it."""

    def __init__(self, callback_func: Callable, in_tree):
        self.callback_func = callback_func
        self.in_tree = in_tree

    def __repr__(self) -> str:
        return (f"_FlatCallback(callback_func={self.callback_func!r}, "
                f"in_tree={self.in_tree})")

    def __call__(self, *flat):
        args, kwargs = tree_util.tree_unflatten(self.in_tree, list(flat))
        return self.callback_func(*args, **kwargs)


class _Effect:
    def __repr__(self) -> str:
        return "Debug"


DEBUG = _Effect()


def _arrays(vals) -> list:
    return [np.asarray(v) for v in vals]


def _check_results(name: str, results, avals) -> list:
    outs = tree_util.tree_leaves(results)
    if len(outs) != len(avals):
        raise RuntimeError(f"{name} returned {len(outs)} values, expected {len(avals)} "
                           "(the result_shape_dtypes given)")
    fixed = []
    for r, a in zip(outs, avals, strict=True):
        r = np.asarray(r)
        if r.shape != tuple(a.shape) or r.dtype != a.dtype:
            got = ShapedArray(r.shape, r.dtype).str_long()
            raise RuntimeError(f"Incorrect output shape or dtype from the {name}: expected "
                               f"{a.str_long()}, got {got}")
        fixed.append(r)
    return fixed


# ---------------------------------------------------------------------------------------
# Primitives

debug_print_p = core.new_primitive("debug_print", multiple_results=True)
debug_callback_p = core.new_primitive("debug_callback", multiple_results=True)
pure_callback_p = core.new_primitive("pure_callback", multiple_results=True)
io_callback_p = core.new_primitive("io_callback", multiple_results=True)
#: The primitives compiled code calls back into Python for.
HOST_CALLBACKS = frozenset({debug_print_p, debug_callback_p, pure_callback_p, io_callback_p})
for _p in (debug_print_p, debug_callback_p, io_callback_p):
    _p.effectful = True  # prints or does I/O: runs even when its results are unused

debug_print_p.def_abstract_eval(lambda *avals, **params: [])
debug_callback_p.def_abstract_eval(lambda *avals, **params: [])
pure_callback_p.def_abstract_eval(lambda *avals, result_avals, **params: list(result_avals))
io_callback_p.def_abstract_eval(lambda *avals, result_avals, **params: list(result_avals))


def host_function(primitive, params) -> Callable:
    """What a callback equation runs: NumPy arrays in, NumPy arrays (its results) out."""
    if primitive is debug_print_p:
        return lambda *vals: _print(vals, **params) or []
    if primitive is debug_callback_p:
        return lambda *vals: (params["callback"](*vals), [])[1]
    name = "pure_callback" if primitive is pure_callback_p else "io_callback"
    return lambda *vals: _check_results(name, params["callback"](*vals),
                                        params["result_avals"])


def _print(vals, *, fmt, in_tree, np_printoptions, **_):
    args, kwargs = tree_util.tree_unflatten(in_tree, list(_arrays(vals)))
    with np.printoptions(**dict(np_printoptions)):
        print(fmt.format(*args, **kwargs))


debug_print_p.def_impl(lambda *vals, **params: host_function(debug_print_p, params)(*vals))
debug_callback_p.def_impl(
    lambda *vals, **params: (params["callback"](*_arrays(vals)), [])[1])
pure_callback_p.def_impl(
    lambda *vals, **params: host_function(pure_callback_p, params)(*_arrays(vals)))
io_callback_p.def_impl(
    lambda *vals, **params: host_function(io_callback_p, params)(*_arrays(vals)))

pp_param_rules[debug_print_p] = lambda p: [
    ("fmt", p["fmt"]), ("has_placeholders", p["has_placeholders"]),
    ("in_tree", p["in_tree"]), ("logging_record", None),
    ("np_printoptions", p["np_printoptions"]), ("ordered", p["ordered"]),
    ("partitioned", False), ("static_args", ())]
pp_param_rules[debug_callback_p] = lambda p: [
    ("callback", p["callback"]), ("effect", DEBUG), ("partitioned", False)]
pp_param_rules[pure_callback_p] = lambda p: [
    ("callback", p["callback"]), ("result_avals", p["result_avals"]), ("sharding", None),
    ("vmap_method", p["vmap_method"])]
pp_param_rules[io_callback_p] = lambda p: [
    ("callback", p["callback"]), ("ordered", p["ordered"]),
    ("result_avals", p["result_avals"]), ("sharding", None)]


# (``passes`` marks them unfoldable: it owns that table.)


# ---------------------------------------------------------------------------------------
# Differentiation and batching

def _effect_jvp(primitive):
    def rule(primals, tangents, **params):
        primitive.bind(*primals, **params)  # prints (calls) with the primal values
        return [], []
    return rule


ad.jvp_rules[debug_print_p] = _effect_jvp(debug_print_p)
ad.jvp_rules[debug_callback_p] = _effect_jvp(debug_callback_p)


def _no_jvp(what: str):
    def rule(primals, tangents, **params):
        raise ValueError(f"{what} do not support JVP. Please use `jax.custom_jvp` to use "
                         "callbacks while taking gradients.")
    return rule


ad.jvp_rules[pure_callback_p] = _no_jvp("Pure callbacks")
ad.jvp_rules[io_callback_p] = _no_jvp("IO callbacks")


def _sequential(primitive):
    """Run the callback once per example, in order (JAX's "sequential" batching)."""
    def rule(vals, dims, **params):
        size = next(core.get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
        outs_per_lane = []
        for i in range(size):
            lane = [v if d is None else index_in_dim(v, i, d, keepdims=False)
                    for v, d in zip(vals, dims)]
            outs_per_lane.append(primitive.bind(*lane, **params))
        if not outs_per_lane or not outs_per_lane[0]:
            return [], []
        outs = [stack([lane[j] for lane in outs_per_lane], 0)
                for j in range(len(outs_per_lane[0]))]
        return outs, [0] * len(outs)
    return rule


for _p in HOST_CALLBACKS:
    batching.primitive_batchers[_p] = _sequential(_p)

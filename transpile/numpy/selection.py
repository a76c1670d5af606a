"""``jnp.select`` and ``jnp.piecewise``: choosing values elementwise by conditions.

``select`` is built from the same primitives as JAX 0.10.2's (``stack`` of the
conditions, ``argmax``, then ``select_n``), so its jaxpr is JAX's.

``piecewise`` matches JAX's values, dtypes and errors, but not its jaxpr: JAX runs
``lax.switch`` under ``vmap`` inside a nested ``jit``; there is no ``vmap`` yet, so each
element goes through ``lax.switch`` inside a ``lax.map`` (the functions see scalars,
as under ``vmap``).
"""
from __future__ import annotations

import numpy as np

from .. import lax
from ..config import config
from ._util import aval, broadcast_shapes, check_arraylike, convert, promote_dtypes
from .creation import array, asarray
from .reductions import argmax, cumsum
from .shape_ops import broadcast_arrays, broadcast_to, concatenate, reshape, stack

__all__ = ["select", "piecewise"]


def select(condlist, choicelist, default=0):
    """Elementwise, the choice of the first true condition (``default`` where none is).

    Parameters
    ----------
    condlist : sequence of array_like
        Conditions, converted to bool; they broadcast against each other.
    choicelist : sequence of array_like
        One choice per condition, promoted with ``default`` to a common dtype.
    default : array_like, optional
        The value where no condition holds (0 by default).

    Returns
    -------
    Array
        The broadcast shape of the conditions, the choices and ``default``.

    Raises
    ------
    ValueError
        If the lists differ in length or are empty, or the shapes do not broadcast.
    TypeError
        If an element is not an array or scalar.
    """
    if len(condlist) != len(choicelist):
        raise ValueError("condlist must have length equal to choicelist "
                         f"({len(condlist)} vs {len(choicelist)})")
    if len(condlist) == 0:
        raise ValueError("condlist must be non-empty")
    check_arraylike("select", *condlist, *choicelist, default)
    # JAX's order: promote the choices (and default), then pick the index of the first
    # true condition with argmax over [False, *conditions] (0, the default, if none).
    choices = promote_dtypes(default, *choicelist)
    conds = stack(broadcast_arrays(False, *condlist))
    if aval(conds).dtype != np.bool_:
        conds = convert(conds, np.bool_, False)
    index = argmax(conds, axis=0)
    return lax.select_n(*broadcast_arrays(index, *choices))


def _branch(f, kw: dict):
    """``f`` as a ``switch`` branch ``(x, *args) -> x.dtype`` scalar."""
    if not callable(f):
        # JAX passes the constant as an argument of a jit (so ints wrap into x's dtype);
        # with jit disabled it stays a Python value (and an out-of-range int raises).
        value = f if f is None or config.jax_disable_jit else asarray(f)

        def const_branch(x, *args):
            return array(value, dtype=aval(x).dtype)  # wraps out-of-range ints, as JAX
        return const_branch

    def fun_branch(x, *args):
        # JAX casts every piece with ``.astype`` (so a function returning a Python
        # scalar fails with AttributeError there too).
        return f(x, *args, **kw).astype(aval(x).dtype)
    return fun_branch


def piecewise(x, condlist, funclist, *args, **kw):
    """Evaluate a function or constant of ``funclist`` per element of ``x``.

    Where several conditions hold the last one wins (as in NumPy); with one more
    function than conditions, the extra (last) one applies where none holds, else 0
    does. Each function is called on a scalar element (with ``*args, **kw``) and its
    result is cast to ``x``'s dtype.

    Parameters
    ----------
    x : array_like
    condlist : array_like or sequence of array_like
        Boolean conditions; an array counts as a sequence along its first axis.
    funclist : sequence of callables or scalars
        ``len(condlist)`` or ``len(condlist) + 1`` entries.
    *args, **kw
        Passed to every callable in ``funclist``.

    Returns
    -------
    Array
        ``x``'s dtype, broadcast shape of ``x`` and the conditions.

    Raises
    ------
    ValueError
        If ``funclist`` has the wrong length or ``condlist`` is empty.
    """
    x = asarray(x)
    nc, nf = len(condlist), len(funclist)  # (a bare bool condlist fails here, as in JAX)
    conds = asarray(condlist, dtype=np.bool_)
    if nf not in (nc, nc + 1):
        raise ValueError(f"with {nc} condition(s), either {nc} or {nc + 1} functions are "
                         f"expected; got {nf}")
    if nc == 0:
        raise ValueError("attempt to get argmax of an empty sequence")
    funcs = list(funclist)
    default = funcs.pop() if nf == nc + 1 else 0
    branches = [_branch(f, kw) for f in [default, *funcs]]
    # The index of the last true condition plus one (0 where none holds): the first
    # maximum of the running count of true conditions.
    first = broadcast_to(False, (1,) + aval(conds).shape[1:])
    index = argmax(cumsum(concatenate([first, conds], axis=0), axis=0), axis=0)
    shape = broadcast_shapes(aval(index).shape, aval(x).shape)
    index, xb = broadcast_to(index, shape), broadcast_to(x, shape)

    def one(pair):
        i, xi = pair
        return lax.switch(i, branches, xi, *args)

    flat = lax.map(one, (reshape(index, (-1,)), reshape(xb, (-1,))))
    return reshape(flat, shape)

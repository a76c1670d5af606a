"""``jax.flatten_util.ravel_pytree``: a pytree of arrays as one flat vector, and the
function that turns such a vector back into the pytree."""
from __future__ import annotations

import functools
import math

import numpy as np

from . import dtypes, lax
from .numpy._util import aval
from .tree_util import tree_flatten, tree_unflatten

__all__ = ["ravel_pytree"]


def _unravel(treedef, sizes, shapes, from_dtypes, to_dtype, flat):
    if from_dtypes is not None:
        got = dtypes.dtype(flat)
        if got != to_dtype:
            raise TypeError(f"unravel function given array of dtype {got}, but expected "
                            f"dtype {to_dtype}")
    if not sizes:
        return tree_unflatten(treedef, [])
    chunks = lax.split(flat, sizes)
    leaves = [lax.reshape(c, shape) for c, shape in zip(chunks, shapes, strict=True)]
    if from_dtypes is not None:
        leaves = [lax.convert_element_type(x, dt) for x, dt in zip(leaves, from_dtypes,
                                                                    strict=True)]
    return tree_unflatten(treedef, leaves)


def ravel_pytree(pytree):
    """Flatten ``pytree``'s leaves into one 1-D array.

    Leaves of different dtypes are promoted to their common type (``result_type``); the
    unravel function converts each part back to its own dtype.

    Parameters
    ----------
    pytree : pytree of arrays and scalars

    Returns
    -------
    flat : Array
        1-D; ``float32`` and empty for a tree without leaves.
    unravel : callable
        ``flat -> pytree`` of the original structure, shapes and dtypes; it raises
        ``TypeError`` when given an array of another dtype than ``flat``'s (for mixed
        dtypes).
    """
    leaves, treedef = tree_flatten(pytree)
    if not leaves:
        return (lax.full([0], 0, np.float32),
                functools.partial(_unravel, treedef, (), (), None, None))
    from_dtypes = tuple(dtypes.dtype(x) for x in leaves)
    to_dtype = dtypes.result_type(*from_dtypes)
    shapes = tuple(aval(x).shape for x in leaves)
    sizes = tuple(math.prod(s) for s in shapes)
    if all(dt == to_dtype for dt in from_dtypes):
        flat = lax.concatenate([lax.reshape(x, (n,)) for x, n in zip(leaves, sizes,
                                                                      strict=True)], 0)
        return flat, functools.partial(_unravel, treedef, sizes, shapes, None, None)
    flat = lax.concatenate([lax.reshape(lax.convert_element_type(x, to_dtype), (n,))
                            for x, n in zip(leaves, sizes, strict=True)], 0)
    return flat, functools.partial(_unravel, treedef, sizes, shapes, from_dtypes, to_dtype)

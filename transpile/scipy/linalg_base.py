"""Helpers of ``transpile.scipy.linalg``'s modules: JAX-named jits, promotion, and the
broadcasting and core-shape checks ``jnp.vectorize`` makes for the solves."""
from __future__ import annotations

import numpy as np

from ..jit import internal_jit
from ..lax import linalg as lax_linalg
from .. import lax
from ..numpy import _util
from ..numpy.linalg_lu import vectorized

__all__: list = []


def named_jit(fn, name: str, **jit_kw):
    fn.__name__ = fn.__qualname__ = name
    return internal_jit(fn, **jit_kw)


def inexact(*xs) -> list:
    return _util.promote_dtypes_inexact(*[_util.ensure_array(x) for x in xs])


def ndim(x) -> int:
    return _util.aval(x).ndim


def adjoint(x):
    """The conjugate transpose of each matrix (the transpose of a real one)."""
    xt = lax_linalg._swap_last(x)
    return lax.conj(xt) if np.dtype(_util.aval(x).dtype).kind == "c" else xt


def broadcast_batch(a, b, b_core: int):
    """``a`` (``(..., n, n)``) and ``b`` (``b_core`` core axes) with their batch axes
    broadcast against each other."""
    a_shape, b_shape = _util.aval(a).shape, _util.aval(b).shape
    batch = _util.broadcast_shapes(a_shape[:-2], b_shape[:len(b_shape) - b_core])
    out = []
    for x, core_n in ((a, 2), (b, b_core)):
        shape = _util.aval(x).shape
        want = tuple(batch) + tuple(shape[len(shape) - core_n:])
        if tuple(shape) != want:
            x = lax.broadcast_in_dim(x, want, tuple(range(len(want) - len(shape),
                                                          len(want))))
        out.append(x)
    return out


def vector_core(a, b) -> int:
    """The number of core axes of ``b`` in a solve against ``a`` (1: vectors; 2: matrices),
    with JAX's rule for ``b.ndim > 1`` of the vector kind (warned deprecated by JAX)."""
    a_shape, b_shape = _util.aval(a).shape, _util.aval(b).shape
    if len(b_shape) == 1:
        return 1
    if len(a_shape) == len(b_shape) + 1 and a_shape[-1] == b_shape[-1]:
        return 1
    return 2


def check_core(a, b, core_b: int, letter: str = "n") -> None:
    a_shape, b_shape = _util.aval(a).shape, _util.aval(b).shape
    sig = f"({letter},{letter}),({letter})->({letter})" if core_b == 1 else \
        f"({letter},{letter}),({letter},k)->({letter},k)"
    if len(a_shape) < 2 or len(b_shape) < core_b:
        raise ValueError(f"input with shape {tuple(a_shape)} does not have enough dimensions "
                         f"for signature {sig}")
    size_b = b_shape[-1] if core_b == 1 else b_shape[-2]
    for size in (a_shape[-1], size_b):
        if size != a_shape[-2]:
            raise ValueError(f"inconsistent size for core dimension '{letter}': {size} vs "
                             f"{a_shape[-2]} on vectorized function with "
                             f"excluded=frozenset() and signature={sig!r}")


def triangular(a, b, **kw):
    """``lax.linalg.triangular_solve`` (left side) of ``b``'s vectors or matrices, over
    the broadcast batch axes as ``jnp.vectorize`` maps it."""
    core_b = vector_core(a, b)
    check_core(a, b, core_b)
    return vectorized(lambda m, r: lax_linalg.triangular_solve(m, r, left_side=True, **kw),
                      (a, b), (2, core_b))

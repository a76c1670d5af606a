"""Batching rules of the elementwise primitives (``lax/elementwise.py``, ``fma``): the
one-operand ones keep the batch axis where it is; the others broadcast as JAX's
``broadcast_batcher`` does, except ``select_n`` and ``clamp`` (JAX's own rules, below)."""
from __future__ import annotations

from .. import core as _core
from ..core import Primitive
from ..interpreters.batching import (bdim_at_front, defbroadcasting, defvectorized, moveaxis,
                                     primitive_batchers)
from . import elementwise as ew
from . import fma as _fma
from .structural import broadcast, broadcast_in_dim


def _register() -> None:
    prims = [getattr(ew, n) for n in dir(ew) if n.endswith("_p")
             and isinstance(getattr(ew, n), Primitive)] + [_fma.fma_p]
    for p in prims:
        arity = _arity(p)
        if arity == 1:
            defvectorized(p)
        else:
            defbroadcasting(p)


def _arity(p) -> int:
    """How many operands a primitive of this family takes (by its abstract rule)."""
    import inspect
    params = inspect.signature(p.abstract_eval).parameters
    return sum(1 for q in params.values()
               if q.kind in (q.POSITIONAL_ONLY, q.POSITIONAL_OR_KEYWORD))


_register()


# ---------------------------------------------------------------------------------------
# select_n and clamp: their operands do not broadcast (a ``which``/bound is a scalar or
# has the cases' shape), so they have rules of their own, JAX's.

def _nd(x) -> int:
    return len(_core.get_aval(x).shape)


def _select_n_batch(vals, dims):
    (which, *cases), (wbd, *cbds) = vals, dims
    size = next(_core.get_aval(x).shape[d] for x, d in zip(vals, dims) if d is not None)
    shape = lambda x: tuple(_core.get_aval(x).shape)  # noqa: E731
    if all(wbd == d for d in cbds):  # everything batched at the same axis
        if shape(which) != shape(cases[0]):  # a scalar which, batched
            which = broadcast_in_dim(which, shape(cases[0]), [wbd])
        return ew.select_n(which, *cases), wbd
    if not shape(which) and all(d is not None for d in cbds):
        if all(cbds[0] == d for d in cbds[1:]):
            return ew.select_n(which, *cases), cbds[0]
        if all(shape(cases[0]) == shape(c) for c in cases):
            others = [moveaxis(c, d, cbds[0]) for c, d in zip(cases[1:], cbds[1:])]
            return ew.select_n(which, cases[0], *others), cbds[0]
    if shape(which):
        which = bdim_at_front(which, wbd, size)
    if not all(shape(c) == () for c in cases):
        cases = [bdim_at_front(c, d, size) for c, d in zip(cases, cbds)]
    if 0 < _nd(which) < _nd(cases[0]):  # a scalar which, batched
        which = broadcast_in_dim(which, shape(cases[0]), [0])
    if _nd(which) > _nd(cases[0]):  # scalar cases
        cases = [broadcast(c, shape(which)) for c in cases]
    return ew.select_n(which, *cases), 0


def _clamp_batch(vals, dims):
    (lo, x, hi), (lbd, xbd, hbd) = vals, dims
    size = next(_core.get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    shape = lambda v: tuple(_core.get_aval(v).shape)  # noqa: E731
    if lbd == xbd == hbd:
        if shape(lo) == shape(x) == shape(hi) or _nd(lo) == _nd(hi) == 0:
            return ew.clamp_p.bind(lo, x, hi), xbd
        if _nd(lo) == _nd(hi) == 1:
            lo = broadcast_in_dim(lo, shape(x), [lbd])
            hi = broadcast_in_dim(hi, shape(x), [hbd])
            return ew.clamp_p.bind(lo, x, hi), xbd
    elif _nd(lo) == 0 and _nd(hi) == 0 and xbd is not None:
        return ew.clamp_p.bind(lo, x, hi), xbd
    lo = bdim_at_front(lo, lbd, size) if shape(lo) else lo
    hi = bdim_at_front(hi, hbd, size) if shape(hi) else hi
    x = bdim_at_front(x, xbd, size) if shape(x) else x
    if _nd(lo) == 0 and _nd(x) > 0:
        lo = broadcast(lo, shape(x))
    if _nd(hi) == 0 and _nd(x) > 0:
        hi = broadcast(hi, shape(x))
    if 0 < _nd(lo) < _nd(x):
        lo = broadcast_in_dim(lo, shape(x), [0])
    if 0 < _nd(hi) < _nd(x):
        hi = broadcast_in_dim(hi, shape(x), [0])
    if _nd(lo) > _nd(x):
        x = broadcast(x, shape(lo))
    return ew.clamp_p.bind(lo, x, hi), 0


primitive_batchers[ew.select_n_p] = _select_n_batch
primitive_batchers[ew.clamp_p] = _clamp_batch

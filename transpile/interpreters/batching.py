"""Stage 2, transform: automatic batching (``vmap``).

A ``BatchTracer`` holds a value with one extra axis, the batch axis, at ``batch_dim``
(``None``: not batched, the same for every example). Each primitive maps batched
operands to a batched result through its batching rule (``primitive_batchers``):
``rule(vals, dims, **params) -> (out, out_dim)`` (lists of both for primitives with
several results). An operation none of whose operands is batched runs as it is.

Rules live beside their primitives; ``defvectorized`` (one operand, elementwise) and
``defbroadcasting`` (several operands, elementwise with broadcasting, JAX's
``broadcast_batcher``) cover the elementwise families.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .. import core
from ..core import ShapedArray, Trace, Tracer

__all__ = ["not_mapped", "primitive_batchers", "BatchTracer", "BatchTrace",
           "defvectorized", "defbroadcasting", "moveaxis", "bdim_at_front",
           "batch_flat", "matchaxis", "axis_batchers"]

not_mapped = None
#: primitive -> rule(vals, dims, **params) -> (out, out_dim)
primitive_batchers: dict = {}
#: Collectives: primitive -> rule((size, axis_name), vals, dims, **params) -> (out,
#: out_dim). It runs even when no operand is batched (``psum(1., 'i')`` under
#: ``vmap(axis_name='i')``), and does the communication when the primitive names this
#: trace's axis (a reduction, gather or permutation over the batch axis).
axis_batchers: dict = {}


class BatchTracer(Tracer):
    """A value of the batched computation: ``val`` with its batch axis at ``batch_dim``."""
    __slots__ = ("val", "batch_dim")

    def __init__(self, trace, val, batch_dim):
        self._trace = trace
        self.val = val
        self.batch_dim = batch_dim

    @property
    def aval(self) -> ShapedArray:
        a = core.get_aval(self.val)
        if self.batch_dim is not_mapped:
            return a
        shape = a.shape[:self.batch_dim] + a.shape[self.batch_dim + 1:]
        return ShapedArray(shape, a.dtype, a.weak_type)

    def full_lower(self):
        if self.batch_dim is not_mapped:
            return core.full_lower(self.val)
        return self

    def __repr__(self) -> str:
        return (f"VmapTracer(aval={self.aval.str_weak()}, "
                f"batched={core.get_aval(self.val).str_weak()})")

    __str__ = __repr__

    def _origin_msg(self) -> str:
        return ""


class BatchTrace(Trace):
    """Runs batching rules; ``main.payload`` is the batch size (and axis name)."""

    def pure(self, val):
        return BatchTracer(self, val, not_mapped)

    lift = pure

    def process_primitive(self, primitive, tracers, params):
        vals = [t.val for t in tracers]
        dims = [t.batch_dim for t in tracers]
        axis_rule = axis_batchers.get(primitive)
        if axis_rule is not None:
            out, out_dim = axis_rule(self.main.payload, vals, dims, **params)
            if primitive.multiple_results:
                return [BatchTracer(self, o, d) for o, d in zip(out, out_dim, strict=True)]
            return BatchTracer(self, out, out_dim)
        if all(d is not_mapped for d in dims):
            out = primitive.bind(*vals, **params)
            if primitive.multiple_results:
                return [BatchTracer(self, o, not_mapped) for o in out]
            return BatchTracer(self, out, not_mapped)
        rule = primitive_batchers.get(primitive)
        if rule is None:
            raise NotImplementedError(f"Batching rule for '{primitive.name}' not implemented")
        out, out_dim = rule(vals, dims, **params)
        if primitive.multiple_results:
            return [BatchTracer(self, o, d) for o, d in zip(out, out_dim, strict=True)]
        return BatchTracer(self, out, out_dim)


def batch_flat(fun: Callable, vals: list, dims: list, size: int, axis_name=None):
    """Run ``fun`` (flat lists in and out) with ``vals`` batched along ``dims``; the
    outputs and their batch dims (``None`` for unbatched outputs)."""
    with core.new_main(BatchTrace, payload=(size, axis_name)) as main, \
            core.extend_axis_env([] if axis_name is None else [(axis_name, size, main)]):
        trace = BatchTrace(main)
        ins = [BatchTracer(trace, v, d) for v, d in zip(vals, dims, strict=True)]
        outs = [trace.full_raise(o) for o in fun(*ins)]
        return [o.val for o in outs], [o.batch_dim for o in outs]


# ---------------------------------------------------------------------------------------
# Axis helpers

# The primitives these helpers bind live in ``lax``, above the interpreters;
# ``lax.structural_batching`` sets them when imported (``import transpile`` does).
transpose = None
broadcast_in_dim_p = None
expand_dims = None


def moveaxis(x, src: int, dst: int):
    """``x`` with axis ``src`` moved to ``dst`` (a ``transpose``; nothing when equal)."""
    if src == dst:
        return x
    nd = len(core.get_aval(x).shape)
    perm = [i for i in range(nd) if i != src]
    perm.insert(dst, src)
    return transpose(x, tuple(perm))


def bdim_at_front(x, bdim, size: int):
    """``x`` with its batch axis first; an unbatched ``x`` is broadcast to ``size``."""
    if bdim is not_mapped:
        return _broadcast_front(x, size)
    return moveaxis(x, bdim, 0)


def _broadcast_front(x, size: int):
    # NumPy integers in broadcast_dimensions, as JAX's batching prints them
    # (bound directly: the public ``broadcast_in_dim`` would make them Python ints)
    shape = tuple(core.get_aval(x).shape)
    return broadcast_in_dim_p.bind(
        x, shape=(size,) + shape,
        broadcast_dimensions=tuple(np.int64(i) for i in range(1, len(shape) + 1)),
        sharding=None)


def matchaxis(src, dst, x, size: int):
    """``x`` (batch axis at ``src``) with its batch axis at ``dst`` (broadcast when
    unbatched)."""
    if src == dst:
        return x
    if src is not_mapped:
        x = _broadcast_front(x, size)
        src = 0
    if dst is not_mapped:
        raise ValueError("vmap has mapped output but out_axes is None")
    return moveaxis(x, src, dst)


# ---------------------------------------------------------------------------------------
# Rule helpers

def defvectorized(primitive) -> None:
    """One-operand elementwise: the batch axis stays where it is."""
    def rule(vals, dims, **params):
        return primitive.bind(*vals, **params), dims[0]
    primitive_batchers[primitive] = rule


def _handle_scalar_broadcasting(nd: int, x, d):
    ndim = len(core.get_aval(x).shape)
    if d is not_mapped or nd == ndim:
        return x
    return expand_dims(x, tuple(range(ndim, nd)))


def broadcast_batcher(primitive, vals, dims, **params):
    """Elementwise with broadcasting: bind as is when the batched operands agree (and
    the others are scalars); else batch axes first, unbatched operands given a leading
    axis of 1, and the primitive's own broadcasting does the rest."""
    shape, dim = next((core.get_aval(x).shape, d) for x, d in zip(vals, dims)
                      if d is not not_mapped)
    if all(tuple(core.get_aval(x).shape) == tuple(shape) and d == dim
           for x, d in zip(vals, dims) if core.get_aval(x).shape):
        out = primitive.bind(*vals, **params)
        return (out, (dim,) * len(out)) if primitive.multiple_results else (out, dim)
    vals = [bdim_at_front(x, d, 1) if core.get_aval(x).shape else x
            for x, d in zip(vals, dims)]
    nd = max(len(core.get_aval(x).shape) for x in vals)
    vals = [_handle_scalar_broadcasting(nd, x, d) for x, d in zip(vals, dims)]
    out = primitive.bind(*vals, **params)
    return (out, (0,) * len(out)) if primitive.multiple_results else (out, 0)


def defbroadcasting(primitive) -> None:
    """Several operands, elementwise with broadcasting (``broadcast_batcher``)."""
    primitive_batchers[primitive] = \
        lambda vals, dims, **params: broadcast_batcher(primitive, vals, dims, **params)


"""Batching rules of ``cond``, ``while`` and ``scan`` (``lax/control_flow.py``), as
JAX 0.10.2 writes them, and ``batch_jaxpr``, which batches a sub-jaxpr.

``cond``/``switch``
    An unbatched index batches every branch (an output is batched when any branch
    batches it). A batched index runs *every* branch on all examples and picks each
    example's result with ``select_n`` (each branch sees its operands through a
    ``select_n`` with their ``stop_gradient``, JAX's guard for reverse mode).
``while``
    The carries batched by the body are found by a fixed point. An unbatched
    predicate keeps the loop as it is; a batched one makes the condition return one
    predicate per example (``bool[B]``), as in JAX: the loop runs while any example
    is unfinished and a finished example's carry stops changing (``while`` evaluates
    and compiles such a loop through :func:`scalar_predicate_while`).
``scan``
    Consts batched at 0, carries at 0 (a fixed point decides which), ``xs`` and ``ys``
    at 1 (axis 0 is the scanned one).
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters.batching import (batch_flat, bdim_at_front, matchaxis, moveaxis, not_mapped,
                                     primitive_batchers)
from ..interpreters.eval import eval_jaxpr
from ..interpreters.tracing import trace_to_jaxpr
from ..ir import ClosedJaxpr, Var
from . import elementwise as ew
from ._control_flow_tracing import _lift_consts, scalar_predicate_while
from .control_flow import cond_p, scan_p, while_p
from .sorting import stop_gradient
from .structural import broadcast_in_dim

__all__ = ["batch_jaxpr", "batch_jaxpr_axes", "scalar_predicate_while"]


# ---------------------------------------------------------------------------------------
# Batching a sub-jaxpr

def batch_jaxpr_axes(closed: ClosedJaxpr, size: int, in_dims: list, out_dims) -> tuple:
    """``closed`` batched: its inputs carry the batch axis at ``in_dims`` (None: not
    batched). ``out_dims`` is a list with an axis per output (None: left as it comes,
    unbatched if it can be) or ``"natural"`` (every output where batching leaves it).

    Returns
    -------
    (ClosedJaxpr, list)
        The batched jaxpr (its consts, if any, are concrete arrays the batching rules
        made; :func:`_lift_consts` turns them into operands) and the batch axis of each
        output.
    """
    avals = []
    for a, d in zip(closed.in_avals, in_dims, strict=True):
        if d is not_mapped:
            avals.append(a)
        else:
            shape = list(a.shape)
            shape.insert(d, size)
            avals.append(a.update(shape=tuple(shape)))
    store = {}

    def fun(*xs):
        outs, dims = batch_flat(lambda *ys: eval_jaxpr(closed.jaxpr, closed.consts, *ys),
                                list(xs), list(in_dims), size)
        if out_dims == "natural":
            store["dims"] = dims
            return outs
        res, got = [], []
        for o, d, want in zip(outs, dims, out_dims, strict=True):
            if want is not_mapped:
                res.append(o)
                got.append(d)
            else:
                res.append(matchaxis(d, want, o, size))
                got.append(want)
        store["dims"] = got
        return res
    new = trace_to_jaxpr(fun, avals)
    return new, store["dims"]


def batch_jaxpr(closed: ClosedJaxpr, size: int, in_batched: list, instantiate) -> tuple:
    """JAX's ``batch_jaxpr``: inputs batched (at 0) where ``in_batched``; outputs
    batched at 0 where ``instantiate`` (a bool or one per output) or where batching
    makes them so. Returns (jaxpr, which outputs are batched)."""
    n_out = len(closed.out_avals)
    inst = [instantiate] * n_out if isinstance(instantiate, bool) else list(instantiate)
    in_dims = [0 if b else not_mapped for b in in_batched]
    new, dims = batch_jaxpr_axes(closed, size, in_dims, [0 if i else None for i in inst])
    # An output left unbatched by request may still come out batched: move it to 0.
    if any(d not in (0, not_mapped) for d in dims):
        new, dims = batch_jaxpr_axes(closed, size, in_dims,
                                     [0 if i or d is not not_mapped else None
                                      for i, d in zip(inst, dims, strict=True)])
    return new, [d is not not_mapped for d in dims]


def _size(vals, dims) -> int:
    return next(core.get_aval(x).shape[d] for x, d in zip(vals, dims, strict=True)
                if d is not not_mapped)


# ---------------------------------------------------------------------------------------
# cond

def _bcast_select_n(pred, *cases):
    pshape = core.get_aval(pred).shape
    cshape = core.get_aval(cases[0]).shape
    if len(pshape) != len(cshape):
        pred = broadcast_in_dim(pred, cshape, tuple(range(len(pshape))))
    return ew.select_n(pred, *cases)


def _cond_batch(vals, dims, *, branches):
    size = _size(vals, dims)
    index, *ops = vals
    index_dim, *op_dims = dims
    if index_dim is not not_mapped:
        # Every branch runs on every example; select_n picks each example's result.
        index, *ops = [bdim_at_front(x, d, size) for x, d in zip(vals, dims, strict=True)]
        n_in, n_out = len(branches[0].in_avals), len(branches[0].out_avals)
        batched = [batch_jaxpr(b, size, [True] * n_in, True)[0] for b in branches]
        branch_outs = []
        for i, jaxpr in enumerate(batched):
            pred = ew.eq(index, np.int32(i))
            ops_ = [_bcast_select_n(pred, stop_gradient(x), x) for x in ops]
            branch_outs.append(eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *ops_))
        out = [_bcast_select_n(index, *outs) for outs in zip(*branch_outs, strict=True)]
        return out, [0] * n_out
    ops_bat = [d is not not_mapped for d in op_dims]
    ops = [moveaxis(x, d, 0) if b else x for b, x, d in zip(ops_bat, ops, op_dims)]
    outs_bat = [batch_jaxpr(b, size, ops_bat, False)[1] for b in branches]
    out_bat = [any(b) for b in zip(*outs_bat, strict=True)]
    lifted = [_lift_consts(batch_jaxpr(b, size, ops_bat, out_bat)[0]) for b in branches]
    consts = [c for _, cs in lifted for c in cs]
    new_branches = tuple(_pad_consts(j, lifted, k) for k, (j, _) in enumerate(lifted))
    out = cond_p.bind(index, *consts, *ops, branches=new_branches)
    return out, [0 if b else not_mapped for b in out_bat]


def _pad_consts(j: ClosedJaxpr, lifted: list, k: int) -> ClosedJaxpr:
    """Branch ``k`` taking every branch's lifted constants (each branch takes all)."""
    if all(not cs for _, cs in lifted):
        return j
    invars = []
    own = len(lifted[k][1])
    jv = list(j.jaxpr.invars)
    for m, (_, cs) in enumerate(lifted):
        if m == k:
            invars += jv[:own]
        else:
            invars += [Var(core.get_aval(c)) for c in cs]
    new = j.jaxpr.replace(invars=tuple(invars) + tuple(jv[own:]))
    return ClosedJaxpr(new, [])


# ---------------------------------------------------------------------------------------
# while

def _while_batch(vals, dims, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    size = _size(vals, dims)
    nc, nb = cond_nconsts, body_nconsts
    bat = [d is not not_mapped for d in dims]
    cconst_bat, bconst_bat, init_bat = bat[:nc], bat[nc:nc + nb], bat[nc + nb:]
    cconsts, bconsts, init = vals[:nc], vals[nc:nc + nb], vals[nc + nb:]
    cconst_dims, bconst_dims, init_dims = dims[:nc], dims[nc:nc + nb], dims[nc + nb:]
    carry_bat = list(init_bat)
    for _ in range(1 + len(carry_bat)):
        _, out_bat = batch_jaxpr(body_jaxpr, size, bconst_bat + carry_bat, carry_bat)
        if out_bat == carry_bat:
            break
        carry_bat = [a or b for a, b in zip(carry_bat, out_bat, strict=True)]
    _, (pred_bat,) = batch_jaxpr(cond_jaxpr, size, cconst_bat + carry_bat, False)
    if pred_bat:
        carry_dims = [0] * len(carry_bat)
        body, _ = batch_jaxpr_axes(body_jaxpr, size, bconst_dims + carry_dims, carry_dims)
        cond, _ = batch_jaxpr_axes(cond_jaxpr, size, cconst_dims + carry_dims, [0])
    else:
        carry_dims = [0 if b else not_mapped for b in carry_bat]
        body, _ = batch_jaxpr_axes(body_jaxpr, size, bconst_dims + carry_dims, carry_dims)
        cond, _ = batch_jaxpr_axes(cond_jaxpr, size, cconst_dims + carry_dims, [None])
    new_init = [x if new is not_mapped else matchaxis(old, new, x, size)
                for x, old, new in zip(init, init_dims, carry_dims, strict=True)]
    cond, ccs = _lift_consts(cond)
    body, bcs = _lift_consts(body)
    outs = while_p.bind(*ccs, *cconsts, *bcs, *bconsts, *new_init,
                        cond_nconsts=nc + len(ccs), cond_jaxpr=cond,
                        body_nconsts=nb + len(bcs), body_jaxpr=body)
    return outs, carry_dims


# ---------------------------------------------------------------------------------------
# scan

def _scan_batch(vals, dims, *, jaxpr, length, reverse, unroll, num_consts, num_carry):
    size = _size(vals, dims)
    n_ys = len(jaxpr.out_avals) - num_carry
    bat = [d is not not_mapped for d in dims]
    const_bat = bat[:num_consts]
    init_bat = bat[num_consts:num_consts + num_carry]
    xs_bat = bat[num_consts + num_carry:]
    carry_bat = list(init_bat)
    for _ in range(1 + len(carry_bat)):
        batched, out_bat = batch_jaxpr(jaxpr, size, const_bat + carry_bat + xs_bat,
                                       carry_bat + [False] * n_ys)
        carry_out, ys_bat = out_bat[:num_carry], out_bat[num_carry:]
        if carry_out == carry_bat:
            break
        carry_bat = [a or b for a, b in zip(carry_bat, carry_out, strict=True)]
    consts = vals[:num_consts]
    init = vals[num_consts:num_consts + num_carry]
    xs = vals[num_consts + num_carry:]
    c_dims = dims[:num_consts]
    i_dims = dims[num_consts:num_consts + num_carry]
    x_dims = dims[num_consts + num_carry:]
    new_consts = [moveaxis(x, d, 0) if d is not not_mapped else x
                  for x, d in zip(consts, c_dims, strict=True)]
    new_init = [matchaxis(d, 0, x, size) if now else x
                for x, d, now in zip(init, i_dims, carry_bat, strict=True)]
    new_xs = [moveaxis(x, d, 1) if d is not not_mapped else x
              for x, d in zip(xs, x_dims, strict=True)]
    batched, extra = _lift_consts(batched)
    outs = scan_p.bind(*extra, *new_consts, *new_init, *new_xs, jaxpr=batched,
                       length=length, reverse=reverse, unroll=unroll,
                       num_consts=num_consts + len(extra), num_carry=num_carry)
    return outs, ([0 if b else not_mapped for b in carry_bat]
                  + [1 if b else not_mapped for b in ys_bat])


primitive_batchers[cond_p] = _cond_batch
primitive_batchers[while_p] = _while_batch
primitive_batchers[scan_p] = _scan_batch


def lower_vector_predicate_whiles(closed: ClosedJaxpr) -> ClosedJaxpr:
    """``closed`` with every ``while`` whose condition returns one predicate per
    example rewritten by :func:`scalar_predicate_while` (at any depth), for the
    planner; ``closed`` itself when there is none."""
    new, changed = _lower_jaxpr(closed.jaxpr)
    return ClosedJaxpr(new, closed.consts) if changed else closed


def _lower_jaxpr(jaxpr):
    eqns, changed = [], False
    for e in jaxpr.eqns:
        params = {}
        for k, v in e.params.items():
            if isinstance(v, ClosedJaxpr):
                nj, c = _lower_jaxpr(v.jaxpr)
                if c:
                    params[k], changed = ClosedJaxpr(nj, v.consts), True
            elif isinstance(v, tuple) and v and all(isinstance(b, ClosedJaxpr) for b in v):
                lowered = [_lower_jaxpr(b.jaxpr) for b in v]
                if any(c for _, c in lowered):
                    params[k] = tuple(ClosedJaxpr(nj, b.consts)
                                      for (nj, _), b in zip(lowered, v, strict=True))
                    changed = True
        if params:
            e = e.replace(params=dict(e.params, **params))
        if e.primitive is while_p and e.params["cond_jaxpr"].out_avals[0].shape:
            p = e.params
            cj, bj, nb = scalar_predicate_while(p["cond_jaxpr"], p["body_jaxpr"],
                                                p["cond_nconsts"], p["body_nconsts"])
            e = e.replace(invars=tuple(e.invars[:p["cond_nconsts"]]) + tuple(e.invars),
                          params=dict(p, cond_jaxpr=cj, body_jaxpr=bj, body_nconsts=nb))
            changed = True
        eqns.append(e)
    return (jaxpr.replace(eqns=tuple(eqns)) if changed else jaxpr), changed

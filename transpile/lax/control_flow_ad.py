"""Differentiation rules of the primitives that hold sub-jaxprs: ``jit``, ``cond``,
``while`` and ``scan``.

**Forward mode.** Each JVP rule differentiates its sub-jaxpr(s) into a *JVP jaxpr*
(``_jvp_jaxpr``: the primals and the non-zero tangents in, the primal outputs and the
non-zero tangent outputs out, as JAX's ``jvp_jaxpr``) and binds the same primitive
with it. For loops, which carries have non-zero tangents is found by a fixed point:
a carry whose output tangent is non-zero must have a non-zero input tangent too.

**Reverse mode.** Under ``linearize`` a JVP rule gets primals of the enclosing trace
and tangents that are tracers of the tangent-staging trace (``_under_linearize``).
Binding one primitive on both would stage the primal computation into the linear
jaxpr, so the rule splits it, as JAX's partial evaluation does:

* the sub-jaxpr is linearized abstractly (``_lin_jaxpr``) into a *primal jaxpr*
  (primals in; primal outputs and residuals out) and a *linear jaxpr* (residuals and
  non-zero tangents in; tangent outputs out);
* the primitive is bound on the primals with the primal jaxpr (it runs now), and
  again on the residuals and tangents with the linear jaxpr (it is staged).

``cond``'s branches each output every branch's residuals (zeros for the others');
``scan``'s residuals are extra ``ys`` of the primal scan and extra ``xs`` of the linear
scan. The transpose rules then transpose the sub-jaxprs with ``backward_pass``: each
branch of a ``cond``, the body of a ``jit``, and the body of a ``scan`` into a scan
running the other way whose carries are the cotangents of the linear carries and
consts. A ``while`` is staged whole into the linear jaxpr (so ``linearize`` works) and
its transpose raises JAX's error: its trip count is not known ahead.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..interpreters import ad
from ..interpreters.ad import Zero, is_undefined_primal
from ..interpreters.eval import eval_jaxpr
from ..interpreters.tracing import JaxprTrace, _Builder, trace_to_jaxpr
from ..ir import ClosedJaxpr, Jaxpr, Var
from .call import jit_p
from .control_flow import cond_p, scan_p, while_p
from .structural import broadcast_in_dim

__all__ = []

_WHILE_TRANSPOSE_ERROR = (
    "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop "
    "with dynamic start/stop values. Try using lax.scan, or using fori_loop with static "
    "start/stop.")


# ---------------------------------------------------------------------------------------
# Helpers

def _nonzero(t) -> bool:
    """Whether tangent ``t`` carries anything (float0 tangents of ints do not)."""
    return not isinstance(t, Zero) and core.get_aval(t).dtype != ad.float0


def _t_aval(aval):
    """The tangent aval of ``aval``; a weak float keeps its weak type, as in JAX (so
    that loop-carried tangents and cotangents of Python scalars stay weak)."""
    t = ad.tangent_aval(aval)
    return t.update(weak_type=aval.weak_type) if _is_float(aval) else t


def _is_float(aval) -> bool:
    return dtypes.is_float(aval.dtype) or dtypes.is_complex(aval.dtype)


def _zero_tangents(avals) -> list:
    return [Zero(_t_aval(a)) for a in avals]


def _under_linearize(tangents) -> bool:
    """Whether some tangent is a tracer of linearize's tangent-staging trace (the level
    right above a ``LinearizeTrace``): then the primal and tangent parts are bound
    apart."""
    stack = core._state.stack
    for t in tangents:
        if isinstance(t, core.Tracer):
            main = t._trace.main
            lvl = main.level
            if 0 < lvl < len(stack) and stack[lvl] is main and \
                    stack[lvl - 1].trace_type is ad.LinearizeTrace:
                return True
    return False


def _eval_closed(closed: ClosedJaxpr):
    return lambda *args: eval_jaxpr(closed.jaxpr, closed.consts, *args)


def _jvp_jaxpr(closed: ClosedJaxpr, nz: list, inst: list):
    """The JVP of ``closed``: ``(primals, nonzero tangents) -> (primal outputs, nonzero
    tangent outputs)``. ``inst[k]`` forces output ``k``'s tangent to be non-zero (float
    outputs only). Returns the ClosedJaxpr and which output tangents it has."""
    in_avals, out_avals = closed.in_avals, closed.out_avals
    n = len(in_avals)
    box = []

    def fun(*args):
        it = iter(args[n:])
        ts = [next(it) if z else Zero(_t_aval(a))
              for a, z in zip(in_avals, nz, strict=True)]
        outs, t_outs = ad.jvp_flat(_eval_closed(closed), list(args[:n]), ts)
        out_nz = [_is_float(a) and (_nonzero(t) or i)
                  for a, t, i in zip(out_avals, t_outs, inst, strict=True)]
        box.append(out_nz)
        return list(outs) + [ad.instantiate(t) for t, z in zip(t_outs, out_nz, strict=True)
                             if z]
    t_avals = [_t_aval(a) for a, z in zip(in_avals, nz, strict=True) if z]
    return trace_to_jaxpr(fun, list(in_avals) + t_avals), box[0]


def _lin_jaxpr(closed: ClosedJaxpr, nz: list, inst: list):
    """``closed`` linearized at abstract primals.

    Returns
    -------
    (ClosedJaxpr, ClosedJaxpr, list, list)
        The primal jaxpr ``primals -> (outputs, residuals)``; the linear jaxpr
        ``(residuals, nonzero tangents) -> nonzero output tangents``; which outputs have
        tangents; the residuals' avals.
    """
    in_avals, out_avals = closed.in_avals, closed.out_avals
    box = {}

    def fun(*primals):
        builder = _Builder(None)
        with core.new_main(ad.LinearizeTrace) as lin_main, \
                core.new_main(JaxprTrace, payload=builder) as tan_main:
            lin, tan = ad.LinearizeTrace(lin_main), JaxprTrace(tan_main)
            ins = [ad.GradTracer(lin, p, tan.new_arg(_t_aval(a)) if z else Zero(_t_aval(a)))
                   for p, a, z in zip(primals, in_avals, nz, strict=True)]
            outs = [lin.full_raise(o) for o in _eval_closed(closed)(*ins)]
            out_nz = [_is_float(a) and (_nonzero(o.tangent) or i)
                      for a, o, i in zip(out_avals, outs, inst, strict=True)]
            t_outs = [tan.full_raise(_zeros_on(tan, o.tangent.aval)
                                     if isinstance(o.tangent, Zero) else o.tangent)
                      for o, z in zip(outs, out_nz, strict=True) if z]
            res = list(builder.const_vals)
            jaxpr = Jaxpr((), tuple(builder.constvars) + tuple(builder.invars),
                          tuple(t.atom for t in t_outs), tuple(builder.eqns))
        box.update(lin=jaxpr, out_nz=out_nz, nres=len(res))
        return [o.primal for o in outs] + res
    primal = trace_to_jaxpr(fun, list(in_avals))
    res_avals = primal.out_avals[len(out_avals):]
    return primal, ClosedJaxpr(box["lin"], []), box["out_nz"], res_avals


def _zeros_on(trace, aval):
    """Zeros of ``aval`` computed on ``trace`` (not on the enclosing dynamic trace)."""
    lit = trace.pure(np.zeros((), aval.dtype)[()])
    return lit if not aval.shape else broadcast_in_dim(lit, aval.shape, ())


def _transpose_jaxpr(closed: ClosedJaxpr, linear: list, ct_avals: list,
                     ct_nz: list | None = None):
    """``(known inputs, output cotangents) -> cotangents of the linear inputs`` (zeros
    instantiated), where ``linear[i]`` says whether input ``i`` is linear; with
    ``ct_nz``, only the cotangents it marks are inputs (the others are zero)."""
    ct_nz = [True] * len(ct_avals) if ct_nz is None else ct_nz
    j = closed.jaxpr
    known_v = [v for v, lin in zip(j.invars, linear, strict=True) if not lin]
    lin_v = [v for v, lin in zip(j.invars, linear, strict=True) if lin]
    body = j.replace(constvars=tuple(j.constvars) + tuple(known_v), invars=tuple(lin_v))
    nk = len(known_v)

    def fun(*args):
        it = iter(args[nk:])
        cts_out = [next(it) if z else Zero(a) for a, z in zip(ct_avals, ct_nz, strict=True)]
        cts = ad.backward_pass(body, list(closed.consts) + list(args[:nk]), None, cts_out)
        return [ad.instantiate(c) for c in cts]
    return trace_to_jaxpr(fun, [v.aval for v in known_v]
                          + [a for a, z in zip(ct_avals, ct_nz, strict=True) if z])


def _move_invars(closed: ClosedJaxpr, order: list) -> ClosedJaxpr:
    j = closed.jaxpr
    return ClosedJaxpr(j.replace(invars=tuple(j.invars[i] for i in order)), closed.consts)


def _move_outvars(closed: ClosedJaxpr, order: list) -> ClosedJaxpr:
    j = closed.jaxpr
    return ClosedJaxpr(j.replace(outvars=tuple(j.outvars[i] for i in order)), closed.consts)


def _ct_avals(cts, out_avals) -> list:
    """The avals of the cotangents (weak types kept, as the values have them)."""
    return [_t_aval(a) if isinstance(c, Zero) else core.get_aval(c)
            for c, a in zip(cts, out_avals, strict=True)]


def _cts_in(cts, avals) -> list:
    return [ad.zeros_like_aval(_t_aval(a)) if isinstance(c, Zero) else c
            for c, a in zip(cts, avals, strict=True)]


def _split_out(outs, t_outs_nz, out_nz, out_avals):
    it = iter(t_outs_nz)
    ts = [next(it) if z else Zero(_t_aval(a))
          for z, a in zip(out_nz, out_avals, strict=True)]
    return list(outs), ts


# ---------------------------------------------------------------------------------------
# jit

def _jit_jvp(primals, tangents, *, jaxpr, name):
    nz = [_nonzero(t) for t in tangents]
    if not any(nz):
        return jit_p.bind(*primals, jaxpr=jaxpr, name=name), _zero_tangents(jaxpr.out_avals)
    tans = [t for t, z in zip(tangents, nz, strict=True) if z]
    n_out = len(jaxpr.out_avals)
    if _under_linearize(tans):
        prim, lin, out_nz, _ = _lin_jaxpr(jaxpr, nz, [False] * n_out)
        # Residuals that are inputs or primal outputs are passed on as they are (not
        # returned again by the jit), and what only the tangents needed is dropped, as
        # JAX's partial evaluation forwards and prunes them.
        pj = prim.jaxpr
        fwd = [_invar_index(pj, v) for v in pj.outvars[n_out:]]
        out_fwd = [-1 if f >= 0 else _outvar_index(pj, v, n_out)
                   for v, f in zip(pj.outvars[n_out:], fwd, strict=True)]
        pj = pj.replace(outvars=pj.outvars[:n_out] + tuple(
            v for v, f, o in zip(pj.outvars[n_out:], fwd, out_fwd, strict=True)
            if f < 0 and o < 0))
        prim = ClosedJaxpr(_prune(pj), prim.consts)
        outs = jit_p.bind(*primals, jaxpr=prim, name=name)
        it = iter(outs[n_out:])
        res = [primals[f] if f >= 0 else outs[o] if o >= 0 else next(it)
               for f, o in zip(fwd, out_fwd, strict=True)]
        t_outs = jit_p.bind(*res, *tans, jaxpr=lin, name=name)
        return _split_out(outs[:n_out], t_outs, out_nz, jaxpr.out_avals)
    jvp, out_nz = _jvp_jaxpr(jaxpr, nz, [False] * n_out)
    outs = jit_p.bind(*primals, *tans, jaxpr=jvp, name=name)
    return _split_out(outs[:n_out], outs[n_out:], out_nz, jaxpr.out_avals)


def _invar_index(jaxpr: Jaxpr, v) -> int:
    """The position of ``v`` among the invars of ``jaxpr``, or -1."""
    if not isinstance(v, Var):
        return -1
    return next((i for i, w in enumerate(jaxpr.invars) if w is v), -1)


def _outvar_index(jaxpr: Jaxpr, v, n: int) -> int:
    """The position of ``v`` among the first ``n`` outvars of ``jaxpr``, or -1."""
    if not isinstance(v, Var):
        return -1
    return next((i for i, w in enumerate(jaxpr.outvars[:n]) if w is v), -1)


def _prune(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` without the equations nothing reads (effects kept)."""
    used = {v for v in jaxpr.outvars if isinstance(v, Var)}
    kept = []
    for e in reversed(jaxpr.eqns):
        if e.primitive.effectful or any(v in used for v in e.outvars):
            kept.append(e)
            used.update(a for a in e.invars if isinstance(a, Var))
    if len(kept) == len(jaxpr.eqns):
        return jaxpr
    return jaxpr.replace(eqns=tuple(reversed(kept)))


def _jit_transpose(cts, *args, jaxpr, name):
    linear = [is_undefined_primal(a) for a in args]
    ct_nz = [not isinstance(c, Zero) for c in cts]
    t = _transpose_jaxpr(jaxpr, linear, _ct_avals(cts, jaxpr.out_avals), ct_nz)
    known = [a for a in args if not is_undefined_primal(a)]
    res = iter(jit_p.bind(*known, *[c for c in cts if not isinstance(c, Zero)], jaxpr=t,
                          name=name))
    return [next(res) if lin else None for lin in linear]


ad.jvp_rules[jit_p] = _jit_jvp
ad.transpose_rules[jit_p] = _jit_transpose


# ---------------------------------------------------------------------------------------
# cond

def _cond_jvp(primals, tangents, *, branches):
    index, ops = primals[0], primals[1:]
    out_avals = branches[0].out_avals
    nz = [_nonzero(t) for t in tangents[1:]]
    if not any(nz):
        return cond_p.bind(*primals, branches=branches), _zero_tangents(out_avals)
    tans = [t for t, z in zip(tangents[1:], nz, strict=True) if z]
    # An output with a tangent in some branch has one in every branch.
    if _under_linearize(tans):
        return _cond_linearize(index, ops, tans, nz, branches)
    first = [_jvp_jaxpr(b, nz, [False] * len(out_avals)) for b in branches]
    out_nz = [any(col) for col in zip(*[o for _, o in first], strict=True)]
    jvps = tuple(j if o == out_nz else _jvp_jaxpr(b, nz, out_nz)[0]
                 for b, (j, o) in zip(branches, first, strict=True))
    outs = cond_p.bind(index, *ops, *tans, branches=jvps)
    n = len(out_avals)
    return _split_out(outs[:n], outs[n:], out_nz, out_avals)


def _cond_linearize(index, ops, tans, nz, branches):
    out_avals = branches[0].out_avals
    n = len(out_avals)
    first = [_lin_jaxpr(b, nz, [False] * n) for b in branches]
    out_nz = [any(col) for col in zip(*[f[2] for f in first], strict=True)]
    lins = [f if f[2] == out_nz else _lin_jaxpr(b, nz, out_nz)
            for b, f in zip(branches, first, strict=True)]
    # The branches share residual slots of equal types (as JAX merges them); a branch
    # fills the slots it does not use with zeros.
    slots, where = [], []
    for _, _, _, res in lins:
        used, mine = set(), []
        for a in res:
            i = next((i for i, s in enumerate(slots) if s == a and i not in used), None)
            if i is None:
                i = len(slots)
                slots.append(a)
            used.add(i)
            mine.append(i)
        where.append(mine)
    prims, linears = [], []
    for (prim, lin, _, res), mine in zip(lins, where, strict=True):
        def padded(*args, prim=prim, mine=mine):
            outs = _eval_closed(prim)(*args)
            by_slot = dict(zip(mine, outs[n:], strict=True))
            return outs[:n] + [by_slot[i] if i in by_slot else ad.zeros_like_aval(a)
                               for i, a in enumerate(slots)]
        prims.append(trace_to_jaxpr(padded, prim.in_avals))
        j = lin.jaxpr
        by_slot = dict(zip(mine, j.invars[:len(res)], strict=True))
        invars = [by_slot[i] if i in by_slot else Var(a) for i, a in enumerate(slots)]
        linears.append(ClosedJaxpr(j.replace(invars=tuple(invars) + j.invars[len(res):]),
                                   lin.consts))
    outs = cond_p.bind(index, *ops, branches=tuple(prims))
    t_outs = cond_p.bind(index, *outs[n:], *tans, branches=tuple(linears))
    return _split_out(outs[:n], t_outs, out_nz, out_avals)


def _cond_transpose(cts, index, *ops, branches):
    if is_undefined_primal(index):
        raise ValueError("cond index cannot be linear")
    linear = [is_undefined_primal(a) for a in ops]
    out_avals = branches[0].out_avals
    ct_avals = _ct_avals(cts, out_avals)
    ts = tuple(_transpose_jaxpr(b, linear, ct_avals) for b in branches)
    known = [a for a in ops if not is_undefined_primal(a)]
    res = iter(cond_p.bind(index, *known, *_cts_in(cts, out_avals), branches=ts))
    return [None] + [next(res) if lin else None for lin in linear]


ad.jvp_rules[cond_p] = _cond_jvp
ad.transpose_rules[cond_p] = _cond_transpose


# ---------------------------------------------------------------------------------------
# while

def _while_jvp(primals, tangents, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    nc, nb = cond_nconsts, body_nconsts
    params = dict(cond_jaxpr=cond_jaxpr, body_jaxpr=body_jaxpr, cond_nconsts=nc,
                  body_nconsts=nb)
    carry_avals = body_jaxpr.out_avals
    nk = len(carry_avals)
    bconst_nz = [_nonzero(t) for t in tangents[nc:nc + nb]]
    carry_nz = [_nonzero(t) for t in tangents[nc + nb:]]
    if not any(bconst_nz) and not any(carry_nz):
        return while_p.bind(*primals, **params), _zero_tangents(carry_avals)
    for _ in range(nk + 1):  # fixed point: carries whose tangent may become non-zero
        jvp, out_nz = _jvp_jaxpr(body_jaxpr, bconst_nz + carry_nz, carry_nz)
        new = [a or b for a, b in zip(carry_nz, out_nz, strict=True)]
        if new == carry_nz:
            break
        carry_nz = new
    nbt = sum(bconst_nz)
    nkt = sum(carry_nz)
    # jvp takes (bconsts, carry, bconst tangents, carry tangents): the tangents of the
    # consts become consts, those of the carries carries.
    order = (list(range(nb)) + list(range(nb + nk, nb + nk + nbt))
             + list(range(nb, nb + nk)) + list(range(nb + nk + nbt, nb + nk + nbt + nkt)))
    body = _move_invars(jvp, order)
    cj = cond_jaxpr.jaxpr
    extra = [Var(_t_aval(a)) for a, z in zip(carry_avals, carry_nz, strict=True) if z]
    cond = ClosedJaxpr(cj.replace(invars=cj.invars + tuple(extra)), cond_jaxpr.consts)
    bconsts, carry = primals[nc:nc + nb], primals[nc + nb:]
    bt = [t for t, z in zip(tangents[nc:nc + nb], bconst_nz, strict=True) if z]
    kt = [t if _nonzero(t) else ad.zeros_like_aval(_t_aval(a))
          for t, a, z in zip(tangents[nc + nb:], carry_avals, carry_nz, strict=True) if z]
    new_params = dict(cond_jaxpr=cond, body_jaxpr=body, cond_nconsts=nc,
                      body_nconsts=nb + nbt)
    if _under_linearize(bt + kt):
        # The primal loop runs now; the whole JVP loop is staged into the linear jaxpr,
        # where it can be evaluated (linearize) but not transposed.
        outs = while_p.bind(*primals, **params)
        t_outs = while_p.bind(*primals[:nc], *bconsts, *bt, *carry, *kt, **new_params)[nk:]
    else:
        res = while_p.bind(*primals[:nc], *bconsts, *bt, *carry, *kt, **new_params)
        outs, t_outs = res[:nk], res[nk:]
    return _split_out(outs, t_outs, carry_nz, carry_avals)


def _while_transpose(cts, *args, **params):
    raise ValueError(_WHILE_TRANSPOSE_ERROR)


ad.jvp_rules[while_p] = _while_jvp
ad.transpose_rules[while_p] = _while_transpose


# ---------------------------------------------------------------------------------------
# scan

def _scan_jvp(primals, tangents, *, jaxpr, length, reverse, unroll, num_consts,
              num_carry):
    nc, nk = num_consts, num_carry
    params = dict(jaxpr=jaxpr, length=length, reverse=reverse, unroll=unroll,
                  num_consts=nc, num_carry=nk)
    nz = [_nonzero(t) for t in tangents]
    out_avals = _scan_out_avals(jaxpr, length, nk)
    if not any(nz):
        return scan_p.bind(*primals, **params), _zero_tangents(out_avals)
    linearizing = _under_linearize(tangents)
    make = _lin_jaxpr if linearizing else _jvp_jaxpr
    carry_nz = nz[nc:nc + nk]
    n_y = len(jaxpr.out_avals) - nk
    for _ in range(nk + 1):  # fixed point over the carries with non-zero tangents
        made = make(jaxpr, nz[:nc] + carry_nz + nz[nc + nk:], carry_nz + [False] * n_y)
        out_nz = made[1] if not linearizing else made[2]
        new = [a or b for a, b in zip(carry_nz, out_nz[:nk], strict=True)]
        if new == carry_nz:
            break
        carry_nz = new
    nz = nz[:nc] + carry_nz + nz[nc + nk:]
    y_nz = out_nz[nk:]
    ts = [(t if _nonzero(t) else ad.zeros_like_aval(_t_aval(core.get_aval(p))))
          for p, t, z in zip(primals, tangents, nz, strict=True) if z]
    nct, nkt = sum(nz[:nc]), sum(carry_nz)
    nxt = len(ts) - nct - nkt
    nyt = sum(y_nz)
    if linearizing:
        return _scan_linearize(primals, ts, made, params, (nct, nkt, nxt), out_avals)
    jvp = made[0]
    nx = len(primals) - nc - nk
    # jvp: (consts, carry, xs, const_t, carry_t, xs_t) -> (carry, ys, carry_t, ys_t)
    p_c, p_k, p_x = range(nc), range(nc, nc + nk), range(nc + nk, nc + nk + nx)
    b = nc + nk + nx
    t_c, t_k, t_x = (range(b, b + nct), range(b + nct, b + nct + nkt),
                     range(b + nct + nkt, b + nct + nkt + nxt))
    jvp = _move_invars(jvp, [*p_c, *t_c, *p_k, *t_k, *p_x, *t_x])
    n_out = len(jaxpr.out_avals)
    jvp = _move_outvars(jvp, [*range(nk), *range(n_out, n_out + nkt), *range(nk, n_out),
                              *range(n_out + nkt, n_out + nkt + nyt)])
    outs = scan_p.bind(*primals[:nc], *ts[:nct], *primals[nc:nc + nk], *ts[nct:nct + nkt],
                       *primals[nc + nk:], *ts[nct + nkt:], jaxpr=jvp, length=length,
                       reverse=reverse, unroll=unroll, num_consts=nc + nct,
                       num_carry=nk + nkt)
    p_outs = outs[:nk] + outs[nk + nkt:nk + nkt + n_y]
    t_outs = outs[nk:nk + nkt] + outs[nk + nkt + n_y:]
    return _split_out(p_outs, t_outs, carry_nz + y_nz, out_avals)


def _scan_out_avals(jaxpr, length, nk):
    outs = jaxpr.out_avals
    return list(outs[:nk]) + [a.update(shape=(length,) + a.shape) for a in outs[nk:]]


def _scan_linearize(primals, ts, made, params, counts, out_avals):
    """The primal scan, emitting the residuals as extra ys, runs now; the linear scan
    takes them as its leading xs: ``(const tangents; carry tangents; residuals, xs
    tangents)``."""
    prim, lin, out_nz, res_avals = made
    nct, nkt, nxt = counts
    nc, nk = params["num_consts"], params["num_carry"]
    n_out = len(out_avals)
    # Residuals that are consts or xs of the body are passed on as they are: consts as
    # consts of the linear scan, xs as its xs; the others are stacked.
    pj = prim.jaxpr
    fwd = [_invar_index(pj, v) for v in pj.outvars[n_out:]]
    fwd = [f if f < nc or f >= nc + nk else -1 for f in fwd]
    prim = ClosedJaxpr(pj.replace(outvars=pj.outvars[:n_out] + tuple(
        v for v, f in zip(pj.outvars[n_out:], fwd, strict=True) if f < 0)), prim.consts)
    outs = scan_p.bind(*primals, **dict(params, jaxpr=prim))
    stacked = iter(outs[n_out:])
    res = [primals[f] if f >= 0 else next(stacked) for f in fwd]
    is_c = [0 <= f < nc for f in fwd]
    nres = len(res)
    # lin: (residuals, const_t, carry_t, xs_t) -> (carry_t, ys_t)
    r_c = [i for i in range(nres) if is_c[i]]
    r_x = [i for i in range(nres) if not is_c[i]]
    order = [*r_c, *range(nres, nres + nct + nkt), *r_x,
             *range(nres + nct + nkt, nres + nct + nkt + nxt)]
    lin = _move_invars(lin, order)
    t_outs = scan_p.bind(*[res[i] for i in r_c], *ts[:nct + nkt], *[res[i] for i in r_x],
                         *ts[nct + nkt:], jaxpr=lin, length=params["length"],
                         reverse=params["reverse"], unroll=params["unroll"],
                         num_consts=len(r_c) + nct, num_carry=nkt)
    return _split_out(outs[:n_out], t_outs, out_nz, out_avals)


def _scan_transpose(cts, *args, jaxpr, length, reverse, unroll, num_consts, num_carry):
    nc, nk = num_consts, num_carry
    consts, carry, xs = args[:nc], args[nc:nc + nk], args[nc + nk:]
    # The carries are linear (an init that is known is an instantiated zero tangent).
    c_lin = [is_undefined_primal(a) for a in consts]
    x_lin = [is_undefined_primal(a) for a in xs]
    ck = [a for a in consts if not is_undefined_primal(a)]
    xk = [a for a in xs if not is_undefined_primal(a)]
    cl_avals = [_t_aval(a.aval) for a in consts if is_undefined_primal(a)]
    body_avals = jaxpr.in_avals
    k_avals = [_t_aval(a) for a in body_avals[nc:nc + nk]]
    y_avals = [_t_aval(a) for a in jaxpr.out_avals[nk:]]
    xk_avals = [a for a, lin in zip(body_avals[nc + nk:], x_lin, strict=True) if not lin]
    linear = c_lin + [True] * nk + x_lin
    y_nz = [not isinstance(c, Zero) for c in cts[nk:]]
    t = _transpose_jaxpr(jaxpr, linear, k_avals + y_avals, [True] * nk + y_nz)
    y_avals = [a for a, z in zip(y_avals, y_nz, strict=True) if z]
    # t: (ck, xk, ct_carry, ct_y) -> (ct_cl, ct_carry, ct_xl)
    n_ck, n_xk, n_cl = len(ck), len(xk), len(cl_avals)

    def body(*a):
        consts_k = a[:n_ck]
        acc = a[n_ck:n_ck + n_cl]
        ct_k = a[n_ck + n_cl:n_ck + n_cl + nk]
        ct_y = a[n_ck + n_cl + nk:len(a) - n_xk]
        x_k = a[len(a) - n_xk:]
        res = eval_jaxpr(t.jaxpr, t.consts, *consts_k, *x_k, *ct_k, *ct_y)
        acc = [ad.add_tangents(s, r) for s, r in zip(acc, res[:n_cl], strict=True)]
        return acc + list(res[n_cl:])
    body_j = trace_to_jaxpr(body, [core.get_aval(c) for c in ck] + cl_avals + k_avals
                            + y_avals + xk_avals)
    ct_carry = _cts_in(cts[:nk], jaxpr.out_avals[:nk])
    ct_ys = [c for c in cts[nk:] if not isinstance(c, Zero)]
    outs = scan_p.bind(*ck, *[ad.zeros_like_aval(a) for a in cl_avals], *ct_carry, *ct_ys,
                       *xk, jaxpr=body_j, length=length, reverse=not reverse, unroll=unroll,
                       num_consts=n_ck, num_carry=n_cl + nk)
    ct_cl, ct_k, ct_xl = iter(outs[:n_cl]), outs[n_cl:n_cl + nk], iter(outs[n_cl + nk:])
    return ([next(ct_cl) if lin else None for lin in c_lin]
            + [c if is_undefined_primal(a) else None
               for c, a in zip(ct_k, carry, strict=True)]
            + [next(ct_xl) if lin else None for lin in x_lin])


ad.jvp_rules[scan_p] = _scan_jvp
ad.transpose_rules[scan_p] = _scan_transpose

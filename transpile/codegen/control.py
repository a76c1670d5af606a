"""Planning ``cond``, ``while`` and ``scan``: C ``if``/``switch``, ``while`` and ``for``
statements around the fused kernels of their sub-jaxprs.

A control-flow equation becomes one *step* of the entry point holding nested lists of
steps. The steps are plain dicts that ``templates/c/entry.j2`` renders:

``call``     ``{kernel}``: call a planned kernel.
``copy``     ``{dst, src, count, ctype}``: copy ``count`` elements between buffers.
``store``    ``{dst, value}``: write a scalar literal.
``view``     ``{ctype, name, base, offset, writable}``: a pointer into a stacked buffer.
``switch``   ``{comment, index, cases}``: run the case the clamped index selects.
``while``    ``{comment, cond, pred, body}``: ``for (;;) { cond; if (!pred) break; body }``.
``for``      ``{comment, counter, index, length, reverse, body}``: a counted loop.

Sub-jaxprs use buffers, not copies, wherever that is safe: their invars are the
operands' buffers; a scan's ``x`` is a pointer into ``xs``; a value a branch computes
is written straight into the ``cond``'s output, and a ``y`` a scan body computes
straight into its row of ``ys``. Loop carries live in the loop equation's output
buffers: the body writes the next carries to temporaries and, after the whole body has
run, they are copied back (so a body that reads a carry after another carry's update
is computed still sees the old value).
"""
from __future__ import annotations

from ..ir import ClosedJaxpr, Jaxpr, Literal, Var
from . import emit_c

__all__ = ["CONTROL_FLOW", "plan_control"]

CONTROL_FLOW = frozenset({"cond", "while", "scan"})


def plan_control(planner, eqn) -> dict:
    """The step of one control-flow equation (its outputs already have buffers)."""
    return _RULES[eqn.primitive.name](planner, eqn)


# ---------------------------------------------------------------------------------------
# Sub-jaxprs

def _fresh(jaxpr: Jaxpr, planner) -> tuple[Jaxpr, dict]:
    """A copy of ``jaxpr`` with new variables (one sub-jaxpr object can sit in several
    equations after inlining, and each use needs buffers of its own), named like the
    originals."""
    env: dict = {}

    def new(v):
        if not isinstance(v, Var):
            return v
        got = env.get(v)
        if got is None:
            got = env[v] = Var(v.aval)
            name = planner.names.get(v)
            if name is not None:
                # The first copy keeps the printed names; later copies add a suffix.
                claimed = planner.__dict__.setdefault("claimed", set())
                final, k = name, 1
                while final in claimed:
                    k += 1
                    final = f"{name}_{k}"
                claimed.add(final)
                planner.names[got] = final
        return got

    invars = tuple(new(v) for v in jaxpr.invars)
    eqns = [e.replace(invars=tuple(new(a) for a in e.invars),
                      outvars=tuple(new(o) for o in e.outvars)) for e in jaxpr.eqns]
    outvars = tuple(new(a) for a in jaxpr.outvars)
    return Jaxpr((), invars, outvars, tuple(eqns)), env


def _substitute(jaxpr: Jaxpr, lits: dict) -> Jaxpr:
    """``jaxpr`` with the invars in ``lits`` replaced by those literals everywhere."""
    if not lits:
        return jaxpr

    def sub(a):
        return lits.get(a, a) if isinstance(a, Var) else a
    eqns = [e.replace(invars=tuple(sub(a) for a in e.invars)) for e in jaxpr.eqns]
    return jaxpr.replace(eqns=tuple(eqns), outvars=tuple(sub(a) for a in jaxpr.outvars))


def _enter(planner, sub: ClosedJaxpr, operands) -> Jaxpr:
    """Bind a fresh copy of ``sub``'s invars to ``operands`` (buffers, or literals
    substituted into its equations)."""
    assert not sub.consts, "sub-jaxpr consts must be lifted first (passes.lift_consts)"
    j, _ = _fresh(sub.jaxpr, planner)
    lits = {}
    for v, a in zip(j.invars, operands, strict=True):
        if isinstance(a, Literal):
            lits[v] = a
        else:
            planner.buffers[v] = a if not isinstance(a, Var) else planner.buffers[a]
    return _substitute(j, lits)


def _computed(j: Jaxpr) -> set:
    return {o for e in j.eqns for o in e.outvars}


def _assign(planner, src, dst) -> list:
    """Steps writing the value ``src`` (a Literal or Var with a buffer) into buffer ``dst``."""
    if isinstance(src, Literal):
        value = emit_c.literal(src.val, src.aval.dtype)
        if dst.aval.size == 1:
            return [{"kind": "store", "dst": dst.name, "value": value}]
        return [{"kind": "fill", "dst": dst.name, "value": value, "count": dst.aval.size,
                 "ctype": dst.ctype}]
    b = planner.buffers[src]
    if b.name == dst.name:
        return []
    return [{"kind": "copy", "dst": dst.name, "src": b.name, "count": dst.aval.size,
             "ctype": dst.ctype}]


def _scalar(planner, atom) -> str:
    if isinstance(atom, Literal):
        return emit_c.literal(atom.val, atom.aval.dtype)
    return f"{planner.buffers[atom].name}[0]"


def _comment(planner, eqn) -> str:
    outs = " ".join(planner.names.get(o, "_") for o in eqn.outvars)
    ins = " ".join(planner.names.get(a, "?") if isinstance(a, Var) else
                   emit_c.literal(a.val, a.aval.dtype) for a in eqn.invars)
    return f"{outs} = {eqn.primitive.name} {ins}".strip()


# ---------------------------------------------------------------------------------------
# cond

def _cond(planner, eqn) -> dict:
    index, *ops = eqn.invars
    outs = [planner.buffers[o] for o in eqn.outvars]
    cases = []
    for branch in eqn.params["branches"]:
        j = _enter(planner, branch, ops)
        computed, seen = _computed(j), set()
        for o, dst in zip(j.outvars, outs, strict=True):
            # A value the branch computes is written in place, once.
            if isinstance(o, Var) and o in computed and o not in seen:
                planner.buffers[o] = dst
                seen.add(o)
        steps = planner.block(ClosedJaxpr(j, []))
        for o, dst in zip(j.outvars, outs, strict=True):
            steps += _assign(planner, o, dst)
        cases.append(steps)
    return {"kind": "switch", "comment": _comment(planner, eqn),
            "index": _scalar(planner, index), "cases": cases}


# ---------------------------------------------------------------------------------------
# Loops

def _carry_out(planner, j: Jaxpr, outvars, carries) -> tuple[list, list]:
    """Make each next-carry value of a loop body a temporary the body writes and
    nothing else overwrites before the copy-back. Returns (steps to run inside the body
    after its kernels, copy-back steps)."""
    computed, staged, stage_steps, back = _computed(j), set(), [], []
    for o, dst in zip(outvars, carries, strict=True):
        if isinstance(o, Literal):
            back += _assign(planner, o, dst)
            continue
        if o in computed and o not in staged:
            staged.add(o)
            src = o
        else:
            # An operand passed through (maybe another carry): snapshot it first.
            src = Var(o.aval)
            b, _ = planner.temp(src)
            stage_steps += _assign(planner, o, b)
        back += _assign(planner, src, dst)
    return stage_steps, back


def _while(planner, eqn) -> dict:
    p = eqn.params
    nc, nb = p["cond_nconsts"], p["body_nconsts"]
    cconsts, bconsts, init = (eqn.invars[:nc], eqn.invars[nc:nc + nb],
                              eqn.invars[nc + nb:])
    carries = [planner.buffers[o] for o in eqn.outvars]
    steps = []
    for a, dst in zip(init, carries, strict=True):
        steps += _assign(planner, a, dst)
    cj = _enter(planner, p["cond_jaxpr"], list(cconsts) + list(eqn.outvars))
    cond_steps = planner.block(ClosedJaxpr(cj, []))
    bj = _enter(planner, p["body_jaxpr"], list(bconsts) + list(eqn.outvars))
    body_outs = [o for o in bj.outvars if isinstance(o, Var)]
    body_steps = planner.block(ClosedJaxpr(bj, []), keep=body_outs)
    stage, back = _carry_out(planner, bj, bj.outvars, carries)
    steps.append({"kind": "while", "comment": _comment(planner, eqn), "cond": cond_steps,
                  "pred": _scalar(planner, cj.outvars[0]),
                  "body": body_steps + stage + back})
    return steps_block(steps)


def _scan(planner, eqn) -> dict:
    p = eqn.params
    n_c, n_k, length = p["num_consts"], p["num_carry"], p["length"]
    consts = eqn.invars[:n_c]
    init = eqn.invars[n_c:n_c + n_k]
    xs = eqn.invars[n_c + n_k:]
    carry_vars, ys_vars = eqn.outvars[:n_k], eqn.outvars[n_k:]
    carries = [planner.buffers[o] for o in carry_vars]
    steps = []
    for a, dst in zip(init, carries, strict=True):
        steps += _assign(planner, a, dst)
    depth = planner.loop_depth = getattr(planner, "loop_depth", 0) + 1
    counter, index = f"t{depth}", f"i{depth}"
    views = []

    def view(var_like, base, writable):
        from .plan import Buffer
        name = planner.unique(f"{base.name}_row")
        b = Buffer(var_like, name, "view", var_like.aval, 0)
        row = var_like.aval.size
        views.append({"kind": "view", "ctype": base.ctype, "name": name, "base": base.name,
                      "offset": f"{index} * {row}", "writable": writable})
        return b

    x_ops = []
    for a in xs:
        xv = Var(a.aval.update(shape=a.aval.shape[1:]))
        planner.buffers[xv] = view(xv, planner.buffers[a], False)
        x_ops.append(xv)
    j = _enter(planner, p["jaxpr"], list(consts) + list(carry_vars) + x_ops)
    body_carry, body_ys = j.outvars[:n_k], j.outvars[n_k:]
    computed = _computed(j)
    y_rows = []
    for o, yv in zip(body_ys, ys_vars, strict=True):
        rowvar = Var(o.aval)
        row = view(rowvar, planner.buffers[yv], True)
        y_rows.append(row)
        if (isinstance(o, Var) and o in computed and o not in body_carry
                and o not in planner.buffers):
            planner.buffers[o] = row  # computed straight into its row of ys
    keep = [o for o in j.outvars if isinstance(o, Var)]
    body = planner.block(ClosedJaxpr(j, []), keep=keep)
    for o, row in zip(body_ys, y_rows, strict=True):
        body += _assign(planner, o, row)
    stage, back = _carry_out(planner, j, body_carry, carries)
    planner.loop_depth -= 1
    steps.append({"kind": "for", "comment": _comment(planner, eqn), "counter": counter,
                  "index": index if views else None, "length": length,
                  "reverse": bool(p["reverse"]),
                  "body": views + body + stage + back})
    return steps_block(steps)


def steps_block(steps: list) -> dict:
    """Several steps as one (a C block)."""
    return {"kind": "block", "steps": steps}


_RULES = {"cond": _cond, "while": _while, "scan": _scan}

"""Planning ``cond``, ``while`` and ``scan``: C ``if``/``switch``, ``while`` and ``for``
statements around the fused kernels of their sub-jaxprs.

A control-flow equation becomes one *step* of the entry point holding nested lists of
steps. The steps are plain dicts that ``templates/c/entry.j2`` renders:

``call``     ``{kernel}``: call a planned kernel.
``copy``     ``{dst, src, count, ctype}``: copy ``count`` elements between buffers.
``store``    ``{dst, value, ctype}``: write a scalar literal.
``view``     ``{ctype, name, base, offset, writable}``: a pointer into a stacked buffer.
``pointer``  ``{ctype, name, init}``: a pointer variable (a carry's current/next buffer).
``swap``     ``{ctype, a, b}``: exchange two pointer variables.
``copy_if``  ``{dst, src, count, ctype}``: copy unless both point to the same buffer.
``switch``   ``{comment, index, index_buf, index_local, cases}``: run the case the clamped
             index selects (``index_local``: a name for the index read to the host).
``while``    ``{comment, cond, pred, pred_buf, body}``: ``for (;;) { cond; if (!pred) break;
             body }``. (``*_buf``: the buffer holding the scalar, None for a literal.)
``for``      ``{comment, counter, index, length, reverse, body}``: a counted loop.

Sub-jaxprs use buffers, not copies, wherever that is safe: their invars are the
operands' buffers; a scan's ``x`` is a pointer into ``xs``; a value a branch computes
is written straight into the ``cond``'s output, and a ``y`` a scan body computes
straight into its row of ``ys``. Loop carries are double-buffered (``_Carries``): the
body reads the current buffers and writes the next ones, and the pointers swap.
"""
from __future__ import annotations

from ..ir import ClosedJaxpr, Jaxpr, Literal, Var
from ..lax import control_flow
from . import emit_c
from .lowering import CONTROL, Lowering, lowering_of, register
from .program import Buffer

__all__ = ["plan_control"]


def plan_control(planner, eqn) -> dict:
    """The step of one control-flow equation (its outputs already have buffers)."""
    return lowering_of(eqn.primitive).build(planner, eqn)


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
            return [{"kind": "store", "dst": dst.name, "value": value, "ctype": dst.ctype}]
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


def _scalar_buffer(planner, atom) -> str | None:
    """The buffer a scalar the host branches on lives in (None for a literal): the CUDA
    entry reads it from device memory."""
    return None if isinstance(atom, Literal) else planner.buffers[atom].name


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
            "index": _scalar(planner, index), "index_buf": _scalar_buffer(planner, index),
            "index_local": planner.unique("tp_index"), "cases": cases}


# ---------------------------------------------------------------------------------------
# Loops

#: Carries of at most this many elements are copied back rather than double-buffered.
_COPY_MAX = 8


class _Carries:
    """Double-buffered loop carries: the body reads ``<K>_cur`` and writes the next
    value into ``<K>_nxt``; the pointers swap after each iteration, so no carry is
    copied back, and a body reading one carry after computing another still sees the
    old value. ``<K>`` is the loop equation's output buffer, which holds the initial
    value and, after the loop, the final one."""

    def __init__(self, planner, outvars):
        self.planner = planner
        self.outs = [planner.buffers[o] for o in outvars]
        self.cur, self.nxt, self.decls = [], [], []
        self.swapped = []
        for o, b in zip(outvars, self.outs, strict=True):
            spare, _ = planner.temp(Var(o.aval))
            swapped = o.aval.size > _COPY_MAX
            self.swapped.append(swapped)
            if not swapped:
                # Copying a scalar back is free, and fixed addresses let the compiler
                # keep a small loop's state in registers.
                self.cur.append(b)
                self.nxt.append(spare)
                continue
            cur = Buffer(o, planner.unique(f"{b.name}_cur"), "view", o.aval)
            nxt = Buffer(o, planner.unique(f"{b.name}_nxt"), "view", o.aval)
            self.decls += [{"kind": "pointer", "ctype": b.ctype, "name": cur.name,
                            "init": b.name},
                           {"kind": "pointer", "ctype": b.ctype, "name": nxt.name,
                            "init": spare.name}]
            self.cur.append(cur)
            self.nxt.append(nxt)

    def init(self, operands) -> list:
        steps = []
        for a, dst in zip(operands, self.outs, strict=True):
            steps += _assign(self.planner, a, dst)
        return steps + self.decls

    def bind_outputs(self, j: Jaxpr, outvars, carry_invars) -> None:
        """Let the body compute each next carry straight into its ``_nxt`` buffer,
        except a carry updated in place (a scatter of the carry itself), which stays
        in its current buffer."""
        producer = {o: e for e in j.eqns for o in e.outvars}
        seen = set()
        for o, nxt, inv in zip(outvars, self.nxt, carry_invars, strict=True):
            e = producer.get(o)
            if e is None or o in seen or o in self.planner.buffers:
                continue
            seen.add(o)
            if e.primitive.updates_in_place and e.invars[0] is inv:
                continue
            self.planner.buffers[o] = nxt

    def advance(self, outvars) -> list:
        """After the body: write the carries it did not compute in place, then swap."""
        steps = []
        in_place = [isinstance(o, Var) and self.planner.buffers[o].name == cur.name
                    for o, cur in zip(outvars, self.cur, strict=True)]
        for o, nxt, same in zip(outvars, self.nxt, in_place, strict=True):
            if not same:
                steps += _assign(self.planner, o, nxt)
        for cur, nxt, swapped, same in zip(self.cur, self.nxt, self.swapped, in_place,
                                           strict=True):
            if same:
                continue
            if swapped:
                steps.append({"kind": "swap", "ctype": cur.ctype, "a": cur.name,
                              "b": nxt.name})
            else:
                steps.append({"kind": "copy", "dst": cur.name, "src": nxt.name,
                              "count": cur.aval.size, "ctype": cur.ctype})
        return steps

    def finish(self) -> list:
        return [{"kind": "copy_if", "dst": b.name, "src": cur.name, "count": b.aval.size,
                 "ctype": b.ctype}
                for b, cur, swapped in zip(self.outs, self.cur, self.swapped, strict=True)
                if swapped]


def _while(planner, eqn) -> dict:
    p = eqn.params
    nc, nb = p["cond_nconsts"], p["body_nconsts"]
    cconsts, bconsts, init = (eqn.invars[:nc], eqn.invars[nc:nc + nb],
                              eqn.invars[nc + nb:])
    carries = _Carries(planner, eqn.outvars)
    steps = carries.init(init)
    cj = _enter(planner, p["cond_jaxpr"], list(cconsts) + carries.cur)
    cond_steps = planner.block(ClosedJaxpr(cj, []))
    bj = _enter(planner, p["body_jaxpr"], list(bconsts) + carries.cur)
    carry_in = bj.invars[nb:]
    carries.bind_outputs(bj, bj.outvars, carry_in)
    body_outs = [o for o in bj.outvars if isinstance(o, Var)]
    body_steps = planner.block(ClosedJaxpr(bj, []), keep=body_outs, donated=carry_in)
    steps.append({"kind": "while", "comment": _comment(planner, eqn), "cond": cond_steps,
                  "pred": _scalar(planner, cj.outvars[0]),
                  "pred_buf": _scalar_buffer(planner, cj.outvars[0]),
                  "body": body_steps + carries.advance(bj.outvars)})
    return steps_block(steps + carries.finish())


def _scan(planner, eqn) -> dict:
    p = eqn.params
    n_c, n_k, length = p["num_consts"], p["num_carry"], p["length"]
    consts = eqn.invars[:n_c]
    init = eqn.invars[n_c:n_c + n_k]
    xs = eqn.invars[n_c + n_k:]
    carry_vars, ys_vars = eqn.outvars[:n_k], eqn.outvars[n_k:]
    carries = _Carries(planner, carry_vars)
    steps = carries.init(init)
    depth = planner.loop_depth = getattr(planner, "loop_depth", 0) + 1
    counter, index = f"t{depth}", f"i{depth}"
    views = []

    def view(var_like, base, writable):
        name = planner.unique(f"{base.name}_row")
        b = Buffer(var_like, name, "view", var_like.aval, 0)
        views.append({"kind": "view", "ctype": base.ctype, "name": name, "base": base.name,
                      "offset": f"{index} * {var_like.aval.size}", "writable": writable})
        return b

    x_ops = []
    for a in xs:
        xv = Var(a.aval.update(shape=a.aval.shape[1:]))
        planner.buffers[xv] = view(xv, planner.buffers[a], False)
        x_ops.append(xv)
    j = _enter(planner, p["jaxpr"], list(consts) + carries.cur + x_ops)
    body_carry, body_ys = j.outvars[:n_k], j.outvars[n_k:]
    carry_in = j.invars[n_c:n_c + n_k]
    carries.bind_outputs(j, body_carry, carry_in)
    computed = _computed(j)
    y_rows = []
    for o, yv in zip(body_ys, ys_vars, strict=True):
        row = view(Var(o.aval), planner.buffers[yv], True)
        y_rows.append(row)
        if isinstance(o, Var) and o in computed and o not in planner.buffers:
            planner.buffers[o] = row  # computed straight into its row of ys
    keep = [o for o in j.outvars if isinstance(o, Var)]
    body = planner.block(ClosedJaxpr(j, []), keep=keep, donated=carry_in)
    for o, row in zip(body_ys, y_rows, strict=True):
        body += _assign(planner, o, row)
    planner.loop_depth -= 1
    steps.append({"kind": "for", "comment": _comment(planner, eqn), "counter": counter,
                  "index": index if views else None, "length": length,
                  "reverse": bool(p["reverse"]),
                  "body": views + body + carries.advance(body_carry)})
    return steps_block(steps + carries.finish())


def steps_block(steps: list) -> dict:
    """Several steps as one (a C block)."""
    return {"kind": "block", "steps": steps}


# Steps of the entry (``build(planner, eqn) -> step``), not kernels.
register(control_flow.cond_p, Lowering(CONTROL, build=_cond))
register(control_flow.while_p, Lowering(CONTROL, build=_while))
register(control_flow.scan_p, Lowering(CONTROL, build=_scan))

"""Kernel planning: an optimised jaxpr becomes a ``Program`` of fused kernels and buffers.

Input: a ``ClosedJaxpr`` (after ``passes.optimize``). Output: a ``Program``: the entry
point's buffers (inputs, constants, outputs, workspace temporaries with byte offsets
reused once dead) and an ordered list of ``KernelPlan``\\ s, the only thing templates see.

Fusion (what XLA calls loop fusion): walking the equations from last to first, a fusible
equation (elementwise, structural index maps, ``iota``) joins the kernel of its users
when they all sit in one loop or reduction kernel; otherwise its value is materialised
in a buffer and it roots a kernel of its own. Values with several users in one kernel
are computed once per index (locals are memoised by variable and index). Everything
else (``dot_general``, ``sort``, cumulative ops, ``concatenate``, ``argmax``) is a
kernel of its own reading and writing buffers. A group's only value seen outside it is
its root, so running kernels in the order of their roots respects every dependency.
"""
from __future__ import annotations

import importlib

from dataclasses import dataclass, field

import numpy as np

from .. import core
from ..ir import ClosedJaxpr, Literal, Var, _alpha
ew = importlib.import_module("transpile.lax.elementwise")
red = importlib.import_module("transpile.lax.reduction")
slicing = importlib.import_module("transpile.lax.slicing")
structural = importlib.import_module("transpile.lax.structural")
from . import emit_c, kernels
from .body import BodyBuilder, local_name, pointer_name

__all__ = ["Buffer", "KernelPlan", "Program", "plan_program", "PARALLEL_MIN_ELEMENTS"]

#: Below this many elements a kernel runs on the calling thread: starting the OpenMP
#: team costs more than the loop.
PARALLEL_MIN_ELEMENTS = 1 << 16

_INDEX_MAPS = {structural.broadcast_in_dim_p, structural.reshape_p, structural.squeeze_p,
               structural.transpose_p, structural.rev_p, slicing.slice_p, slicing.pad_p,
               slicing.iota_p}
FUSIBLE = frozenset(emit_c.FUSIBLE_ELEMENTWISE | _INDEX_MAPS)
REDUCTIONS = {red.reduce_sum_p: "sum", red.reduce_prod_p: "prod", red.reduce_max_p: "max",
              red.reduce_min_p: "min", red.reduce_and_p: "and", red.reduce_or_p: "or",
              red.reduce_xor_p: "xor"}
#: Fusing these under a broadcast would recompute them for every copy.
_EXPENSIVE = {ew.exp_p, ew.exp2_p, ew.expm1_p, ew.log_p, ew.log1p_p, ew.sin_p, ew.cos_p,
              ew.tan_p, ew.asin_p, ew.acos_p, ew.atan_p, ew.sinh_p, ew.cosh_p, ew.tanh_p,
              ew.asinh_p, ew.acosh_p, ew.atanh_p, ew.logistic_p, ew.erf_p, ew.erf_inv_p,
              ew.pow_p, ew.atan2_p, ew.cbrt_p, ew.div_p, ew.rem_p, ew.sqrt_p, ew.rsqrt_p}


@dataclass
class Buffer:
    """One array the entry point touches.

    ``kind`` is ``input``, ``const``, ``output`` or ``temp``; ``position`` is the index
    among inputs/consts/outputs, or the byte offset in the workspace for temps.
    """
    var: Var
    name: str
    kind: str
    aval: core.ShapedArray
    position: int = 0

    @property
    def ctype(self) -> str:
        return emit_c.stype(self.aval.dtype)

    @property
    def nbytes(self) -> int:
        return int(self.aval.size) * self.aval.dtype.itemsize


@dataclass
class KernelPlan:
    """What one kernel template renders: see ``templates/c/kernel_*.j2``."""
    name: str
    template: str
    comment: str
    reads: list
    writes: list
    fields: dict = field(default_factory=dict)


@dataclass
class Program:
    """Everything the entry template needs."""
    name: str
    inputs: list
    consts: list
    outputs: list
    temps: list
    kernels: list
    workspace_bytes: int
    extra_workspace: list  # C expressions of workspace bytes kernels need themselves
    out_sources: list      # per jaxpr output: ("buffer", i) / ("input", i) / ("const", i) / ("literal", value)


def _names(closed: ClosedJaxpr) -> dict:
    names, n = {}, 0
    j = closed.jaxpr
    for v in list(j.constvars) + list(j.invars) + [o for e in j.eqns for o in e.outvars]:
        if isinstance(v, Var) and v not in names:
            names[v] = _alpha(n)
            n += 1
    return names


def _groups(closed: ClosedJaxpr, materialized: set):
    """Assign equations to fusion groups (see the module docstring)."""
    eqns = closed.jaxpr.eqns
    users: dict = {}
    for k, e in enumerate(eqns):
        for a in e.invars:
            if isinstance(a, Var):
                users.setdefault(a, []).append(k)
    group_of, groups = {}, []
    for k in reversed(range(len(eqns))):
        e = eqns[k]
        if e.primitive in FUSIBLE:
            v = e.outvars[0]
            us = users.get(v, [])
            gids = {group_of[u] for u in us}
            if v not in materialized and len(gids) == 1:
                g = groups[next(iter(gids))]
                if g["kind"] in ("loop", "reduce") and not (
                        e.primitive in _EXPENSIVE and g["size"] > v.aval.size):
                    g["members"].append(k)
                    group_of[k] = g["id"]
                    continue
            materialized.add(v)
            kind = "loop"
            size = v.aval.size
        elif e.primitive in REDUCTIONS:
            kind, size = "reduce", e.invars[0].aval.size
        else:
            kind, size = "opaque", 0
        for a in e.invars:
            if isinstance(a, Var) and kind == "opaque":
                materialized.add(a)
        materialized.update(o for o in e.outvars if kind != "loop" or o is e.outvars[0])
        gid = len(groups)
        groups.append(dict(id=gid, kind=kind, root=k, members=[k], size=size))
        group_of[k] = gid
    # A reduction's operand producers joined it; any other fusible value it reads whose
    # users span several groups was materialised above.
    return sorted(groups, key=lambda g: g["root"])


def _absorb_transposes(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Read a transposed ``dot_general`` operand in place: the dot kernel takes any
    strides, so ``x.T @ y`` needs no transposed copy. Only when the operand's free
    dimensions keep their order, which the output layout depends on."""
    from ..passes.dce import eliminate_dead_code
    dot_p = importlib.import_module("transpile.lax.dot").dot_general_p
    producer = {e.outvars[0]: e for e in closed.jaxpr.eqns if len(e.outvars) == 1}
    eqns, changed = [], False
    for e in closed.jaxpr.eqns:
        if e.primitive is dot_p:
            (lc, rc), (lb, rb) = e.params["dimension_numbers"]
            dims = [[lc, lb], [rc, rb]]
            invars = list(e.invars)
            for side in (0, 1):
                p = producer.get(invars[side])
                if p is None or p.primitive is not structural.transpose_p:
                    continue
                perm = p.params["permutation"]
                contract, batch = dims[side]
                free = [d for d in range(len(perm)) if d not in contract and d not in batch]
                moved = [perm[d] for d in free]
                if moved != sorted(moved):
                    continue
                dims[side] = [tuple(perm[d] for d in contract), tuple(perm[d] for d in batch)]
                invars[side] = p.invars[0]
            if invars != list(e.invars):
                changed = True
                dn = ((dims[0][0], dims[1][0]), (dims[0][1], dims[1][1]))
                e = e.replace(invars=tuple(invars),
                              params={**e.params, "dimension_numbers": dn})
        eqns.append(e)
    if not changed:
        return closed
    return eliminate_dead_code(ClosedJaxpr(closed.jaxpr.replace(eqns=eqns), closed.consts))


def plan_program(closed: ClosedJaxpr, name: str = "f") -> Program:
    """Plan the kernels and buffers of ``closed`` (an optimised jaxpr).

    Parameters
    ----------
    closed : ClosedJaxpr
    name : str
        A C identifier prefix for the entry point and its kernels.

    Returns
    -------
    Program
    """
    closed = _absorb_transposes(closed)
    j = closed.jaxpr
    names = _names(closed)
    out_vars = [o for o in j.outvars if isinstance(o, Var)]
    materialized = set(j.invars) | set(j.constvars) | set(out_vars)
    groups = _groups(closed, materialized)

    buffers: dict = {}
    inputs = [Buffer(v, pointer_name(names[v]), "input", v.aval, i)
              for i, v in enumerate(j.invars)]
    consts = [Buffer(v, pointer_name(names[v]), "const", v.aval, i)
              for i, v in enumerate(j.constvars)]
    for b in inputs + consts:
        buffers.setdefault(b.var, b)
    outputs, out_sources = [], []
    for o in j.outvars:
        if isinstance(o, Literal):
            out_sources.append(("literal", o))
        elif o in buffers and buffers[o].kind in ("input", "const"):
            b = buffers[o]
            out_sources.append((b.kind, b.position))
        else:
            if o not in buffers:
                buffers[o] = Buffer(o, pointer_name(names[o]), "output", o.aval, len(outputs))
                outputs.append(buffers[o])
            out_sources.append(("buffer", buffers[o].position))

    eqns = j.eqns
    # Temporaries: materialised values that are not outputs, with liveness by group.
    last_use: dict = {}
    for gi, g in enumerate(groups):
        for k in g["members"]:
            for a in eqns[k].invars:
                if isinstance(a, Var):
                    last_use[a] = gi
    temps, live, ws_size = [], [], 0
    free: list = []  # (offset, nbytes)
    plans, extra_ws = [], []
    for gi, g in enumerate(groups):
        root = eqns[g["root"]]
        for o in root.outvars:
            if isinstance(o, Var) and o not in buffers:
                nbytes = max(o.aval.size * o.aval.dtype.itemsize, 1)
                nbytes = (nbytes + 63) // 64 * 64
                offset = _take(free, nbytes)
                if offset is None:
                    offset, ws_size = ws_size, ws_size + nbytes
                b = Buffer(o, pointer_name(names[o]), "temp", o.aval, offset)
                buffers[o] = b
                temps.append(b)
                live.append((b, nbytes))
        kname = f"{name}_k{gi}"
        if g["kind"] == "opaque":
            plan = kernels.opaque_kernel(kname, root, buffers, names)
        else:
            plan = _fused_kernel(kname, g, eqns, buffers, names)
        plans.append(plan)
        extra_ws.extend(plan.fields.get("workspace_exprs", []))
        # Release temporaries whose last reader ran.
        still = []
        for b, nbytes in live:
            if last_use.get(b.var, -1) <= gi and gi >= _group_index_of(groups, b.var, eqns):
                free.append((b.position, nbytes))
            else:
                still.append((b, nbytes))
        live = still
    return Program(name, inputs, consts, outputs, temps, plans, ws_size, extra_ws, out_sources)


def _group_index_of(groups, var, eqns) -> int:
    for gi, g in enumerate(groups):
        if var in eqns[g["root"]].outvars:
            return gi
    return -1


def _take(free: list, nbytes: int):
    """Best-fit reuse of a dead temporary's workspace range."""
    best = None
    for i, (off, size) in enumerate(free):
        if size >= nbytes and (best is None or size < free[best][1]):
            best = i
    if best is None:
        return None
    off, size = free.pop(best)
    if size > nbytes:
        free.append((off + nbytes, size - nbytes))
    return off


def _fused_kernel(kname, g, eqns, buffers, names) -> KernelPlan:
    root = eqns[g["root"]]
    members = set(g["members"])
    producer = {e.outvars[0]: e for k, e in enumerate(eqns) if k in members}
    comment = "; ".join(_eqn_text(eqns[k], names) for k in sorted(members))
    if g["kind"] == "reduce":
        return kernels.reduce_kernel(kname, root, producer, buffers, names, comment,
                                     PARALLEL_MIN_ELEMENTS)
    return kernels.loop_kernel(kname, root, producer, buffers, names, comment,
                               PARALLEL_MIN_ELEMENTS)


def _eqn_text(e, names) -> str:
    from .body import eqn_comment
    return eqn_comment(e, names)

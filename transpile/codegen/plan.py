"""Kernel planning: an optimised jaxpr becomes a ``Program`` of fused kernels and buffers.

Input: a ``ClosedJaxpr`` (after ``passes.optimize``). Output: a ``Program``: the entry
point's buffers (inputs, constants, outputs, workspace temporaries with byte offsets
reused once dead) and an ordered list of ``KernelPlan``\\ s, the only thing templates see.

Fusion (what XLA calls loop fusion): walking the equations from last to first, a fusible
equation (elementwise, structural index maps, ``iota``) joins the kernel of its users
when they all sit in one loop or reduction kernel, or in a kernel of its own that
computes that operand itself (``Lowering.fused_operands``: a gather's indices,
wrapped per index vector in its loop); otherwise its value is materialised
in a buffer and it roots a kernel of its own. Values with several users in one kernel
are computed once per index (locals are memoised by variable and index). Everything
else (``dot_general``, ``sort``, cumulative ops, ``concatenate``, ``stack``, ``split``,
``argmax``, byte-copying bitcasts) is a kernel of its own reading and writing buffers.
A group's only value seen outside it is its root, so running kernels in the order of
their roots respects every dependency.

Row fusion (C only): consecutive groups over the same rows holding a reduction over
trailing axes (softmax's max, exp, sum, quotient) become one kernel looping over rows,
each row's phases in turn (``row_kernels.py``); what the run makes and nothing after it
reads lives in locals, not the workspace.

Conv epilogues (C only): later loop groups that read a convolution's output elementwise
and otherwise only values made before it (bias add, activation) run inside the conv
kernel on each block of its output (``conv_epilogue.py``).
"""
from __future__ import annotations

from ..ir import ClosedJaxpr, JaxprEqn, Literal, Var, _alpha, var_names
from ..lax import callbacks as lax_callbacks
from ..lax import contraction, structural
from ..lax import elementwise as ew
from ..lax.control_flow_batching import lower_vector_predicate_whiles
from ..passes.dce import eliminate_dead_code
from . import control, emit_c, kernels, prng_c, row_kernels, special_c  # noqa: F401  (prng_c, special_c fill the table)
from . import window_kernels  # noqa: F401  (fills the table: pooling kernels)
from . import bits_c, math_c  # noqa: F401,E402  (fill the table)
from . import conv_epilogue, small_floats
from .body import BodyBuilder, eqn_comment, local_name, pointer_name
from .lowering import (CONTROL, HOST, INDEX_MAP, RANDOM_SOURCE, REDUCTION, Lowering, fusible,
                       lowering_of, register)
# The plan dataclasses live in ``program`` (the kernel builders use them too).
from .program import PARALLEL_MIN_ELEMENTS, Buffer, KernelPlan, Program

__all__ = ["Buffer", "KernelPlan", "Program", "plan_program", "PARALLEL_MIN_ELEMENTS"]

_HOST_CALLBACKS = lax_callbacks.HOST_CALLBACKS
# A step of the entry that calls back into Python (``Planner.host_step``).
register(_HOST_CALLBACKS, Lowering(HOST))


def _kind(e) -> str | None:
    low = lowering_of(e.primitive)
    return None if low is None else low.kind


def _names(closed: ClosedJaxpr) -> dict:
    """C-safe jaxpr names: those of the printed text (sub-jaxprs included), with unused
    outputs (printed ``_``) given fresh names."""
    names = dict(var_names(closed.jaxpr))
    used = set(names.values())
    n = 0
    for v, name in list(names.items()):
        if name == "_":
            while _alpha(n) in used:
                n += 1
            names[v] = _alpha(n)
            used.add(names[v])
    return names


#: Equations one fused kernel takes at most: gcc's time on a loop body grows faster
#: than its length (a 4,000-statement body took three times as long as sixteen of 256), so a
#: longer chain is cut into kernels of this size, each storing its last value.
MAX_FUSED_EQNS = 256
#: A fused value read at several indices is recomputed at each; past this many
#: per-element operations (its fused producers included) storing it is cheaper.
RECOMPUTE_MAX_OPS = 8


def is_expensive(e) -> bool:
    """Whether recomputing equation ``e`` per use costs more than a store and a load
    (transcendentals, divisions, random bits): one predicate, so it can be swapped.
    A division by a literal is not (gcc makes one by a power of two a product; a mean's
    ``sum / n`` then fuses into its readers instead of taking a kernel of its own)."""
    if e.primitive is ew.div_p and isinstance(e.invars[1], Literal):
        return False
    return e.primitive.expensive


def _op_cost(e) -> int:
    return RECOMPUTE_MAX_OPS + 1 if is_expensive(e) else 1


def _fused_costs(eqns) -> dict:
    """Var -> per-element operations to compute it when all its fusible producers are
    fused in (an upper bound, capped just past ``RECOMPUTE_MAX_OPS`` so it stays cheap
    on long chains)."""
    cap = RECOMPUTE_MAX_OPS + 1
    cost: dict = {}
    for e in eqns:
        if not fusible(e) or len(e.outvars) != 1:
            continue
        c = _op_cost(e)
        for a in e.invars:
            if c >= cap:
                break
            if isinstance(a, Var):
                c += cost.get(a, 0)
        cost[e.outvars[0]] = min(c, cap)
    return cost


def _groups(closed: ClosedJaxpr, materialized: set):
    """Assign equations to fusion groups (see the module docstring).

    Each fused value also records the distinct indices it is read at (``reads``: ids
    of access paths from its group's root through the index maps between). A value read
    at more than one index that would cost more than ``RECOMPUTE_MAX_OPS`` to recompute
    (or is expensive) is materialised instead: otherwise a chain such as
    ``x = f(x) + x[::-1]`` would recompute its whole past at every step, doubling the
    code per step."""
    eqns = closed.jaxpr.eqns
    users: dict = {}
    for k, e in enumerate(eqns):
        for a in e.invars:
            if isinstance(a, Var):
                users.setdefault(a, []).append(k)
    cost = _fused_costs(eqns)
    paths: dict = {}  # (parent path id, eqn index, operand position) -> path id
    reads: dict = {}  # Var -> set of path ids it is read at inside its users' group

    def new_path(key) -> int:
        got = paths.get(key)
        if got is None:
            got = paths[key] = len(paths)
        return got

    def note_reads(k, e, at):
        out_shape = e.outvars[0].aval.shape
        remaps = _kind(e) in (INDEX_MAP, RANDOM_SOURCE)
        for pos, a in enumerate(e.invars):
            if not isinstance(a, Var):
                continue
            if remaps or a.aval.shape != out_shape:
                got = {new_path((p, k, pos)) for p in at}
            else:
                got = at
            reads.setdefault(a, set()).update(got)

    group_of, groups = {}, []
    for k in reversed(range(len(eqns))):
        e = eqns[k]
        if fusible(e):
            v = e.outvars[0]
            us = users.get(v, [])
            gids = {group_of[u] for u in us}
            if v not in materialized and len(gids) == 1:
                g = groups[next(iter(gids))]
                at = reads.get(v, set())
                # (a kernel's fused operand takes cheap equations only: a CUDA gather
                # recomputes its indices for each element of a window)
                costly = is_expensive(e) and (g["fuses"] or g["size"] > v.aval.size)
                if (g["kind"] in ("loop", "reduce") or g["fuses"]) and not costly and not (
                        len(at) > 1 and cost.get(v, 0) > RECOMPUTE_MAX_OPS) and \
                        len(g["members"]) < MAX_FUSED_EQNS:
                    g["members"].append(k)
                    group_of[k] = g["id"]
                    note_reads(k, e, at)
                    continue
            materialized.add(v)
            kind = "loop"
            size = v.aval.size
        elif _kind(e) == REDUCTION:
            kind, size = "reduce", e.invars[0].aval.size
        else:
            kind, size = "opaque", 0
        # A kernel of its own reads its operands from buffers, except those it computes
        # per element from their fused producers (a gather's indices: _fused_operands).
        fuses = _fused_operands(e) if kind == "opaque" else set()
        for a in e.invars:
            if isinstance(a, Var) and kind == "opaque" and a not in fuses:
                materialized.add(a)
        materialized.update(o for o in e.outvars if kind != "loop" or o is e.outvars[0])
        gid = len(groups)
        groups.append(dict(id=gid, kind=kind, root=k, members=[k], size=size,
                           fuses=bool(fuses)))
        group_of[k] = gid
        if kind != "opaque" or fuses:
            note_reads(k, e, {new_path(("root", k))})
    # A reduction's operand producers joined it; any other fusible value it reads whose
    # users span several groups was materialised above.
    return sorted(groups, key=lambda g: g["root"])


def _fused_operands(e) -> set:
    """The operands of kernel ``e`` whose fusible producers may join its kernel
    (``Lowering.fused_operands``): values made by a fusible equation and read by ``e``
    alone, at those positions only (an operand it also reads from a buffer is stored)."""
    low = lowering_of(e.primitive)
    positions = () if low is None else low.fused_operands
    out = set()
    for pos in positions:
        a = e.invars[pos]
        if isinstance(a, Var) and all(b is not a for q, b in enumerate(e.invars)
                                      if q not in positions):
            out.add(a)
    return out


def _absorb_transposes(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Read a transposed ``dot_general`` operand in place: the dot kernel takes any
    strides, so ``x.T @ y`` needs no transposed copy. Only when the operand's free
    dimensions keep their order, which the output layout depends on."""
    dot_p = contraction.dot_general_p
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


# Kernels of their own whose builders read every operand from a buffer: a literal operand
# (a folded scalar, e.g. the cotangent 1.0 of ``grad`` through a reshape) is first
# written to a buffer of its own by a one-element loop.
_BUFFER_OPERANDS = frozenset({contraction.dot_general_p})


def _buffer_literal_operands(closed: ClosedJaxpr) -> ClosedJaxpr:
    eqns, changed = [], False
    for e in closed.jaxpr.eqns:
        if e.primitive in _BUFFER_OPERANDS and any(isinstance(a, Literal) for a in e.invars):
            invars = []
            for a in e.invars:
                if isinstance(a, Literal):
                    v = Var(a.aval)
                    eqns.append(JaxprEqn((a,), (v,), structural.broadcast_in_dim_p,
                                         dict(shape=a.aval.shape, broadcast_dimensions=(),
                                              sharding=None)))
                    a = v
                invars.append(a)
            e = e.replace(invars=tuple(invars))
            changed = True
        eqns.append(e)
    if not changed:
        return closed
    return ClosedJaxpr(closed.jaxpr.replace(eqns=tuple(eqns)), closed.consts)


def plan_program(closed: ClosedJaxpr, name: str = "f", fuse_rows: bool = True) -> Program:
    """Plan the kernels and buffers of ``closed`` (an optimised jaxpr).

    Parameters
    ----------
    closed : ClosedJaxpr
        Control-flow sub-jaxprs must have no consts (``passes.lift_consts``).
    name : str
        A C identifier prefix for the entry point and its kernels.
    fuse_rows : bool
        Fuse reductions over rows with the loops around them (``row_kernels``): C only,
        the CUDA templates have no row-fused kernel.

    Returns
    -------
    Program
    """
    closed = _absorb_transposes(lower_vector_predicate_whiles(closed))
    j = closed.jaxpr
    planner = Planner(name, _names(closed), fuse_rows)
    inputs = [planner.bind(v, "input", i) for i, v in enumerate(j.invars)]
    consts = [planner.bind(v, "const", i) for i, v in enumerate(j.constvars)]
    outputs, out_sources = [], []
    for o in j.outvars:
        if isinstance(o, Literal):
            out_sources.append(("literal", o))
        elif o in planner.buffers and planner.buffers[o].kind in ("input", "const"):
            b = planner.buffers[o]
            out_sources.append((b.kind, b.position))
        else:
            if o not in planner.buffers:
                outputs.append(planner.bind(o, "output", len(outputs)))
            out_sources.append(("buffer", planner.buffers[o].position))
    steps = planner.block(closed)
    return Program(name, inputs, consts, outputs, planner.temps, planner.kernels,
                   planner.ws_size, planner.extra_ws, out_sources, steps,
                   planner.host_callbacks)


class Planner:
    """Plans one entry point: buffers by variable, the workspace, the kernels.

    ``block`` plans a jaxpr whose invars and constvars are bound to buffers already;
    control-flow equations (``control.py``) call it again for their sub-jaxprs, which
    share the workspace, the kernel list and the names.
    """

    def __init__(self, name: str, names: dict, fuse_rows: bool = True):
        self.name = name
        self.fuse_rows = fuse_rows
        self.names = names
        self.buffers: dict = {}
        self.temps: list = []
        self.kernels: list = []
        self.extra_ws: list = []
        self.ws_size = 0
        self._free: list = []  # (offset, nbytes) of dead temporaries
        self._taken = set(pointer_name(n) for n in names.values())
        self.host_callbacks: list = []

    def bind(self, var, kind: str, position: int = 0) -> Buffer:
        """Give ``var`` a buffer of the entry point (input, const or output)."""
        b = Buffer(var, pointer_name(self.names[var]), kind, var.aval, position)
        self.buffers[var] = b
        return b

    def temp(self, var) -> tuple:
        """A workspace buffer for ``var``; returns ``(buffer, nbytes)``."""
        nbytes = (max(var.aval.size * var.aval.dtype.itemsize, 1) + 63) // 64 * 64
        offset = _take(self._free, nbytes)
        if offset is None:
            offset, self.ws_size = self.ws_size, self.ws_size + nbytes
        b = Buffer(var, pointer_name(self.name_of(var)), "temp", var.aval, offset)
        self.buffers[var] = b
        self.temps.append(b)
        return b, nbytes

    def name_of(self, var) -> str:
        """The jaxpr name of ``var``; a fresh one for variables made while planning."""
        got = self.names.get(var)
        if got is None:
            n = len(self.names)
            while pointer_name(_alpha(n)) in self._taken:
                n += 1
            got = self.names[var] = _alpha(n)
            self._taken.add(pointer_name(got))
        return got

    def unique(self, c_name: str) -> str:
        """``c_name``, or ``c_name_2``, ``c_name_3``... if taken: a new C identifier."""
        got, k = c_name, 1
        while got in self._taken:
            k += 1
            got = f"{c_name}_{k}"
        self._taken.add(got)
        return got

    def kernel_name(self) -> str:
        return f"{self.name}_k{len(self.kernels)}"

    def add_kernel(self, plan: KernelPlan) -> dict:
        self.kernels.append(plan)
        self.extra_ws.extend(s.c_expr() for s in plan.fields.scratch)
        return {"kind": "call", "kernel": plan.name}

    def block(self, closed: ClosedJaxpr, keep=(), donated=()) -> list:
        """The steps computing ``closed``'s outputs into their buffers (bound by the
        caller, or temporaries made here). Temporaries made here are released once
        their last reader has run, except those of ``keep`` and of the outputs.

        An update (scatter, ``dynamic_update_slice``) whose operand dies with it writes
        into the operand's buffer when that buffer is a temporary of this block or one
        of the ``donated`` invars (a loop body's carries); its kernel then skips the
        copy."""
        closed = small_floats.widen_small_floats(_buffer_literal_operands(closed))
        j = closed.jaxpr
        for e in j.eqns:
            small_floats.check_small_floats(e, _kind(e))
            for v in e.outvars:  # the rewrite's variables need names too
                self.name_of(v)
        out_vars = [o for o in j.outvars if isinstance(o, Var)]
        materialized = set(j.invars) | set(j.constvars) | set(out_vars)
        groups = _groups(closed, materialized)
        eqns = j.eqns
        last_use: dict = {}
        for gi, g in enumerate(groups):
            for k in g["members"]:
                for a in eqns[k].invars:
                    if isinstance(a, Var):
                        last_use[a] = gi
        pinned = set(out_vars) | set(keep)
        donated = {v for v in donated if v not in pinned}
        live, steps = [], []  # live: [var, buffer, nbytes] of this block's temporaries
        runs = row_kernels.row_runs(groups, eqns) if self.fuse_rows else {}
        # Loop groups computed inside a convolution's kernel (C only, as row fusion).
        epilogues = conv_epilogue.epilogue_groups(
            groups, eqns, {i for s, (end, _, _) in runs.items() for i in range(s, end)}) \
            if self.fuse_rows else {}
        absorbed = {i for got in epilogues.values() for i in got}
        gi = 0
        while gi < len(groups):
            if gi in epilogues:
                steps.append(self._conv_epilogue_step(groups, gi, epilogues[gi], eqns,
                                                      pinned, live))
            elif gi in absorbed:
                pass  # run by its convolution's kernel
            elif gi in runs:
                end, n, r = runs[gi]
                steps.extend(self._row_run(groups[gi:end], n, r, eqns, pinned, live,
                                           last_use, end - 1))
                gi = end - 1
            else:
                steps.append(self._group_step(groups[gi], gi, eqns, last_use, pinned,
                                              donated, live))
            still = []
            for entry in live:
                if last_use.get(entry[0], -1) <= gi:
                    self._free.append((entry[1].position, entry[2]))
                else:
                    still.append(entry)
            live = still
            gi += 1
        return steps

    def _bind_outputs(self, root, pinned, live) -> None:
        for o in root.outvars:
            if isinstance(o, Var) and o not in self.buffers:
                b, nbytes = self.temp(o)
                if o not in pinned:
                    live.append([o, b, nbytes])

    def _group_step(self, g, gi, eqns, last_use, pinned, donated, live) -> dict:
        root = eqns[g["root"]]
        if root.primitive.updates_in_place and not any(
                root.invars[0] in eqns[k].invars for k in g["members"] if k != g["root"]):
            # (an update whose fused operands read its operand must not overwrite it)
            self._update_in_place(root, gi, last_use, pinned, donated, live)
        self._bind_outputs(root, pinned, live)
        kind = _kind(root)
        if kind == CONTROL:
            return control.plan_control(self, root)
        if kind == HOST:
            return self.host_step(root)
        if g["kind"] == "opaque":
            fused = [k for k in g["members"] if k != g["root"]]
            return self.add_kernel(kernels.opaque_kernel(
                self.kernel_name(), root, self.buffers, self.names,
                producer={eqns[k].outvars[0]: eqns[k] for k in fused},
                comment=_group_comment(g, eqns, self.names) if fused else None))
        return self.add_kernel(_fused_kernel(
            self.kernel_name(), g, eqns, self.buffers, self.names))

    def _conv_epilogue_step(self, groups, gi, absorbed, eqns, pinned, live) -> dict:
        """A convolution's kernel with the loop groups ``absorbed`` (indices) as its
        epilogue (``conv_epilogue``); their roots' buffers are bound here, where they are
        now written."""
        root = eqns[groups[gi]["root"]]
        gs = [groups[i] for i in absorbed]
        for g in gs:
            self._bind_outputs(eqns[g["root"]], pinned, live)
        first = conv_epilogue.in_place_root(groups, eqns, gi, absorbed)
        out = root.outvars[0]
        if first is not None and out not in pinned and out not in self.buffers:
            self.buffers[out] = self.buffers[first]  # no buffer of its own
        self._bind_outputs(root, pinned, live)
        return self.add_kernel(conv_epilogue.conv_epilogue_kernel(
            self.kernel_name(), root, gs, eqns, self.buffers, self.names,
            eqn_comment(root, self.names)))

    def _row_run(self, run, n, r, eqns, pinned, live, last_use, last) -> list:
        """The steps of a run of groups over the same rows (``row_kernels``): one
        row-fused kernel, or the groups' own kernels when it cannot be fused. Nothing
        made in the run is freed before its end: phases of different rows run at once,
        so its buffers must not share memory."""
        made = [eqns[g["root"]].outvars[0] for g in run]
        dead = {v for v in made if v not in pinned and v not in self.buffers
                and last_use.get(v, -1) <= last}
        local = row_kernels.row_locals((run, n, r), eqns, dead)
        for v in local:  # a name for the kernel's local: no workspace
            self.buffers[v] = Buffer(v, pointer_name(self.name_of(v)), "temp", v.aval, -1)
        for g in run:
            self._bind_outputs(eqns[g["root"]], pinned, live)
        plan = row_kernels.row_kernel(self.kernel_name(), (run, n, r), eqns, self.buffers,
                                      self.names, local, PARALLEL_MIN_ELEMENTS)
        if plan is not None:
            return [self.add_kernel(plan)]
        for v in local:
            del self.buffers[v]
        for g in run:
            self._bind_outputs(eqns[g["root"]], pinned, live)
        return [self.add_kernel(_fused_kernel(self.kernel_name(), g, eqns, self.buffers,
                                              self.names)) for g in run]

    def host_step(self, e) -> dict:
        """A call back into Python: the buffers of the operands (literals as locals) and
        of the results, passed by address to the host function with the callback's id."""
        cid = len(self.host_callbacks)
        self.host_callbacks.append((e.primitive, dict(e.params),
                                    [a.aval for a in e.invars], [o.aval for o in e.outvars]))
        decls, ins = [], []
        for i, a in enumerate(e.invars):
            if isinstance(a, Var):
                ins.append(self.buffers[a].name)
            else:
                local = f"tp_lit{cid}_{i}"
                decls.append(f"{emit_c.stype(a.aval.dtype)} {local}[1] = "
                             f"{{{kernels._store(a.aval.dtype, emit_c.literal(a.val, a.aval.dtype))}}};")
                ins.append(local)
        outs = [self.buffers[o].name for o in e.outvars]
        return {"kind": "host", "id": cid, "decls": decls, "ins": ins, "outs": outs,
                "comment": eqn_comment(e, self.names)}

    def _update_in_place(self, e, gi, last_use, pinned, donated, live) -> None:
        op, out = e.invars[0], e.outvars[0]
        if (not isinstance(op, Var) or out in self.buffers or op in pinned
                or last_use.get(op) != gi or op in e.invars[1:]
                or op.aval.shape != out.aval.shape or op.aval.dtype != out.aval.dtype):
            return
        entry = next((x for x in live if x[0] is op), None)
        if entry is None and op not in donated:
            return
        self.buffers[out] = self.buffers[op]
        if entry is not None:
            live.remove(entry)
            if out not in pinned:
                live.append([out, entry[1], entry[2]])


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


#: Equations a fused kernel's header comment lists.
_COMMENT_EQNS = 32


def _group_comment(g, eqns, names) -> str:
    """The kernel's header comment: its first few equations (the body has a comment
    per equation)."""
    members = sorted(g["members"])
    shown = members if len(members) <= _COMMENT_EQNS else members[:_COMMENT_EQNS]
    comment = "; ".join(_eqn_text(eqns[k], names) for k in shown)
    if len(shown) < len(members):
        comment += f"; ... ({len(members) - len(shown)} more)"
    return comment


def _fused_kernel(kname, g, eqns, buffers, names) -> KernelPlan:
    root = eqns[g["root"]]
    members = sorted(g["members"])
    producer = {eqns[k].outvars[0]: eqns[k] for k in members}
    comment = _group_comment(g, eqns, names)
    if g["kind"] == "reduce":
        return kernels.reduce_kernel(kname, root, producer, buffers, names, comment,
                                     PARALLEL_MIN_ELEMENTS)
    return kernels.loop_kernel(kname, root, producer, buffers, names, comment,
                               PARALLEL_MIN_ELEMENTS)


def _eqn_text(e, names) -> str:
    return eqn_comment(e, names)

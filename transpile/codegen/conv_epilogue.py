"""Epilogues of the convolution kernel: the elementwise consumers of a convolution's
output (a bias add broadcast over the features, an activation such as ``max(x, 0)``,
any chain the loop fuser would fuse) computed inside the conv kernel, on each block of
outputs while it is still in cache, instead of as loop kernels of their own that each
pass over the whole output again.

``epilogue_groups`` picks, per convolution group of a block, the later loop groups that
can run at the convolution's place; ``conv_epilogue_kernel`` builds the conv kernel
with their bodies. The convolution's output is still stored (other groups may read it)
and each absorbed group's root is stored to its own buffer, so the program's buffers
and every value in them are those of the unfused program: the epilogue applies the same
operations to the same operands, under the same flush-to-zero mode
(``tp_ftz_begin``), only earlier.

C only: the CUDA conv template has no epilogue (``plan.Planner`` asks for epilogues
where it fuses rows, which is the C target).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..ir import Var
from ..lax import convolution as conv_mod
from . import conv_plan
from .body import BodyBuilder, _stmt_lines
from .index import row_major_strides
from .kernel_plans import KernelParam
from .lowering import ELEMENTWISE, INDEX_MAP, lowering_of
from .program import KernelPlan

__all__ = ["epilogue_groups", "in_place_root", "conv_epilogue_kernel", "ENABLED"]

#: Whether the planner fuses epilogues (tests turn it off to build the unfused program).
ENABLED = True

#: Output dtypes whose epilogue values are exactly what the unfused kernels store and
#: read back (a half type would be rounded by its store, which an inline value skips).
_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _fits(g, eqns, shape, chunk: set, before) -> bool:
    """Whether loop group ``g`` can run as an epilogue over the conv output's ``shape``:
    its root has that shape; it reads the values computed in the epilogue (``chunk``:
    the conv output, earlier epilogue roots) only elementwise at the output's own index;
    every other value it reads is materialised before the convolution (``before(v)``)."""
    root = eqns[g["root"]]
    out = root.outvars[0]
    if out.aval.shape != shape or np.dtype(out.aval.dtype) not in _DTYPES:
        return False
    members = {eqns[k].outvars[0]: eqns[k] for k in g["members"]}
    depends: dict = {}  # member var -> whether it depends on chunk values
    for k in sorted(g["members"]):
        e = eqns[k]
        low = lowering_of(e.primitive)
        if len(e.outvars) != 1 or low is None or low.kind not in (ELEMENTWISE, INDEX_MAP):
            return False
        if dtypes.half_name(e.outvars[0].aval.dtype):
            return False
        dep = False
        for a in e.invars:
            if not isinstance(a, Var):
                continue
            if a in members:
                d = depends[a]
            elif a in chunk:
                d = True
            elif before(a):
                d = False
            else:
                return False
            if d and (low.kind != ELEMENTWISE or a.aval.shape != shape
                      or e.outvars[0].aval.shape != shape):
                return False
            dep = dep or d
        depends[e.outvars[0]] = dep
    return depends[out]  # a group that does not read the convolution keeps its place


def epilogue_groups(groups, eqns, skip=frozenset()) -> dict:
    """Group index of a convolution -> indices of the later loop groups it computes as
    its epilogue (``groups`` as ``plan._groups`` returns them, in running order;
    ``skip``: group indices that must keep their own kernel, e.g. a row-fused run's)."""
    if not ENABLED:
        return {}
    made_at: dict = {}  # materialised var -> index of the group computing it
    for gi, g in enumerate(groups):
        for o in eqns[g["root"]].outvars:
            made_at[o] = gi
    found = {}
    taken: set = set()
    for ci, cg in enumerate(groups):
        root = eqns[cg["root"]]
        if cg["kind"] != "opaque" or root.primitive is not conv_mod.conv_general_dilated_p:
            continue
        out = root.outvars[0]
        if np.dtype(out.aval.dtype) not in _DTYPES or out.aval.size == 0:
            continue
        chunk = {out}
        absorbed = []

        def before(v, ci=ci):
            return made_at.get(v, -1) < ci
        for gi in range(ci + 1, len(groups)):
            g = groups[gi]
            if gi in skip or gi in taken or g["kind"] != "loop":
                continue
            if _fits(g, eqns, out.aval.shape, chunk, before):
                absorbed.append(gi)
                chunk.add(eqns[g["root"]].outvars[0])
        if absorbed:
            found[ci] = absorbed
            taken.update(absorbed)
    return found


def in_place_root(groups, eqns, ci, absorbed):
    """The root of the first absorbed group when the convolution's output can be
    computed in that root's buffer, then overwritten there element by element: nothing
    but the epilogue reads the output and the root has its dtype. Else None. (The
    caller checks that the output is not one of the block's results.)"""
    out = eqns[groups[ci]["root"]].outvars[0]
    first = eqns[groups[absorbed[0]]["root"]].outvars[0]
    if first.aval.dtype != out.aval.dtype:
        return None
    inside = set(absorbed)
    for gi, g in enumerate(groups):
        if gi in inside:
            continue
        if any(out is a for k in g["members"] for a in eqns[k].invars):
            return None
    return first


def conv_epilogue_kernel(kname, conv_eqn, absorbed, eqns, buffers, names, comment) -> KernelPlan:
    """The conv kernel of ``conv_eqn`` computing the loop groups ``absorbed`` (their
    roots' buffers bound already) on each block of its output."""
    out = conv_eqn.outvars[0]
    ob = buffers[out]
    ins = [buffers[a] for a in conv_eqn.invars]
    fields = conv_plan.conv_fields(conv_eqn, ins, ob)
    if fields.gemm:
        fields.epilogue_o_inner = fields.nhwc
    else:  # the direct path runs the epilogue per (image, feature)
        fields.M = int(np.prod(fields.out_space, dtype=np.int64))
    shape = out.aval.shape
    spec = conv_eqn.params["dimension_numbers"].out_spec
    fields.epilogue_m_stride = conv_plan._spatial_run(shape, row_major_strides(shape), spec[2:])
    producer = {}
    for g in absorbed:
        for k in g["members"]:
            producer[eqns[k].outvars[0]] = eqns[k]
    bb = BodyBuilder(producer, buffers, names)
    # The loop variables of the template's epilogue: the output's own offset and its
    # index per dimension (canonical batch, feature, spatial... mapped back).
    canon = ["tp_n", "tp_o"] + [f"tp_y{d}" for d in range(len(shape) - 2)]
    dims = [None] * len(shape)
    for c, d in enumerate(spec):
        dims[d] = canon[c]
    idx = bb.index(shape, dims=tuple(dims), flat="tp_at")
    stores, writes = [], []
    for g in absorbed:
        root = eqns[g["root"]].outvars[0]
        value = bb.value(root, idx)
        rb = buffers[root]
        stores.append(f"{rb.name}[tp_at] = {value};")
        writes.append(rb)
    fields.epilogue = _stmt_lines(bb.stmts) + stores
    written = {ob.name} | {w.name for w in writes}
    reads = {b.name: b for b in ins}
    reads.update((n, b) for n, b in bb.reads.items() if n not in written)
    writes = [w for w in writes if w.name != ob.name]  # the output computed in place
    fields.params = ([KernelParam(b.name, b.ctype) for _, b in sorted(reads.items())]
                     + [KernelParam(ob.name, ob.ctype, writable=True)]
                     + [KernelParam(w.name, w.ctype, writable=True) for w in writes])
    shown = [comment] + [f"epilogue: {names.get(eqns[g['root']].outvars[0], '?')}"
                         for g in absorbed]
    return KernelPlan(name=kname, template="kernel_conv.j2", comment="; ".join(shown),
                      reads=list(reads.values()), writes=[ob] + writes, fields=fields)

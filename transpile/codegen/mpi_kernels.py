"""Kernels of the process collectives (``lax/process_collectives.py``): template fields
of ``kernel_mpi.j2`` and their entries in the lowering table.

With several processes (``distributed.initialize`` under ``mpirun``) a kernel calls
``runtime/tp_mpi.h``: an exchange of slices, a fold in process order and MPI_Allgather
for a reduction (MPI_Allreduce for a sum over two processes, which has one order); MPI_Allgather, MPI_Sendrecv and MPI_Alltoall for the data movements. The
module then needs MPI's headers and library (``backend/mpi_flags.py`` asks ``mpicc``),
so a program of one process gets the trivial kernels instead (copies, zeros) and no MPI
at all.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import dtypes
from ..lax import process_collectives as pc
from . import emit_c
from .kernel_plans import KernelFields, KernelParam, Scratch
from .lowering import KERNEL, Lowering, register
from .program import KernelPlan

__all__ = ["MpiPlan", "mpi_fields", "TEMPLATE"]

TEMPLATE = "kernel_mpi.j2"

#: dtypes whose reductions are compiled (C arithmetic on the stored type)
_REDUCIBLE = frozenset(np.dtype(t) for t in (
    np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
    np.uint32, np.uint64, np.bool_))
#: MPI's datatypes of those a sum of two processes hands to MPI_Allreduce (see tp_mpi.h:
#: two operands add the same in either order)
_MPI_TYPES = {np.dtype(np.float32): "MPI_FLOAT", np.dtype(np.float64): "MPI_DOUBLE",
              **{np.dtype(f"{k}{b // 8}"): f"MPI_{'U' if k == 'u' else ''}INT{b}_T"
                 for k in "iu" for b in (8, 16, 32, 64)}}


@dataclass(kw_only=True)
class MpiPlan(KernelFields):
    """``kernel_mpi.j2``: ``kind`` is ``allreduce``, ``allgather``, ``ppermute``,
    ``alltoall`` or ``rank`` (``mpi``: through MPI; otherwise the one-process case:
    ``copy`` or, for a ppermute sending nothing, ``zero``; rank 0). ``src`` is a buffer or a one-element literal
    array (``literal``: its C initialiser)."""
    kind: str
    mpi: bool
    src: str
    dst: str
    ctype: str
    literal: str | None
    size: int        # processes
    n: int           # elements of the operand
    nbytes: int      # bytes of the operand
    combine: str     # allreduce: C expression of a and b
    pair_type: str   # allreduce: the MPI datatype of a sum over two processes, or ""
    perm: list       # ppermute: flattened (source, destination) pairs
    outer: int       # alltoall: rows before the axis
    piece: int       # alltoall: bytes of one process's part of one row


def _combine(op: str, dt: np.dtype) -> str:
    if op == "sum":
        if dtypes.is_float(dt):
            return "a + b"
        # integer wraparound, as NumPy's: unsigned arithmetic
        return f"({emit_c.stype(dt)})((uint64_t)a + (uint64_t)b)"
    # max/min: a NaN operand wins, the first one in process order
    cmp = ">" if op == "max" else "<"
    return f"(a {cmp} b || a != a) ? a : b"


def mpi_fields(e, ins, out) -> MpiPlan:
    """Template fields of the kernel of process collective equation ``e``."""
    if e.primitive is pc.process_index_p:  # no operand: the rank into a scalar
        size = int(e.params["axis_size"])
        return MpiPlan(kind="rank", mpi=size > 1, src="", dst=out.name, ctype="int32_t",
                       literal=None, size=size, n=1, nbytes=4, combine="", pair_type="",
                       perm=[], outer=0, piece=0)
    x = ins[0]
    aval = e.invars[0].aval
    dt = np.dtype(aval.dtype)
    size = int(e.params["axis_size"])  # the count traced for, checked again at run time
    kind = e.primitive.name[len("process_"):]
    literal = emit_c.literal(x.val, dt) if hasattr(x, "val") else None
    src = "lit" if literal is not None else x.name
    combine, perm, outer, piece, pair_type = "", [], 0, 0, ""
    mpi = size > 1
    if kind == "allreduce":
        if mpi and dt not in _REDUCIBLE:
            raise NotImplementedError(f"process_allreduce of {dt.name} is not compiled yet "
                                      "(float32, float64, integers and bool are)")
        combine = _combine(e.params["op"], dt)
        if size == 2 and e.params["op"] == "sum":
            pair_type = _MPI_TYPES[dt]
    elif kind == "ppermute":
        perm = [int(v) for pair in e.params["perm"] for v in pair]
        if not mpi and not perm:
            kind = "zero"
    elif kind == "alltoall":
        axis = e.params["axis"]
        outer = int(np.prod(aval.shape[:axis], dtype=np.int64))
        piece = int(np.prod(aval.shape[axis:], dtype=np.int64)) * dt.itemsize // max(size, 1)
    if not mpi and kind != "zero":
        kind = "copy"
    n = int(aval.size)
    scratch = []
    if mpi and kind == "allreduce" and not pair_type:
        chunk = -(-n // size)
        parts = 1 if chunk * size == n else 3  # see TP_MPI_ALLREDUCE
        scratch = [Scratch(max(parts * size * chunk, 1) * dt.itemsize)]
    elif mpi and kind == "alltoall" and outer > 1:
        scratch = [Scratch(max(2 * n, 1) * dt.itemsize)]
    return MpiPlan(kind=kind, mpi=mpi, src=src, dst=out.name, ctype=emit_c.stype(dt),
                   literal=literal, size=size, n=n, nbytes=n * dt.itemsize, combine=combine,
                   pair_type=pair_type, perm=perm, outer=outer, piece=piece, scratch=scratch)


def _build(kname, e, ins, outs, reads, common):
    fields = mpi_fields(e, ins, outs[0])
    fields.params = [KernelParam(b.name, b.ctype) for _, b in sorted(reads.items())]
    fields.params.append(KernelParam(outs[0].name, outs[0].ctype, writable=True))
    return KernelPlan(template=TEMPLATE, fields=fields, **common)


register(pc.PRIMITIVES, Lowering(KERNEL, build=_build))

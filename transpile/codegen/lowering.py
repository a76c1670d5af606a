"""Codegen's lowering table: for each primitive (the object, not its name), how it
becomes C.

One entry per primitive, filled next to the code that lowers it:

* ``ELEMENTWISE``: an expression emitter (``emit_c._def``), fused into loop bodies;
  ``fuses(eqn)`` may refuse some equations (a bitcast between dtypes of different
  sizes), which then get the kernel ``build`` instead;
* ``INDEX_MAP``: the value reads its operand at a remapped index (``body.py``), fused;
* ``RANDOM_SOURCE``: a counter-based PRNG draw hashed in the loop body (``prng_c.py``),
  fused;
* ``REDUCTION``: the root of a fused reduction kernel, with its combining ``reduction``
  (``"sum"``, ``"max"``, ...; ``kernels.py``);
* ``KERNEL``: a kernel of its own, made by ``build(kname, eqn, ins, outs, reads,
  common)`` (dot, sort, cumulative, gather/scatter, linalg, threefry, joins...);
  the operands at ``fused_operands`` arrive as ``program.FusedOperand`` when their
  elementwise producers joined the kernel (a gather's index normalisation);
* ``CONTROL``: ``cond``/``while``/``scan``, steps of the entry (``control.py``);
* ``HOST``: a call back into Python from the entry (``plan.Planner.host_step``).

``plan.py`` decides fusion and ``kernels.opaque_kernel`` picks builders from this table
only; ``tests/test_primitives.py`` checks that every primitive has an entry.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .. import core
from ..lax import dynamic_slicing, layout, slicing, structural

__all__ = ["Lowering", "LOWERINGS", "register", "lowering_of", "fusible", "ELEMENTWISE",
           "INDEX_MAP", "RANDOM_SOURCE", "REDUCTION", "KERNEL", "CONTROL", "HOST", "KINDS"]

ELEMENTWISE = "elementwise"
INDEX_MAP = "index_map"
RANDOM_SOURCE = "random_source"
REDUCTION = "reduction"
KERNEL = "kernel"
CONTROL = "control"
HOST = "host"
KINDS = (ELEMENTWISE, INDEX_MAP, RANDOM_SOURCE, REDUCTION, KERNEL, CONTROL, HOST)
#: Kinds whose equations can join a loop body.
_FUSED_KINDS = frozenset({ELEMENTWISE, INDEX_MAP, RANDOM_SOURCE})


@dataclass(frozen=True)
class Lowering:
    """How codegen lowers one primitive (see the module docstring)."""
    kind: str
    #: ELEMENTWISE: ``emit(args, in_avals, out_aval, **params) -> C expression``;
    #: RANDOM_SOURCE: ``emit(eqn, key_value, counter) -> C expression``
    emit: Callable | None = None
    #: KERNEL (or the fallback of an ELEMENTWISE entry whose ``fuses`` refuses):
    #: ``build(kname, eqn, ins, outs, reads, common) -> KernelPlan``;
    #: CONTROL: ``build(planner, eqn) -> step`` (``control.py``)
    build: Callable | None = None
    #: REDUCTION: the combining operation
    reduction: str | None = None
    #: whether one equation of this primitive may fuse (default: all of them)
    fuses: Callable | None = None
    #: KERNEL: operand positions whose fusible producers the kernel computes itself, per
    #: element it reads (a gather's indices), instead of reading them from a buffer
    fused_operands: tuple = ()


#: primitive -> Lowering
LOWERINGS: dict = {}


def register(prims, lowering: Lowering) -> None:
    """Give each primitive of ``prims`` (one or an iterable) the entry ``lowering``,
    merged with an entry it has already: an elementwise emitter registered with a kernel
    builder stays ``ELEMENTWISE``, the builder its fallback where ``fuses`` refuses."""
    if lowering.kind not in KINDS:
        raise ValueError(f"unknown lowering kind {lowering.kind!r}")
    for p in (prims if isinstance(prims, (tuple, list, set, frozenset)) else (prims,)):
        new = lowering
        old = LOWERINGS.get(p)
        if old is not None:
            kind = ELEMENTWISE if ELEMENTWISE in (old.kind, new.kind) else new.kind
            new = Lowering(kind, old.emit or new.emit, old.build or new.build,
                           old.reduction or new.reduction, old.fuses or new.fuses,
                           old.fused_operands or new.fused_operands)
        LOWERINGS[p] = new


def lowering_of(p: core.Primitive) -> Lowering | None:
    """``p``'s entry, or None when codegen cannot lower it."""
    return LOWERINGS.get(p)


def fusible(e) -> bool:
    """Whether equation ``e`` can join a loop body."""
    low = LOWERINGS.get(e.primitive)
    if low is None or low.kind not in _FUSED_KINDS:
        return False
    return low.fuses is None or low.fuses(e)


# Index maps: body.py reads the operand at the remapped index; dynamic_slice reads its
# starts and clamps them in the loop body.
register((structural.broadcast_in_dim_p, structural.reshape_p, structural.squeeze_p,
          structural.transpose_p, structural.rev_p, slicing.slice_p, slicing.pad_p,
          slicing.iota_p, layout.copy_p, layout.tile_p, dynamic_slicing.dynamic_slice_p),
         Lowering(INDEX_MAP))


"""The plan dataclasses every code generator module shares: ``Buffer``, ``KernelPlan``
(the only thing templates see) and ``Program``, with the planning constants the kernel
builders read. ``plan.py`` builds them; ``kernels``, ``control`` and the other kernel
builders fill their fields.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import core
from ..ir import Var
from . import emit_c
from .kernel_plans import KernelFields

__all__ = ["Buffer", "FusedOperand", "KernelPlan", "Program", "PARALLEL_MIN_ELEMENTS"]

#: Below this many elements a kernel runs on the calling thread: starting the OpenMP
#: team costs more than the loop.
PARALLEL_MIN_ELEMENTS = 1 << 16


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
class FusedOperand:
    """An operand of a kernel of its own that has no buffer: the kernel computes its
    elements from the fused equations ``producer`` (Var -> equation) over the
    ``buffers`` they read, as a loop body does (``body.BodyBuilder``)."""
    var: Var
    producer: dict
    buffers: dict
    names: dict

    @property
    def aval(self) -> core.ShapedArray:
        return self.var.aval

    def leaves(self) -> list:
        """The buffers the fused equations read, in first-read order."""
        out, seen, stack = [], set(), [self.var]
        while stack:
            v = stack.pop()
            if not isinstance(v, Var) or v in seen:
                continue
            seen.add(v)
            e = self.producer.get(v)
            if e is None:
                out.append(self.buffers[v])
            else:
                stack.extend(reversed(e.invars))
        return out


@dataclass
class KernelPlan:
    """What one kernel template renders: see ``templates/c/kernel_*.j2``.

    ``fields`` is the typed plan of the template's family (``kernel_plans.LoopPlan``,
    ``ReducePlan``, ``DotPlan``...), whose attributes the template reads."""
    name: str
    template: str
    comment: str
    reads: list
    writes: list
    fields: KernelFields = field(default_factory=KernelFields)


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
    steps: list = field(default_factory=list)  # what the entry runs: see control.py
    #: host callbacks by id: (primitive, params, in avals, out avals); the entry then
    #: takes a last parameter, the function that runs them (see backend/load.py)
    host_callbacks: list = field(default_factory=list)

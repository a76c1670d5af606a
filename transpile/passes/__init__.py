"""Stage 3, optimise: a ``ClosedJaxpr`` in, an equivalent, simpler ``ClosedJaxpr`` out.

The pipeline inlines nested ``jit`` calls once, then repeats fold → cse → dce → licm
(loop-invariant code motion) until a round changes nothing (at most ``MAX_ROUNDS``
rounds): folding exposes duplicates, merging leaves dead equations, moving invariants
out of a loop exposes them to the outer level, so a few rounds reach the fixed point. Every pass is a pure function ``ClosedJaxpr -> ClosedJaxpr`` that keeps
the invars and output types and returns its input object when it has nothing to do.

``TRANSPILE_DEBUG=passes`` (a comma-separated list) prints each pass's output to stderr.
"""
from __future__ import annotations

import os
import sys

from ..ir import ClosedJaxpr
from ..lax.callbacks import HOST_CALLBACKS
from .closure import lift_consts
from .contract import contract_multiply_add
from .cse import eliminate_common_subexpressions
from .dce import eliminate_dead_code, used_inputs
from .dot_transpose import swap_transposed_dots
from .fold import UNFOLDABLE, fold_constants
from .inline import inline_calls
from .licm import hoist_loop_invariants
from .scan_dots import hoist_scan_dots

__all__ = ["optimize", "PIPELINE", "ROUND", "MAX_ROUNDS",
           "UNFOLDABLE", "inline_calls", "fold_constants", "eliminate_common_subexpressions",
           "eliminate_dead_code", "used_inputs", "lift_consts", "FINAL",
           "hoist_loop_invariants", "contract_multiply_add", "swap_transposed_dots",
           "hoist_scan_dots"]

# Host callbacks never run at compile time; those with effects are never removed,
# merged or moved.
UNFOLDABLE.update(p.name for p in HOST_CALLBACKS)

# Run once, first: the other passes then see flat jaxprs.
PIPELINE = (("inline", inline_calls),)
# Repeated, in this order, until a round returns its input unchanged.
ROUND = (("fold", fold_constants), ("cse", eliminate_common_subexpressions),
         ("dce", eliminate_dead_code), ("licm", hoist_loop_invariants))
MAX_ROUNDS = 4
# Run once, last: multiply-adds fused as XLA:CPU fuses them (after cse and dce, which
# decide which products have a single use); matrix products read only through a transpose
# computed in the transposed layout (after dce, which leaves the transpose as the only
# reader); a scan's products of its inputs and a const run once for all steps (after
# licm has made the invariant operands consts); the planner wants sub-jaxprs without
# consts of their own.
FINAL = (("contract", contract_multiply_add), ("scan_dots", hoist_scan_dots),
         ("dot_transpose", swap_transposed_dots), ("lift_consts", lift_consts))


def _debug_enabled() -> bool:
    # Read at each call so that tests and users can set it after import.
    flags = os.environ.get("TRANSPILE_DEBUG", "")
    return "passes" in {f.strip() for f in flags.split(",")}


def _run(name: str, fn, closed: ClosedJaxpr, debug: bool) -> ClosedJaxpr:
    out = fn(closed)
    if debug:
        note = "" if out is not closed else " (unchanged)"
        print(f"--- pass {name}{note} ---\n{out}", file=sys.stderr)
    return out


def optimize(closed: ClosedJaxpr, max_rounds: int = MAX_ROUNDS) -> ClosedJaxpr:
    """Run the optimisation pipeline: inline, then fold, cse and dce to a fixed point.

    Parameters
    ----------
    closed : ClosedJaxpr
        Not modified.
    max_rounds : int
        The most fold/cse/dce rounds to run.

    Returns
    -------
    ClosedJaxpr
        Computing the same values with the same invars and output types.
    """
    debug = _debug_enabled()
    for name, fn in PIPELINE:
        closed = _run(name, fn, closed, debug)
    for _ in range(max_rounds):
        start = closed
        for name, fn in ROUND:
            closed = _run(name, fn, closed, debug)
        if closed is start:
            break
    for name, fn in FINAL:
        closed = _run(name, fn, closed, debug)
    return closed

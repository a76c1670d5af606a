"""The ``jit`` primitive: a call of a closed jaxpr, staged as one equation.

Its abstract rule and printing live here, with the other primitives; the NumPy rule
(which runs the optimised jaxpr) is installed by ``transpile.jit``, and the
differentiation and batching rules by ``lax.control_flow_ad`` and ``call_batching``.

``internal_jit`` is the hook through which lax helpers that JAX stages as a ``jit``
equation wrap themselves; ``transpile.jit`` sets it at import.
"""
from __future__ import annotations

from typing import Callable

from .. import core
from ..ir import ClosedJaxpr, pp_eqn_hooks, pp_param_rules

__all__ = ["jit_p", "EXPANSIONS"]

jit_p = core.new_primitive("jit", multiple_results=True)


@jit_p.def_abstract_eval
def _jit_abstract(*avals, jaxpr: ClosedJaxpr, name: str):
    return list(jaxpr.out_avals)


def _jit_pp_params(params):
    return [("name", params["name"]), ("jaxpr", params["jaxpr"])]


def _jit_pp_hook(eqn, ctx):
    inner = eqn.params["jaxpr"].jaxpr
    if inner not in ctx.shared:
        ctx.suggest(inner.invars, eqn.invars)
        ctx.suggest(inner.outvars, eqn.outvars)


pp_param_rules[jit_p] = _jit_pp_params
pp_eqn_hooks[jit_p] = _jit_pp_hook


def _no_jit(fun, **kwargs):
    raise RuntimeError("transpile.jit is not imported (import transpile sets "
                       "lax.call.internal_jit)")


#: ``transpile.jit.internal_jit``, set by that module at import.
internal_jit: Callable = _no_jit


#: Primitives compiled as a jaxpr of other primitives (JAX's ``mlir.lower_fun``):
#: primitive -> ``expand(in_avals, **params) -> ClosedJaxpr`` over the operands. Filled by
#: the module defining the expansion (it may sit above lax, e.g. ``random_gamma``'s);
#: ``passes.inline`` splices the jaxpr in before planning.
EXPANSIONS: dict = {}

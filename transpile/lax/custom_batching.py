"""``custom_vmap_call``: a function with a user-defined batching rule (the primitive of
``transpile.custom_batching.custom_vmap``), with its rules.

* NumPy rule and compilation: the traced body (``call_jaxpr``), spliced in by
  ``passes.inline`` (``lax.call.EXPANSIONS``).
* Batching: the user's rule, ``rule(axis_size, in_batched, *args)`` with every batched
  operand's batch axis moved to the front, returning the outputs and which are batched.
* JVP: the primal output keeps the custom rule; the tangents are the JVP of the body
  (so ``vmap`` of a derivative batches the body's JVP as plain code, where JAX would
  call the rule's own JVP).
"""
from __future__ import annotations

from .. import core
from ..interpreters import ad
from ..interpreters.batching import moveaxis, not_mapped, primitive_batchers
from ..interpreters.eval import eval_jaxpr, eval_jaxpr_numpy
from ..ir import pp_param_rules
from .call import EXPANSIONS

__all__ = ["custom_vmap_call_p"]

custom_vmap_call_p = core.new_primitive("custom_vmap_call", multiple_results=True)
custom_vmap_call_p.def_abstract_eval(lambda *avals, call_jaxpr, **_: list(call_jaxpr.out_avals))


@custom_vmap_call_p.def_impl
def _impl(*args, call_jaxpr, **_):
    return eval_jaxpr_numpy(call_jaxpr.jaxpr, call_jaxpr.consts, *args)


pp_param_rules[custom_vmap_call_p] = lambda p: [("name", p["name"]),
                                                ("call_jaxpr", p["call_jaxpr"])]


def _batch(vals, dims, *, call_jaxpr, rule, name):
    size = next(core.get_aval(v).shape[d] for v, d in zip(vals, dims, strict=True)
                if d is not not_mapped)
    vals = [v if d is not_mapped or d == 0 else moveaxis(v, d, 0)
            for v, d in zip(vals, dims, strict=True)]
    outs, out_batched = rule.value(size, [d is not not_mapped for d in dims], *vals)
    return list(outs), [0 if b else not_mapped for b in out_batched]


def _jvp(primals, tangents, *, call_jaxpr, rule, name):
    outs = custom_vmap_call_p.bind(*primals, call_jaxpr=call_jaxpr, rule=rule, name=name)
    _, t_outs = ad.jvp_flat(lambda *xs: eval_jaxpr(call_jaxpr, None, *xs), list(primals),
                            list(tangents))
    return outs, t_outs


primitive_batchers[custom_vmap_call_p] = _batch
ad.jvp_rules[custom_vmap_call_p] = _jvp
EXPANSIONS[custom_vmap_call_p] = lambda in_avals, *, call_jaxpr, **_: call_jaxpr

"""``sharding_constraint``: the primitive behind ``with_sharding_constraint``.

Numerically the identity; it records the sharding a value should have at that point of
the program (the results of a jitted call take it, see ``sharding/propagate.py``).
Its JVP constrains the tangent, its transpose the cotangent, as JAX's rules do; under
``vmap`` the batch dimension joins the spec as ``UNCONSTRAINED`` and is listed in
``unconstrained_dims``. Compiled as the identity (``lax.call.EXPANSIONS``).
"""
from __future__ import annotations

from .. import core
from ..interpreters import ad
from ..interpreters.batching import primitive_batchers
from ..interpreters.tracing import trace_to_jaxpr
from ..ir import pp_param_rules
from ..sharding import constraints, shards
from ..sharding.constraints import with_sharding_constraint
from ..sharding.named import NamedSharding
from ..sharding.partition_spec import UNCONSTRAINED, PartitionSpec
from .call import EXPANSIONS

__all__ = ["sharding_constraint_p", "with_sharding_constraint"]

sharding_constraint_p = core.new_primitive("sharding_constraint")


@sharding_constraint_p.def_abstract_eval
def _abstract(aval, *, sharding, layout, context_mesh, unconstrained_dims):
    return aval


@sharding_constraint_p.def_impl
def _impl(x, *, sharding, layout, context_mesh, unconstrained_dims):
    return x


def sharding_constraint(x, sharding, context_mesh):
    """Bind ``sharding_constraint`` on ``x`` (a ``NamedSharding``)."""
    shards.STATE.placed = True  # a jitted call's results now carry shardings
    spec = getattr(sharding, "spec", PartitionSpec())
    dims = frozenset(i for i, e in enumerate(spec) if e is UNCONSTRAINED)
    return sharding_constraint_p.bind(x, sharding=sharding, layout=None,
                                      context_mesh=context_mesh, unconstrained_dims=dims)


def _batch(vals, dims, **params):
    (x,), (d,) = vals, dims
    s = params["sharding"]
    if d is None or not isinstance(s, NamedSharding):
        return sharding_constraint_p.bind(x, **params), d
    entries = list(s.spec) + [None] * (x.ndim - 1 - len(s.spec))
    entries.insert(d, UNCONSTRAINED)
    spec = PartitionSpec(*entries, unreduced=s.spec.unreduced, reduced=s.spec.reduced)
    dims_ = frozenset([d] + [i + (i >= d) for i in params["unconstrained_dims"]])
    out = sharding_constraint_p.bind(x, **{**params, "sharding": s.update(spec=spec),
                                           "unconstrained_dims": dims_})
    return out, d


def _expand(in_avals, **params):
    return trace_to_jaxpr(lambda x: [x], list(in_avals))


class _DimsText:
    """``unconstrained_dims`` as JAX prints it (``frozenset({})`` when empty)."""

    def __init__(self, dims):
        self.dims = dims

    def __str__(self) -> str:
        return f"frozenset({{{', '.join(str(d) for d in sorted(self.dims))}}})"


def _pp_params(params):
    return [("context_mesh", params["context_mesh"]), ("layout", params["layout"]),
            ("sharding", params["sharding"]),
            ("unconstrained_dims", _DimsText(params["unconstrained_dims"]))]


ad.deflinear(sharding_constraint_p,
             lambda ct, **params: [sharding_constraint_p.bind(ct, **params)])
primitive_batchers[sharding_constraint_p] = _batch
EXPANSIONS[sharding_constraint_p] = _expand
pp_param_rules[sharding_constraint_p] = _pp_params
constraints._constrain[0] = sharding_constraint

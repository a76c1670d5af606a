"""``with_sharding_constraint`` and ``reshard``: give a value a sharding.

On a concrete array both return the array placed with the sharding (a view of the same
host buffer). On a traced value both bind ``sharding_constraint`` (defined in
``lax/sharding_ops.py``, which fills ``_constrain`` at import); JAX 0.10.2 has a
separate ``reshard`` primitive for the second, which transpile does not distinguish.
"""
from __future__ import annotations

import numpy as np

from .. import core, tree_util
from ..array import Array
from .mesh import AbstractMesh, AxisType, get_abstract_mesh, get_mesh
from .named import NamedSharding, Sharding, resolve, spec_entries
from .partition_spec import PartitionSpec
from .shards import placed

__all__ = ["with_sharding_constraint", "reshard"]


def _no_constrain(x, sharding, context_mesh):
    raise RuntimeError("sharding_constraint is not defined (import transpile fills it)")


#: ``_constrain[0](tracer, sharding, context_mesh)`` binds the primitive.
_constrain = [_no_constrain]


def _concrete(sharding):
    """A sharding over an abstract mesh made concrete with the ambient mesh."""
    if isinstance(sharding, NamedSharding) and isinstance(sharding.mesh, AbstractMesh):
        return NamedSharding(get_mesh(), sharding.spec)
    return sharding


def _one(x, sharding, api: str):
    if isinstance(sharding, PartitionSpec) and api == "with_sharding_constraint" \
            and get_abstract_mesh().empty:
        raise RuntimeError(
            "with_sharding_constraint requires a non-empty mesh in context if you are "
            "passing `PartitionSpec`s to shardings. You can define a context mesh via "
            "`jax.set_mesh(mesh)`. Alternatively, provide `Sharding`s to shardings and "
            "then the mesh context manager is not required.")
    s = resolve(sharding, api)
    if api == "reshard" and isinstance(s, NamedSharding):
        s = _explicit_only(s, getattr(x, "ndim", 0))
    if isinstance(x, core.Tracer):
        context = get_abstract_mesh()
        return _constrain[0](x, s, get_mesh() if context.empty else context)
    if not isinstance(x, Array):
        aval = core.get_aval(x)
        x = Array._new(np.array(core.to_numpy(x, aval)), aval.weak_type)
    s = _concrete(s)
    if isinstance(s, NamedSharding):
        s.check_compatible_aval(x.shape)
    return placed(x, s)


def _explicit_only(s: NamedSharding, ndim: int) -> NamedSharding:
    """JAX's check that ``reshard`` names only Explicit axes; the spec padded to the
    array's rank, as JAX gives it."""
    types = dict(zip(s.mesh.axis_names, s.mesh.axis_types))
    for name in sorted(s.spec.axis_names(), key=s.mesh.axis_names.index):
        if types[name] is not AxisType.Explicit:
            raise ValueError(
                "PartitionSpec passed to reshard cannot contain axis names that are of "
                f"type Auto or Manual. Got PartitionSpec: {s.spec} with axis name: {name} "
                f"of type: AxisType.{types[name].name}.")
    return s.update(spec=PartitionSpec(*spec_entries(s.spec, ndim),
                                       unreduced=s.spec.unreduced, reduced=s.spec.reduced))


def _is_spec(s) -> bool:
    return s is None or isinstance(s, (Sharding, PartitionSpec))


def _apply(x, shardings, api: str):
    if _is_spec(shardings):
        return tree_util.tree_map(lambda leaf: _one(leaf, shardings, api), x)
    return tree_util.tree_map(
        lambda s, sub: tree_util.tree_map(lambda leaf: _one(leaf, s, api), sub),
        shardings, x, is_leaf=_is_spec)


def with_sharding_constraint(x, shardings):
    """State the sharding of each leaf of ``x`` (``jax.lax.with_sharding_constraint``).

    Parameters
    ----------
    x : pytree of arrays
    shardings : Sharding, PartitionSpec, or a pytree prefix of ``x`` of them
        A ``PartitionSpec`` takes the mesh of ``set_mesh``.

    Returns
    -------
    pytree
        ``x``'s values, unchanged; concrete arrays carry the sharding.

    Raises
    ------
    ValueError
        For a ``PartitionSpec`` with no ambient mesh, or a spec the array does not fit.
    """
    return _apply(x, shardings, "with_sharding_constraint")


def reshard(xs, out_shardings):
    """Move each leaf of ``xs`` to the given sharding (``jax.sharding.reshard``).

    Parameters
    ----------
    xs : pytree of arrays
    out_shardings : Sharding, PartitionSpec, or a pytree prefix of ``xs`` of them

    Returns
    -------
    pytree
        The same values with the new shardings.
    """
    return _apply(xs, out_shardings, "reshard")

"""``shard_map``: a function written for one device's blocks, run over a mesh.

``shard_map(f, mesh=..., in_specs=..., out_specs=...)`` checks the specs (JAX's errors for
axes that are not manual, sizes that the mesh does not divide, outputs declared
replicated that vary), traces ``f`` on one device's blocks with the manual axes bound
(so that collectives over them stage) and the varying manual axes tracked when
``check_vma``, and binds ``lax.shard_map_call.shard_map_p``, which runs the body as a
batched program over the mesh axes.
"""
from __future__ import annotations

import functools
import inspect
from typing import Callable

from . import core, tree_util
from .interpreters.tracing import DebugInfo, split_tracer_consts, trace_to_jaxpr
from .lax._base import _as_value
from .lax.shard_map_call import local_shape, shard_map_p, spec_axes
from .sharding import shards
from .sharding.mesh import AbstractMesh, AxisType, Mesh, get_mesh
from .sharding.partition_spec import PartitionSpec

__all__ = ["shard_map"]


def _is_spec(x) -> bool:
    return x is None or isinstance(x, PartitionSpec)


def _spec_leaves(specs, tree_value, what: str) -> list:
    """One ``PartitionSpec`` per leaf of ``tree_value`` from the prefix ``specs``."""
    if _is_spec(specs):
        return [specs or PartitionSpec()] * len(tree_util.tree_leaves(tree_value))
    out = []

    def walk(p, v):
        if _is_spec(p):
            out.extend([p or PartitionSpec()] * len(tree_util.tree_leaves(v)))
        elif isinstance(p, (list, tuple)) and isinstance(v, (list, tuple)) and \
                len(p) == len(v):
            for a, b in zip(p, v):
                walk(a, b)
        elif isinstance(p, dict) and isinstance(v, dict) and set(p) == set(v):
            for k in sorted(p):
                walk(p[k], v[k])
        else:
            raise ValueError(f"shard_map {what} must be a tree prefix of the "
                             f"corresponding value, got specification {specs} for value "
                             f"tree {tree_util.tree_structure(tree_value)}.")
    walk(specs, tree_value)
    return out


def _fun_name(f) -> str:
    return getattr(f, "__name__", type(f).__name__)


def _check_names(specs, manual, what: str) -> None:
    for s in specs:
        for e in spec_axes(s):
            for n in e:
                if n not in manual:
                    raise ValueError(
                        f"shard_map {what} argument must refer to an axis marked as manual "
                        f"({manual}), but:\n\n  {what} refers to {n!r}\n\nCheck the "
                        f"{what} values passed to shard_map.")


def _mesh_text(mesh) -> str:
    return (f"The mesh given has shape {tuple(mesh.shape.values())} with corresponding "
            f"axis names {tuple(mesh.axis_names)}.")


def _check_divisible(f, mesh, args, leaves, specs) -> None:
    try:
        params = list(inspect.signature(f).parameters)
    except (TypeError, ValueError):
        params = []
    owner = []
    for i, a in enumerate(args):
        owner.extend([i] * len(tree_util.tree_leaves(a)))
    for x, s, i in zip(leaves, specs, owner):
        aval = core.get_aval(x)
        for k, names in enumerate(spec_axes(s)):
            size = 1
            for n in names:
                size *= mesh.shape[n]
            if k < aval.ndim and aval.shape[k] % size:
                which = " ".join(repr(n) for n in names)
                bound = (f", where args[{i}] is bound to {_fun_name(f)}'s parameter "
                         f"'{params[i]}'" if i < len(params) else "")
                raise ValueError(
                    f"shard_map applied to the function '{_fun_name(f)}' was given argument "
                    "arrays with axis sizes that are not evenly divisible by the "
                    f"corresponding mesh axis sizes:\n\n{_mesh_text(mesh)}\n\nthe passed "
                    f"args[{i}] of shape {aval.str_long()}{bound}, corresponds to in_specs "
                    f"of value {s!r}, which maps array axis {k} (of size {aval.shape[k]}) "
                    f"to mesh axis {which} (of size {size}), but {size} does not evenly "
                    f"divide {aval.shape[k]}\n\nArray arguments' axis sizes must be evenly "
                    "divisible by the mesh axis or axes indicated by the corresponding "
                    "elements of the argument's in_specs entry. Consider checking that "
                    "in_specs are correct, and if so consider changing the mesh axis sizes "
                    f"or else padding the input and adapting '{_fun_name(f)}' appropriately.")


def _check_replication(mesh, manual, avals, specs) -> None:
    for aval, s in zip(avals, specs):
        named = set(n for e in spec_axes(s) for n in e)
        bad = [n for n in mesh.axis_names if n in manual and n not in named
               and n in aval.vma]
        if bad:
            axes = ", ".join(repr(n) for n in bad)
            # JAX 0.10.2 names its own wrapper here, whatever the function
            raise ValueError(
                "shard_map applied to the function '_rem_singleton' was given out_specs "
                "which require replication which can't be statically inferred given the "
                f"mesh:\n\n{_mesh_text(mesh)}\n\nout_specs is {s!r} which implies that the "
                f"corresponding output value is replicated across mesh axis {axes}, but "
                "could not infer replication over any axes\n\nCheck if these output values "
                "are meant to be replicated over those mesh axes. If not, consider revising "
                "the corresponding out_specs entries. If so, consider disabling the check by "
                "passing the check_vma=False argument to `jax.shard_map`.")


#: The meshes (and manual axes) of the shard_map bodies being traced, innermost last.
_CONTEXT: list = []


def _check_context_mesh(m) -> None:
    """JAX's error for a ``shard_map`` (a ``pmap``) inside the body of another over a
    mesh of other axes (a nested ``pmap`` is one)."""
    if not _CONTEXT:
        return
    outer, manual = _CONTEXT[-1]
    if (outer.axis_names, outer.axis_sizes) == (m.axis_names, m.axis_sizes):
        return
    a = outer.abstract_mesh
    types = tuple(AxisType.Manual if n in manual else t
                  for n, t in zip(a.axis_names, a.axis_types))
    context = AbstractMesh(a.axis_sizes, a.axis_names, types,
                           _device_kind=a._device_kind, _platform=a._platform)
    raise ValueError(f"The context mesh {context!r} should match the mesh passed to "
                     f"shard_map {m}")


def shard_map(f: Callable | None = None, /, *, out_specs, in_specs=None, mesh=None,
              axis_names=frozenset(), check_vma: bool = True):
    """Map ``f`` over the blocks of its arguments on the devices of ``mesh``.

    Parameters
    ----------
    f : callable
        Written for one device's blocks; may call collectives over the mesh axes.
    out_specs : PartitionSpec or pytree of them
        How each output's blocks form the global output (an axis not named: the output
        is the same on every device along it).
    in_specs : PartitionSpec or pytree of them (a prefix of the argument tuple)
        How each argument is cut into blocks (``None``: replicated).
    mesh : Mesh, optional
        Default: the ambient mesh of ``set_mesh``.
    axis_names : set of str, optional
        The manual axes (default all of the mesh's).
    check_vma : bool
        Track which values vary over which axes, to check replicated outputs.

    Returns
    -------
    callable
    """
    if f is None:
        return functools.partial(shard_map, out_specs=out_specs, in_specs=in_specs,
                                 mesh=mesh, axis_names=axis_names, check_vma=check_vma)

    @functools.wraps(f)
    def wrapped(*args):
        shards.STATE.placed = True  # results (eager, or of a jit around this) carry shardings
        m = get_mesh() if mesh is None else mesh
        if not isinstance(m, Mesh) or m.empty:
            raise ValueError("The context mesh cannot be empty. Use `jax.set_mesh(mesh)` "
                             "to enter into a mesh context")
        manual = frozenset(axis_names) or frozenset(m.axis_names)
        order = [n for n in m.axis_names if n in manual]
        _check_context_mesh(m)
        leaves, in_tree = tree_util.tree_flatten(args)
        leaves = [_as_value(x) for x in leaves]
        specs = _spec_leaves(in_specs, args, "in_specs")
        _check_names(specs, manual, "in_specs")
        _check_divisible(f, m, args, leaves, specs)
        local = []
        for x, s in zip(leaves, specs):
            a = core.get_aval(x)
            vma = (set(n for e in spec_axes(s) for n in e) & manual) if check_vma else ()
            local.append(core.ShapedArray(local_shape(m, s, a.shape), a.dtype,
                                          a.weak_type, vma))
        store = {}

        def body(*xs):
            out = f(*tree_util.tree_unflatten(in_tree, list(xs)))
            out_leaves, store["tree"] = tree_util.tree_flatten(out)
            store["out"] = out
            return [_as_value(o) for o in out_leaves]
        core.check_vma.append(bool(check_vma))
        _CONTEXT.append((m, manual))
        try:
            with core.extend_axis_env([(n, m.shape[n], None) for n in order]):
                closed = trace_to_jaxpr(body, local, DebugInfo.of(f, "shard_map"))
        finally:
            core.check_vma.pop()
            _CONTEXT.pop()
        closed, tracer_consts = split_tracer_consts(closed)
        if closed.consts:  # concrete closed-over arrays: operands too, replicated
            j = closed.jaxpr
            tracer_consts = list(closed.consts) + tracer_consts
            closed = type(closed)(j.replace(constvars=(), invars=j.constvars + j.invars), [])
        ospecs = _spec_leaves(out_specs, store["out"], "out_specs")
        _check_names(ospecs, manual, "out_specs")
        if check_vma:
            _check_replication(m, manual, closed.out_avals, ospecs)
        all_specs = [PartitionSpec()] * len(tracer_consts) + specs
        outs = shard_map_p.bind(*tracer_consts, *leaves, jaxpr=closed, mesh=m,
                                in_specs=tuple(all_specs), out_specs=tuple(ospecs),
                                check_vma=bool(check_vma), newly_manual_axes=manual)
        return tree_util.tree_unflatten(store["tree"], outs)
    return wrapped

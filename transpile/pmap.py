"""``pmap``: JAX 0.10.2 stages it as a ``jit`` of a ``shard_map`` over a 1-D mesh.

The mesh is of every device (or the ``devices`` given) along one axis named
``axis_name`` (JAX's ``_internal_pmap_axis_name`` when none); each mapped argument is cut
along its ``in_axes`` axis into one block per device, the body squeezes that axis
away, runs ``fun`` and puts the output's axis back at ``out_axes``. ``check_vma`` is off,
as in JAX: collectives stage as ``psum``.
"""
from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from . import core, tree_util
from .array import Array
from .devices import devices as _all_devices
from .devices import local_devices as _local_devices
from .devices import process_count
from .jit import jit
from .lax._base import _as_value
from .lax.structural import expand_dims, squeeze
from .shard_map import shard_map
from .sharding.mesh import Mesh
from .sharding.partition_spec import PartitionSpec
from .vmapping import _broadcast_prefix

__all__ = ["pmap"]

_DEFAULT_NAME = "_internal_pmap_axis_name"


def _spec(axis, name) -> PartitionSpec:
    return PartitionSpec() if axis is None else PartitionSpec(*([None] * axis), name)


def _out_specs(out_axes, name):
    if out_axes is None or isinstance(out_axes, int):
        return _spec(out_axes, name)
    return tree_util.tree_map(lambda a: _spec(a, name), out_axes,
                              is_leaf=lambda a: a is None)


def pmap(fun: Callable, axis_name=None, *, in_axes=0, out_axes=0,
         static_broadcasted_argnums=(), devices=None, backend=None, axis_size=None,
         donate_argnums=()):
    """Map ``fun`` over a leading axis of its arguments, one slice per device.

    Parameters
    ----------
    fun : callable
    axis_name : hashable, optional
        The name collectives in ``fun`` use for the mapped axis.
    in_axes, out_axes : int, None or pytree
        As in ``vmap`` (non-negative output axes).
    static_broadcasted_argnums : int or tuple of int
        Arguments passed to every device as Python values.
    devices : sequence of Device, optional
        Default: every device. The first as many as the mapped size are used; a larger
        size is JAX's error.
    backend, axis_size, donate_argnums
        Accepted for compatibility; no effect.

    Returns
    -------
    callable
    """
    name = _DEFAULT_NAME if axis_name is None else axis_name
    statics = (static_broadcasted_argnums,) if isinstance(static_broadcasted_argnums, int) \
        else tuple(static_broadcasted_argnums)
    in_axes_ = tuple(in_axes) if isinstance(in_axes, list) else in_axes
    memo: dict = {}

    @functools.wraps(fun)
    def wrapped(*args):
        static_vals = {i: args[i] for i in statics}
        dyn = tuple(a for i, a in enumerate(args) if i not in statics)
        dyn_axes = in_axes_
        if isinstance(in_axes_, tuple):
            dyn_axes = tuple(a for i, a in enumerate(in_axes_) if i not in statics)
        leaves, in_tree = tree_util.tree_flatten(dyn)
        leaves = [_as_value(x) for x in leaves]
        # a scalar has no axis to map (JAX's error below when nothing else is mapped)
        axes = [None if a is None or not core.get_aval(x).ndim
                else a % core.get_aval(x).ndim
                for a, x in zip(_broadcast_prefix(dyn_axes, dyn, "in_axes"), leaves)]
        sizes = {core.get_aval(x).shape[a] for a, x in zip(axes, leaves) if a is not None}
        if not sizes:
            raise ValueError("pmap requires at least one argument with a mapped axis.")
        if len(sizes) > 1:
            raise ValueError(f"pmap got inconsistent sizes for array axes to be mapped: "
                             f"{sorted(sizes)}")
        size = sizes.copy().pop()
        if devices is None and process_count() > 1:
            return _across_processes(memo, fun, name, in_tree, axes, static_vals,
                                     out_axes, args, leaves, size)
        devs = list(devices) if devices is not None else _all_devices()
        # JAX 0.10.2 maps over the first ``size`` devices: a larger size is split
        # over all of them, and refused as their sharding error
        devs = devs[:size]
        n = len(devs)
        for a, x in zip(axes, leaves):
            shape = core.get_aval(x).shape
            if a is not None and shape[a] != n:
                spec = _spec(a, name)
                tiling = [n if i == a else 1 for i in range(len(shape))]
                raise ValueError(
                    f"Sharding NamedSharding(mesh=Mesh('{name}': {n}, axis_types=(Auto,)), "
                    f"spec={spec!r}, memory_kind=device) implies that array axis {a} is "
                    f"partitioned {n} times, but the dimension size is {shape[a]} (full "
                    f"shape: {shape}, per-dimension tiling factors: {tiling} should evenly "
                    f"divide the shape)")
        key = (in_tree, tuple(axes), tuple(sorted((i, repr(v)) for i, v in
                                                  static_vals.items())), tuple(devs))
        staged = memo.get(key)
        if staged is None:
            staged = memo[key] = _stage(fun, name, devs, in_tree, axes, static_vals,
                                        out_axes, len(args))
        return staged(*leaves)
    return wrapped


def _across_processes(memo, fun, name, in_tree, axes, static_vals, out_axes, args,
                      leaves, size: int):
    """``pmap`` in a run of several processes (JAX's): each process passes its own
    blocks, one per local device; the mesh is every process's devices in process order,
    so the collectives span all of them, and each process gets its devices' blocks of
    the outputs back."""
    if any(isinstance(x, core.Tracer) for x in leaves):
        raise NotImplementedError("pmap over the devices of several processes inside a "
                                  "traced function (jit, grad, vmap)")
    mine = _local_devices()
    if size != len(mine):
        raise ValueError(f"pmap in a run of {process_count()} processes maps over each "
                         f"process's {len(mine)} local devices: the mapped axis size must "
                         f"be {len(mine)}, got {size}")
    devs = [d for p in range(process_count()) for d in _local_devices(p)]
    start = devs.index(mine[0])
    key = ("processes", in_tree, tuple(axes), tuple(sorted(
        (i, repr(v)) for i, v in static_vals.items())), tuple(devs))
    staged = memo.get(key)
    if staged is None:
        staged = memo[key] = _stage(fun, name, devs, in_tree, axes, static_vals,
                                    out_axes, len(args))
    # the global operands: this process's blocks in place, zeros where the other
    # processes' blocks go (the shard_map reads only this process's blocks)
    full = []
    for x, a in zip(leaves, axes):
        if a is None:
            full.append(x)
            continue
        x = np.asarray(x)
        shape = list(x.shape)
        shape[a] = len(devs)
        buf = np.zeros(shape, x.dtype)
        buf[(slice(None),) * a + (slice(start, start + size),)] = x
        full.append(buf)
    out = staged(*full)
    oaxes = _broadcast_prefix(out_axes, out, "out_axes")
    outs, tree = tree_util.tree_flatten(out)
    return tree_util.tree_unflatten(tree, [
        o if a is None else Array._new(np.ascontiguousarray(
            o._value[(slice(None),) * a + (slice(start, start + size),)]), o.weak_type)
        for o, a in zip(outs, oaxes)])


def _stage(fun, name, devs, in_tree, axes, static_vals, out_axes, nargs):
    mesh = Mesh(np.array(devs, dtype=object), (name,))

    def body(*blocks):
        vals = [b if a is None else squeeze(b, (a,)) for b, a in zip(blocks, axes)]
        dyn = iter(tree_util.tree_unflatten(in_tree, vals))
        full = [static_vals[i] if i in static_vals else next(dyn) for i in range(nargs)]
        out = fun(*full)
        oaxes = _broadcast_prefix(out_axes, out, "out_axes")
        leaves, tree = tree_util.tree_flatten(out)
        return tree_util.tree_unflatten(tree, [
            o if a is None else expand_dims(_as_value(o), (a,))
            for o, a in zip(leaves, oaxes)])

    def _fun(*leaves):
        return shard_map(body, mesh=mesh, in_specs=tuple(_spec(a, name) for a in axes),
                         out_specs=_out_specs(out_axes, name), check_vma=False)(*leaves)
    return jit(_fun)

"""More of JAX's top-level functions: the process queries (one process), array
construction from callbacks and per-device pieces (one device), ``copy_to_host_async``,
``effects_barrier``, ``custom_gradient`` and ``fwd_and_bwd``.

transpile runs as one process; an array split over several CPU devices is one host
buffer with a sharding, so building one from per-device blocks copies each distinct
block into that buffer once.
"""
from __future__ import annotations

import functools
import warnings
from typing import Callable

import numpy as np

from . import tree_util
from .api import device_put
from .autodiff import vjp
from .custom_derivatives import custom_vjp
from .devices import _Device, process_count, process_index
from .jit import jit
from .numpy import asarray

__all__ = ["process_count", "process_index", "process_indices", "host_count", "host_id",
           "host_ids", "make_array_from_callback", "make_array_from_single_device_arrays",
           "make_array_from_process_local_data", "copy_to_host_async", "effects_barrier",
           "custom_gradient", "fwd_and_bwd", "Device"]

#: The base class of ``CpuDevice`` and ``CudaDevice`` (``jax.Device``).
Device = _Device




def process_indices(backend=None) -> list:
    """Every process's index: ``[0]``."""
    return list(range(process_count(backend)))


def _renamed(old_msg: str, fn):
    @functools.wraps(fn)
    def alias(backend=None):
        warnings.warn(f"{old_msg} This alias will eventually be removed; please update "
                      "your code.")
        return fn(backend)
    return alias


# JAX's deprecation messages, word for word
host_count = _renamed("jax.process_count has been renamed to jax.process_count.",
                      process_count)
host_id = _renamed("jax.process_index has been renamed to jax.process_index.",
                   process_index)
host_ids = _renamed("jax.process_indexs has been renamed to jax.process_indices.",
                    process_indices)
host_count.__name__, host_id.__name__, host_ids.__name__ = "host_count", "host_id", "host_ids"


def _blocks(shape, sharding) -> list:
    """``(device, index)`` of each distinct block (replica 0), by device id."""
    indices = sharding.devices_indices_map(tuple(shape))
    replicas = sharding._replica_ids(tuple(shape))
    return [(d, indices[d]) for d in sorted(indices, key=lambda d: d.id)
            if replicas[d] == 0]


def _assemble(shape, sharding, pieces, dtype=None):
    """The array of ``shape`` whose blocks are ``pieces`` (one per ``_blocks`` entry),
    placed with ``sharding``."""
    shape = tuple(shape)
    out = np.empty(shape, asarray(pieces[0][1], dtype=dtype).dtype)
    want = sharding.shard_shape(shape)
    for index, data in pieces:
        block = np.asarray(asarray(data, dtype=dtype))
        if block.shape != want:
            raise ValueError(
                f"Expected shard shape {want} doesn't match the single device array shape "
                f"{block.shape}. Shape of Array is "
                f"{block.dtype.name}[{','.join(map(str, shape))}] with sharding {sharding}")
        out[index] = block
    return device_put(asarray(out), sharding)


def make_array_from_callback(shape, sharding, data_callback: Callable, dtype=None):
    """An array of ``shape`` placed with ``sharding`` whose blocks
    ``data_callback(index)`` returns, ``index`` being a block's tuple of slices (called
    once per distinct block).

    Raises
    ------
    ValueError
        When a block the callback returns does not have the shard shape (JAX's message).
    """
    pieces = [(index, data_callback(index)) for _, index in _blocks(shape, sharding)]
    return _assemble(shape, sharding, pieces, dtype)


def make_array_from_single_device_arrays(shape, sharding, arrays, *, dtype=None):
    """An array of ``shape`` from one block per device of ``sharding`` (in device id
    order, or each on its own committed device); of replicated blocks the first is
    kept.

    Raises
    ------
    ValueError
        For a number of arrays other than the sharding's devices', or a block not of
        the shard shape.
    """
    arrays = list(arrays)
    devices = sorted(sharding.addressable_devices, key=lambda d: d.id)
    if len(arrays) != len(devices):
        raise ValueError(f"make_array_from_single_device_arrays: expected {len(devices)} "
                         f"arrays, one per addressable device of {sharding}, got "
                         f"{len(arrays)}")
    by_device = dict(zip(devices, arrays))
    if all(getattr(a, "committed", False) for a in arrays):
        by_device = {next(iter(a.devices())): a for a in arrays}
    indices = sharding.devices_indices_map(tuple(shape))
    pieces = [(indices[d], by_device.get(d, arrays[0])) for d, _ in _blocks(shape, sharding)]
    return _assemble(shape, sharding, pieces, dtype)


def make_array_from_process_local_data(sharding, local_data, global_shape=None):
    """An array of ``global_shape`` placed with ``sharding`` from this process's part.

    ``local_data`` is the block that this process's devices hold under ``sharding``
    (with one process: all of it). In a run of several processes the other processes'
    blocks are theirs: this process's buffer holds zeros there and refuses to be read
    whole (``addressable_shards`` gives its own blocks); ``shard_map`` reads only them.

    Raises
    ------
    ValueError
        When ``local_data`` is not the shape of this process's block.
    """
    data = np.asarray(local_data)
    local_map = getattr(sharding, "addressable_devices_indices_map", None)
    if global_shape is None or local_map is None or process_count() == 1 \
            or sharding.is_fully_addressable:
        shape = data.shape if global_shape is None else tuple(global_shape)
        if shape != data.shape:  # JAX's words (its missing space included)
            raise ValueError(
                "When calling `make_array_from_process_local_data` on a single process, "
                "global_shape should be None or equal to local_data.shape.Got "
                f"global_shape={shape} and local_data.shape={data.shape}.")
        return device_put(asarray(data), sharding)
    shape = tuple(global_shape)
    box = _bounding_box(local_map(shape).values(), shape)
    want = tuple(b.stop - b.start for b in box)
    if want != data.shape:
        raise ValueError(f"Expected this process's block of shape {want} for an array of "
                         f"shape {shape} under {sharding}, got {data.shape}")
    buf = np.zeros(shape, data.dtype)
    buf[box] = data
    return device_put(asarray(buf), sharding)


def _bounding_box(indices, shape) -> tuple:
    """The smallest box of slices that holds every block in ``indices``."""
    lo, hi = list(shape), [0] * len(shape)
    for index in indices:
        for k, (sl, n) in enumerate(zip(index, shape)):
            start, stop, _ = sl.indices(n)
            lo[k], hi[k] = min(lo[k], start), max(hi[k], stop)
    return tuple(slice(a, b) for a, b in zip(lo, hi))


def copy_to_host_async(x):
    """Start copying each array of the pytree ``x`` to the host; returns ``x``.

    Host arrays are there already; device arrays are copied when read."""
    for leaf in tree_util.tree_leaves(x):
        fn = getattr(leaf, "copy_to_host_async", None)
        if fn is not None:
            fn()
    return x


def effects_barrier() -> None:
    """Wait until every effect (host callback) issued so far has run: they run in
    program order before a call returns, so there is nothing to wait for."""
    return None


def custom_gradient(fun: Callable) -> Callable:
    """``fun(*args)`` returns ``(value, vjp_fn)``: differentiate ``value`` with
    ``vjp_fn(cotangent)``, which returns one cotangent per argument (a tuple).

    Returns
    -------
    callable
        Returns ``value``. The backward pass calls ``fun`` again for ``vjp_fn``.
    """
    @custom_vjp
    def wrapped(*args):
        return fun(*args)[0]

    def fwd(*args):
        return fun(*args)[0], args

    def bwd(args, ct):
        cts = fun(*args)[1](ct)
        return tuple(cts) if isinstance(cts, (tuple, list)) else (cts,)

    wrapped.defvjp(fwd, bwd)
    return functools.wraps(fun)(lambda *args: wrapped(*args))


def fwd_and_bwd(fun: Callable, argnums, has_aux: bool = False, jitted: bool = True):
    """The forward and backward passes of ``fun`` as two functions.

    ``fwd(*primals)`` returns ``(out, residuals)`` (``(out, residuals, aux)`` with
    ``has_aux``); ``bwd(residuals, cotangent)`` returns the cotangents of the arguments
    ``argnums`` names (one, or a tuple for a sequence). The residuals here are the
    primals themselves: ``bwd`` runs the forward pass again inside its VJP.

    Returns
    -------
    (callable, callable)
        ``fwd`` and ``bwd``, each jitted unless ``jitted`` is False.
    """
    single = isinstance(argnums, int)
    nums = (argnums,) if single else tuple(argnums)

    def fwd(*primals):
        out = fun(*primals)
        if has_aux:
            value, aux = out
            return value, primals, aux
        return out, primals

    def bwd(residuals, cotangent):
        primals = list(residuals)

        def of_diff(*diff):
            full = list(primals)
            for i, v in zip(nums, diff, strict=True):
                full[i] = v
            out = fun(*full)
            return out[0] if has_aux else out

        _, pullback = vjp(of_diff, *[primals[i] for i in nums])
        cts = pullback(cotangent)
        return cts[0] if single else tuple(cts)

    return (jit(fwd), jit(bwd)) if jitted else (fwd, bwd)

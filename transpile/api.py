"""Public functions that are neither tracing nor jit: devices, transfers, readiness.

``transpile/__init__.py`` re-exports these with the rest of JAX's top-level names.
"""
from __future__ import annotations

import numpy as np

from . import core, tree_util
from .array import Array
from .devices import (CpuDevice, CudaDevice, _Device, default_backend,  # noqa: F401
                      default_device, device_count, devices, local_device_count,
                      local_devices)
from .memory import cuda_runtime
from .memory.device_array import CudaArray
from .sharding.named import NamedSharding, Sharding, SingleDeviceSharding
from .sharding.shards import placed
from .version import __version__

__all__ = ["block_until_ready", "device_put", "device_get", "devices", "local_devices",
           "device_count", "local_device_count", "default_backend", "CpuDevice", "CudaDevice",
           "print_environment_info"]


def _to_array(x):
    if isinstance(x, Array) or x is None:
        return x
    if isinstance(x, core.Tracer):
        return x
    aval = core.get_aval(x)
    return Array._new(np.array(core.to_numpy(x, aval)), aval.weak_type)


def _target(device):
    """The GPU ``device_put`` puts arrays on, or None for host memory."""
    if device is None:
        device = default_device()
    if isinstance(device, CpuDevice):
        return None
    if isinstance(device, CudaDevice):
        return device
    raise TypeError(f"device_put: device must be a CpuDevice or a CudaDevice (from "
                    f"transpile.devices()), got {device!r}")


def _to_host(x):
    if isinstance(x, CudaArray):
        return Array._new(x._value, x._weak_type)  # the cached host copy is read-only
    return _to_array(x)


def _to_gpu(x, device):
    if x is None or isinstance(x, core.Tracer):
        return x
    if isinstance(x, CudaArray):
        if x._device == device:
            return x
        return CudaArray.from_host(x._value, x._weak_type, device)
    a = _to_array(x)
    return CudaArray.from_host(a._value, a._weak_type, device)


def _is_target(t) -> bool:
    return t is None or isinstance(t, (Sharding, _Device))


def _put_leaf(x, target):
    """One leaf placed as ``target`` (None, a device or a sharding) says."""
    if target is None:
        return _to_host(x)
    if isinstance(target, SingleDeviceSharding):
        target = next(iter(target.device_set))
    if isinstance(target, CudaDevice):
        return _to_gpu(x, target)
    if isinstance(x, core.Tracer):
        return x
    a = _to_host(x)
    if isinstance(target, NamedSharding):
        try:
            target.check_compatible_aval(a.shape)
        except ValueError as e:
            if "rank" not in str(e):
                raise
            raise ValueError(f"One of device_put args is incompatible with its sharding "
                             f"annotation {target}: {e}") from None
        return placed(a, target)
    if isinstance(target, CpuDevice):
        return placed(a, SingleDeviceSharding(target))
    raise TypeError(f"device_put: cannot place an array with {target!r}")


def device_put(x, device=None, *, src=None, donate=False, may_alias=None):
    """Turn every leaf of the pytree ``x`` into an array placed as ``device`` says
    (``jax.device_put``).

    NumPy f64 becomes f32 unless x64 is on; Python scalars stay weakly typed.

    Parameters
    ----------
    x : pytree
        Arrays, NumPy arrays and scalars.
    device : None, Device, Sharding, or a pytree of them, optional
        None: the default device, uncommitted (operations may move it). A
        ``CpuDevice`` or a ``SingleDeviceSharding``: that device, committed. A
        ``NamedSharding``: split over its mesh (a view per device of the one host
        buffer). A ``CudaDevice``: every leaf becomes a ``CudaArray``; on the CPU a
        ``CudaArray`` comes back to the host. A pytree that is a prefix of ``x`` gives
        each subtree its own placement.
    src, donate, may_alias
        Accepted for compatibility.

    Returns
    -------
    pytree
        The same structure.

    Raises
    ------
    ValueError
        When ``device`` holds something else (JAX's message), or an array does not fit
        its sharding (rank too small, a dimension not divisible).
    RuntimeError
        When it is a GPU and the CUDA backend cannot run here.
    """
    if device is None:
        target = _target(None)
        if target is None:
            return tree_util.tree_map(_to_host, x)
        return tree_util.tree_map(lambda leaf: _to_gpu(leaf, target), x)
    if _is_target(device):
        return tree_util.tree_map(lambda leaf: _put_leaf(leaf, device), x)
    for t in tree_util.tree_leaves(device, is_leaf=_is_target):
        if not _is_target(t):
            raise ValueError(
                "`jax.device_put` only accepts `None`, `jax.sharding.Sharding`, "
                "`jax.Device`, `Format`, `jax.memory.Space` or a pytree of these values. "
                f"Received invalid value: {t}")
    return tree_util.tree_map(
        lambda t, sub: tree_util.tree_map(lambda leaf: _put_leaf(leaf, t), sub),
        device, x, is_leaf=_is_target)


def device_get(x):
    """Turn every ``Array`` leaf of ``x`` (on the host or a GPU, whole or sharded) into
    a NumPy array (a sharded array's global buffer: its shards are views of it)."""
    return tree_util.tree_map(lambda a: np.asarray(a) if isinstance(a, Array) else a, x)


def block_until_ready(x):
    """Wait for every array leaf of the pytree ``x``; return ``x`` unchanged."""
    for leaf in tree_util.tree_leaves(x):
        fn = getattr(leaf, "block_until_ready", None)
        if fn is not None:
            fn()
    return x


def print_environment_info(return_string: bool = False):
    """Print (or return) versions and devices."""
    import platform
    import sys

    lines = [f"transpile: {__version__}", f"numpy: {np.__version__}",
             f"python: {sys.version.replace(chr(10), ' ')}",
             f"device info: cpu-{device_count('cpu')}, {device_count('cpu')} local devices",
             f"cuda: {_cuda_info()}",
             f"platform: {platform.platform()}"]
    text = "\n".join(lines)
    if return_string:
        return text
    print(text)


def _cuda_info() -> str:
    if not cuda_runtime.available():
        return f"unavailable ({cuda_runtime.unavailable_reason()})"
    return ", ".join(f"{d}: {d.device_kind}" for d in devices("cuda"))

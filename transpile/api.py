"""Public functions that are neither tracing nor jit: devices, transfers, readiness.

``transpile/__init__.py`` re-exports these with the rest of JAX's top-level names.
"""
from __future__ import annotations

import numpy as np

from . import core, tree_util
from .array import Array

__all__ = ["block_until_ready", "device_put", "device_get", "devices", "local_devices",
           "device_count", "local_device_count", "default_backend", "CpuDevice",
           "print_environment_info"]


class CpuDevice:
    """The host CPU, the only device of this build."""

    platform = "cpu"
    device_kind = "cpu"

    def __init__(self, id: int = 0):  # noqa: A002
        self.id = id

    def __repr__(self) -> str:
        return f"CpuDevice(id={self.id})"

    def __str__(self) -> str:
        return f"cpu:{self.id}"

    def __eq__(self, other) -> bool:
        return isinstance(other, CpuDevice) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("cpu", self.id))


_CPU = CpuDevice(0)


def devices(backend: str | None = None) -> list:
    """The devices of ``backend`` (default: the default backend)."""
    if backend not in (None, "cpu"):
        raise RuntimeError(f"Unknown backend {backend}: only 'cpu' is available")
    return [_CPU]


local_devices = devices


def device_count(backend: str | None = None) -> int:
    """Number of devices."""
    return len(devices(backend))


local_device_count = device_count


def default_backend() -> str:
    """The platform name of the default backend."""
    return "cpu"


def _to_array(x):
    if isinstance(x, Array) or x is None:
        return x
    if isinstance(x, core.Tracer):
        return x
    aval = core.get_aval(x)
    return Array._new(np.array(core.to_numpy(x, aval)), aval.weak_type)


def device_put(x, device=None, *, src=None, donate=False, may_alias=None):
    """Turn every leaf of the pytree ``x`` into an ``Array`` (NumPy f64 becomes f32
    unless x64 is on; Python scalars stay weakly typed)."""
    return tree_util.tree_map(_to_array, x)


def device_get(x):
    """Turn every ``Array`` leaf of ``x`` into a NumPy array."""
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

    from . import __version__
    lines = [f"transpile: {__version__}", f"numpy: {np.__version__}",
             f"python: {sys.version.replace(chr(10), ' ')}",
             f"device info: cpu-{device_count()}, {device_count()} local devices",
             f"platform: {platform.platform()}"]
    text = "\n".join(lines)
    if return_string:
        return text
    print(text)

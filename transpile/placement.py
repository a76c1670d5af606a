"""Where a jitted computation runs: the CPU (the C backend) or a GPU (the CUDA backend).

JAX's rule, which ``jit`` follows here: the device named by ``jit(f, device=...)`` or
``backend=...``; else the device of an argument that already lives on a GPU (a
``CudaArray``: computation follows data); else the default device
(``transpile.default_device``, ``jax_platform_name``/``TRANSPILE_PLATFORM``); else the
CPU. Lowering needs no device: ``lowering_target`` only says which source to render.
"""
from __future__ import annotations

from .config import config
from .devices import CudaDevice, default_device, devices
from .memory import cuda_runtime
from .memory.device_array import CudaArray

__all__ = ["placement", "lowering_target", "require_cuda_device", "argument_device",
           "CUDA_NAMES"]

#: Names of the CUDA backend accepted by ``backend=`` and ``jax_platform_name``.
CUDA_NAMES = ("cuda", "gpu")


def _check_backend(backend) -> None:
    if backend not in (None, "cpu", *CUDA_NAMES):
        devices(backend)  # raises JAX's "Unknown backend" error


def argument_device(leaves):
    """The GPU of the first ``CudaArray`` among ``leaves``, or None."""
    for x in leaves:
        if isinstance(x, CudaArray):
            return x._device
    return None


def placement(backend, device, leaves):
    """The device a call of ``jit(f, backend=backend, device=device)`` with the flat
    arguments ``leaves`` runs on, or None for the CPU.

    Raises
    ------
    RuntimeError
        When that is a GPU and none is present (JAX's "Unknown backend" text, with the
        reason chained).
    """
    _check_backend(backend)
    if device is not None:
        return None if device.platform == "cpu" else require_cuda_device(device)
    if backend == "cpu":
        return None
    if backend in CUDA_NAMES:
        return require_cuda_device(argument_device(leaves))
    got = argument_device(leaves)
    if got is not None:
        return got
    d = default_device()
    return None if d.platform == "cpu" else d


def lowering_target(backend, device, leaves) -> str:
    """``"cuda"`` or ``"c"``: the source ``jit(...).lower(*args)`` renders. Like
    ``placement`` but without needing a GPU to be present."""
    _check_backend(backend)
    if device is not None:
        return "c" if device.platform == "cpu" else "cuda"
    if backend is not None:
        return "cuda" if backend in CUDA_NAMES else "c"
    if argument_device(leaves) is not None:
        return "cuda"
    d = config.jax_default_device
    if d is not None:
        platform = d if isinstance(d, str) else d.platform
        return "c" if platform == "cpu" else "cuda"
    return "cuda" if str(config.jax_platform_name or "").lower() in CUDA_NAMES else "c"


def require_cuda_device(device=None):
    """``device`` (default GPU 0) once a GPU and the CUDA runtime are known to be
    there.

    Raises
    ------
    RuntimeError
        Naming why the CUDA backend cannot run here (no runtime library, no GPU, a
        driver too old), before anything is compiled.
    """
    if not cuda_runtime.available():
        raise RuntimeError(
            "cannot compile or run for the CUDA backend on this machine: "
            f"{cuda_runtime.unavailable_reason()}. Lowering needs no GPU "
            "(jit(f, backend='cuda').lower(*args).as_text() is the CUDA source); "
            "running needs an NVIDIA GPU, its driver and the CUDA runtime.")
    if device is None:
        return CudaDevice(0)
    if device.id >= cuda_runtime.device_count():
        raise RuntimeError(f"no CUDA device {device.id}: this machine has "
                           f"{cuda_runtime.device_count()}")
    return device

"""Devices: the host CPU and, when the CUDA runtime finds one, NVIDIA GPUs.

``devices(backend)`` lists them with JAX's names and errors; ``default_device()`` says
where new arrays and computations go. CPU stays the default even when a GPU is
present: the CUDA backend is opt-in (``transpile.default_device(dev)``,
``config.update("jax_platform_name", "cuda")`` or ``TRANSPILE_PLATFORM=cuda``), so a
program behaves the same on every machine unless it asks for a GPU.
"""
from __future__ import annotations

import os

from .config import config
from .memory import cuda_runtime

__all__ = ["CpuDevice", "CudaDevice", "devices", "local_devices", "device_count",
           "local_device_count", "default_device", "default_backend", "CUDA_PLATFORMS",
           "process_index", "process_count"]

#: Backend names that mean the CUDA backend ("gpu" is JAX's alias for it).
CUDA_PLATFORMS = ("cuda", "gpu")


class _Device:
    """What every device has: an id, JAX's reprs, equality by kind and id."""

    _kind = ""  # the prefix of str(): "cpu" or "cuda"
    process_index = 0

    def __init__(self, id: int = 0):  # noqa: A002 - JAX's name
        self.id = id

    def __repr__(self) -> str:
        return f"{type(self).__name__}(id={self.id})"

    def __str__(self) -> str:
        return f"{self._kind}:{self.id}"

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.id == self.id

    def __hash__(self) -> int:
        return hash((self._kind, self.id))


class CpuDevice(_Device):
    """The host CPU, or with ``jax_num_cpu_devices = N`` one of N shares of it.

    All CPU devices share host memory (a sharded array is one buffer). ``num_threads``
    is the device's share of the cores, ``os.cpu_count() // N`` (at least 1): the
    threads a per-device kernel may use when devices run side by side. It is advice for
    the code that runs them, not needed for correct results.
    """

    _kind = "cpu"
    platform = "cpu"
    device_kind = "cpu"

    @property
    def num_threads(self) -> int:
        # this process's devices share its cores (a distributed run lists every process's)
        mine = sum(d.process_index == self.process_index for d in _cpu_device_list())
        return max(1, (os.cpu_count() or 1) // max(mine, 1))


class CudaDevice(_Device):
    """An NVIDIA GPU, numbered as the CUDA runtime numbers them.

    ``platform`` is ``"gpu"``, JAX's value for NVIDIA devices; ``device_kind`` is the
    name the runtime reports (``"NVIDIA H100 80GB HBM3"``), asked for on first use.
    """

    _kind = "cuda"
    platform = "gpu"

    @property
    def device_kind(self) -> str:
        return cuda_runtime.device_name(self.id)


_CPU = CpuDevice(0)
# Every CpuDevice, made on first use from ``jax_num_cpu_devices`` and fixed from then on
# (JAX fixes the count when its backends start).
_cpu_devices: list = []


#: Ids of process p's CPU devices start at p * CPU_IDS_PER_PROCESS (JAX 0.10.2's numbering
#: in a distributed run: cpu:0, cpu:1, then cpu:2048, cpu:2049 for the second process).
CPU_IDS_PER_PROCESS = 2048


def _cpu_device_list() -> list:
    """Every process's CpuDevices (``distributed.initialize`` sets the process count)."""
    if not _cpu_devices:
        n = config.read("jax_num_cpu_devices")
        n = 1 if n is None or n < 1 else n
        for p in range(_process.count):
            for i in range(n):
                d = _CPU if p == 0 and i == 0 else CpuDevice(p * CPU_IDS_PER_PROCESS + i)
                d.process_index = p
                _cpu_devices.append(d)
    return _cpu_devices


def _first_local_cpu():
    return next(d for d in _cpu_device_list() if d.process_index == _process.index)


def _reset_for_tests(n: int) -> None:
    """Make the CPU device list again with ``n`` devices (tests only: JAX fixes the
    count for the life of the process)."""
    _cpu_devices.clear()
    config._values["jax_num_cpu_devices"] = n


def _refuse_late_count(value) -> None:
    """JAX's error for changing the CPU device count after devices exist."""
    if _cpu_devices and value != config.read("jax_num_cpu_devices"):
        raise RuntimeError(
            "jax_num_cpu_devices config should be updated before backends are "
            "initialized i.e. before any JAX operation is executed. You should "
            "initialize this config immediately after `import jax`.")


config._guards["jax_num_cpu_devices"] = _refuse_late_count


def _cuda_devices() -> list:
    return [CudaDevice(i) for i in range(cuda_runtime.device_count())]


def _unknown(backend: str, gpus: list) -> RuntimeError:
    """JAX 0.10.2's error for a backend that is not present."""
    present = ["cpu", "cuda"] if gpus else ["cpu"]
    if backend == "gpu":
        return RuntimeError(
            "Unknown backend: 'gpu' requested, but no platforms that are instances of gpu "
            f"are present. Platforms present are: {','.join(present)}")
    return RuntimeError(f"Unknown backend {backend}. Available backends are {present}")


def devices(backend: str | None = None) -> list:
    """The devices of ``backend`` (``jax.devices``).

    Parameters
    ----------
    backend : str, optional
        ``"cpu"``, ``"cuda"`` or ``"gpu"``; default the default backend
        (``jax_platform_name``, else the CPU).

    Returns
    -------
    list of CpuDevice or CudaDevice

    Raises
    ------
    RuntimeError
        JAX's ``Unknown backend ...`` text for a name that is not present; for
        ``"cuda"``/``"gpu"`` without a usable GPU, the cause (a
        ``CudaUnavailableError`` saying why) is chained.
    """
    if backend is None:
        backend = _platform_name() or "cpu"
    if backend == "cpu":
        return list(_cpu_device_list())
    gpus = _cuda_devices()
    if backend in CUDA_PLATFORMS and gpus:
        return gpus
    err = _unknown(backend, gpus)
    if backend in CUDA_PLATFORMS:
        raise err from cuda_runtime.CudaUnavailableError(cuda_runtime.unavailable_reason())
    raise err


def local_devices(process_index: int | None = None, backend: str | None = None) -> list:
    """The devices of ``backend`` that belong to process ``process_index`` (default:
    this process)."""
    me = _process.index if process_index is None else process_index
    return [d for d in devices(backend) if d.process_index == me]


class _Process:
    """Which process this is, of how many (one, unless ``distributed`` says more)."""

    index = 0
    count = 1


_process = _Process()


def process_index(backend: str | None = None) -> int:
    """This process's index among the processes of a distributed run (0 alone)."""
    return _process.index


def process_count(backend: str | None = None) -> int:
    """The number of processes in a distributed run (1 alone)."""
    return _process.count


def device_count(backend: str | None = None) -> int:
    """The number of devices of ``backend`` (default: the default backend)."""
    return len(devices(backend))


def local_device_count(backend: str | None = None) -> int:
    """The number of this process's devices of ``backend``."""
    return len(local_devices(backend=backend))


def _platform_name() -> str:
    # jax_platforms ("cuda,cpu": the first is the default) when jax_platform_name is unset
    name = config.read("jax_platform_name") or (config.read("jax_platforms") or "")
    return str(name).split(",")[0].strip().lower()


def default_device():
    """Where new arrays and computations go when nothing names a device.

    Resolution: the ``jax_default_device`` option (``transpile.default_device(dev)``)
    when set; else the first device of ``jax_platform_name`` (``TRANSPILE_PLATFORM``)
    when set; else the CPU, even when a GPU is present.

    Returns
    -------
    CpuDevice or CudaDevice

    Raises
    ------
    RuntimeError
        When ``jax_platform_name`` (or a platform name given as the default device)
        names a backend that is not present (see ``devices``).
    """
    d = config.read("jax_default_device")
    if d is not None:
        return devices(d.strip().lower())[0] if isinstance(d, str) else d
    name = _platform_name()
    return devices(name)[0] if name else _first_local_cpu()


def default_backend() -> str:
    """The platform of the default backend: ``"cpu"`` or ``"gpu"``.

    Like JAX, this follows ``jax_platform_name`` and not ``jax_default_device``.
    """
    return devices()[0].platform

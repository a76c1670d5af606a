"""How ``Array`` meets other array libraries: DLPack export (``__dlpack__``,
``__dlpack_device__``), the buffer protocol (``__buffer__``, Python 3.12 and later),
``to_device`` and ``sharding``. ``__array_namespace__`` needs ``transpile.numpy`` and is
installed from there (``numpy/array_api.py``); ``from_dlpack`` lives there too.

An ``Array`` holds a read-only NumPy array, so DLPack hands that memory out as is to
consumers of DLPack 1.0 and later, which can be told it is read-only; older ones get a
copy they may write to.
"""
from __future__ import annotations

import enum

import numpy as np

from .array import Array
from .devices import CpuDevice
from .memory.device_array import CudaArray
from .sharding import shards
from .sharding.named import SingleDeviceSharding

__all__ = ["DLDeviceType", "SingleDeviceSharding", "install"]


class DLDeviceType(enum.IntEnum):
    """DLPack's device types (those transpile has)."""
    kDLCPU = 1
    kDLCUDA = 2


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule of the array's data (host memory).

    Parameters
    ----------
    stream : None
        Host memory needs no stream; anything else is refused, as the standard asks.
    max_version : tuple of int, optional
        The newest DLPack version the consumer reads. Below 1.0 it cannot be told the
        data is read-only, so it gets a copy.
    dl_device : tuple, optional
        Must be the CPU, ``(1, 0)``.
    copy : bool, optional
        True: always a copy; False: never (refused where a copy is needed).
    """
    on_gpu = isinstance(self, CudaArray)
    host = dl_device is not None and tuple(dl_device) == (DLDeviceType.kDLCPU, 0)
    if on_gpu and not host:
        # A CUDA capsule needs DLPack's C structs around the device pointer; a consumer
        # may ask for the host copy with dl_device=(1, 0).
        raise BufferError("transpile exports GPU arrays through DLPack only to the host: "
                          "pass dl_device=(1, 0), or use np.asarray")
    if not on_gpu and stream is not None and stream != -1:
        raise ValueError(f"stream {stream!r} is not valid for an array in host memory")
    if dl_device is not None and not host:
        raise BufferError(f"an array in host memory cannot be exported to device "
                          f"{tuple(dl_device)}")
    value = self._value
    versioned = max_version is not None and tuple(max_version) >= (1, 0)
    if copy or not versioned:
        if copy is False:
            raise BufferError("exporting this array to a DLPack consumer older than 1.0 "
                              "needs a copy (its memory is read-only), but copy=False")
        value = np.array(value)
    kwargs = {} if max_version is None else {"max_version": tuple(max_version)}
    return value.__dlpack__(**kwargs)


def _dlpack_device(self):
    """``(DLDeviceType.kDLCPU, 0)`` for an array in host memory, ``(kDLCUDA, id)`` for
    one on a GPU."""
    if isinstance(self, CudaArray):
        return (DLDeviceType.kDLCUDA, self.device.id)
    return (DLDeviceType.kDLCPU, 0)


def _buffer(self, flags):
    # PEP 688 (Python 3.12+): ``memoryview(x)`` reads the data without copying.
    return memoryview(self._value)


def _to_device(self, device, *, stream=None):
    """The array on ``device`` (the Array API's ``to_device``): itself on the CPU, a
    ``CudaArray`` on a GPU."""
    if stream is not None:
        raise NotImplementedError("to_device(..., stream=) is not supported")
    if isinstance(device, CpuDevice) or getattr(device, "platform", None) == "cpu":
        return Array._new(self._value, self._weak_type) if isinstance(self, CudaArray) \
            else self
    if getattr(device, "platform", None) != "gpu":
        raise ValueError(f"to_device: {device!r} is not a device")
    return CudaArray.from_host(self._value, self._weak_type, device)


def _sharding(self):
    """The array's sharding: where ``device_put`` placed it (or operations on placed
    arrays put it), else ``SingleDeviceSharding`` of its device."""
    if isinstance(self, CudaArray):
        return SingleDeviceSharding(self.device)
    return shards.sharding_of(self)


def _is_fully_replicated(self) -> bool:
    return _sharding(self).is_fully_replicated


def _is_fully_addressable(self) -> bool:
    return _sharding(self).is_fully_addressable


def _addressable_data(self, index: int):
    """The block of the ``index``-th addressable shard."""
    return shards.addressable_shards(self)[index].data


def install() -> None:
    """Put the interop methods on ``Array``."""
    Array.__dlpack__ = _dlpack
    Array.__dlpack_device__ = _dlpack_device
    Array.__buffer__ = _buffer
    Array.to_device = _to_device
    Array.sharding = property(_sharding)
    Array.addressable_shards = property(shards.addressable_shards)
    Array.global_shards = property(shards.global_shards)
    Array.is_fully_replicated = property(_is_fully_replicated)
    Array.is_fully_addressable = property(_is_fully_addressable)
    Array.committed = property(shards.is_committed)
    Array.addressable_data = _addressable_data
    Array.devices = shards.array_devices
    Array.device = property(shards.array_device)


install()

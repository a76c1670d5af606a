"""Arrays whose data lives in GPU memory: ``DeviceBuffer`` and ``CudaArray``.

A ``CudaArray`` is an ``Array`` whose ``_value`` (the NumPy array every ``Array``
method reads) is fetched from the GPU on first use and kept: printing, indexing,
``np.asarray`` and eager operations work unchanged, while shape, dtype and the
abstract value never touch the device. Compiled CUDA calls (``load_cuda``) read and
write the device buffer directly, without a host copy.

Every allocation, copy and free is queued on the default stream of the buffer's GPU,
so freeing a buffer that queued kernels still read is safe: the memory is reused only
by work queued after them.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..array import Array, _rebuild
from ..core import ShapedArray
from . import cuda_runtime
from ..devices import CudaDevice

__all__ = ["DeviceBuffer", "CudaArray"]


class DeviceBuffer:
    """One allocation on one GPU, freed when the object is garbage collected.

    Parameters
    ----------
    ptr : int
        Device address (from ``cuda_runtime.malloc``); the buffer owns it.
    nbytes : int
        Its size in bytes as asked for (may be 0; the allocation is then 1 byte).
    device : int
        The GPU's number.
    """

    __slots__ = ("ptr", "nbytes", "device", "__weakref__")

    def __init__(self, ptr: int, nbytes: int, device: int):
        self.ptr = int(ptr)
        self.nbytes = int(nbytes)
        self.device = int(device)

    @classmethod
    def allocate(cls, nbytes: int, device: int = 0) -> "DeviceBuffer":
        """A new, uninitialised buffer of ``nbytes`` on GPU ``device``.

        Raises
        ------
        CudaError
            ``RESOURCE_EXHAUSTED: Out of memory ...`` when the GPU is full.
        """
        return cls(cuda_runtime.malloc(nbytes, device), nbytes, device)

    def free(self) -> None:
        """Give the memory back now (queued on the default stream); idempotent."""
        ptr, self.ptr = self.ptr, 0
        if ptr:
            cuda_runtime.free(ptr, self.device)

    def __del__(self):
        # Never raise from a finaliser: at interpreter exit the module globals may be
        # gone and the runtime torn down (the driver reclaims the memory then), and a
        # sticky CUDA error would make every free fail.
        try:
            rt = cuda_runtime
            if self.ptr and rt is not None and not rt._exiting and rt._state.lib is not None:
                self.free()
        except Exception:  # noqa: BLE001
            pass

    def __repr__(self) -> str:
        return f"DeviceBuffer(ptr=0x{self.ptr:x}, nbytes={self.nbytes}, device={self.device})"


def _deleted(aval: ShapedArray) -> RuntimeError:
    return RuntimeError(f"Array has been deleted with shape={aval.str_short()}.")


class CudaArray(Array):
    """An immutable array in the memory of one GPU (a ``jax.Array`` on ``cuda:N``).

    Made by ``device_put(x, CudaDevice(i))`` and by jitted calls that run on a GPU.
    Reading values (``np.asarray``, printing, indexing, eager arithmetic) copies the
    array to the host once and keeps that copy; results of eager arithmetic are host
    ``Array``\\ s.
    """

    # The base class's _value slot stays unused: ``_value`` is the property below.
    __slots__ = ("_buffer", "_aval", "_device", "_host")

    @classmethod
    def _wrap(cls, buffer: DeviceBuffer, aval: ShapedArray, device) -> "CudaArray":
        """An array over ``buffer`` (shared, not copied) with abstract value ``aval``.

        Parameters
        ----------
        buffer : DeviceBuffer
            Holds ``aval.size * aval.dtype.itemsize`` bytes, C order (a PRNG key is
            its 8 bytes of key data).
        aval : ShapedArray
            Shape, dtype and weak type.
        device : devices.CudaDevice
            The GPU ``buffer`` lives on.
        """
        self = object.__new__(cls)
        self._buffer = buffer
        self._aval = aval
        self._device = device
        self._host = None
        self._weak_type = bool(aval.weak_type)
        self._ptr = None
        return self

    @classmethod
    def from_host(cls, value: np.ndarray, weak_type: bool = False, device=None) -> "CudaArray":
        """Upload ``value`` (a C-contiguous copy of it) to ``device``.

        Parameters
        ----------
        value : numpy.ndarray
            Any dtype transpile arrays have, PRNG key data included.
        weak_type : bool
        device : devices.CudaDevice or int, optional
            Default GPU 0.

        Raises
        ------
        CudaUnavailableError
            When there is no usable GPU.
        """
        if device is None:
            device = CudaDevice(0)
        elif isinstance(device, int):
            device = CudaDevice(device)
        host = np.asarray(value)
        if not host.flags.c_contiguous:  # (np.ascontiguousarray would make 0-d 1-d)
            host = np.array(host, order="C")
        buffer = DeviceBuffer.allocate(host.nbytes, device.id)
        cuda_runtime.copy_to_device(buffer.ptr, host, device.id)
        return cls._wrap(buffer, ShapedArray(host.shape, host.dtype, weak_type), device)

    # --- the host copy: what every inherited method reads ----------------------------
    @property
    def _value(self) -> np.ndarray:
        host = self._host
        if host is None:
            buffer = self._buffer
            if buffer is None:
                raise _deleted(self._aval)
            host = np.empty(self._aval.shape, self._aval.dtype)
            cuda_runtime.copy_to_host(host, buffer.ptr, buffer.device)
            host.flags.writeable = False
            self._host = host
        return host

    # --- abstract value, without a copy ----------------------------------------------
    @property
    def aval(self) -> ShapedArray:
        return self._aval

    @property
    def shape(self) -> tuple:
        return self._aval.shape

    @property
    def dtype(self) -> np.dtype:
        d = self._aval.dtype
        return d if d.names is None else dtypes.public_dtype(d)

    @property
    def ndim(self) -> int:
        return len(self._aval.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self._aval.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        return self._aval.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self._aval.dtype.itemsize

    # --- placement and lifetime ------------------------------------------------------
    def devices(self) -> set:
        """``{CudaDevice(id=i)}``: the GPU holding the array."""
        return {self._device}

    @property
    def device(self):
        """The GPU holding the array."""
        return self._device

    def block_until_ready(self) -> "CudaArray":
        """Wait until the work computing this array has run on the GPU; return it.

        Raises
        ------
        CudaError
            If that work failed.
        RuntimeError
            If the array was deleted.
        """
        if self._buffer is None:
            raise _deleted(self._aval)
        cuda_runtime.synchronize(self._buffer.device)
        return self

    def copy_to_host_async(self) -> None:
        """Fetch the host copy now (it is kept for later reads)."""
        self._value  # noqa: B018 - the property fetches and caches

    def is_deleted(self) -> bool:
        return self._buffer is None

    def delete(self) -> None:
        """Drop this array's device memory; later use raises ``RuntimeError``.

        The buffer is freed at once unless another array shares it (an output of a
        jitted call that is one of its inputs), which keeps it alive.
        """
        self._buffer = None
        self._host = None

    def copy(self) -> "CudaArray":
        """A copy in new memory on the same GPU."""
        src = self._buffer
        if src is None:
            raise _deleted(self._aval)
        dst = DeviceBuffer.allocate(src.nbytes, src.device)
        cuda_runtime.copy_device_to_device(dst.ptr, src.ptr, src.nbytes, src.device)
        return CudaArray._wrap(dst, self._aval, self._device)

    def __reduce__(self):
        # Pickles hold values, not device memory: unpickling gives a host Array.
        return (_rebuild, (np.array(self._value), self._weak_type))


core.pytype_aval_mappings[CudaArray] = lambda x: x._aval

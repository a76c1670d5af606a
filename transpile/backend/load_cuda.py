"""Load and call (stage 7) for the CUDA backend: an entry point that runs on a GPU.

Input: a ``Library`` built by nvcc (``build.build(..., target="cuda")``) and its
``abi.EntryABI``. Output: ``CudaExecutable``, which takes the flat argument values, passes
device pointers to the entry point (host values are uploaded first, arrays already on
the device are passed as they are), allocates the outputs and the workspace on the
device, queues the kernels on the default stream and returns ``CudaArray``\\ s at once:
like JAX, a call does not wait for the GPU; ``block_until_ready`` or reading a value
does.

Every allocation, copy, kernel and free is queued on the same (default) stream, so a
temporary freed right after the call is reused only once the kernels that read it ran.
"""
from __future__ import annotations

import numpy as np

from ..abi import EntryABI
from ..dtypes import from_name
from ..memory import cuda_runtime
from ..memory.device_array import CudaArray, DeviceBuffer
from .load import BaseExecutable, _as_buffer

__all__ = ["CudaExecutable"]


class CudaExecutable(BaseExecutable):
    """The compiled CUDA entry point of one (function, signature) on one GPU.

    Parameters
    ----------
    library : backend.build.Library
    abi : EntryABI
    consts : list of numpy.ndarray
        The values of the jaxpr's constvars, uploaded once here.
    out_avals : list of ShapedArray
    device : devices.CudaDevice
    """

    def __init__(self, library, abi: EntryABI, consts, out_avals, device):
        super().__init__(library, abi, out_avals)
        self.device = device
        self._consts = [CudaArray.from_host(_as_buffer(c, dt), False, device)
                        for c, dt in zip(consts, self._const_dtypes, strict=True)]
        self.call = self._call

    def _pointer(self, ptr: int):
        return self._ffi.cast("void *", ptr)

    def _on_device(self, x, dtype, keep: list) -> int:
        """The device address of argument ``x`` (uploaded if it lives elsewhere)."""
        if isinstance(x, CudaArray) and x._device == self.device and x.dtype == dtype:
            return x._buffer.ptr
        host = x._value if isinstance(x, CudaArray) else x
        arr = CudaArray.from_host(_as_buffer(host, dtype), False, self.device)
        keep.append(arr)
        return arr._buffer.ptr

    def _call(self, args) -> list:
        """Run on the flat argument values; returns the flat list of ``CudaArray``\\ s."""
        cuda_runtime.set_device(self.device.id)  # kernels launch on the current device
        keep: list = []  # uploaded arguments: alive until their free is queued
        ptrs = [self._pointer(self._on_device(x, dt, keep))
                for x, dt in zip(args, self._in_dtypes, strict=True)]
        ptrs += [self._pointer(c._buffer.ptr) for c in self._consts]
        outs = [DeviceBuffer.allocate(nbytes, self.device.id)
                for _, _, nbytes in self._out_specs]
        ptrs += [self._pointer(b.ptr) for b in outs]
        workspace = DeviceBuffer.allocate(self.workspace_bytes, self.device.id) \
            if self.workspace_bytes else None
        ptrs.append(self._pointer(workspace.ptr) if workspace else self._ffi.NULL)
        ptrs.append(self._ffi.NULL)  # the default stream
        status = self._fn(*ptrs)
        if status != 0:
            raise cuda_runtime.CudaError.from_status(
                status, f"launching the kernels of {self.abi.name}")
        return self._assemble(outs, args)

    def _from_output(self, buf, aval):
        return CudaArray._wrap(buf, aval, self.device)

    def _from_input(self, x, dtype, aval):
        if isinstance(x, CudaArray) and x._device == self.device:
            return CudaArray._wrap(x._buffer, aval, self.device)
        host = x._value if hasattr(x, "_value") else x
        return CudaArray.from_host(_as_buffer(host, aval.dtype), aval.weak_type, self.device)

    def _from_const(self, i, aval):
        return CudaArray._wrap(self._consts[i]._buffer, aval, self.device)

    def _from_host(self, value, aval):
        return CudaArray.from_host(value, aval.weak_type, self.device)

"""Load and call (stage 7) for the CUDA backend: an entry point that runs on a GPU.

Input: a ``Library`` built by nvcc (``build.build(..., target="cuda")``) and its
``CallSpec``. Output: ``CudaExecutable``, which takes the flat argument values, passes
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

from ..dtypes import from_name
from ..memory import cuda_runtime
from ..memory.device_array import CudaArray, DeviceBuffer
from .load import CallSpec, _as_buffer

__all__ = ["CudaExecutable"]


class CudaExecutable:
    """The compiled CUDA entry point of one (function, signature) on one GPU.

    Parameters
    ----------
    library : backend.build.Library
    spec : CallSpec
    consts : list of numpy.ndarray
        The values of the jaxpr's constvars, uploaded once here.
    out_avals : list of ShapedArray
    device : devices.CudaDevice
    """

    def __init__(self, library, spec: CallSpec, consts, out_avals, device):
        self.library = library
        self.spec = spec
        self.device = device
        lib, ffi = library.lib, library.ffi
        self._ffi = ffi
        self._fn = getattr(lib, spec.name)
        self.workspace_bytes = int(getattr(lib, f"{spec.name}_workspace_size")())
        self._in_dtypes = spec.inputs
        self._consts = [CudaArray.from_host(_as_buffer(c, dt), False, device)
                        for c, dt in zip(consts, spec.consts, strict=True)]
        self._out_specs = [(shape, dt, int(np.prod(shape, dtype=np.int64)) * dt.itemsize)
                           for shape, dt in spec.outputs]
        self._out_avals = list(out_avals)
        self.call = self.__call__

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

    def __call__(self, args) -> list:
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
                status, f"launching the kernels of {self.spec.name}")
        return self._assemble(outs, args)

    def _assemble(self, outs, args) -> list:
        result = []
        for (kind, what), aval in zip(self.spec.out_sources, self._out_avals, strict=True):
            if kind == "buffer":
                a = CudaArray._wrap(outs[what], aval, self.device)
            elif kind == "input":
                x = args[what]
                if isinstance(x, CudaArray) and x._device == self.device:
                    a = CudaArray._wrap(x._buffer, aval, self.device)
                else:
                    host = x._value if hasattr(x, "_value") else x
                    a = CudaArray.from_host(_as_buffer(host, aval.dtype), aval.weak_type,
                                            self.device)
            elif kind == "const":
                a = CudaArray._wrap(self._consts[what]._buffer, aval, self.device)
            else:
                value, dtype = what
                host = np.asarray(tuple(value) if isinstance(value, list) else value,
                                  from_name(dtype))
                a = CudaArray.from_host(host, aval.weak_type, self.device)
            result.append(a)
        return result


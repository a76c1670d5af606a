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
For the same reason one workspace per GPU serves every executable: calls run on the GPU
one after another, so a call's kernels cannot start before the last call's finished with
it. Keeping it saves an allocation and a free in front of every launch.
"""
from __future__ import annotations

import threading

import numpy as np

from ..abi import EntryABI
from ..dtypes import from_name
from ..memory import cuda_runtime
from ..memory.device_array import CudaArray, DeviceBuffer
from .load import BaseExecutable, _as_buffer

__all__ = ["CudaExecutable", "release_workspaces"]

#: GPU id -> the DeviceBuffer every executable on that GPU uses as its workspace, grown
#: to the largest one asked for.
_WORKSPACES: dict = {}
#: Held from taking the workspace until the kernels are queued: a second host thread
#: growing it in between would free memory this call's kernels are about to use.
_LAUNCH = threading.Lock()


def _workspace(nbytes: int, device: int) -> DeviceBuffer:
    ws = _WORKSPACES.get(device)
    if ws is None or ws.nbytes < nbytes:
        if ws is not None:
            ws.free()  # stream-ordered: reused only by work queued after this point
        ws = _WORKSPACES[device] = _allocate(nbytes, device)
    return ws


def release_workspaces() -> None:
    """Give the kept workspaces back to the GPUs' pools (a later call takes a new one)."""
    while _WORKSPACES:
        _WORKSPACES.popitem()[1].free()


def _allocate(nbytes: int, device: int) -> DeviceBuffer:
    """A new buffer; when the GPU is full, once more after giving back the workspaces."""
    try:
        return DeviceBuffer.allocate(nbytes, device)
    except cuda_runtime.CudaError as e:
        if not _WORKSPACES or not str(e).startswith("RESOURCE_EXHAUSTED"):
            raise
    release_workspaces()
    return DeviceBuffer.allocate(nbytes, device)


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
        self._cast = self._ffi.cast
        self._const_ptrs = [self._pointer(c._buffer.ptr) for c in self._consts]
        self._out_nbytes = [nbytes for _, _, nbytes in self._out_specs]
        self.call = self._call

    def _pointer(self, ptr: int):
        return self._cast("void *", ptr)

    def _upload(self, x, dtype, keep: list) -> int:
        """The device address of a copy of ``x`` (a host value, an array on another
        GPU or of another dtype) uploaded to this GPU."""
        host = x._value if isinstance(x, CudaArray) else x
        arr = CudaArray.from_host(_as_buffer(host, dtype), False, self.device)
        keep.append(arr)
        return arr._buffer.ptr

    def _call(self, args) -> list:
        """Run on the flat argument values; returns the flat list of ``CudaArray``\\ s."""
        device = self.device
        dev = device.id
        cuda_runtime.set_device(dev)  # kernels launch on the current device
        keep: list = []  # uploaded arguments: alive until their free is queued
        cast = self._cast
        ptrs = []
        for x, dt in zip(args, self._in_dtypes, strict=True):
            buf = x._buffer if type(x) is CudaArray and x._device == device else None
            ptr = buf.ptr if buf is not None and x.dtype == dt else self._upload(x, dt, keep)
            ptrs.append(cast("void *", ptr))
        ptrs += self._const_ptrs
        with _LAUNCH:
            outs = [_allocate(nbytes, dev) for nbytes in self._out_nbytes]
            ptrs += [cast("void *", b.ptr) for b in outs]
            ptrs.append(cast("void *", _workspace(self.workspace_bytes, dev).ptr)
                        if self.workspace_bytes else self._ffi.NULL)
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

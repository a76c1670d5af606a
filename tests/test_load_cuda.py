"""``backend/load_cuda.py`` without a GPU: the runtime's allocations and the entry point
are replaced by recorders, so what a call asks of the GPU (one workspace per device,
shared by every executable and grown when needed, outputs allocated per call, the
arguments' device addresses passed through) is checked on any machine."""
from __future__ import annotations

import types

import cffi
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.call_keys import fast_key as _fast_key
from transpile.backend import load_cuda
from transpile.call_keys import tree_key
from transpile.core import ShapedArray
from transpile.devices import CudaDevice
from transpile.memory import cuda_runtime
from transpile.memory.device_array import CudaArray, DeviceBuffer

_FFI = cffi.FFI()


class FakeGpu:
    """Addresses handed out in order; every malloc, free and launch is recorded."""

    def __init__(self, capacity=1 << 40):
        self.next = 0x10000
        self.live: dict = {}
        self.capacity = capacity
        self.events: list = []

    def malloc(self, nbytes, device=0):
        if sum(self.live.values()) + nbytes > self.capacity:
            raise cuda_runtime.CudaError(
                f"RESOURCE_EXHAUSTED: Out of memory while trying to allocate {nbytes} "
                f"bytes on cuda:{device}", 2, "cudaMallocAsync")
        ptr, self.next = self.next, self.next + max(nbytes, 1) + 256
        self.live[ptr] = nbytes
        self.events.append(("malloc", nbytes))
        return ptr

    def free(self, ptr, device=0):
        self.events.append(("free", self.live.pop(ptr)))

    def launches(self):
        return [e for e in self.events if e[0] == "launch"]


@pytest.fixture
def gpu(monkeypatch):
    fake = FakeGpu()
    monkeypatch.setattr(cuda_runtime, "malloc", fake.malloc)
    monkeypatch.setattr(cuda_runtime, "free", fake.free)
    monkeypatch.setattr(cuda_runtime, "set_device", lambda device: None)
    monkeypatch.setattr(load_cuda, "_WORKSPACES", {})
    yield fake
    load_cuda._WORKSPACES.clear()


def _executable(gpu, fn, args, workspace: int):
    """A CudaExecutable over the real ABI of ``jit(fn, backend="cuda")`` at ``args``,
    whose entry point records the addresses it is given."""
    lowering = tp.jit(fn, backend="cuda").lower(*args)._lowering
    abi = lowering.abi

    def entry(*ptrs):
        gpu.events.append(("launch", [int(_FFI.cast("uintptr_t", p)) for p in ptrs]))
        return 0
    lib = types.SimpleNamespace(**{abi.name: entry,
                                   abi.workspace_size_function: lambda: workspace})
    library = types.SimpleNamespace(lib=lib, ffi=_FFI)
    return load_cuda.CudaExecutable(library, abi, [], lowering.closed.out_avals,
                                    CudaDevice(0))


def _on_gpu(gpu, shape, dtype=np.float32):
    dtype = np.dtype(dtype)
    size = int(np.prod(shape)) * dtype.itemsize
    buf = DeviceBuffer(gpu.malloc(size), size, 0)
    return CudaArray._wrap(buf, ShapedArray(shape, dtype), CudaDevice(0))


def test_executables_share_one_workspace_per_gpu(gpu):
    x = _on_gpu(gpu, (1000,))
    small = _executable(gpu, lambda v: tnp.sum(v * 2), [np.ones(1000, np.float32)], 4096)
    big = _executable(gpu, lambda v: tnp.sum(v * 3), [np.ones(1000, np.float32)], 8192)
    gpu.events.clear()
    for _ in range(3):
        small([x])
    ws = [e for e in gpu.events if e[0] == "malloc" and e[1] == 4096]
    assert len(ws) == 1, gpu.events  # taken once, kept between calls
    launches = gpu.launches()
    assert len({lau[1][-2] for lau in launches}) == 1  # the same workspace every call
    assert all(lau[1][0] == x._buffer.ptr for lau in launches)  # no upload
    assert launches[0][1][-1] == 0  # the default stream
    gpu.events.clear()
    big([x])
    small([x])
    # grown once: the old one freed (stream-ordered), the bigger one kept for both
    assert ("free", 4096) in gpu.events and ("malloc", 8192) in gpu.events
    last_two = gpu.launches()[-2:]
    assert last_two[0][1][-2] == last_two[1][1][-2]


def test_outputs_are_new_buffers_every_call(gpu):
    x = _on_gpu(gpu, (1000,))
    exe = _executable(gpu, lambda v: v * 2, [np.ones(1000, np.float32)], 0)
    a, = exe([x])
    b, = exe([x])
    assert isinstance(a, CudaArray) and a._buffer.ptr != b._buffer.ptr
    assert a.shape == (1000,) and a.dtype == np.float32
    assert gpu.launches()[-1][1][-2] == 0  # no workspace: NULL


def test_full_gpu_gives_back_the_workspace_and_retries(gpu):
    x = _on_gpu(gpu, (1000,))
    exe = _executable(gpu, lambda v: tnp.sum(v * 2), [np.ones(1000, np.float32)], 1 << 20)
    exe([x])
    assert load_cuda._WORKSPACES
    gpu.capacity = sum(gpu.live.values()) + 1000  # room for the output only without it
    out_exe = _executable(gpu, lambda v: v + 1, [np.ones(1000, np.float32)], 0)
    out_exe.call([x])  # 4000 bytes: fits once the 1 MiB workspace is given back
    assert ("free", 1 << 20) in gpu.events and not load_cuda._WORKSPACES
    gpu.capacity = 0
    with pytest.raises(cuda_runtime.CudaError, match="RESOURCE_EXHAUSTED"):
        out_exe.call([x])


def test_host_values_and_other_dtypes_are_uploaded(gpu, monkeypatch):
    uploads = []
    monkeypatch.setattr(cuda_runtime, "copy_to_device",
                        lambda ptr, host, device=None: uploads.append((ptr, host.dtype)))
    monkeypatch.setattr(cuda_runtime, "copy_to_host",
                        lambda host, ptr, device=None: host.fill(3))
    exe = _executable(gpu, lambda v: v * 2, [np.ones(8, np.float32)], 0)
    exe([np.arange(8, dtype=np.float32)])
    exe([_on_gpu(gpu, (8,), np.int32)])  # another dtype than compiled: converted
    assert [u[1] for u in uploads] == [np.float32, np.float32]


def test_deleted_argument_is_refused(gpu):
    x = _on_gpu(gpu, (8,))
    exe = _executable(gpu, lambda v: v * 2, [np.ones(8, np.float32)], 0)
    x.delete()
    with pytest.raises(RuntimeError, match="deleted"):
        exe([x])


def test_device_arrays_take_the_cached_call_keys():
    """A GPU argument's key holds its device (the call runs there) and never reads its
    value (that would copy it to the host)."""
    dev = CudaDevice(0)
    x = CudaArray._wrap(DeviceBuffer(0, 16, 0), ShapedArray((4,), np.float32), dev)
    y = CudaArray._wrap(DeviceBuffer(0, 16, 1), ShapedArray((4,), np.float32),
                        CudaDevice(1))
    k1 = _fast_key((x,))
    assert k1 is not None and dev in k1
    assert _fast_key((x,)) == k1 != _fast_key((y,))
    assert _fast_key((x, np.ones(4, np.float32))) is not None
    leaves: list = []
    key = tree_key(({"a": x, "b": y},), {}, leaves)
    assert key is not None and leaves == [x, y]
    assert x._host is None and y._host is None
    for a in (x, y):
        a._buffer.ptr = 0  # nothing to free

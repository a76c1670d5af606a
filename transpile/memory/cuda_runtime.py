"""The CUDA runtime library (libcudart), called from Python through cffi's ABI mode.

Nothing here needs a compiler, and nothing is loaded when transpile is imported: the
library is looked up and opened on the first call that needs it, so transpile imports
and runs on machines with no CUDA at all. Three situations are told apart, and every
function below behaves sensibly in each: no libcudart (``available()`` is False with
the reason), libcudart but no usable GPU (no driver, or no device: the same, with
CUDA's own error text), and a GPU.

The generated CUDA libraries are linked against the same libcudart (``cudart_path``,
``-cudart shared`` and an rpath), so Python and the generated code share one runtime
instance: one current device per thread, one legacy default stream, one memory pool.
Every allocation, copy and free made here is queued on that default stream (the NULL
stream), in the order the calls are made.
"""
from __future__ import annotations

import atexit
import os
import threading

import numpy as np

from ..errors import JaxRuntimeError
from .cuda_library import candidates as _candidates, loaded_path as _loaded_path

__all__ = ["CudaError", "CudaUnavailableError", "available", "unavailable_reason",
           "cudart_path", "device_count", "device_name", "compute_capability",
           "runtime_version", "driver_version", "memory_info", "multiprocessor_count",
           "set_device", "malloc", "free",
           "copy_to_device", "copy_to_host", "copy_device_to_device", "synchronize",
           "check", "check_launch"]

_CDEF = """
typedef int cudaError_t;
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMallocAsync(void **ptr, size_t size, void *stream);
cudaError_t cudaFreeAsync(void *ptr, void *stream);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                            void *stream);
cudaError_t cudaStreamSynchronize(void *stream);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device);
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
cudaError_t cudaDeviceGetDefaultMemPool(void **pool, int device);
cudaError_t cudaMemPoolSetAttribute(void *pool, int attr, void *value);
cudaError_t cudaGetDeviceProperties(void *prop, int device);
cudaError_t cudaGetDeviceProperties_v2(void *prop, int device);
"""

# Enum values of the runtime API (stable across CUDA 11-13).
SUCCESS = 0
ERROR_MEMORY_ALLOCATION = 2
_H2D, _D2H, _D2D = 1, 2, 3                       # cudaMemcpyKind
_ATTR_MULTIPROCESSORS = 16                       # cudaDeviceAttr
_ATTR_CC_MAJOR, _ATTR_CC_MINOR = 75, 76
_ATTR_MEMORY_POOLS_SUPPORTED = 115
_POOL_RELEASE_THRESHOLD = 4                      # cudaMemPoolAttr
# cudaDeviceProp is about 1 KiB in CUDA 12/13; a larger zeroed buffer leaves room for
# whatever a later runtime appends. The name is its first field in every version.
_PROP_BYTES = 8192

#: The reason given when no library could be opened (tests match its start).
NO_LIBRARY = "no CUDA runtime library (libcudart) was found"


class CudaError(JaxRuntimeError):
    """A CUDA runtime call failed.

    Attributes
    ----------
    status : int
        The ``cudaError_t`` value.
    call : str
        The CUDA call (and what it was doing).
    """

    def __init__(self, message: str, status: int = -1, call: str = ""):
        super().__init__(message)
        self.status = status
        self.call = call

    @classmethod
    def from_status(cls, status: int, what: str) -> "CudaError":
        """The error for ``status`` returned by ``what`` (a call, or an action)."""
        return cls(f"{what} failed: {_describe(status)}", status, what)


class CudaUnavailableError(RuntimeError):
    """The CUDA runtime or a GPU is missing; the message says which and why."""


class _State:
    """What the first use found: the library (or why there is none) and the devices."""

    def __init__(self) -> None:
        self.searched = False
        self.path: str | None = None     # what will be / was opened
        self.lib = None
        self.ffi = None
        self.load_error: str | None = None
        self.probed = False
        self.count = 0
        self.reason: str | None = None
        self.pools: dict[int, bool] = {}  # device -> stream-ordered pool usable
        self.names: dict[int, str] = {}


_state = _State()
_lock = threading.RLock()
_thread = threading.local()  # .device: this thread's current device, as last set here
_exiting = False


@atexit.register
def _at_exit() -> None:
    # Buffers that die after this point are left to the driver, which reclaims a
    # process's memory when it exits; the runtime may already be tearing down.
    global _exiting
    _exiting = True


def _reset() -> None:
    """Forget what was found, so the next use searches again (for tests)."""
    global _state
    with _lock:
        _state = _State()
        _thread.__dict__.clear()


def _open() -> None:
    """Search for libcudart and open the first that loads (once; under ``_lock``)."""
    st = _state
    if st.searched:
        return
    st.searched = True
    import cffi
    ffi = cffi.FFI()
    ffi.cdef(_CDEF)
    named = os.environ.get("TRANSPILE_CUDART", "").strip()
    if named:
        if not os.path.exists(named):
            st.load_error = f"{NO_LIBRARY}: TRANSPILE_CUDART={named} does not exist"
            return
        candidates = [named]
    else:
        candidates = _candidates()
    errors = []
    for cand in candidates:
        try:
            lib = ffi.dlopen(cand)
        except OSError as e:
            errors.append(f"{cand}: {e}")
            continue
        st.lib, st.ffi, st.path = lib, ffi, _loaded_path(cand)
        return
    if named:
        st.load_error = f"{NO_LIBRARY}: cannot load TRANSPILE_CUDART={named} ({errors[0]})"
    else:
        st.load_error = (f"{NO_LIBRARY} (searched TRANSPILE_CUDART, the toolkit of nvcc, "
                         "CUDA_HOME, CUDA_PATH, /usr/local/cuda* and the system library "
                         "path)")


def _probe() -> _State:
    """Open the library and count the devices, once; return the state."""
    st = _state
    if st.probed:
        return st
    with _lock:
        st = _state
        if st.probed:
            return st
        _open()
        if st.lib is None:
            st.reason = st.load_error
        else:
            count = st.ffi.new("int *")
            try:
                status = st.lib.cudaGetDeviceCount(count)
            except Exception as e:  # noqa: BLE001 - a broken library must not escape
                status, st.reason = None, f"cudaGetDeviceCount could not be called: {e}"
            if status is not None and status != SUCCESS:
                st.lib.cudaGetLastError()  # the failed call is recorded as last error
                st.reason = f"cudaGetDeviceCount failed: {_describe(status, ' ')}"
            elif status is not None and count[0] <= 0:
                st.reason = "no CUDA device was found (cudaGetDeviceCount reported 0)"
            elif status is not None:
                st.count = int(count[0])
        st.probed = True
        return st


def _describe(status: int, sep: str = ": ") -> str:
    """``cudaErrorX: its explanation`` (``sep`` between), or the bare number."""
    st = _state
    if st.lib is None:
        return f"CUDA error {status}"
    try:
        name = st.ffi.string(st.lib.cudaGetErrorName(status)).decode()
        text = st.ffi.string(st.lib.cudaGetErrorString(status)).decode()
    except Exception:  # noqa: BLE001
        return f"CUDA error {status}"
    return f"{name} ({text})" if sep == " " else f"{name}{sep}{text}"


def _runtime():
    """``(lib, ffi)`` when a GPU is usable, else raise ``CudaUnavailableError``."""
    st = _probe()
    if st.count == 0:
        raise CudaUnavailableError(f"the CUDA backend cannot run here: {st.reason}")
    return st.lib, st.ffi


# --- status ---------------------------------------------------------------------------
def available() -> bool:
    """Whether the CUDA runtime loads and reports at least one GPU. Never raises.

    Returns
    -------
    bool
    """
    try:
        return _probe().count > 0
    except Exception:  # noqa: BLE001 - "is it there" must not fail
        return False


def unavailable_reason() -> str | None:
    """Why the CUDA backend cannot run here, or None when it can.

    Returns
    -------
    str or None
        Such as ``"no CUDA runtime library (libcudart) was found ..."`` or
        ``"cudaGetDeviceCount failed: cudaErrorInsufficientDriver (CUDA driver version
        is insufficient for CUDA runtime version)"``.
    """
    try:
        return _probe().reason
    except Exception as e:  # noqa: BLE001
        return f"the CUDA runtime could not be probed: {e}"


def cudart_path() -> str | None:
    """The path of the libcudart that Python uses (opening it if needed), or None.

    Generated CUDA libraries are linked with an rpath to its folder so that they use
    the same runtime instance. Opening the library does not initialise CUDA.

    Returns
    -------
    str or None
    """
    with _lock:
        _open()
        return _state.path


def device_count() -> int:
    """The number of GPUs; 0 when CUDA is unavailable. Never raises.

    Returns
    -------
    int
    """
    try:
        return _probe().count
    except Exception:  # noqa: BLE001
        return 0


def check(status: int, what: str) -> None:
    """Raise ``CudaError`` naming ``what`` if ``status`` is not ``cudaSuccess``.

    Parameters
    ----------
    status : int
        A ``cudaError_t``.
    what : str
        The CUDA call and what it was doing, for the message.

    Raises
    ------
    CudaError
    """
    if status != SUCCESS:
        lib = _state.lib
        if lib is not None:
            lib.cudaGetLastError()  # clear it, so a later check_launch is not misled
        raise CudaError.from_status(status, what)


def check_launch(what: str = "kernel launch") -> None:
    """Raise ``CudaError`` if a kernel launch on this thread failed (cudaGetLastError).

    Parameters
    ----------
    what : str
        What was launched, for the message.
    """
    lib, _ = _runtime()
    status = lib.cudaGetLastError()
    if status != SUCCESS:
        raise CudaError.from_status(status, what)


def _use_device(device: int):
    """Make ``device`` current on this thread (cudaSetDevice only when it changes:
    the current device is per host thread, and so is this cache)."""
    lib, ffi = _runtime()
    if getattr(_thread, "device", None) != device:
        if not 0 <= device < _state.count:
            raise ValueError(f"no CUDA device {device}: this machine has {_state.count}")
        check(lib.cudaSetDevice(device), f"cudaSetDevice({device})")
        _thread.device = device
    return lib, ffi


def set_device(device: int) -> None:
    """Make GPU ``device`` current on this thread, as kernels launched next need.

    ``cudaSetDevice`` is called only when the device this thread last set here
    differs (code that calls ``cudaSetDevice`` itself must not be mixed with this).

    Raises
    ------
    ValueError
        For a device number the machine does not have.
    CudaUnavailableError
        When CUDA is unavailable.
    """
    _use_device(int(device))


def _attribute(attr: int, device: int) -> int:
    lib, ffi = _runtime()
    value = ffi.new("int *")
    check(lib.cudaDeviceGetAttribute(value, attr, device),
          f"cudaDeviceGetAttribute({attr}, device {device})")
    return int(value[0])


# --- devices --------------------------------------------------------------------------
def device_name(device: int = 0) -> str:
    """The name of GPU ``device`` (``"NVIDIA H100 80GB HBM3"``).

    Raises
    ------
    CudaUnavailableError
        When CUDA is unavailable.
    """
    name = _state.names.get(device)
    if name is None:
        lib, ffi = _runtime()
        buf = ffi.new("char[]", _PROP_BYTES)
        try:  # CUDA 12 renamed the call; CUDA 13 exports only the plain name
            fn = lib.cudaGetDeviceProperties_v2
        except AttributeError:
            fn = lib.cudaGetDeviceProperties
        check(fn(buf, device), f"cudaGetDeviceProperties(device {device})")
        name = _state.names[device] = ffi.string(buf, 256).decode("utf-8", "replace")
    return name


def compute_capability(device: int = 0) -> tuple[int, int]:
    """``(major, minor)`` of GPU ``device``, such as ``(9, 0)`` for an H100."""
    return (_attribute(_ATTR_CC_MAJOR, device), _attribute(_ATTR_CC_MINOR, device))


def multiprocessor_count(device: int = 0) -> int:
    """The number of streaming multiprocessors of GPU ``device``."""
    return _attribute(_ATTR_MULTIPROCESSORS, device)


def runtime_version() -> int:
    """The CUDA runtime's version as ``1000 * major + 10 * minor`` (13000 for 13.0).

    Needs only the library, not a GPU.

    Raises
    ------
    CudaUnavailableError
        When no libcudart can be loaded.
    """
    return _library_version("cudaRuntimeGetVersion")


def driver_version() -> int:
    """The newest CUDA version the installed driver supports (0 when there is no
    driver), encoded as ``runtime_version`` is."""
    return _library_version("cudaDriverGetVersion")


def _library_version(call: str) -> int:
    st = _probe()
    if st.lib is None:
        raise CudaUnavailableError(st.reason)
    v = st.ffi.new("int *")
    check(getattr(st.lib, call)(v), call)
    return int(v[0])


def memory_info(device: int = 0) -> tuple[int, int]:
    """``(free, total)`` bytes of GPU ``device``."""
    lib, ffi = _use_device(device)
    free_, total = ffi.new("size_t *"), ffi.new("size_t *")
    check(lib.cudaMemGetInfo(free_, total), "cudaMemGetInfo")
    return int(free_[0]), int(total[0])


def synchronize(device: int = 0) -> None:
    """Wait until everything queued on GPU ``device`` has run.

    Raises
    ------
    CudaError
        If queued work failed (an illegal address in a kernel, ...).
    """
    lib, _ = _use_device(device)
    check(lib.cudaDeviceSynchronize(), f"cudaDeviceSynchronize(device {device})")


# --- memory ---------------------------------------------------------------------------
def _pool_ready(device: int) -> bool:
    """Whether ``device`` has a stream-ordered pool; on first use, tell it to keep
    freed memory (release threshold UINT64_MAX) instead of returning it to the OS at
    each synchronisation, which would make every call pay for fresh allocations."""
    ok = _state.pools.get(device)
    if ok is None:
        lib, ffi = _runtime()
        ok = _attribute(_ATTR_MEMORY_POOLS_SUPPORTED, device) != 0
        if ok:
            pool = ffi.new("void **")
            check(lib.cudaDeviceGetDefaultMemPool(pool, device),
                  f"cudaDeviceGetDefaultMemPool(device {device})")
            threshold = ffi.new("uint64_t *", 2 ** 64 - 1)
            check(lib.cudaMemPoolSetAttribute(pool[0], _POOL_RELEASE_THRESHOLD, threshold),
                  "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)")
        _state.pools[device] = ok
    return ok


def malloc(nbytes: int, device: int = 0) -> int:
    """Allocate ``nbytes`` on GPU ``device``, ordered on the default stream.

    Parameters
    ----------
    nbytes : int
        Size; 0 allocates 1 byte, so that a buffer's address is never NULL.
    device : int

    Returns
    -------
    int
        The device address.

    Raises
    ------
    CudaError
        ``RESOURCE_EXHAUSTED: Out of memory while trying to allocate N bytes on
        cuda:D`` when the GPU is full; another message for other failures.
    CudaUnavailableError
        When CUDA is unavailable.
    """
    lib, ffi = _use_device(device)
    out = ffi.new("void **")
    size = max(int(nbytes), 1)
    if _pool_ready(device):
        call, status = "cudaMallocAsync", lib.cudaMallocAsync(out, size, ffi.NULL)
    else:
        call, status = "cudaMalloc", lib.cudaMalloc(out, size)
    if status == ERROR_MEMORY_ALLOCATION:
        lib.cudaGetLastError()
        raise CudaError(f"RESOURCE_EXHAUSTED: Out of memory while trying to allocate "
                        f"{int(nbytes)} bytes on cuda:{device} ({call}: "
                        f"{_describe(status)})", status, call)
    check(status, f"{call}({size} bytes, device {device})")
    return int(ffi.cast("uintptr_t", out[0]))


def free(ptr: int, device: int = 0) -> None:
    """Free an address ``malloc`` returned, ordered on the default stream (the memory
    is reused only by work queued after the kernels that read it).

    Parameters
    ----------
    ptr : int
    device : int
    """
    lib, ffi = _use_device(device)
    p = ffi.cast("void *", ptr)
    if _pool_ready(device):
        check(lib.cudaFreeAsync(p, ffi.NULL), "cudaFreeAsync")
    else:
        check(lib.cudaFree(p), "cudaFree")


def _host_bytes(host: np.ndarray, writable: bool):
    if not host.flags.c_contiguous:
        raise ValueError("the host array must be C-contiguous")
    if writable and not host.flags.writeable:
        raise ValueError("the host array must be writable")
    # A byte view: structured dtypes (PRNG keys) and bool have no cffi equivalent.
    return host.reshape(-1).view(np.uint8) if host.size else None


def copy_to_device(dst_ptr: int, host: np.ndarray, device: int | None = None) -> None:
    """Copy the C-contiguous ``host`` array to device address ``dst_ptr``.

    Queued on the default stream after earlier work. ``host`` may be reused as soon as
    this returns: from pageable memory (every NumPy array) the runtime stages the bytes
    before returning.

    Parameters
    ----------
    dst_ptr : int
    host : numpy.ndarray
    device : int, optional
        The GPU owning ``dst_ptr``, made current first so that the copy is ordered on
        its stream; default the current one.
    """
    lib, ffi = _runtime() if device is None else _use_device(device)
    data = _host_bytes(host, False)
    if data is None:
        return
    src = ffi.from_buffer(data)
    check(lib.cudaMemcpyAsync(ffi.cast("void *", dst_ptr), src, data.nbytes, _H2D,
                              ffi.NULL), f"cudaMemcpyAsync({data.nbytes} bytes to device)")


def copy_to_host(host_out: np.ndarray, src_ptr: int, device: int | None = None) -> None:
    """Copy ``host_out.nbytes`` bytes from device address ``src_ptr`` into the writable
    C-contiguous ``host_out``; waits for earlier work on the default stream.

    Parameters
    ----------
    host_out : numpy.ndarray
    src_ptr : int
    device : int, optional
        The GPU owning ``src_ptr`` (made current first); default the current one.

    Raises
    ------
    CudaError
        If that earlier work failed (errors of kernels surface here).
    """
    lib, ffi = _runtime() if device is None else _use_device(device)
    data = _host_bytes(host_out, True)
    if data is None:
        return
    dst = ffi.from_buffer(data, require_writable=True)
    check(lib.cudaMemcpy(dst, ffi.cast("void *", src_ptr), data.nbytes, _D2H),
          f"cudaMemcpy({data.nbytes} bytes to the host)")


def copy_device_to_device(dst_ptr: int, src_ptr: int, nbytes: int,
                          device: int | None = None) -> None:
    """Copy ``nbytes`` between device addresses, queued on the default stream (of
    ``device`` when given)."""
    lib, ffi = _runtime() if device is None else _use_device(device)
    if nbytes <= 0:
        return
    check(lib.cudaMemcpyAsync(ffi.cast("void *", dst_ptr), ffi.cast("void *", src_ptr),
                              int(nbytes), _D2D, ffi.NULL),
          f"cudaMemcpyAsync({nbytes} bytes device to device)")

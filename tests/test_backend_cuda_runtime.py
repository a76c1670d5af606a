"""The CUDA runtime binding: finding libcudart, telling "no library" from "no GPU",
and (with a GPU, or against tests/data/mock_cudart.c) memory and copies."""
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

from transpile.memory import cuda_library, cuda_runtime
from transpile.errors import JaxRuntimeError

GPU = pytest.mark.skipif(not cuda_runtime.available(),
                         reason=f"no usable GPU: {cuda_runtime.unavailable_reason()}")
HERE = pathlib.Path(__file__).resolve().parent


@pytest.fixture
def fresh_runtime(monkeypatch):
    """A runtime state that searches again; the real one is restored afterwards."""
    cuda_runtime._reset()
    yield monkeypatch
    monkeypatch.undo()
    cuda_runtime._reset()


def test_a_missing_transpile_cudart_is_named_in_the_reason(fresh_runtime, tmp_path):
    missing = tmp_path / "libcudart.so.99"
    fresh_runtime.setenv("TRANSPILE_CUDART", str(missing))
    assert cuda_runtime.available() is False
    assert cuda_runtime.device_count() == 0
    reason = cuda_runtime.unavailable_reason()
    assert reason.startswith(cuda_runtime.NO_LIBRARY) and str(missing) in reason
    assert cuda_runtime.cudart_path() is None


def test_a_file_that_is_not_a_library_is_named_in_the_reason(fresh_runtime, tmp_path):
    bogus = tmp_path / "libcudart.so"
    bogus.write_text("not a library")
    fresh_runtime.setenv("TRANSPILE_CUDART", str(bogus))
    assert not cuda_runtime.available()
    assert str(bogus) in cuda_runtime.unavailable_reason()


def test_no_library_anywhere(fresh_runtime):
    fresh_runtime.delenv("TRANSPILE_CUDART", raising=False)
    fresh_runtime.setattr(cuda_runtime, "_candidates", lambda: ["/nonexistent/libcudart.so"])
    assert not cuda_runtime.available()
    assert cuda_runtime.unavailable_reason().startswith(
        "no CUDA runtime library (libcudart) was found")
    with pytest.raises(cuda_runtime.CudaUnavailableError, match="libcudart"):
        cuda_runtime.malloc(16)
    with pytest.raises(cuda_runtime.CudaUnavailableError, match="libcudart"):
        cuda_runtime.runtime_version()


def test_status_functions_never_raise():
    assert isinstance(cuda_runtime.available(), bool)
    assert isinstance(cuda_runtime.device_count(), int)
    reason = cuda_runtime.unavailable_reason()
    assert (reason is None) == cuda_runtime.available()


def test_the_library_search_looks_in_toolkits(monkeypatch, tmp_path):
    lib = tmp_path / "cuda-77.1" / "lib64"
    lib.mkdir(parents=True)
    (lib / "libcudart.so.77").write_bytes(b"")
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "cuda-77.1"))
    assert str(lib / "libcudart.so.77") in cuda_runtime._candidates()


def test_a_shell_wrapper_of_nvcc_leads_to_its_toolkit(tmp_path):
    wrapper = tmp_path / "nvcc"
    wrapper.write_text('#!/bin/sh\nexec /opt/cuda-42.0/bin/nvcc "$@"\n')
    assert cuda_library.wrapped_nvcc(str(wrapper)) == "/opt/cuda-42.0/bin/nvcc"


def test_library_without_a_gpu_gives_cudas_reason():
    if cuda_runtime.cudart_path() is None:
        pytest.skip("no libcudart on this machine")
    if cuda_runtime.available():
        pytest.skip("a GPU is present")
    reason = cuda_runtime.unavailable_reason()
    # No driver (cudaErrorInsufficientDriver), or a driver and no device.
    assert reason.startswith("cudaGetDeviceCount failed: cudaError") or \
        reason.startswith("no CUDA device"), reason
    assert cuda_runtime.runtime_version() >= 11020  # needs the library only
    with pytest.raises(cuda_runtime.CudaUnavailableError) as info:
        cuda_runtime.malloc(4)
    assert reason in str(info.value)


def test_unavailable_error_and_cuda_error():
    err = cuda_runtime.CudaUnavailableError("because")
    assert isinstance(err, RuntimeError) and str(err) == "because"
    e = cuda_runtime.CudaError.from_status(2, "cudaMalloc(8 bytes)")
    assert isinstance(e, JaxRuntimeError) and e.status == 2
    assert str(e).startswith("cudaMalloc(8 bytes) failed: ")


def test_the_runtime_is_not_loaded_at_import():
    code = ("import transpile, transpile.numpy as jnp\n"
            "from transpile.memory import cuda_runtime as c\n"
            "jnp.arange(3) + 1\n"
            "assert not c._state.searched, 'libcudart was searched at import'\n")
    subprocess.run([sys.executable, "-c", code], check=True)


# --- needs a GPU (or the mock below) ----------------------------------------------------
ROUND_TRIP_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                     "uint64", "float16", "float32", "float64"]


@GPU
def test_malloc_free_and_zero_bytes():
    p = cuda_runtime.malloc(1024)
    assert p != 0
    cuda_runtime.free(p)
    q = cuda_runtime.malloc(0)  # never NULL
    assert q != 0
    cuda_runtime.free(q)
    cuda_runtime.synchronize()
    cuda_runtime.check_launch()


@GPU
@pytest.mark.parametrize("name", ROUND_TRIP_DTYPES)
def test_round_trip_of_every_dtype(name):
    dt = np.dtype(name)
    rng = np.random.default_rng(0)
    host = (rng.standard_normal((3, 5)) * 50).astype(dt)
    p = cuda_runtime.malloc(host.nbytes)
    try:
        cuda_runtime.copy_to_device(p, host)
        q = cuda_runtime.malloc(host.nbytes)
        cuda_runtime.copy_device_to_device(q, p, host.nbytes)
        out = np.empty_like(host)
        cuda_runtime.copy_to_host(out, q)
        cuda_runtime.free(q)
    finally:
        cuda_runtime.free(p)
    assert out.tobytes() == host.tobytes()


@GPU
def test_device_queries():
    assert cuda_runtime.device_count() >= 1
    major, minor = cuda_runtime.compute_capability(0)
    assert major >= 3 and minor >= 0
    assert cuda_runtime.device_name(0)
    assert cuda_runtime.multiprocessor_count(0) > 0
    free, total = cuda_runtime.memory_info(0)
    assert 0 < free <= total


@GPU
def test_out_of_memory_is_resource_exhausted():
    with pytest.raises(cuda_runtime.CudaError) as info:
        cuda_runtime.malloc(1 << 50)
    assert str(info.value).startswith(
        f"RESOURCE_EXHAUSTED: Out of memory while trying to allocate {1 << 50} bytes on cuda:0")
    cuda_runtime.check_launch()  # the failed allocation left no error behind
    p = cuda_runtime.malloc(64)  # and the device still works
    cuda_runtime.free(p)


@GPU
def test_copies_reject_non_contiguous_arrays():
    p = cuda_runtime.malloc(64)
    try:
        with pytest.raises(ValueError, match="C-contiguous"):
            cuda_runtime.copy_to_device(p, np.zeros((4, 4), np.float32)[:, ::2])
        with pytest.raises(ValueError, match="writable"):
            ro = np.zeros(4, np.float32)
            ro.flags.writeable = False
            cuda_runtime.copy_to_host(ro, p)
    finally:
        cuda_runtime.free(p)


# --- the GPU-only tests against a mock runtime ------------------------------------------
def _compiler():
    return shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")


@pytest.mark.skipif(os.environ.get("TRANSPILE_TEST_MOCK_CUDART") == "1",
                    reason="already running against the mock")
def test_gpu_tests_pass_against_a_mock_runtime(tmp_path):
    """Reruns this file's and test_devices.py's GPU tests with TRANSPILE_CUDART set to
    a mock libcudart (two GPUs whose memory is host memory), then checks the mock saw no
    invalid call and that every allocation was freed."""
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler")
    mock = tmp_path / "libcudart_mock.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(mock),
                    str(HERE / "data" / "mock_cudart.c")], check=True)
    env = dict(os.environ, TRANSPILE_CUDART=str(mock), TRANSPILE_TEST_MOCK_CUDART="1")
    env.pop("TRANSPILE_PLATFORM", None)
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
         str(HERE / "test_backend_cuda_runtime.py"), str(HERE / "test_devices.py"),
         "-k", "not mock"],
        env=env, capture_output=True, text=True, cwd=str(HERE.parent))
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-3000:]
    # The GPU tests really ran (none skipped for want of a GPU).
    assert "no usable GPU" not in out.stdout, out.stdout[-3000:]
    check = ("import ctypes, gc, os\n"
             "from transpile.memory import cuda_runtime as c\n"
             "import transpile as jax, transpile.numpy as jnp\n"
             "m = ctypes.CDLL(os.environ['TRANSPILE_CUDART'])\n"
             "m.mock_threshold.restype = ctypes.c_uint64\n"
             "xs = [jax.device_put(jnp.arange(10.0), d) for d in jax.devices('cuda')]\n"
             "assert m.mock_live() == 2 and m.mock_pool_calls() == 2, m.mock_live()\n"
             "assert m.mock_threshold(0) == 2**64 - 1 == m.mock_threshold(1)\n"
             "del xs; gc.collect()\n"
             "assert m.mock_live() == 0 and m.mock_errors() == 0\n"
             "print('ok')\n")
    res = subprocess.run([sys.executable, "-c", check], env=env, capture_output=True,
                         text=True)
    assert res.stdout.strip() == "ok", res.stderr[-3000:]

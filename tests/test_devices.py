"""Devices and device-resident arrays: JAX's names, errors and placement rules.

The GPU tests run on a machine with a GPU, and here against a mock libcudart
(test_backend_cuda_runtime.py reruns them with TRANSPILE_CUDART set)."""
import gc
import pickle
import sys

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
import transpile.random as jrandom
from transpile import config
from transpile.memory import cuda_runtime

GPU = pytest.mark.skipif(not cuda_runtime.available(),
                         reason=f"no usable GPU: {cuda_runtime.unavailable_reason()}")
NO_GPU = pytest.mark.skipif(cuda_runtime.available(), reason="a GPU is present")
devices_module = sys.modules["transpile.devices"]  # transpile.devices is the function


@pytest.fixture
def platform():
    """Set jax_platform_name for one test."""
    old = config.read("jax_platform_name")
    yield lambda name: config.update("jax_platform_name", name)
    config.update("jax_platform_name", old)


def test_default_devices_are_the_cpu(platform):
    platform("")
    assert jax.devices() == [jax.CpuDevice(0)]
    assert jax.devices("cpu") == [jax.CpuDevice(0)]
    assert jax.device_count() == jax.local_device_count() == 1
    assert jax.default_backend() == "cpu"
    assert devices_module.default_device() == jax.CpuDevice(0)
    d = jax.devices()[0]
    assert (repr(d), str(d), d.platform, d.device_kind, d.id) == \
        ("CpuDevice(id=0)", "cpu:0", "cpu", "cpu", 0)


def test_cuda_device_names():
    d = jax.CudaDevice(1)
    assert (repr(d), str(d), d.platform, d.id) == ("CudaDevice(id=1)", "cuda:1", "gpu", 1)
    assert d == jax.CudaDevice(1) != jax.CudaDevice(0)
    assert d != jax.CpuDevice(1) and len({d, jax.CudaDevice(1)}) == 1


def test_exports():
    for name in ("CudaDevice", "CpuDevice", "default_device", "devices", "device_put"):
        assert name in jax.__all__ and hasattr(jax, name)
    from transpile.api import CpuDevice
    assert CpuDevice is devices_module.CpuDevice


@NO_GPU
def test_cuda_without_a_gpu_is_jaxs_unknown_backend():
    with pytest.raises(RuntimeError) as info:
        jax.devices("cuda")
    assert str(info.value) == "Unknown backend cuda. Available backends are ['cpu']"
    assert isinstance(info.value.__cause__, cuda_runtime.CudaUnavailableError)
    assert str(info.value.__cause__) == cuda_runtime.unavailable_reason()
    with pytest.raises(RuntimeError) as info:
        jax.devices("gpu")
    assert str(info.value) == (
        "Unknown backend: 'gpu' requested, but no platforms that are instances of gpu "
        "are present. Platforms present are: cpu")
    assert isinstance(info.value.__cause__, cuda_runtime.CudaUnavailableError)


def test_unknown_backend():
    with pytest.raises(RuntimeError) as info:
        jax.devices("foo")
    present = "['cpu', 'cuda']" if cuda_runtime.available() else "['cpu']"
    assert str(info.value) == f"Unknown backend foo. Available backends are {present}"


@NO_GPU
def test_platform_name_cuda_without_a_gpu_raises_at_devices(platform):
    platform("cuda")
    with pytest.raises(RuntimeError, match="Unknown backend cuda"):
        jax.devices()
    with pytest.raises(RuntimeError, match="Unknown backend cuda"):
        devices_module.default_device()
    platform("gpu")
    with pytest.raises(RuntimeError, match="instances of gpu"):
        jax.default_backend()


def test_default_device_context_manager():
    cpu = jax.CpuDevice(0)
    assert config.read("jax_default_device") is None
    with jax.default_device(cpu):
        assert config.read("jax_default_device") is cpu
        assert devices_module.default_device() == cpu
        assert isinstance(jax.device_put(np.float32(1)), jax.Array)
    assert config.read("jax_default_device") is None
    config.update("jax_default_device", "cpu")
    try:
        assert devices_module.default_device() == cpu
    finally:
        config.update("jax_default_device", None)


def test_host_arrays_live_on_the_cpu():
    a = jnp.arange(4.0)
    assert a.device == jax.CpuDevice(0)
    assert a.devices() == {jax.CpuDevice(0)}


def test_device_put_on_the_cpu():
    x = jax.device_put({"a": np.arange(3.0), "b": 2}, jax.devices("cpu")[0])
    assert isinstance(x["a"], jax.Array) and x["a"].dtype == np.float32
    assert x["b"].weak_type and x["a"].devices() == {jax.CpuDevice(0)}
    assert jax.device_get(x)["a"].tolist() == [0.0, 1.0, 2.0]


def test_device_put_rejects_what_is_not_a_device():
    # JAX 0.10.2's ValueError, word for word in part
    with pytest.raises(ValueError, match="only accepts `None`, `jax.sharding.Sharding`"):
        jax.device_put(1.0, "cpu")


@NO_GPU
def test_device_put_to_a_gpu_without_one_says_why():
    with pytest.raises(cuda_runtime.CudaUnavailableError, match="cannot run here"):
        jax.device_put(np.ones(3), jax.CudaDevice(0))


# --- needs a GPU (or the mock runtime) ----------------------------------------------------
def _gpu():
    return jax.devices("cuda")[0]


@GPU
def test_gpu_devices():
    gpus = jax.devices("cuda")
    assert gpus == jax.devices("gpu") and gpus[0] == jax.CudaDevice(0)
    assert jax.device_count("cuda") == cuda_runtime.device_count()
    assert isinstance(gpus[0].device_kind, str) and gpus[0].device_kind
    assert jax.default_backend() == "cpu"  # the CUDA backend is opt-in
    with pytest.raises(RuntimeError, match=r"Available backends are \['cpu', 'cuda'\]"):
        jax.devices("foo")


@GPU
@pytest.mark.parametrize("dtype", ["float32", "int8", "bool", "float16", "uint32"])
def test_device_put_round_trip(dtype):
    from transpile.memory.device_array import CudaArray
    host = (np.arange(-6, 6).reshape(3, 4) % 5).astype(dtype)
    x = jax.device_put(host, _gpu())
    assert isinstance(x, CudaArray) and isinstance(x, jax.Array)
    assert x._host is None  # nothing was read back yet
    assert (x.shape, x.dtype, x.ndim, x.size, x.nbytes, x.itemsize) == \
        (host.shape, host.dtype, 2, 12, host.nbytes, host.itemsize)
    assert x._host is None  # shape and dtype need no copy
    back = np.asarray(x)
    assert back.dtype == host.dtype and np.array_equal(back, host)
    assert not back.flags.writeable
    assert jax.device_get(x).tolist() == host.tolist()


@GPU
def test_key_arrays_on_the_gpu():
    keys = jrandom.split(jrandom.key(7), 3)
    x = jax.device_put(keys, _gpu())
    assert x.dtype == keys.dtype and x.shape == (3,) and x.nbytes == 24
    assert np.array_equal(jrandom.key_data(x), jrandom.key_data(keys))
    assert repr(x) == repr(keys)


@GPU
def test_gpu_array_behaves_like_an_array():
    x = jax.device_put(jnp.arange(6.0).reshape(2, 3), _gpu())
    assert x.devices() == {_gpu()} and x.device == _gpu()
    assert repr(x) == repr(jnp.arange(6.0).reshape(2, 3))
    assert str(x) == "[[0. 1. 2.]\n [3. 4. 5.]]"
    assert x.block_until_ready() is x
    assert float(x[1, 2]) == 5.0 and (x + 1).tolist() == [[1, 2, 3], [4, 5, 6]]
    assert jnp.sum(x).item() == 15.0
    w = jax.device_put(3.0, _gpu())
    assert w.weak_type and w.aval.weak_type and w.shape == ()
    y = pickle.loads(pickle.dumps(x))
    assert type(y) is jax.Array and y.tolist() == x.tolist()
    c = x.copy()
    assert c.device == x.device and c._buffer.ptr != x._buffer.ptr
    assert c.tolist() == x.tolist()


@GPU
def test_device_put_moves_between_host_and_gpu():
    from transpile.memory.device_array import CudaArray
    x = jax.device_put(np.arange(3, dtype=np.int32), _gpu())
    assert jax.device_put(x, _gpu()) is x
    h = jax.device_put(x, jax.CpuDevice(0))
    assert type(h) is jax.Array and h.tolist() == [0, 1, 2]
    assert type(jax.device_put(x)) is jax.Array  # the default device is the CPU
    with jax.default_device(_gpu()):
        y = jax.device_put(np.ones(2, np.float32))
        assert isinstance(y, CudaArray) and y.device == _gpu()
    if jax.device_count("cuda") > 1:
        other = jax.devices("cuda")[1]
        z = jax.device_put(x, other)
        assert z.device == other and z.tolist() == [0, 1, 2]


@GPU
def test_eager_operations_keep_their_result_on_the_gpu():
    from transpile.memory.device_array import CudaArray
    host = np.arange(4, dtype=np.float32)
    x = jax.device_put(host, _gpu())
    results = {"add": (x + 1, host + 1), "sin": (jnp.sin(x), np.sin(host)),
               "slice": (x[1:], host[1:]), "sum": (jnp.sum(x), np.sum(host)),
               "astype": (x.astype(np.int32), host.astype(np.int32)),
               "with a host operand": (np.float32(2) * x + jnp.ones(4), 2 * host + 1)}
    for name, (got, want) in results.items():
        assert isinstance(got, CudaArray) and got.device == _gpu(), name
        assert got.dtype == want.dtype and got.shape == want.shape, name
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6, err_msg=name)
    w = jax.device_put(3.0, _gpu()) * 2
    assert isinstance(w, CudaArray) and w.weak_type and float(w) == 6.0
    assert type(jnp.sin(host)) is jax.Array  # host operands stay on the host


@GPU
def test_empty_and_scalar_arrays():
    e = jax.device_put(np.zeros((0, 3), np.float32), _gpu())
    assert e.shape == (0, 3) and np.asarray(e).shape == (0, 3)
    s = jax.device_put(np.int8(-3), _gpu())
    assert s.shape == () and int(s) == -3


@GPU
def test_delete():
    x = jax.device_put(np.arange(4.0), _gpu())
    buffer = x._buffer
    assert not x.is_deleted()
    x.delete()
    assert x.is_deleted()
    with pytest.raises(RuntimeError, match="Array has been deleted"):
        np.asarray(x)
    with pytest.raises(RuntimeError, match="Array has been deleted"):
        x.block_until_ready()
    assert x.shape == (4,)  # the abstract value stays
    del x
    gc.collect()
    assert buffer.ptr != 0  # still referenced here: nothing freed under our feet
    buffer.free()
    assert buffer.ptr == 0
    buffer.free()  # idempotent


@GPU
def test_out_of_memory_through_device_put():
    from transpile.memory.device_array import DeviceBuffer
    with pytest.raises(cuda_runtime.CudaError, match="^RESOURCE_EXHAUSTED: Out of memory"):
        DeviceBuffer.allocate(1 << 50, 0)

"""The CUDA backend on a GPU (issue 9): every primitive and fused program against the C
backend, device-resident arrays and transfers, errors.

Every test here needs an NVIDIA GPU with its driver and the CUDA runtime, and nvcc; on
any other machine (CI) the module is skipped. The programs are those of
``test_codegen_cuda.py`` (which checks, without a GPU, that they compile).
"""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.memory import cuda_runtime
from cuda_emulation import assert_same_result as _same

pytestmark = pytest.mark.skipif(
    not cuda_runtime.available(),
    reason=f"no GPU: {cuda_runtime.unavailable_reason()}")


def _gpu():
    return jax.devices("cuda")[0]


@pytest.fixture(scope="module")
def both_backends():
    from test_codegen_cuda import compilable_programs
    from transpile.stages import compile_many
    items, _ = compilable_programs()
    named = [(f"g{i}", closed) for i, (_, closed, _) in enumerate(items)]
    with jax.enable_x64():
        cpu = compile_many(named)
        gpu = compile_many(named, device=_gpu())
    return items, cpu, gpu


def _flush_f64_subnormals(a):
    """nvcc's -ftz=true flushes float32 subnormals as the C backend's FTZ|DAZ does, but a
    GPU keeps float64 subnormals (as JAX on a GPU does), so those inputs are left out."""
    if isinstance(a, np.ndarray) and a.dtype == np.float64:
        return np.where(np.abs(a) < np.finfo(np.float64).tiny, 0.0, a)
    return a


def test_every_program_matches_the_c_backend(both_backends):
    items, cpu, gpu = both_backends
    failures = []
    for (name, closed, args), c, g in zip(items, cpu, gpu, strict=True):
        args = [_flush_f64_subnormals(np.asarray(a, aval.dtype)) if not hasattr(a, "_value")
                else a for a, aval in zip(args, closed.in_avals, strict=True)]
        try:
            want = c(args)
            got = g(args)
            for k, (x, y) in enumerate(zip(got, want, strict=True)):
                _same(x, y, f"{name} output {k}")
        except AssertionError as e:
            # NumPy's messages start with a blank line and name the program last
            detail = " | ".join(ln.strip() for ln in str(e).splitlines() if ln.strip())
            failures.append(f"{name}: {detail[:600]}")
    assert not failures, f"{len(failures)} programs differ:\n" + "\n".join(failures[:40])


def test_results_stay_on_the_device_between_calls():
    from transpile.memory.device_array import CudaArray
    f = jax.jit(lambda x: jnp.sin(x) * 2, backend="cuda")
    g = jax.jit(lambda x: x.sum())
    x = np.linspace(-1, 1, 1000, dtype=np.float32)
    y = f(x)
    assert isinstance(y, CudaArray) and y.devices() == {_gpu()}
    z = g(y)  # follows its argument onto the GPU
    assert isinstance(z, CudaArray)
    np.testing.assert_allclose(np.asarray(z), np.sum(np.sin(x) * 2), rtol=1e-5)
    assert z.block_until_ready() is z


def test_device_put_and_back_for_every_dtype():
    for dt in (np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint32,
               np.float16, np.float32, np.float64):
        with jax.enable_x64():
            x = (np.arange(24) % 7).astype(dt).reshape(2, 3, 4)
            d = jax.device_put(x, _gpu())
            assert d.devices() == {_gpu()} and d.dtype == x.dtype and d.shape == x.shape
            assert np.array_equal(np.asarray(d), x)
            y = jax.jit(lambda v: v[::-1])(d)
            assert np.array_equal(np.asarray(y), x[::-1])


def test_default_device_selects_the_gpu():
    from transpile.memory.device_array import CudaArray
    f = jax.jit(lambda x: x + 1)
    x = np.ones(3, np.float32)
    with jax.default_device(_gpu()):
        assert isinstance(f(x), CudaArray)
    assert not isinstance(f(x), CudaArray)


def test_reductions_give_the_same_bits_every_run():
    x = np.random.default_rng(0).standard_normal(10_000_000).astype(np.float32)
    f = jax.jit(lambda v: (jnp.sum(v), jnp.sum(v.reshape(1000, -1), 1)), backend="cuda")
    a, b = f(x)
    c, d = f(x)
    assert np.asarray(a).tobytes() == np.asarray(c).tobytes()
    assert np.asarray(b).tobytes() == np.asarray(d).tobytes()
    np.testing.assert_allclose(np.asarray(a), np.sum(x, dtype=np.float64), rtol=1e-5)


def test_matmul_matches_numpy_in_float64():
    rng = np.random.default_rng(1)
    for m, k, n in ((1, 1, 1), (3, 5, 7), (129, 257, 131), (512, 64, 1000)):
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        got = np.asarray(jax.jit(jnp.matmul, backend="cuda")(a, b))
        want = a.astype(np.float64) @ b.astype(np.float64)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.sqrt(k))


def test_control_flow_runs_on_the_host_around_kernels():
    def f(x):
        def body(c):
            i, v = c
            return i + 1, lax.cond(i % 2 == 0, jnp.sin, jnp.cos, v)
        return lax.while_loop(lambda c: c[0] < 7, body, (0, x))[1]
    x = np.linspace(0, 1, 100, dtype=np.float32)
    _same(jax.jit(f, backend="cuda")(x), jax.jit(f)(x), "while/cond")


def test_out_of_device_memory_is_a_python_exception():
    f = jax.jit(lambda: jnp.zeros((1 << 40,), np.float32), backend="cuda")
    with pytest.raises(cuda_runtime.CudaError, match="RESOURCE_EXHAUSTED"):
        f()
    # the device still works afterwards
    assert float(jax.jit(lambda x: x * 2, backend="cuda")(np.float32(2))) == 4.0


def test_eager_operations_on_device_arrays():
    d = jax.device_put(np.arange(4, dtype=np.float32), _gpu())
    np.testing.assert_array_equal(np.asarray(d + 1), np.arange(4) + 1)
    assert (d + 1).devices() == {_gpu()}
    assert repr(d).startswith("Array([0., 1., 2., 3.]")

"""Array interoperability as programs, shared by ``tests/test_array_interop.py`` and
``tools/record_array_interop.py`` (which runs them in JAX 0.10.2 and writes
``tests/data/array_interop.json``): the Array API namespace and its inspection object,
DLPack both ways, ``to_device``, and where ``__jax_array__`` is honoured.

``cases(M)`` takes the library (``jax`` or ``transpile``) and returns ``name ->
thunk``; ``run(thunk)`` gives ``{"result": ...}`` or ``{"error": "Class: message"}``.
Nothing here imports jax or transpile.
"""
from __future__ import annotations

import numpy as np


def _value(v):
    if hasattr(v, "dtype") and hasattr(v, "shape") and not isinstance(v, np.dtype):
        a = np.asarray(v)
        return {"value": a.tolist(), "dtype": a.dtype.name,
                "weak_type": bool(getattr(v, "weak_type", False)),
                "array": type(v).__module__.split(".")[0] != "numpy"}
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, dict):
        return {str(k): _value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


def run(thunk) -> dict:
    try:
        return {"result": _value(thunk())}
    except Exception as e:  # noqa: BLE001 - recorded
        return {"error": f"{type(e).__name__}: {e}"}


def cases(M):
    jnp = M.numpy
    x = jnp.arange(6.).reshape(2, 3)
    info = jnp.__array_namespace_info__

    class W:
        def __jax_array__(self):
            return jnp.arange(3.)

    out = {
        # __jax_array__: converted by asarray/array and by array operators only
        "jax_array_asarray": lambda: jnp.asarray(W()),
        "jax_array_array": lambda: jnp.array(W()),
        "jax_array_jit_argument": lambda: M.jit(lambda a: a * 2)(W()),
        "jax_array_ufunc": lambda: jnp.sin(W()),
        "jax_array_binary_function": lambda: jnp.add(W(), 1),
        "jax_array_reflected_operator": lambda: W() + jnp.ones(3),
        "jax_array_operator": lambda: jnp.ones(3) * W(),
        "jax_array_grad_argument": lambda: M.grad(lambda a: jnp.sum(a))(W()),
        # DLPack
        "numpy_from_dlpack": lambda: np.from_dlpack(x),
        "numpy_from_dlpack_is_read_only": lambda: np.from_dlpack(x).flags.writeable,
        "dlpack_device": lambda: [int(v) for v in x.__dlpack_device__()],
        "from_dlpack_numpy_float64": lambda: jnp.from_dlpack(np.arange(3.)),
        "from_dlpack_numpy_int64": lambda: jnp.from_dlpack(np.arange(3)),
        "from_dlpack_numpy_bool": lambda: jnp.from_dlpack(np.ones(2, bool)),
        "from_dlpack_numpy_uint8": lambda: jnp.from_dlpack(np.arange(3, dtype=np.uint8)),
        "from_dlpack_array": lambda: jnp.from_dlpack(x),
        "from_dlpack_scalar": lambda: jnp.from_dlpack(jnp.asarray(2.)),
        "from_dlpack_list": lambda: jnp.from_dlpack([1, 2]),
        # to_device
        "to_device_cpu": lambda: x.to_device(M.devices()[0]),
        # the Array API namespace
        "namespace_version_default": lambda: x.__array_namespace__().__name__.split(".")[1],
        "namespace_version_2024": lambda: x.__array_namespace__(
            api_version="2024.12").__name__.split(".")[1],
        "namespace_version_2023": lambda: x.__array_namespace__(api_version="2023.12"),
        "namespace_version_bogus": lambda: x.__array_namespace__(api_version="bogus"),
        "namespace_of_a_tracer": lambda: M.jit(
            lambda a: a + (a.__array_namespace__() is jnp))(1.),
        "info_capabilities": lambda: info().capabilities(),
        "info_default_device": lambda: info().default_device(),
        "info_devices": lambda: info().devices(),
        "info_default_dtypes": lambda: info().default_dtypes(),
        "info_default_dtypes_device": lambda: info().default_dtypes(device=M.devices()[0]),
        "info_dtypes": lambda: info().dtypes(),
        "info_dtypes_bool": lambda: info().dtypes(kind="bool"),
        "info_dtypes_signed": lambda: info().dtypes(kind="signed integer"),
        "info_dtypes_unsigned": lambda: info().dtypes(kind="unsigned integer"),
        "info_dtypes_integral": lambda: info().dtypes(kind="integral"),
        "info_dtypes_real": lambda: info().dtypes(kind="real floating"),
        "info_dtypes_numeric": lambda: info().dtypes(kind="numeric"),
        "info_dtypes_complex": lambda: info().dtypes(kind="complex floating"),
        "array_api_version": lambda: jnp.__array_api_version__,
        "info_dtypes_tuple": lambda: info().dtypes(kind=("integral", "bool")),
        "info_dtypes_bogus": lambda: info().dtypes(kind="bogus"),
    }
    return out

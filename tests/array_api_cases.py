"""Programs behind the Array API conformance fixes (issue 20), shared by
``tests/test_numpy_array_api.py`` and ``tools/record_array_api.py`` (which runs them
in JAX 0.10.2 and writes ``tests/data/array_api.json``).

Each program is a thunk built by ``cases(M)`` from the library ``M`` (``jax`` or
``transpile``); ``run(thunk)`` gives ``{"result": ...}`` with every array as its
dtype, weak type, shape and values (complex values as ``[re, im]`` pairs), or
``{"error": "Class: message"}``. Nothing here imports jax or transpile.
"""
from __future__ import annotations

import numpy as np


def _value(v):
    if hasattr(v, "dtype") and hasattr(v, "shape") and not isinstance(v, np.dtype):
        a = np.asarray(v)
        vals = np.stack([a.real, a.imag], -1) if a.dtype.kind == "c" else a
        return {"dtype": a.dtype.name, "shape": list(a.shape), "values": vals.tolist(),
                "weak_type": bool(getattr(v, "weak_type", False))}
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


def cases(M) -> dict:
    jnp = M.numpy
    u8 = np.full(3, 200, np.uint8)
    two = np.full(3, 2, np.uint8)
    z1 = np.array([1 + 2j, 3 - 1j, -0.5j], np.complex64)
    z2 = np.array([2 - 1j, 1j, 4 + 0.25j], np.complex64)
    zm = np.array([[2 - 1j, 1j], [1, 1 + 1j], [0.5, -2j]], np.complex64)
    a23 = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
    b3 = np.array([1.5, -2., 0.25], np.float32)
    return {
        # vecdot: the promoted dtype of the inputs (no widening of small integers),
        # the first operand conjugated, axis moved last before broadcasting
        "vecdot_uint8_wraps": lambda: jnp.vecdot(u8, two),
        "vecdot_uint8_empty": lambda: jnp.vecdot(np.zeros(0, np.uint8), np.zeros(0, np.uint8)),
        "vecdot_int8_uint8": lambda: jnp.vecdot(np.full(3, -100, np.int8), u8),
        "vecdot_bool": lambda: jnp.vecdot(np.array([True, False]), np.array([True, True])),
        "vecdot_complex_conjugates_x1": lambda: jnp.vecdot(z1, z2),
        "vecdot_complex_real": lambda: jnp.vecdot(z1, b3),
        "vecdot_float": lambda: jnp.vecdot(a23, b3),
        "vecdot_axis0_broadcast": lambda: jnp.vecdot(a23, b3[:2], axis=0),
        "vecdot_axis0_keepdims_broadcast": lambda: jnp.vecdot(
            np.ones((3, 2), np.int8), np.ones((3, 1), np.int8), axis=0),
        "vecdot_preferred_element_type": lambda: jnp.vecdot(
            np.full((2, 3), 100, np.int8), np.full(3, 100, np.int8),
            preferred_element_type=np.int32),
        "vecdot_weak_scalar_array": lambda: jnp.vecdot(jnp.asarray([1., 2.]), 2 * jnp.ones(2)),
        "vecdot_axes_mismatch": lambda: jnp.vecdot(np.ones(3, np.float32), np.ones(2, np.float32)),
        "vecdot_axes_mismatch_2d": lambda: jnp.vecdot(np.ones((2, 3), np.float32),
                                                      np.ones((3, 2), np.float32)),
        "vecdot_zero_dim": lambda: jnp.vecdot(np.float32(1), np.float32(2)),
        "vecdot_jit_uint8": lambda: M.jit(jnp.vecdot)(u8, two),
        "vecdot_jit_complex": lambda: M.jit(jnp.vecdot)(z1, z2),
        "vecdot_jit_axis0": lambda: M.jit(lambda a, b: jnp.vecdot(a, b, axis=0))(a23, b3[:2]),
        "vecdot_grad": lambda: M.grad(lambda a: jnp.sum(jnp.vecdot(a, b3)))(a23),
        "vecdot_vmap": lambda: M.vmap(jnp.vecdot, in_axes=(0, None))(a23, b3),
        # vecmat conjugates the vector too
        "vecmat_complex_conjugates_x1": lambda: jnp.vecmat(z1, zm),
        "vecmat_jit_complex": lambda: M.jit(jnp.vecmat)(z1, zm),
        "matvec_complex": lambda: jnp.matvec(zm.T, z1),
        # eye: a diagonal offset past the matrix, however large, gives zeros
        "eye_k_past_columns": lambda: jnp.eye(3, 4, k=4),
        "eye_k_past_rows": lambda: jnp.eye(3, 4, k=-3),
        "eye_k_huge": lambda: jnp.eye(3, None, k=355687428096001, dtype=np.uint16),
        "eye_k_huge_negative": lambda: jnp.eye(2, 3, k=-2 ** 40),
        "eye_k_last_column": lambda: jnp.eye(3, 4, k=3, dtype=np.int8),
        "eye_k_last_row": lambda: jnp.eye(3, 4, k=-2),
    }

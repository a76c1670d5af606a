"""Calls of the ``jax.lax`` long tail (``lax/bits.py``, ``lax/extra.py``) recorded by
``tools/record_lax_extra.py`` and checked by ``tests/test_lax_extra.py``.

Each call is ``(name, args, kwargs)``; an arg is ``("arr", values, dtype)``, a Python
value, or a tuple of such (``index_take``'s index arrays). Shared by the recorder (with
JAX) and the test (with transpile) through ``make_arg``.
"""
from __future__ import annotations

import numpy as np

_INTS = [0, 1, 5, -1, -128, 127, 100, 2 ** 6]
_BIG = [0, 1, 5, -1, 2 ** 30, -2 ** 31, 2 ** 31 - 1, 12345678]
_F = [1.0001, 3.14159265, 1e-30, 7e4, -2.5, 0.0, -0.0, 65519.0, 65520.0, 6.1e-5,
      1.5, 2.5, float("inf"), -float("inf"), float("nan"), 1e-40, 3.4e38]


def make_arg(a, np_mod, jnp_mod):
    if isinstance(a, tuple) and a and a[0] == "arr":
        with np.errstate(over="ignore", invalid="ignore"):  # float16 overflow to inf
            return jnp_mod.asarray(np.asarray(a[1]).astype(a[2]))
    if isinstance(a, tuple):
        return tuple(make_arg(b, np_mod, jnp_mod) for b in a)
    return a


def _arr(values, dtype):
    return ("arr", values, dtype)


def resolve(lax_module, name: str):
    """The function a case calls: ``lax.<name>``, or the primitive ``<name>_p``'s bind
    for the primitives without an API function (``eq_to``, ``le_to``, ``lt_to``)."""
    if name.endswith("_to"):
        return getattr(lax_module, f"{name}_p").bind
    return getattr(lax_module, name)


def calls():
    out = []
    for dt, vals in (("int8", _INTS), ("uint8", [v % 256 for v in _INTS]),
                     ("int16", _INTS), ("uint16", [v % 65536 for v in _INTS]),
                     ("int32", _BIG), ("uint32", [v % 2 ** 32 for v in _BIG]),
                     ("int64", _BIG + [-2 ** 63, 2 ** 62 + 3]),
                     ("uint64", [v % 2 ** 64 for v in _BIG] + [2 ** 64 - 1, 2 ** 63])):
        out.append(("clz", [_arr(vals, dt)], {}))
        out.append(("population_count", [_arr(vals, dt)], {}))
        out.append(("mulhi", [_arr(vals, dt), _arr(vals[::-1], dt)], {}))
        out.append(("mulhi", [_arr(vals, dt), _arr(vals, dt)], {}))
    for dt in ("float32", "float64", "float16"):
        for e, m in ((5, 10), (8, 7), (4, 3), (5, 2), (2, 1), (11, 52), (8, 23), (1, 0),
                     (3, 0), (6, 12)):
            vals = _F if dt != "float16" else [v for v in _F if abs(v) < 7e4 or v != v]
            out.append(("reduce_precision", [_arr(vals, dt), e, m], {}))
    x = np.arange(24.0).reshape(2, 3, 4) - 7.5
    out += [
        ("batch_matmul", [_arr(x, "float32"), _arr(x.transpose(0, 2, 1), "float32")], {}),
        ("batch_matmul", [_arr(x[0], "float32"), _arr(x[0].T, "float32")], {}),
        ("index_take", [_arr(x[0], "float32"),
                        (_arr([3, -1, 0], "int32"), _arr([1, 5, -2], "int32")), (0, 1)], {}),
        ("index_take", [_arr(x, "float32"), (_arr([1, -1], "int32"),), (1,)], {}),
        ("approx_max_k", [_arr(x[0], "float32"), 2], {}),
        ("approx_max_k", [_arr(x, "float32"), 1], {"reduction_dimension": 1}),
        ("approx_min_k", [_arr(x[0], "float32"), 3], {}),
        ("approx_min_k", [_arr(x[0], "float32"), 2], {"reduction_dimension": 0}),
        ("ragged_dot", [_arr(np.arange(15.).reshape(5, 3), "float32"),
                        _arr(np.arange(18.).reshape(3, 3, 2) - 4, "float32"),
                        _arr([1, 3, 1], "int32")], {}),
        ("ragged_dot", [_arr(np.arange(15.).reshape(5, 3), "float32"),
                        _arr(np.arange(18.).reshape(3, 3, 2) - 4, "float32"),
                        _arr([2, 0, 2], "int32")], {}),
        ("unstack", [_arr(x, "float32")], {}),
        ("unstack", [_arr(x, "int32")], {"axis": 2}),
        ("unstack", [_arr(x, "float32")], {"axis": -2}),
        ("reciprocal", [_arr([2.0, -4.0, 0.5], "float32")], {}),
        ("reciprocal", [2.0], {}),
        ("broadcast_like", [_arr([1, 2, 3], "int32"), _arr(np.zeros((2, 3)), "float32")], {}),
        ("broadcast_like", [1.0, _arr(np.zeros((2,)), "float32")], {}),
        ("empty", [(2, 3), "float32"], {}),
        ("shape_as_value", [(2, 3)], {}),
        ("optimization_barrier", [(_arr([1.0, 2.0], "float32"), _arr([3], "int32"))], {}),
    ]
    nan = float("nan")
    t = [-nan, -float("inf"), -1.0, -0.0, 0.0, 1.0, float("inf"), nan]
    tx = [a for a in t for _ in t]
    ty = [b for _ in t for b in t]
    for name in ("eq_to", "le_to", "lt_to"):
        for dt in ("float32", "float64", "float16"):
            out.append((name, [_arr(tx, dt), _arr(ty, dt)], {}))
        out.append((name, [_arr([1, -2, 3], "int32"), _arr([1, 3, -3], "int32")], {}))
    return out


#: bad inputs: (name, args, kwargs); the error type and first line are recorded
ERROR_CALLS = [
    ("clz", [_arr([1.0], "float32")], {}),
    ("population_count", [_arr([True], "bool")], {}),
    ("mulhi", [_arr([1.0], "float32"), _arr([1.0], "float32")], {}),
    ("reduce_precision", [_arr([1], "int32"), 5, 10], {}),
    ("reduce_precision", [1.0, 0, 10], {}),
    ("reduce_precision", [1.0, 5, -1], {}),
    ("batch_matmul", [_arr(np.ones((2, 3)), "float32"), _arr(np.ones((1, 3, 2)), "float32")],
     {}),
    ("batch_matmul", [_arr(np.ones(3), "float32"), _arr(np.ones(3), "float32")], {}),
    ("approx_max_k", [_arr(np.ones(3), "float32"), 5], {}),
    ("approx_max_k", [_arr([1, 2], "int32"), 1], {}),
    ("unstack", [_arr(np.ones((2, 3)), "float32")], {"axis": 2}),
    ("broadcast_shapes", [(3, 1), (4, 1)], {}),
]

#: (name, args): jaxprs recorded with make_jaxpr
JAXPR_CALLS = [
    ("clz", [_arr([1], "int32")]),
    ("population_count", [_arr([1], "uint8")]),
    ("mulhi", [_arr([1], "uint32"), _arr([1], "uint32")]),
    ("reduce_precision", [_arr([1.0], "float32"), 5, 10]),
    ("unstack", [_arr(np.ones((2, 3)), "float32")]),
    ("batch_matmul", [_arr(np.ones((2, 2, 3)), "float32"), _arr(np.ones((2, 3, 2)), "float32")]),
    ("reciprocal", [_arr([1.0], "float32")]),
    ("lt_to", [_arr([1.0], "float32"), _arr([1.0], "float32")]),
    ("approx_max_k", [_arr(np.ones((2, 3)), "float32"), 2]),
    ("approx_min_k", [_arr(np.ones((2, 3)), "float32"), 1]),
]


# ---------------------------------------------------------------------------------------
# jax.scipy.special additions (special_extra.py): (name, args, kwargs), args as above;
# each is recorded from JAX (float32 and float64) and from SciPy (float64)

_X = [-3.0, -0.5, 0.0, 1e-3, 0.15, 0.5, 1.0, 1.9, 2.0, 2.1, 5.0, 9.9, 10.5, 30.0,
      float("inf"), float("nan")]
_XPOS = [0.0, 1e-5, 1e-3, 0.1, 0.4, 0.5, 0.6, 0.9, 1.0, 1.5, 3.0, 100.0, 1e4, 1e10]


def special_calls(dtype: str):
    arr = lambda v: _arr(v, dtype)  # noqa: E731
    return [
        ("erfcx", [arr(_X + [-20.0, 26.0, 27.0, 1e3])], {}),
        ("dawsn", [arr(_X + [0.19, 0.21, 1e10, -100.0])], {}),
        ("spence", [arr(_XPOS + [-1.0, float("inf"), float("nan")])], {}),
        ("expn", [_arr([0, 1, 2, 5, 3, 1, 2, 5, 20, 50, 3, 7, 2], "int32"),
                  arr([0.5, 0.5, 2.0, 3.0, 0.0, 1e-5, 0.9, 1.1, 30.0, 100.0, 1.0, 0.3,
                       12.0])], {}),
        ("owens_t", [arr([0.0, 0.5, -1.0, 3.0, 10.0, 0.1, 2.0, 5.0, -7.0, 1e-3, 0.0, 1.5]),
                     arr([0.5, 2.0, -0.3, 1.0, float("inf"), 0.99, 1.0, 3.0, 100.0, -1e-3,
                          5.0, -4.0])], {}),
        ("sici", [arr(_X + [-2.5, 4.0, 100.0])], {}),
        ("fresnel", [arr(_X + [1.79, 1.81, -2.5, 100.0])], {}),
        ("hyp1f1", [arr([0.5, 1.0, 2.0, -2.0, 3.0, -3.5, 10.0, 0.0, 1.5]),
                    arr([1.5, 2.0, 3.0, 1.0, 1.5, 2.0, 20.0, 2.0, 0.5]),
                    arr([0.3, -2.0, 10.0, 4.0, 20.0, -5.0, 50.0, 3.0, -1.0])], {}),
        ("bessel_jn", [arr([0.0, 0.5, 3.0, 10.0, -2.0, 20.0])], {"v": 4}),
        ("hyp2f1", [arr([0.5, 1.0, 2.0, 1.5, 3.0, 0.5, 1.0, 2.0, 0.0, 1.0, -1.5, 2.5, 1.0]),
                    arr([1.0, 2.0, 0.5, 2.5, 2.0, 0.5, 1.0, 3.0, 1.0, 2.0, 1.0, 1.5, 1.0]),
                    arr([1.5, 3.0, 2.0, 1.0, 1.5, 1.5, -2.0, 2.0, 2.0, 3.0, 2.5, 4.5, 2.0]),
                    arr([0.3, -0.5, 0.9, 0.5, 0.2, 1.0, 0.5, 1.5, 0.3, -3.0, 0.7, 0.95,
                         2.0])], {}),
    ]

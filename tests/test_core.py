"""Abstract values and the trace machinery (core.py)."""
import numpy as np
import pytest

from transpile import core, lax
from transpile.core import ShapedArray, canonicalize_shape, get_aval


@pytest.mark.parametrize("value,text", [
    (1.0, "ShapedArray(float32[], weak_type=True)"),
    (3, "ShapedArray(int32[], weak_type=True)"),
    (True, "ShapedArray(bool[])"),
    (np.float32(1), "ShapedArray(float32[])"),
    (np.ones((2, 3)), "ShapedArray(float32[2,3])"),  # float64 canonicalised
    (np.arange(3, dtype=np.uint8), "ShapedArray(uint8[3])"),
])
def test_get_aval(value, text):
    assert repr(get_aval(value)) == text


def test_shaped_array_strings_and_equality():
    a = ShapedArray((2, 3), np.float32, weak_type=True)
    assert a.str_short() == "f32[2,3]" and a.str_weak() == "~float32[2,3]"
    assert a == ShapedArray((2, 3), np.float32, True) != a.strip_weak_type()
    assert hash(a) == hash(ShapedArray((2, 3), np.float32, True))
    assert a.ndim == 2 and a.size == 6


def test_canonicalize_shape():
    assert canonicalize_shape(3) == (3,)
    assert canonicalize_shape((2, np.int64(3))) == (2, 3)
    with pytest.raises(TypeError, match="Shapes must be 1D sequences of concrete values of "
                                        "integer type, got"):
        canonicalize_shape((2.5,))


def test_invalid_value_type():
    with pytest.raises(TypeError, match="not a valid JAX type"):
        get_aval("a string")


def test_eager_bind_returns_arrays_with_aval_dtype():
    out = lax.add(np.float32(1), np.float32(2))
    assert out.dtype == np.float32 and float(out) == 3.0 and not out.weak_type
    w = lax.mul(2.0, 3.0)
    assert w.weak_type and w.dtype == np.float32


def test_trace_stack_is_restored_after_errors():
    from transpile.jit import make_jaxpr

    def bad(x):
        raise RuntimeError("boom")
    with pytest.raises(RuntimeError):
        make_jaxpr(bad)(1.0)
    assert core._state.stack == [] and core._state.dynamic is None

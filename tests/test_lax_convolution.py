"""conv_general_dilated and its wrappers against answers recorded from JAX 0.10.2
(``tools/record_convolution.py``): values, dtypes and shapes eager and under jit for a
table of configurations (dimension-number forms, strides, paddings, dilations, groups,
1D/2D/3D, float16/32/64, int32), JAX's errors and jaxpr text, conv_transpose and the
shape helpers."""
import numpy as np
import pytest

import transpile as jax
from transpile import lax
from conv_checks import DATA, check, kwargs, x64_for
from convolution_cases import CASES, ERROR_CASES, operand

CASE_IDS = [c[0] for c in CASES]
ERRORS = {"TypeError": TypeError, "ValueError": ValueError, "RuntimeError": RuntimeError}


@pytest.mark.parametrize("name,lhs,rhs,dtype,kw", CASES, ids=CASE_IDS)
def test_forward_eager(name, lhs, rhs, dtype, kw):
    with x64_for(dtype):
        out = lax.conv_general_dilated(operand(lhs, dtype, 1), operand(rhs, dtype, 2),
                                       **kwargs(kw))
        check(out, DATA["forward"][name], dtype)


@pytest.mark.parametrize("name,lhs,rhs,dtype,kw", CASES, ids=CASE_IDS)
def test_forward_jit(name, lhs, rhs, dtype, kw):
    with x64_for(dtype):
        f = jax.jit(lambda a, b: lax.conv_general_dilated(a, b, **kwargs(kw)))
        out = f(operand(lhs, dtype, 1), operand(rhs, dtype, 2))
        check(out, DATA["forward"][name], dtype)


@pytest.mark.parametrize("name", sorted(DATA["jaxpr"]))
def test_jaxpr_text(name):
    _, lhs, rhs, dtype, kw = next(c for c in CASES if c[0] == name)
    text = jax.make_jaxpr(lambda a, b: lax.conv_general_dilated(a, b, **kwargs(kw)))(
        operand(lhs, dtype, 1), operand(rhs, dtype, 2))
    assert str(text) == DATA["jaxpr"][name]


@pytest.mark.parametrize("name,lhs,rhs,dtypes,kw", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_errors(name, lhs, rhs, dtypes, kw):
    etype, message = DATA["errors"][name]
    with pytest.raises(ERRORS[etype]) as info:
        lax.conv_general_dilated(operand(lhs, dtypes[0], 1), operand(rhs, dtypes[1], 2),
                                 **kwargs(kw))
    assert type(info.value).__name__ == etype
    assert str(info.value) == message


@pytest.mark.parametrize("rec", DATA["transpose"], ids=lambda r: f"{r['lhs']}-{r['padding']}")
def test_conv_transpose(rec):
    extra = dict(rec["extra"])
    if "dimension_numbers" in extra:
        extra["dimension_numbers"] = tuple(extra["dimension_numbers"])
    padding = rec["padding"]
    if not isinstance(padding, str):
        padding = [tuple(p) for p in padding]
    out = lax.conv_transpose(operand(rec["lhs"], "float32", 1),
                             operand(rec["rhs"], "float32", 2), rec["strides"], padding,
                             **extra)
    check(out, rec["out"])


def test_wrappers_and_shape_helpers():
    x, w = operand((1, 2, 6, 5), "float32", 1), operand((3, 2, 3, 2), "float32", 2)
    direct = lax.conv_general_dilated(x, w, (2, 1), [(1, 1), (0, 1)], (1, 2), (2, 1))
    np.testing.assert_array_equal(
        lax.conv_with_general_padding(x, w, (2, 1), [(1, 1), (0, 1)], (1, 2), (2, 1)), direct)
    np.testing.assert_array_equal(lax.conv(x, w, (1, 1), "SAME"),
                                  lax.conv_general_dilated(x, w, (1, 1), "SAME"))
    assert lax.conv_general_shape_tuple((2, 7, 7, 3), (3, 3, 3, 4), (2, 2), "SAME",
                                        ("NHWC", "HWIO", "NHWC")) == (2, 4, 4, 4)
    assert lax.conv_shape_tuple((2, 3, 7, 7), (4, 3, 3, 3), (1, 1), "VALID") == (2, 4, 5, 5)
    assert lax.conv_transpose_shape_tuple((1, 4, 4, 2), (3, 3, 2, 5), (2, 2), "SAME",
                                          ("NHWC", "HWIO", "NHWC")) == (1, 8, 8, 5)
    assert lax.padtype_to_pads((5,), (2,), (2,), "same_lower") == [(1, 0)]
    assert lax.conv_general_permutations(("NHWC", "HWIO", "NHWC")) == (
        (0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2))
    dn = lax.conv_dimension_numbers((1, 2, 3, 4), (1, 2, 3, 4), ("NHWC", "HWIO", "NHWC"))
    assert repr(dn) == ("ConvDimensionNumbers(lhs_spec=(0, 3, 1, 2), rhs_spec=(3, 2, 0, 1), "
                        "out_spec=(0, 3, 1, 2))")


def test_patches_match_a_convolution():
    x = operand((1, 2, 5, 4), "float32", 1)
    patches = lax.conv_general_dilated_patches(x, (2, 3), (1, 1), "VALID")
    assert patches.shape == (1, 12, 4, 2)
    w = operand((3, 2, 2, 3), "float32", 2)
    want = lax.conv_general_dilated(x, w, (1, 1), "VALID")
    got = np.einsum("nphw,op->nohw", np.asarray(patches), np.asarray(w).reshape(3, 12))
    np.testing.assert_allclose(got, np.asarray(want), rtol=1e-6)

"""The compiled convolution kernel (``codegen/conv_plan.py``, ``kernel_conv.j2``): the
im2col + GEMM path and the direct loops against the float64 NumPy rule for layouts
read in place (NHWC, NCHW, odd ones), groups, dilations, 1D/2D/3D; which path the
planner picks; and the CUDA kernel's source."""
import numpy as np
import pytest

import transpile as jax
from transpile import lax
from transpile.codegen.plan import plan_program
from transpile.codegen.render import render_module
from transpile.passes import optimize

RNG = np.random.default_rng(0)

# lhs shape, rhs shape, keyword arguments, whether the GEMM path is expected
CASES = [
    ("nhwc_resnet_like", (2, 10, 10, 16), (3, 3, 16, 16),
     dict(window_strides=(1, 1), padding="SAME",
          dimension_numbers=("NHWC", "HWIO", "NHWC")), True),
    ("nchw_strided", (3, 8, 11, 9), (12, 8, 3, 3),
     dict(window_strides=(2, 1), padding=[(1, 2), (0, 1)], rhs_dilation=(1, 2)), True),
    ("nhwc_groups", (6, 9, 9, 16), (3, 3, 4, 8),
     dict(window_strides=(1, 1), padding="VALID", feature_group_count=4,
          dimension_numbers=("NHWC", "HWIO", "NHWC")), True),
    ("nchw_lhs_dilation", (1, 6, 7, 7), (8, 6, 3, 3),
     dict(window_strides=(1, 1), padding=[(2, 2), (2, 2)], lhs_dilation=(2, 2)), True),
    ("conv1d_nwc", (4, 40, 8), (5, 8, 12),
     dict(window_strides=(1,), padding="SAME", dimension_numbers=("NWC", "WIO", "NWC")),
     True),
    ("conv3d", (1, 4, 6, 6, 6), (8, 4, 3, 3, 3), dict(window_strides=(1, 1, 1),
                                                     padding="SAME"), True),
    ("nchw_wide_window_feature_major", (2, 6, 12, 12), (4, 6, 9, 9),
     dict(window_strides=(1, 2), padding=[(4, 3), (2, 5)]), True),
    ("odd_out_layout_direct", (2, 6, 8, 8), (8, 6, 3, 3),
     dict(window_strides=(1, 1), padding="SAME",
          dimension_numbers=("NCHW", "OIHW", "HNWC")), False),
    ("batch_groups_direct", (4, 6, 8, 8), (8, 6, 3, 3),
     dict(window_strides=(1, 1), padding="SAME", batch_group_count=2), False),
    ("float16_direct", (2, 8, 8, 8), (3, 3, 8, 8),
     dict(window_strides=(1, 1), padding="SAME",
          dimension_numbers=("NHWC", "HWIO", "NHWC")), False),
]


@pytest.mark.parametrize("name,ls,rs,kw,gemm", CASES, ids=[c[0] for c in CASES])
def test_kernel_matches_numpy_rule(name, ls, rs, kw, gemm):
    dtype = np.float16 if name.startswith("float16") else np.float32
    x = RNG.standard_normal(ls).astype(dtype)
    w = RNG.standard_normal(rs).astype(dtype)
    f = jax.jit(lambda a, b: lax.conv_general_dilated(a, b, **kw))
    source = f.lower(x, w).as_text("c")
    assert ("tp_gemm_f32(" in source) == gemm
    # im2col feature by feature: wide windows whose input features are not adjacent
    assert ("features outer" in source) == ("feature_major" in name)
    got = np.asarray(f(x, w))
    want = lax.conv_general_dilated_p.impl(x, w, **f.trace(x, w).jaxpr.eqns[0].params)
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 2e-2 if dtype == np.float16 else 2e-5
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=tol, atol=tol * float(np.abs(want).max()))


def test_kernel_is_deterministic_and_integer_exact():
    x = RNG.integers(-50, 50, (2, 3, 9, 9)).astype(np.int32)
    w = RNG.integers(-50, 50, (4, 3, 3, 3)).astype(np.int32)
    f = jax.jit(lambda a, b: lax.conv(a, b, (1, 1), "SAME"))
    first = np.asarray(f(x, w))
    np.testing.assert_array_equal(first, np.asarray(lax.conv(x, w, (1, 1), "SAME")))
    np.testing.assert_array_equal(np.asarray(f(x, w)), first)


def test_cuda_source_has_a_native_conv_kernel():
    x = np.ones((1, 5, 5, 2), np.float32)
    w = np.ones((3, 3, 2, 4), np.float32)
    f = jax.jit(lambda a, b: lax.conv_general_dilated(
        a, b, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")))
    opt = optimize(jax.make_jaxpr(f)(x, w))
    source, _ = render_module([(plan_program(opt, "conv", fuse_rows=False), str(opt))],
                              target="cuda")
    assert "conv_k0_kernel<<<" in source and "_serial" not in source

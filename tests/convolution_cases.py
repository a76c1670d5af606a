"""Convolution configurations shared by ``tools/record_convolution.py`` (run under JAX)
and the convolution tests (run under transpile): the inputs are a formula of the shape,
so both sides build the same arrays without storing them."""
from __future__ import annotations

import numpy as np


def operand(shape, dtype, seed: int) -> np.ndarray:
    """Multiples of 1/4 in [-1.25, 1.25]: exact in float16, so every dtype sees the same
    inputs and sums of products stay exact in float32 accumulation."""
    n = int(np.prod(shape, dtype=np.int64))
    vals = ((np.arange(n) * 7 + seed * 3) % 11 - 5) / 4.0
    return vals.reshape(shape).astype(dtype)


# name, lhs shape, rhs shape, dtype, keyword arguments of lax.conv_general_dilated
CASES = [
    ("nchw_same", (2, 3, 6, 6), (4, 3, 3, 3), "float32",
     dict(window_strides=(1, 1), padding="SAME", dimension_numbers=("NCHW", "OIHW", "NCHW"))),
    ("nhwc_valid", (2, 6, 5, 3), (3, 2, 3, 4), "float32",
     dict(window_strides=(1, 1), padding="VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    ("default_dn_stride", (1, 2, 7, 7), (3, 2, 3, 3), "float32",
     dict(window_strides=(2, 2), padding="SAME")),
    ("same_lower", (1, 2, 6, 5), (2, 2, 2, 3), "float32",
     dict(window_strides=(2, 2), padding="SAME_LOWER")),
    ("explicit_pads", (1, 2, 5, 6), (2, 2, 3, 2), "float32",
     dict(window_strides=(1, 2), padding=[(2, 1), (0, 3)])),
    ("negative_pads", (1, 1, 7, 6), (2, 1, 2, 2), "float32",
     dict(window_strides=(1, 1), padding=[(-1, -2), (1, -1)])),
    ("lhs_dilation", (1, 2, 4, 3), (2, 2, 3, 2), "float32",
     dict(window_strides=(1, 1), padding=[(2, 2), (1, 1)], lhs_dilation=(2, 3))),
    ("rhs_dilation", (1, 2, 8, 7), (2, 2, 2, 3), "float32",
     dict(window_strides=(1, 2), padding="SAME", rhs_dilation=(3, 2))),
    ("both_dilations_nhwc", (2, 5, 4, 2), (2, 2, 2, 3), "float32",
     dict(window_strides=(2, 1), padding=[(1, 0), (0, 2)], lhs_dilation=(1, 2),
          rhs_dilation=(2, 1), dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    ("depthwise", (2, 4, 5, 5), (4, 1, 3, 3), "float32",
     dict(window_strides=(1, 1), padding="SAME", feature_group_count=4)),
    ("feature_groups", (1, 4, 5, 4), (6, 2, 2, 2), "float32",
     dict(window_strides=(1, 1), padding="VALID", feature_group_count=2)),
    ("depthwise_nhwc_multiplier", (1, 5, 5, 3), (3, 3, 1, 6), "float32",
     dict(window_strides=(2, 2), padding="SAME", feature_group_count=3,
          dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    ("batch_groups", (4, 2, 5, 5), (6, 2, 3, 3), "float32",
     dict(window_strides=(1, 1), padding="VALID", batch_group_count=2)),
    ("odd_layout", (3, 5, 2, 4), (2, 3, 2, 3), "float32",
     dict(window_strides=(1, 1), padding="SAME", dimension_numbers=("HNCW", "IWOH", "WCNH"))),
    ("conv1d", (2, 3, 9), (2, 3, 4), "float32",
     dict(window_strides=(2,), padding="SAME")),
    ("conv1d_nwc", (2, 9, 3), (3, 3, 2), "float32",
     dict(window_strides=(1,), padding=[(1, 2)], rhs_dilation=(2,),
          dimension_numbers=("NWC", "WIO", "NWC"))),
    ("conv3d", (1, 2, 4, 4, 3), (2, 2, 2, 3, 2), "float32",
     dict(window_strides=(1, 1, 1), padding="SAME")),
    ("conv3d_ndhwc", (1, 4, 3, 4, 2), (2, 2, 2, 2, 3), "float32",
     dict(window_strides=(2, 1, 1), padding="VALID",
          dimension_numbers=("NDHWC", "DHWIO", "NDHWC"))),
    ("float16", (1, 2, 5, 5), (2, 2, 3, 3), "float16",
     dict(window_strides=(1, 1), padding="SAME")),
    ("float16_pref32", (1, 2, 5, 5), (2, 2, 3, 3), "float16",
     dict(window_strides=(1, 1), padding="SAME", preferred_element_type="float32")),
    ("float64", (1, 2, 5, 5), (2, 2, 3, 3), "float64",
     dict(window_strides=(1, 1), padding="VALID")),
    ("int32", (1, 2, 4, 4), (2, 2, 2, 2), "int32",
     dict(window_strides=(1, 1), padding="VALID")),
    ("zero_size_out", (1, 1, 2, 4), (1, 1, 3, 2), "float32",
     dict(window_strides=(1, 1), padding="VALID")),
]

# Cases the gradient tests differentiate (float32/float64 ones).
GRAD_CASES = ["nchw_same", "nhwc_valid", "default_dn_stride", "explicit_pads",
              "negative_pads", "lhs_dilation", "rhs_dilation", "both_dilations_nhwc",
              "depthwise", "feature_groups", "depthwise_nhwc_multiplier", "batch_groups",
              "odd_layout", "conv1d", "conv3d", "float64"]

# Bad arguments: lhs shape, rhs shape, keyword arguments.
ERROR_CASES = [
    ("dtype_mismatch", (1, 1, 4, 4), (1, 1, 2, 2), ("float32", "float16"),
     dict(window_strides=(1, 1), padding="SAME")),
    ("bad_padding_name", (1, 1, 4, 4), (1, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding="FOO")),
    ("bad_pad_pairs", (1, 1, 4, 4), (1, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding=[(1, 2, 3)])),
    ("string_pad_lhs_dilation", (1, 1, 4, 4), (1, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding="SAME", lhs_dilation=(2, 2))),
    ("wrong_pad_count", (1, 1, 4, 4), (1, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding=[(0, 0)])),
    ("wrong_stride_count", (1, 1, 4, 4), (1, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1,), padding="VALID")),
    ("dn_length", (1, 1, 4, 4), (1, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding="VALID", dimension_numbers=("NCHW", "OIHW"))),
    ("dn_spatial", (1, 1, 4, 4), (1, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding="VALID",
          dimension_numbers=("NCHW", "OIHW", "NCHX"))),
    ("dn_missing_char", (1, 1, 4, 4), (1, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding="VALID",
          dimension_numbers=("NHWX", "OIHW", "NCHW"))),
    ("rank_mismatch", (1, 1, 4, 4), (1, 1, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding="VALID")),
    ("group_not_dividing", (1, 3, 4, 4), (2, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding="VALID", feature_group_count=2)),
    ("group_in_features", (1, 4, 4, 4), (2, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding="VALID", feature_group_count=2)),
    ("group_out_features", (1, 4, 4, 4), (3, 2, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding="VALID", feature_group_count=2)),
    ("batch_group_batch", (3, 2, 4, 4), (2, 2, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding="VALID", batch_group_count=2)),
    ("both_groups", (2, 2, 4, 4), (2, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding="VALID", batch_group_count=2,
          feature_group_count=2)),
    ("negative_pad_too_big", (1, 1, 4, 4), (1, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding=[(-3, -3), (0, 0)])),
    ("narrow_preferred", (1, 1, 4, 4), (1, 1, 2, 2), ("float32", "float32"),
     dict(window_strides=(1, 1), padding="VALID", preferred_element_type="float16")),
]

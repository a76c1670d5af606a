"""``transpile.numpy.math_extra`` against JAX 0.10.2 (cases ``math/*`` of
``numpy_long_tail_b_cases.py``): values, dtypes, weak types and errors eagerly, and
values under ``jit``, ``grad`` and ``vmap`` where the case asks for them."""
from __future__ import annotations

import transpile.numpy as jnp

from numpy_long_tail_b_checks import DATA, names, make_tests

test_eager, test_jit, test_grad, test_vmap = make_tests("math")


def test_cases_were_recorded():
    assert names("math") and all(n in DATA for n in names("math"))


PART_B = """
allclose isclose array_equal array_equiv diff ediff1d gradient cross kron interp histogram
histogram2d histogramdd histogram_bin_edges bincount digitize isin intersect1d union1d
setdiff1d setxor1d unique_all unique_counts unique_inverse unique_values nansum nanmean nanstd
nanvar nanmax nanmin nanargmax nanargmin nanprod nancumsum nancumprod nanmedian nanpercentile
nanquantile median percentile quantile average corrcoef cov ptp count_nonzero lexsort
partition argpartition logspace geomspace vander polyval polyfit polyadd polysub polymul
polydiv polyder polyint poly sinc heaviside fmod modf frexp ldexp gcd lcm bitwise_count
packbits unpackbits logaddexp2 spacing fabs i0 nan_to_num unwrap trapezoid bartlett blackman
hamming hanning kaiser isrealobj isreal iscomplexobj einsum einsum_path matvec vecmat vecdot
""".split()


def test_public_names():
    assert set(PART_B) <= set(jnp.__all__)
    assert all(callable(getattr(jnp, n)) for n in PART_B)

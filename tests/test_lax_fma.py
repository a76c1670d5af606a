"""The ``fma`` primitive's NumPy rule: one rounding of the exact ``x * y + z``.

``passes/contract.py`` creates ``fma`` where XLA:CPU fuses a multiply into an add; the
compiled code calls C's ``fmaf``/``fma``. Here the NumPy rule is checked against exact
rational arithmetic, on random operands and on constructed halfway cases where rounding
the float64 sum to float32 would round twice.
"""
from fractions import Fraction

import numpy as np
import pytest

import transpile as jax
from transpile.lax.fma import fma_f32, fma_f64, fma_p


def _exact(x, y, z, dtype):
    """The correctly rounded fused value, through Fractions and NumPy's rounding."""
    out = []
    for a, b, c in zip(x.tolist(), y.tolist(), z.tolist(), strict=True):
        v = Fraction(a) * Fraction(b) + Fraction(c)
        # round the exact value to float64 by hand (ties to even), then to dtype
        f = float(v)  # Fraction.__float__ rounds correctly to nearest float64
        if dtype == np.float32:
            # correct rounding to float32: decide from the exact value, not from f
            lo = np.float32(f)
            hi = np.nextafter(lo, np.float32(np.inf) if Fraction(float(lo)) < v
                              else np.float32(-np.inf))
            dlo, dhi = abs(Fraction(float(lo)) - v), abs(Fraction(float(hi)) - v)
            if dhi < dlo or (dhi == dlo and int(hi.view(np.uint32)) % 2 == 0):
                lo = hi
            out.append(lo)
        else:
            out.append(f)
    return np.array(out, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_random_operands(dtype):
    rng = np.random.default_rng(3)
    x, y, z = (rng.standard_normal(2000).astype(dtype) * rng.choice([1e-3, 1, 1e3], 2000)
               for _ in range(3))
    got = (fma_f32 if dtype == np.float32 else fma_f64)(x, y, z)
    np.testing.assert_array_equal(got, _exact(x, y, z, dtype))


def test_float32_halfway_sums_round_once():
    # x*y = 1 + 2^-24 + 2^-48 exactly... built so that the float64 sum lands halfway
    # between two float32s while the exact value does not.
    x = np.array([1 + 2.0 ** -12, 1 + 2.0 ** -12, 3.0, 1 + 2.0 ** -23], np.float32)
    y = np.array([1 + 2.0 ** -12, 1 - 2.0 ** -12, 1 / 3, 1 + 2.0 ** -23], np.float32)
    z = np.array([2.0 ** -60, -2.0 ** -60, 2.0 ** -40, -1.0], np.float32)
    np.testing.assert_array_equal(fma_f32(x, y, z), _exact(x, y, z, np.float32))


def test_special_values_and_primitive_rules():
    nan, inf = np.nan, np.inf
    x = np.array([inf, 0.0, 1.0, nan, 1e30], np.float32)
    y = np.array([0.0, inf, 1.0, 1.0, 1e30], np.float32)
    z = np.array([1.0, 1.0, -1.0, 1.0, -inf], np.float32)
    got = fma_p.impl(x, y, z)
    # 1e30 * 1e30 overflows float32 but not the fused product: -inf wins
    np.testing.assert_array_equal(got, np.array([nan, nan, 0.0, nan, -inf], np.float32))
    aval = jax.ShapedArray((3, 1), np.float32)
    out = fma_p.abstract_eval(aval, jax.ShapedArray((1, 4), np.float32),
                              jax.ShapedArray((), np.float32))
    assert out.shape == (3, 4)
    with pytest.raises(TypeError, match="only float32 and float64"):
        fma_p.abstract_eval(*[jax.ShapedArray((2,), np.int32)] * 3)

"""``jax.image``: ``resize`` (every method, up and down, with and without antialiasing),
``scale_and_translate`` and their errors against JAX 0.10.2's recorded answers
(``tests/data/windowed.json``), eagerly and under ``jit``; and linear resizing against
a direct NumPy evaluation of the triangle kernel in float64."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from windowed_cases import IMAGE_CASES, IMAGE_ERRORS
from windowed_checks import check_case, check_error


JITTED = {"nearest_down_aa", "linear_down_aa", "cubic_up_aa", "lanczos3_down_noaa",
          "lanczos5_up_aa", "int_linear", "scale_translate", "resize_grad"}


@pytest.mark.parametrize("name, src, inputs, want_jaxpr", IMAGE_CASES,
                         ids=[c[0] for c in IMAGE_CASES])
def test_known_answers(name, src, inputs, want_jaxpr):
    # weights summed in another order than XLA's: a few float32 ulps of a sum. The
    # compiled path (einsum of weight matrices) is the same for every kernel: jit
    # checks one case per method and the others (each compile costs gcc time).
    check_case(name, src, inputs, want_jaxpr, tol_scale=5.0, jit=name in JITTED)


@pytest.mark.parametrize("name, src, inputs", IMAGE_ERRORS, ids=[e[0] for e in IMAGE_ERRORS])
def test_errors(name, src, inputs):
    check_error(name, src, inputs)


def test_linear_upsampling_interpolates():
    """Without antialiasing, upsampling by 2 samples at (o + 0.5) / 2 - 0.5: the inputs
    interpolated linearly, the ends clamped by the weights' normalisation."""
    x = np.random.RandomState(1).randn(5)
    pos = (np.arange(10) + 0.5) / 2 - 0.5
    want = np.interp(pos, np.arange(5), x)
    got = jax.image.resize(jnp.asarray(x, np.float32), (10,), "linear", antialias=False)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-6)


def test_resize_method_names():
    assert jax.image.ResizeMethod.from_string("bicubic") is jax.image.ResizeMethod.CUBIC
    assert jax.image.ResizeMethod.from_string("Lanczos3") is \
        jax.image.ResizeMethod.LANCZOS3

"""jax.scipy.signal's convolve/correlate/convolve2d/correlate2d against JAX 0.10.2
(every mode, 1D/2D/3D, either operand the larger), and their errors."""
import numpy as np
import pytest

import transpile as jax
from transpile.scipy import signal
from conv_checks import DATA, check
from convolution_cases import operand


@pytest.mark.parametrize("rec", DATA["signal"],
                         ids=lambda r: f"{r['fn']}-{r['mode']}-{r['a']}-{r['v']}")
def test_against_jax(rec):
    a, v = operand(tuple(rec["a"]), "float32", 1), operand(tuple(rec["v"]), "float32", 2)
    check(getattr(signal, rec["fn"])(a, v, mode=rec["mode"]), rec["out"])


def test_jit_and_errors():
    a, v = operand((5, 4), "float32", 1), operand((2, 3), "float32", 2)
    f = jax.jit(lambda a, v: signal.correlate2d(a, v, mode="same"))
    np.testing.assert_allclose(f(a, v), signal.correlate2d(a, v, mode="same"), rtol=1e-6)
    with pytest.raises(ValueError, match="One input must be smaller"):
        signal.convolve(np.ones((2, 5)), np.ones((3, 2)))
    with pytest.raises(ValueError, match="same number of dimensions"):
        signal.convolve(np.ones((2, 5)), np.ones(3))
    with pytest.raises(NotImplementedError, match="boundary='fill'"):
        signal.convolve2d(a, v, boundary="wrap")
    with pytest.raises(ValueError, match="2-dimensional inputs"):
        signal.correlate2d(np.ones(3), np.ones(2))
    with pytest.raises(ValueError, match="mode must be one of"):
        signal.convolve(np.ones(3), np.ones(2), mode="wide")

"""jnp.convolve/jnp.correlate (every mode) and stax's convolution layers against JAX
0.10.2: values, dtypes and the jaxprs (both built on conv_general_dilated)."""
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile.example_libraries import stax
from conv_checks import DATA, check
from convolution_cases import operand


@pytest.mark.parametrize("rec", DATA["numpy"],
                         ids=lambda r: f"{r['fn']}-{r['mode']}-{r['a']}-{r['v']}-{r['dtype']}")
def test_convolve_correlate(rec):
    a, v = operand((rec["a"],), rec["dtype"], 1), operand((rec["v"],), rec["dtype"], 2)
    f = lambda a, v: getattr(jnp, rec["fn"])(a, v, mode=rec["mode"])  # noqa: E731
    check(f(a, v), rec["out"], "float32")
    if "jaxpr" in rec:
        assert str(jax.make_jaxpr(f)(a, v)) == rec["jaxpr"]


def test_convolve_errors_and_jit():
    with pytest.raises(ValueError, match="only support 1-dimensional inputs"):
        jnp.convolve(np.ones((2, 2)), np.ones(2))
    with pytest.raises(ValueError, match="inputs cannot be empty"):
        jnp.correlate(np.ones(3), np.ones(0))
    with pytest.raises(ValueError, match="mode must be one of"):
        jnp.convolve(np.ones(3), np.ones(2), mode="wide")
    a, v = operand((9,), "float32", 1), operand((4,), "float32", 2)
    np.testing.assert_allclose(jax.jit(jnp.convolve)(a, v), np.convolve(a, v), rtol=1e-6)


# (layer, input shape, output shape and parameter shapes as JAX 0.10.2 gives them)
LAYERS = [
    (lambda: stax.Conv(4, (3, 3), (2, 1), "SAME"), (2, 7, 6, 3), (2, 4, 6, 4),
     [(3, 3, 3, 4), (1, 1, 1, 4)]),
    (lambda: stax.ConvTranspose(4, (3, 3), (2, 2), "SAME"), (2, 4, 5, 3), (2, 8, 10, 4),
     [(3, 3, 3, 4), (1, 1, 1, 4)]),
    (lambda: stax.Conv1DTranspose(2, (3,), (2,), "VALID"), (2, 5, 3), (2, 11, 2),
     [(3, 3, 2), (1, 1, 2)]),
]


@pytest.mark.parametrize("make,shape,out_shape,param_shapes", LAYERS)
def test_stax_conv_layers(make, shape, out_shape, param_shapes):
    init, apply = make()
    got_shape, params = init(jax.random.PRNGKey(0), shape)
    assert tuple(got_shape) == out_shape
    assert [p.shape for p in params] == param_shapes
    x = operand(shape, "float32", 1)
    y = apply(params, x)
    assert y.shape == out_shape
    # The layer is the lax convolution plus the bias.
    w, b = params
    dn = ("NHWC", "HWIO", "NHWC") if len(shape) == 4 else ("NHC", "HIO", "NHC")
    np.testing.assert_allclose(np.asarray(y - b), np.asarray(
        jax.lax.conv_transpose(x, w, (2, 2)[:len(shape) - 2], "SAME" if len(shape) == 4
                               else "VALID", dimension_numbers=dn)
        if out_shape[1] > shape[1] else
        jax.lax.conv_general_dilated(x, w, (2, 1), "SAME", dimension_numbers=dn)),
        rtol=1e-5, atol=1e-6)

"""Gradients of conv_general_dilated: vjp against JAX 0.10.2's recorded cotangents for
every layout/stride/padding/dilation/group configuration, the transposed jaxprs as JAX
prints them, and directional derivatives against central finite differences (float64)."""
import numpy as np
import pytest

import transpile as jax
from transpile import lax
from conv_checks import DATA, check, kwargs, x64_for
from convolution_cases import CASES, GRAD_CASES, operand

BY_NAME = {c[0]: c for c in CASES}


@pytest.mark.parametrize("name", GRAD_CASES)
def test_vjp_matches_jax(name):
    _, lhs, rhs, dtype, kw = BY_NAME[name]
    with x64_for(dtype):
        f = lambda a, b: lax.conv_general_dilated(a, b, **kwargs(kw))  # noqa: E731
        y, vjp = jax.vjp(f, operand(lhs, dtype, 1), operand(rhs, dtype, 2))
        gx, gw = vjp(operand(y.shape, dtype, 5))
        rec = DATA["grad"][name]
        check(gx, rec["lhs"], dtype)
        check(gw, rec["rhs"], dtype)


@pytest.mark.parametrize("name", sorted(DATA["grad_jaxpr"]))
def test_vjp_jaxpr_text(name):
    _, lhs, rhs, dtype, kw = BY_NAME[name]
    f = lambda a, b: lax.conv_general_dilated(a, b, **kwargs(kw))  # noqa: E731
    x, w = operand(lhs, dtype, 1), operand(rhs, dtype, 2)
    ct = operand(lax.conv_general_dilated(x, w, **kwargs(kw)).shape, dtype, 5)
    text = jax.make_jaxpr(lambda a, b, c: jax.vjp(f, a, b)[1](c))(x, w, ct)
    assert str(text) == DATA["grad_jaxpr"][name]


@pytest.mark.parametrize("name", ["both_dilations_nhwc", "depthwise", "batch_groups",
                                  "odd_layout", "conv1d"])
def test_jvp_against_finite_differences(name):
    _, lhs, rhs, _, kw = BY_NAME[name]
    rng = np.random.default_rng(0)
    with x64_for("float64"):
        x, w = rng.standard_normal(lhs), rng.standard_normal(rhs)
        dx, dw = rng.standard_normal(lhs), rng.standard_normal(rhs)
        f = lambda a, b: lax.conv_general_dilated(a, b, **kwargs(kw))  # noqa: E731
        _, tangent = jax.jvp(f, (x, w), (dx, dw))
        eps = 1e-6
        fd = (np.asarray(f(x + eps * dx, w + eps * dw))
              - np.asarray(f(x - eps * dx, w - eps * dw))) / (2 * eps)
        np.testing.assert_allclose(np.asarray(tangent), fd, rtol=1e-6, atol=1e-7)
        # grad of a scalar through jit: <grad, d> equals the directional derivative.
        loss = jax.jit(lambda a, b: (f(a, b) ** 2).sum())
        gx, gw = jax.grad(loss, argnums=(0, 1))(x, w)
        fd_loss = (float(loss(x + eps * dx, w + eps * dw))
                   - float(loss(x - eps * dx, w - eps * dw))) / (2 * eps)
        got = float(np.vdot(np.asarray(gx), dx) + np.vdot(np.asarray(gw), dw))
        np.testing.assert_allclose(got, fd_loss, rtol=1e-6)

"""Autodiff on complex numbers as JAX 0.10.2 defines it, against its recording
(``tests/data/complex.json``, group ``ad``: ``grad`` of real-valued functions of complex
inputs, ``holomorphic=True``, ``jvp``/``vjp``, ``jacfwd``/``jacrev``, ``vmap`` of a grad,
and JAX's errors), and complex grads against central finite differences.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp

try:
    import test_complex as tc
except ImportError:  # collected as a package
    from tests import test_complex as tc

AD = [pytest.param(mode, row, id=f"{mode}-{row['expr']}")
      for mode in ("x64_off", "x64_on") for row in tc.DATA[mode] if row["group"] == "ad"]
#: JAX's grads are computed in the operands' precision: a few ulp of each term.
AD_TOL = {"x64_off": 2e-5, "x64_on": 1e-11}


@pytest.mark.parametrize("mode,row", AD)
def test_ad_known_answers(mode, row):
    with tc._mode(mode), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn = eval("lambda x, y, r, m: " + row["expr"], tc._env())
        tc._run(fn, tc._args(mode), row["eager"], AD_TOL[mode], row["expr"])


# Real-valued functions of a complex vector: JAX's grad is d f/d re - i d f/d im (the
# conjugate convention), which central differences along each part give.
FD_FUNCS = {
    "abs2": lambda a: jnp.sum(jnp.abs(a) ** 2),
    "real_exp": lambda a: jnp.sum(jnp.real(jnp.exp(a) * jnp.conj(a))),
    "angle": lambda a: jnp.sum(jnp.angle(a) * jnp.arange(3)),
    "abs_log_div": lambda a: jnp.sum(jnp.abs(jnp.log(a) / (a + 2j))),
    "imag_sqrt_sin": lambda a: jnp.sum(jnp.imag(jnp.sqrt(a) * jnp.sin(a))),
    "tanh_pow": lambda a: jnp.real(jnp.sum(jnp.tanh(a) * a ** 3)),
    "dot": lambda a: jnp.abs(jnp.dot(a, jnp.conj(a[::-1]) * 1j)),
}


@pytest.mark.parametrize("name", list(FD_FUNCS))
def test_grad_against_finite_differences(name):
    f = FD_FUNCS[name]
    with tc._mode("x64_on"):
        z = jnp.asarray(np.array([0.7 + 0.3j, -0.4 + 1.1j, 1.5 - 0.6j]))
        g = np.asarray(jax.grad(f)(z))
        zn = np.asarray(z)
        h = 1e-6
        fd = np.zeros(3, np.complex128)
        for i in range(3):
            e = np.zeros(3)
            e[i] = h
            d_re = (float(f(jnp.asarray(zn + e))) - float(f(jnp.asarray(zn - e)))) / (2 * h)
            d_im = (float(f(jnp.asarray(zn + 1j * e))) - float(f(jnp.asarray(zn - 1j * e)))) \
                / (2 * h)
            fd[i] = d_re - 1j * d_im
        np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-7)


def test_holomorphic_grad_is_the_complex_derivative():
    with tc._mode("x64_on"):
        z = 0.3 + 0.8j
        g = complex(jax.grad(lambda a: jnp.sin(a) * jnp.exp(a), holomorphic=True)(z))
        h = 1e-6
        f = lambda a: np.sin(a) * np.exp(a)  # noqa: E731
        np.testing.assert_allclose(g, (f(z + h) - f(z - h)) / (2 * h), rtol=1e-8)


def test_jit_of_complex_grad_matches_eager():
    f = FD_FUNCS["tanh_pow"]
    z = jnp.asarray(np.array([0.7 + 0.3j, -0.4 + 1.1j, 1.5 - 0.6j], np.complex64))
    np.testing.assert_allclose(np.asarray(jax.jit(jax.grad(f))(z)),
                               np.asarray(jax.grad(f)(z)), rtol=1e-5, atol=1e-6)

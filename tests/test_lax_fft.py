"""``lax.fft``: values against NumPy in float64 (eager and under jit, where the C kernel
of ``runtime/tp_fft.h`` runs), round trips, gradients against finite differences (exact
with a unit step, the transform being linear), vmap, and JAX's errors."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
from transpile import lax

RNG = np.random.default_rng(0)

# (operand shape, fft_type, fft_lengths): powers of two, 2^a 3^b 5^c, Bluestein lengths
CASES = [
    ((3, 8), "fft", (8,)), ((2, 6, 10), "ifft", (6, 10)), ((4, 7), "fft", (7,)),
    ((2, 5, 9), "rfft", (5, 9)), ((3, 16), "rfft", (16,)), ((2, 5, 5), "irfft", (5, 8)),
    ((2, 4, 6), "irfft", (4, 11)), ((13,), "fft", (13,)), ((3, 2, 2), "fft", (3, 2, 2)),
    ((60,), "ifft", (60,)), ((97,), "fft", (97,)), ((2, 45), "ifft", (45,)),
]
NUMPY = {"fft": np.fft.fftn, "ifft": np.fft.ifftn, "rfft": np.fft.rfftn}


def _operand(shape, typ):
    x = RNG.standard_normal(shape)
    if typ == "rfft":
        return x.astype(np.float32)
    return (x + 1j * RNG.standard_normal(shape)).astype(np.complex64)


def _reference(x, typ, lengths):
    axes = tuple(range(x.ndim - len(lengths), x.ndim))
    if typ == "irfft":
        return np.fft.irfftn(x.astype(np.complex128), s=lengths, axes=axes)
    return NUMPY[typ](x.astype(np.complex128 if typ != "rfft" else np.float64), axes=axes)


@pytest.mark.parametrize("shape,typ,lengths", CASES)
def test_values_eager_and_jit(shape, typ, lengths):
    x = _operand(shape, typ)
    ref = _reference(x, typ, lengths)
    want_dtype = np.float32 if typ == "irfft" else np.complex64
    for f in (lambda x: lax.fft(x, typ, lengths),
              jax.jit(lambda x: lax.fft(x, typ, lengths))):
        got = np.asarray(f(x))
        assert got.dtype == want_dtype and got.shape == ref.shape
        assert np.abs(got - ref).max() <= 1e-6 * np.abs(ref).max()


def test_round_trip_jit():
    x = _operand((3, 12, 10), "fft")
    f = jax.jit(lambda x: lax.fft(lax.fft(x, lax.FftType.FFT, (12, 10)),
                                  lax.FftType.IFFT, (12, 10)))
    np.testing.assert_allclose(np.asarray(f(x)), x, atol=1e-5)
    r = _operand((4, 9), "rfft")
    g = jax.jit(lambda r: lax.fft(lax.fft(r, "rfft", (9,)), "irfft", (9,)))
    np.testing.assert_allclose(np.asarray(g(r)), r, atol=1e-5)


def _fd_grad(loss, x):
    """The gradient of a loss linear in x, by unit steps (exact up to rounding); for a
    complex x JAX's convention, d/dre - i d/dim."""
    x = np.asarray(x)
    g = np.zeros(x.shape, np.complex128 if np.iscomplexobj(x) else np.float64)
    for i in np.ndindex(x.shape):
        e = np.zeros(x.shape, x.dtype)
        e[i] = 1
        g[i] = float(loss(e))
        if np.iscomplexobj(x):
            g[i] -= 1j * float(loss(1j * e))
    return g


@pytest.mark.parametrize("shape,typ,lengths", [
    ((2, 6), "fft", (6,)), ((5,), "ifft", (5,)), ((2, 7), "rfft", (7,)),
    ((3, 4), "irfft", (6,)), ((2, 3), "irfft", (5,)), ((3, 4), "fft", (3, 4))])
def test_grad_against_finite_differences(shape, typ, lengths):
    x = _operand(shape, typ)
    out_shape = lax.fft(x, typ, lengths).shape
    w1, w2 = RNG.standard_normal(out_shape), RNG.standard_normal(out_shape)

    def loss(x):
        y = lax.fft(x, typ, lengths)
        if typ == "irfft":
            return (y * w1.astype(np.float32)).sum()
        return (lax.real(y) * w1.astype(np.float32) + lax.imag(y) * w2.astype(np.float32)).sum()

    got = np.asarray(jax.grad(loss)(x))
    np.testing.assert_allclose(got, _fd_grad(loss, x), atol=2e-4)


def test_vmap_moves_the_batch_axis():
    x = _operand((8, 3), "fft")
    got = jax.vmap(lambda v: lax.fft(v, "fft", (8,)), in_axes=1)(x)
    np.testing.assert_allclose(np.asarray(got), np.fft.fft(x.T), atol=1e-5)


def test_jaxpr_text_and_types():
    text = str(jax.make_jaxpr(lambda x: lax.fft(x, lax.FftType.IRFFT, (14,)))(
        np.ones((3, 8), np.complex64)))
    assert "b:f32[3,14] = fft[fft_lengths=(14,) fft_type=3] a" in text
    assert [int(t) for t in lax.FftType] == [0, 1, 2, 3] and str(lax.FftType.RFFT) == "2"
    # a real operand of FFT is converted to complex, as in JAX
    assert lax.fft(np.ones(8, np.float32), "fft", (8,)).dtype == np.complex64


@pytest.mark.parametrize("x,typ,lengths,message", [
    (np.ones(8, np.complex64), "fft", (4,),
     "FFT input shape (8,) minor dimensions must be equal to fft_lengths (4,)"),
    (np.ones(8, np.complex64), "rfft", (8,), "only real valued inputs supported for rfft"),
    (np.ones(8, np.complex64), "fft", (2, 2, 2, 8), "FFT input shape (8,) must have at "
     "least as many input dimensions as fft_lengths (2, 2, 2, 8)."),
    (np.ones(8, np.complex64), "irfft", (8,), "IRFFT requires innermost dimension"),
])
def test_errors(x, typ, lengths, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        lax.fft(x, typ, lengths)

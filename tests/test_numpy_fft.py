"""``jnp.fft``: each of the 18 names against ``numpy.fft`` in float64 (``n``/``s``,
``axis``/``axes`` and the three norms), a round trip under jit, and JAX's errors."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp

RNG = np.random.default_rng(1)
X = RNG.standard_normal((4, 6)) + 1j * RNG.standard_normal((4, 6))
XR = RNG.standard_normal((4, 6))

CASES = [
    ("fft", X, {}), ("fft", X, dict(n=8, axis=0, norm="ortho")),
    ("ifft", X, dict(n=4, norm="forward")), ("fft2", X, {}), ("ifft2", X, dict(s=(3, 7))),
    ("fftn", X, dict(axes=(0,))), ("ifftn", X, dict(norm="ortho")), ("rfft", XR, dict(n=5)),
    ("irfft", X, {}), ("irfft", X, dict(n=7, axis=0, norm="ortho")), ("rfft2", XR, {}),
    ("irfft2", X, dict(norm="forward")), ("rfftn", XR, dict(axes=(1, 0))),
    ("irfftn", X, dict(s=(4, 5), axes=(0, 1))), ("hfft", X, {}),
    ("hfft", X, dict(norm="ortho", n=9)), ("ihfft", XR, dict(norm="forward")),
    ("ihfft", XR, {}), ("fftshift", XR, {}), ("ifftshift", XR, dict(axes=1)),
]


@pytest.mark.parametrize("name,x,kw", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_against_numpy(name, x, kw):
    arg = x.astype(np.complex64) if np.iscomplexobj(x) else x.astype(np.float32)
    got = np.asarray(getattr(jnp.fft, name)(arg, **kw))
    ref = getattr(np.fft, name)(x, **kw)
    assert got.shape == ref.shape
    assert got.dtype == (np.complex64 if np.iscomplexobj(ref) else np.float32)
    assert np.abs(got - ref).max() <= 2e-6 * np.abs(ref).max()


def test_frequencies():
    for n, d in ((5, 0.5), (8, 1.0)):
        np.testing.assert_allclose(np.asarray(jnp.fft.fftfreq(n, d)), np.fft.fftfreq(n, d),
                                   rtol=1e-6)
        np.testing.assert_allclose(np.asarray(jnp.fft.rfftfreq(n, d)),
                                   np.fft.rfftfreq(n, d), rtol=1e-6)
    assert jnp.fft.fftfreq(4).dtype == np.float32


def test_round_trip_under_jit():
    f = jax.jit(lambda x: jnp.fft.irfftn(jnp.fft.rfftn(x), s=x.shape))
    x = XR.astype(np.float32)
    np.testing.assert_allclose(np.asarray(f(x)), x, atol=1e-5)
    g = jax.jit(lambda x: jnp.fft.ifft2(jnp.fft.fft2(x, norm="ortho"), norm="ortho"))
    np.testing.assert_allclose(np.asarray(g(X.astype(np.complex64))), X, atol=1e-5)


# Batches of 2D and 3D transforms under jit (the C kernel's batched paths), each against
# numpy.fft: (operand shape, real operand, name, keyword arguments)
BATCHED = [
    ((5, 16, 24), False, "fft2", {}), ((4, 12, 10), False, "ifft2", {}),
    ((3, 8, 6), False, "fft2", dict(axes=(0, 1))), ((2, 3, 8, 8), False, "fftn", {}),
    ((2, 5, 7, 6), False, "ifftn", dict(axes=(1, 2, 3))), ((3, 9, 16), True, "rfft2", {}),
    ((3, 8, 5), False, "irfft2", {}), ((2, 4, 6, 8), True, "rfftn", {}),
]


def test_batched_transforms_under_jit():
    xs = [RNG.standard_normal(shape) + (0 if real else 1j * RNG.standard_normal(shape))
          for shape, real, _, _ in BATCHED]
    f = jax.jit(lambda *xs: [getattr(jnp.fft, name)(x, **kw)
                             for x, (_, _, name, kw) in zip(xs, BATCHED)])
    outs = f(*[x.astype(np.float32 if real else np.complex64)
               for x, (_, real, _, _) in zip(xs, BATCHED)])
    for x, (shape, _, name, kw), got in zip(xs, BATCHED, outs):
        ref = getattr(np.fft, name)(x, **kw)
        got = np.asarray(got)
        assert got.shape == ref.shape, (name, shape)
        assert np.abs(got - ref).max() <= 2e-6 * np.abs(ref).max(), (name, shape)


def test_jaxpr_is_one_named_jit():
    text = str(jax.make_jaxpr(jnp.fft.fft)(np.ones((3, 8), np.complex64)))
    assert "name=fft" in text and "fft[fft_lengths=(8,) fft_type=0]" in text


@pytest.mark.parametrize("call,message", [
    (lambda: jnp.fft.fft(np.ones(8), norm="bad"),
     'Invalid norm value bad; should be "backward","ortho" or "forward".'),
    (lambda: jnp.fft.fft(np.ones(8), n=0), "Shape should be positive."),
    (lambda: jnp.fft.fftn(np.ones(8), s=(2, 3), axes=(0,)),
     "Shape and axes have different lengths."),
    (lambda: jnp.fft.fftn(np.ones((8, 8)), axes=(0, 0)),
     "jax.numpy.fft.fftn does not support repeated axes. Got axes (0, 0)."),
    (lambda: jnp.fft.fft(np.ones(8), axis=(0,)), "jax.numpy.fft.fft does not support "
     "multiple axes. Please use jax.numpy.fft.fftn. Got axis = (0,)."),
    (lambda: jnp.fft.fft2(np.ones((2, 2, 2)), axes=(0, 1, 2)),
     "jax.numpy.fft.fft2 only supports 2 axes. Got axes = (0, 1, 2)."),
])
def test_errors(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message

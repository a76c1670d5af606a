"""``lax.fft``: values against NumPy in float64 (eager and under jit, where the C kernel
of ``runtime/tp_fft.h`` runs; each of the kernel's paths, float32 and float64, and the
same bits at one and two threads), round trips, gradients against finite differences (exact
with a unit step, the transform being linear), vmap, and JAX's errors."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import transpile as jax
from transpile import lax
from transpile.config import enable_x64

REPO = str(Path(__file__).resolve().parents[1])

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


# The C kernel's paths (runtime/tp_fft.h), each against NumPy in float64 under jit:
# (operand shape, fft_type, fft_lengths, the path it takes)
KERNEL_CASES = [
    ((9, 2), "fft", (2,), "radix 2, a block of 8 lines and one of 1"),
    ((16, 3), "ifft", (3,), "radix 3, lines shorter than a tile"),
    ((8, 16), "fft", (16,), "radix 4, 8 x 8 register transposes"),
    ((5, 25), "fft", (25,), "radix 5"),
    ((3, 8), "fft", (8,), "radix 8"),
    ((10, 512), "ifft", (512,), "radices 8, 8, 8"),
    ((4, 96), "fft", (96,), "radices 8, 4, 3"),
    ((11, 240), "ifft", (240,), "radices 4, 4, 3, 5"),
    ((3, 24, 8), "fft", (24, 8), "batched 2D, 8 adjacent columns"),
    ((2, 12, 5), "ifft", (12, 5), "batched 2D, 5 adjacent columns"),
    ((3, 16, 16), "ifft", (16, 16), "fused 2D, radix 4 both axes, inverse"),
    ((2, 9, 25), "fft", (9, 25), "fused 2D, radix 3 columns, radix 5 rows, partial tiles"),
    ((2, 17, 11), "ifft", (17, 11), "fused 2D, Bluestein both axes"),
    ((3, 10, 64), "fft", (10, 64), "fused 2D, radix 2/5 columns, radix 8 rows"),
    ((2, 40, 30), "fft", (40, 30), "fused 2D, 8 x 8 tiles and a 6-column block"),
    ((2, 2, 4096), "fft", (2, 4096), "batched 2D, four-step rows: axis by axis"),
    ((12, 40), "fft", (12, 40), "one 2D array, axis by axis"),
    ((2, 4, 6, 8), "fft", (4, 6, 8), "batched 3D"),
    ((1, 4096), "fft", (4096,), "four-step 64 x 64"),
    ((2, 5000), "ifft", (5000,), "four-step 50 x 100, partial blocks"),
    ((9, 1031), "fft", (1031,), "Bluestein, 5-smooth convolution"),
    ((2, 13, 7), "fft", (13, 7), "Bluestein along a strided axis"),
    ((1, 4099), "ifft", (4099,), "Bluestein, a long line"),
    ((9, 16), "rfft", (16,), "even real: complex half and post-pass"),
    ((9, 15), "rfft", (15,), "odd real: full complex transform"),
    ((2, 8192), "rfft", (8192,), "even real, four-step half"),
    ((9, 9), "irfft", (16,), "even inverse real: pre-pass and complex half"),
    ((9, 8), "irfft", (15,), "odd inverse real: Hermitian extension"),
    ((2, 4097), "irfft", (8192,), "even inverse real, four-step half"),
    ((2, 6, 16), "rfft", (6, 16), "real 2D"),
    ((2, 6, 9), "irfft", (6, 16), "inverse real 2D"),
]


def _all_under_one_jit(cases):
    """Operands, NumPy references and the results of one jitted program holding every
    case (one module to compile instead of one a case)."""
    xs = [_operand(shape, typ) for shape, typ, *_ in cases]
    if xs and cases[0][-1] == "float64":
        xs = [x.astype(np.float64 if np.isrealobj(x) else np.complex128) for x in xs]
    refs = [_reference(x, c[1], c[2]) for x, c in zip(xs, cases)]
    f = jax.jit(lambda *xs: [lax.fft(x, c[1], c[2]) for x, c in zip(xs, cases)])
    return refs, [np.asarray(g) for g in f(*xs)]


@pytest.fixture(scope="module")
def kernel_results():
    return _all_under_one_jit(KERNEL_CASES)


@pytest.mark.parametrize("i", range(len(KERNEL_CASES)), ids=[c[3] for c in KERNEL_CASES])
def test_kernel_paths_against_numpy(kernel_results, i):
    ref, got = kernel_results[0][i], kernel_results[1][i]
    assert got.shape == ref.shape and got.dtype in (np.float32, np.complex64)
    assert np.abs(got - ref).max() <= 1e-6 * np.abs(ref).max()


F64_CASES = [((8, 240), "fft", (240,), "float64"), ((2, 4096), "ifft", (4096,), "float64"),
             ((9, 16), "rfft", (16,), "float64"), ((3, 9), "irfft", (16,), "float64"),
             ((3, 1031), "fft", (1031,), "float64"), ((2, 8, 16), "fft", (8, 16), "float64"),
             ((3, 9, 24), "ifft", (9, 24), "float64")]


def test_kernel_float64():
    with enable_x64(True):
        refs, gots = _all_under_one_jit(F64_CASES)
    for (shape, typ, lengths, _), ref, got in zip(F64_CASES, refs, gots):
        assert got.dtype == (np.float64 if typ == "irfft" else np.complex128)
        assert np.abs(got - ref).max() <= 1e-13 * np.abs(ref).max(), (shape, typ)


_WIDTH_PROGRAM = """
import numpy as np, transpile as jax
from transpile import lax
r = np.random.default_rng(3)
c = lambda *s: (r.standard_normal(s) + 1j * r.standard_normal(s)).astype(np.complex64)
cases = [(c(16, 32, 32), "fft", (32, 32)), (c(2, 4096), "ifft", (4096,)),
         (r.standard_normal((2, 8192)).astype(np.float32), "rfft", (8192,)),
         (c(64, 33), "irfft", (64,)), (c(40, 1031), "fft", (1031,)),
         (c(64, 256, 9), "fft", (256, 9)), (c(9, 17, 24), "ifft", (17, 24))]
outs = jax.jit(lambda *xs: [lax.fft(x, t, n) for x, (_, t, n) in zip(xs, cases)])(
    *[x for x, _, _ in cases])
print("".join(np.asarray(o).tobytes().hex() for o in outs))
"""


def test_kernel_bits_do_not_depend_on_the_thread_count():
    outs = []
    for width in ("1", "2"):
        env = dict(os.environ, TRANSPILE_PAR_WIDTH=width, OMP_NUM_THREADS="2",
                   PYTHONPATH=REPO)
        res = subprocess.run([sys.executable, "-c", _WIDTH_PROGRAM], env=env,
                             capture_output=True, text=True, timeout=600)
        assert res.returncode == 0, res.stderr
        outs.append(res.stdout)
    assert len(outs[0]) > 100000 and outs[0] == outs[1]

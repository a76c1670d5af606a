"""threefry2x32 and threefry_2x32: the known-answer vectors of JAX_BEHAVIOUR.md 8.2
(eager and compiled), random operands against an independent scalar reference written
here with Python integers, JAX's broadcasting of operands, jaxpr text and error
messages recorded from JAX 0.10.2, and the compiled kernel's vectorisation."""
import re
import shutil
import subprocess

import numpy as np
import pytest

import transpile
from transpile.jit import make_jaxpr
from transpile.lax import prng
from transpile.lax.prng import threefry2x32_p, threefry_2x32
from transpile.resources import runtime_dir

U32 = np.uint32
MASK = 0xFFFFFFFF

#: (key, counter) -> result, from JAX_BEHAVIOUR.md 8.2 (Random123's vectors).
KAT = [((0x13198a2e, 0x03707344), (0x243f6a88, 0x85a308d3), (0xc4923a9c, 0x483df7a0)),
       ((0, 0), (0, 0), (0x6b200159, 0x99ba4efe)),
       ((MASK, MASK), (MASK, MASK), (0x1cb996fc, 0xbb002be7))]
KAT_KEY = np.array(KAT[0][0], U32)


def reference(k0: int, k1: int, x0: int, x1: int) -> tuple:
    """Threefry-2x32, 20 rounds, one element at a time on Python ints mod 2**32."""
    def rotl(v, r):
        return ((v << r) | (v >> (32 - r))) & MASK
    ks = [k0, k1, k0 ^ k1 ^ 0x1BD11BDA]
    rot = [[13, 15, 26, 6], [17, 29, 16, 24]]
    x0, x1 = (x0 + ks[0]) & MASK, (x1 + ks[1]) & MASK
    for i in range(5):
        for r in rot[i % 2]:
            x0 = (x0 + x1) & MASK
            x1 = rotl(x1, r) ^ x0
        x0 = (x0 + ks[(i + 1) % 3]) & MASK
        x1 = (x1 + ks[(i + 2) % 3] + i + 1) & MASK
    return x0, x1


def reference_arrays(*operands) -> tuple:
    shape = np.broadcast_shapes(*(np.shape(a) for a in operands))
    flat = [np.broadcast_to(a, shape).ravel().tolist() for a in operands]
    pairs = [reference(*e) for e in zip(*flat, strict=True)]
    return tuple(np.array([p[j] for p in pairs], U32).reshape(shape) for j in (0, 1))


def rand_u32(shape, seed):
    return np.random.default_rng(seed).integers(0, 1 << 32, shape, dtype=U32)


def bind(*operands):
    return threefry2x32_p.bind(*operands)


compiled_bind = transpile.jit(bind)


def assert_u32_equal(got, want):
    got = np.asarray(got)
    assert got.dtype == U32 and got.shape == np.shape(want)
    np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------------------------------
# Known answers

def test_reference_matches_known_answers():
    for key, ctr, want in KAT:
        assert reference(*key, *ctr) == want


@pytest.mark.parametrize("key, ctr, want", KAT, ids=["random123", "zeros", "ones"])
def test_known_answers_eager(key, ctr, want):
    y0, y1 = bind(*(U32(v) for v in key + ctr))
    assert (int(y0), int(y1)) == want
    assert np.asarray(y0).shape == () and np.asarray(y0).dtype == U32


def test_known_answers_compiled():
    """The three vectors as one batch of counters with per-element keys: the kernel's
    array reads; and each alone with scalar keys: its hoisted scalar reads."""
    k0, k1, x0, x1, y0, y1 = (np.array(c, U32) for c in zip(*[
        k + c + w for k, c, w in KAT], strict=True))
    got = compiled_bind(k0, k1, x0, x1)
    assert_u32_equal(got[0], y0)
    assert_u32_equal(got[1], y1)
    for key, ctr, want in KAT:
        got = compiled_bind(*(U32(v) for v in key + ctr))
        assert (int(got[0]), int(got[1])) == want


# ---------------------------------------------------------------------------------------
# Random operands, shapes and broadcasting

SHAPES = [  # (k0, k1, x0, x1) shapes; all but the last two are scalar keys or full keys
    ((), (), (), ()),
    ((), (), (17,), (17,)),
    ((), (), (3, 5), (3, 5)),
    ((4, 6), (4, 6), (4, 6), (4, 6)),
    ((), (), (0,), (0,)),
    ((), (), (2, 0, 3), (2, 0, 3)),
    ((1,), (), (7,), ()),          # JAX broadcasts size-1 dimensions and rank 0
    ((3, 1), (1, 4), (1, 1), (3, 4)),
]


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_random_operands_match_reference(shapes):
    ops = [rand_u32(s, seed) for seed, s in enumerate(shapes)]
    want = reference_arrays(*ops)
    eager = bind(*ops)
    got = compiled_bind(*ops)
    for e, g, w in zip(eager, got, want, strict=True):
        assert_u32_equal(e, w)
        assert_u32_equal(g, w)


def test_large_parallel_kernel_matches_eager():
    """Above plan.PARALLEL_MIN_ELEMENTS the kernel runs an OpenMP loop; the scalar
    reference is too slow here, so the (reference-checked) NumPy rule is the oracle."""
    x0, x1 = rand_u32((300, 300), 1), rand_u32((300, 300), 2)
    key = rand_u32((2,), 3)
    f = transpile.jit(lambda k, a, b: bind(k[0], k[1], a, b))
    want = bind(key[0], key[1], x0, x1)
    for g, w in zip(f(key, x0, x1), want, strict=True):
        assert_u32_equal(g, np.asarray(w))
    # spot-check the NumPy rule itself on a few elements
    for i, j in [(0, 0), (150, 7), (299, 299)]:
        assert reference(int(key[0]), int(key[1]), int(x0[i, j]), int(x1[i, j])) == (
            int(np.asarray(want[0])[i, j]), int(np.asarray(want[1])[i, j]))


def test_literal_keys_compile():
    x = rand_u32((9,), 5)
    f = transpile.jit(lambda a: bind(U32(0x13198a2e), U32(7), a, a))
    want = reference_arrays(U32(0x13198a2e), U32(7), x, x)
    for g, w in zip(f(x), want, strict=True):
        assert_u32_equal(g, w)


def test_impl_is_quiet_about_wraparound():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bind(U32(MASK), U32(MASK), U32(MASK), U32(MASK))


# ---------------------------------------------------------------------------------------
# threefry_2x32

def test_threefry_2x32_recorded_odd_example():
    out = threefry_2x32(KAT_KEY, np.array([0x243f6a88, 0x85a308d3, 0], U32))
    assert [hex(int(v)) for v in np.asarray(out)] == ['0xb0ce278a', '0xdede2d06',
                                                      '0xf2a05120']


def test_threefry_2x32_even_pair_is_the_known_answer():
    out = threefry_2x32(KAT_KEY, np.array([0x243f6a88, 0x85a308d3], U32))
    assert [int(v) for v in np.asarray(out)] == list(KAT[0][2])


def _helper_reference(key, count):
    flat = [int(v) for v in np.ravel(count)]
    n = len(flat)
    padded = flat + [0] * (n % 2)
    half = len(padded) // 2
    pairs = [reference(int(key[0]), int(key[1]), a, b)
             for a, b in zip(padded[:half], padded[half:], strict=True)]
    out = [p[0] for p in pairs] + [p[1] for p in pairs]
    return np.array(out[:n], U32).reshape(np.shape(count))


@pytest.mark.parametrize("shape", [(0,), (1,), (2,), (5,), (8,), (3, 3), (2, 3, 2)],
                         ids=str)
def test_threefry_2x32_against_reference(shape):
    key, count = rand_u32((2,), 11), rand_u32(shape, 12)
    want = _helper_reference(key, count)
    assert_u32_equal(threefry_2x32(key, count), want)


def test_threefry_2x32_compiled():
    key, count = rand_u32((2,), 13), rand_u32((3, 5), 14)
    assert_u32_equal(transpile.jit(threefry_2x32)(key, count), _helper_reference(key, count))


def test_threefry_2x32_jaxpr_text():
    """Recorded from JAX 0.10.2: make_jaxpr(threefry_2x32)(u32[2], u32[5])."""
    want = ("{ lambda a:u32[1]; b:u32[2] c:u32[5]. let\n"
            "    d:u32[1] = slice[limit_indices=(1,) start_indices=(0,) strides=(1,)] b\n"
            "    e:u32[] = squeeze[dimensions=(0,)] d\n"
            "    f:u32[1] = slice[limit_indices=(2,) start_indices=(1,) strides=(1,)] b\n"
            "    g:u32[] = squeeze[dimensions=(0,)] f\n"
            "    h:u32[6] = concatenate[dimension=0] c a\n"
            "    i:u32[3] j:u32[3] = split[axis=0 sizes=(np.int64(3), np.int64(3))] h\n"
            "    k:u32[3] l:u32[3] = threefry2x32 e g i j\n"
            "    m:u32[6] = concatenate[dimension=0] k l\n"
            "    n:u32[5] = slice[limit_indices=(5,) start_indices=(0,) strides=None] m\n"
            "  in (n,) }")
    got = make_jaxpr(threefry_2x32)(KAT_KEY, np.arange(5, dtype=U32))
    assert str(got) == want


@pytest.mark.parametrize("key, count, msg", [
    (np.array([1, 2], np.int32), np.arange(4, dtype=U32),
     "threefry_2x32 requires uint32 arguments, got [dtype('int32'), dtype('int32'), "
     "dtype('uint32')]"),
    (KAT_KEY, np.arange(4, dtype=np.float32),
     "threefry_2x32 requires uint32 arguments, got [dtype('uint32'), dtype('uint32'), "
     "dtype('float32')]"),
], ids=["int32 key", "float32 count"])
def test_threefry_2x32_dtype_errors(key, count, msg):
    with pytest.raises(TypeError, match=re.escape(msg)):
        threefry_2x32(key, count)


def test_threefry_2x32_key_of_three_words():
    with pytest.raises(ValueError, match=re.escape("too many values to unpack (expected 2)")):
        threefry_2x32(np.arange(3, dtype=U32), np.arange(4, dtype=U32))


# ---------------------------------------------------------------------------------------
# Jaxpr text and errors recorded from JAX 0.10.2

def test_bind_jaxpr_text():
    """make_jaxpr(lambda k, x: threefry2x32_p.bind(k[0], k[1], x[0], x[1]))(u32[2],
    u32[2,3]) in JAX 0.10.2."""
    want = ("{ lambda ; a:u32[2] b:u32[2,3]. let\n"
            "    c:u32[1] = slice[limit_indices=(1,) start_indices=(0,) strides=None] a\n"
            "    d:u32[] = squeeze[dimensions=(0,)] c\n"
            "    e:u32[1] = slice[limit_indices=(2,) start_indices=(1,) strides=None] a\n"
            "    f:u32[] = squeeze[dimensions=(0,)] e\n"
            "    g:u32[1,3] = slice[limit_indices=(1, 3) start_indices=(0, 0) strides=None] b\n"
            "    h:u32[3] = squeeze[dimensions=(0,)] g\n"
            "    i:u32[1,3] = slice[limit_indices=(2, 3) start_indices=(1, 0) strides=None] b\n"
            "    j:u32[3] = squeeze[dimensions=(0,)] i\n"
            "    k:u32[3] l:u32[3] = threefry2x32 d f h j\n"
            "  in (k, l) }")
    got = make_jaxpr(lambda k, x: threefry2x32_p.bind(k[0], k[1], x[0], x[1]))(
        np.array([1, 2], U32), np.zeros((2, 3), U32))
    assert str(got) == want


@pytest.mark.parametrize("shapes, want", [
    (((), (), (3,), (3,)),
     "{ lambda ; a:u32[] b:u32[] c:u32[3] d:u32[3]. let\n"
     "    e:u32[3] f:u32[3] = threefry2x32 a b c d\n  in (e, f) }"),
    (((), (), (0,), (0,)),
     "{ lambda ; a:u32[] b:u32[] c:u32[0] d:u32[0]. let\n"
     "    e:u32[0] f:u32[0] = threefry2x32 a b c d\n  in (e, f) }"),
    (((), (), (2, 1), (2, 3)),
     "{ lambda ; a:u32[] b:u32[] c:u32[2,1] d:u32[2,3]. let\n"
     "    e:u32[2,3] f:u32[2,3] = threefry2x32 a b c d\n  in (e, f) }"),
    (((5,), (), (), ()),
     "{ lambda ; a:u32[5] b:u32[] c:u32[] d:u32[]. let\n"
     "    e:u32[5] f:u32[5] = threefry2x32 a b c d\n  in (e, f) }"),
], ids=str)
def test_broadcast_jaxpr_text(shapes, want):
    got = make_jaxpr(bind)(*(np.zeros(s, U32) for s in shapes))
    assert str(got) == want


@pytest.mark.parametrize("operands, msg", [
    ((U32(1), U32(2), np.zeros(3, np.int32), np.zeros(3, np.int32)),
     "Arguments to threefry2x32 must have uint32 type, got (ShapedArray(uint32[]), "
     "ShapedArray(uint32[]), ShapedArray(int32[3]), ShapedArray(int32[3]))"),
    ((np.int32(1), U32(2), np.zeros(3, U32), np.zeros(3, U32)),
     "Arguments to threefry2x32 must have uint32 type, got (ShapedArray(int32[]), "
     "ShapedArray(uint32[]), ShapedArray(uint32[3]), ShapedArray(uint32[3]))"),
    ((U32(1), U32(2), np.float32(0), U32(0)),
     "Arguments to threefry2x32 must have uint32 type, got (ShapedArray(uint32[]), "
     "ShapedArray(uint32[]), ShapedArray(float32[]), ShapedArray(uint32[]))"),
    ((U32(1), U32(2), np.zeros(3, U32), np.zeros(4, U32)),
     "threefry2x32 got incompatible shapes for broadcasting: (3,), (4,)."),
    ((np.zeros(2, U32), np.zeros(2, U32), np.zeros(3, U32), np.zeros(3, U32)),
     "threefry2x32 got incompatible shapes for broadcasting: (2,), (2,), (3,), (3,)."),
    ((np.zeros(3, U32), U32(2), np.zeros((2, 3), U32), np.zeros((2, 3), U32)),
     "threefry2x32: arrays must have the same number of dimensions, got {1, 2}"),
], ids=["int32 counters", "int32 key", "float32 counter", "shapes", "key shapes", "ranks"])
@pytest.mark.parametrize("mode", ["eager", "traced"])
def test_errors(operands, msg, mode):
    with pytest.raises(TypeError, match=re.escape(msg) + "$"):
        if mode == "eager":
            bind(*operands)
        else:
            make_jaxpr(bind)(*operands)


def test_module_constants():
    assert prng.THREEFRY_ROTATIONS == ((13, 15, 26, 6), (17, 29, 16, 24))
    assert prng.THREEFRY_PARITY == 0x1BD11BDA


# ---------------------------------------------------------------------------------------
# The C kernel

def test_header_included_only_when_used():
    x = np.zeros(4, U32)
    with_tf = transpile.jit(lambda a: bind(U32(1), U32(2), a, a)).lower(x).as_text()
    without = transpile.jit(lambda a: a + a).lower(x).as_text()
    assert '#include "tp_threefry.h"' in with_tf
    assert "tp_threefry" not in without


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_kernel_loop_vectorises(tmp_path):
    """gcc reports the threefry loop (the line calling tp_threefry2x32) as vectorised."""
    x = np.zeros(1 << 17, U32)
    src = transpile.jit(lambda k, a, b: bind(k[0], k[1], a, b)).lower(
        np.zeros(2, U32), x, x).as_text()
    path = tmp_path / "tf.c"
    path.write_text(src)
    call = next(i for i, t in enumerate(src.splitlines(), 1) if "tp_threefry2x32(" in t)
    proc = subprocess.run(
        ["gcc", "-std=c99", "-O3", "-march=native", "-fno-math-errno", "-fno-trapping-math",
         "-fopenmp", "-fPIC", "-shared", f"-I{runtime_dir()}", "-fopt-info-vec-optimized",
         "-o", str(tmp_path / "out.so"), str(path)], capture_output=True, text=True,
        check=True)  # never -o /dev/null: as root, a failed link replaces the device
    # gcc names the loop by its `for` line or, once the call is inlined, the call's line
    loops = [ln for ln in proc.stderr.splitlines() if "loop vectorized" in ln]
    assert any(f"tf.c:{call - 1}:" in ln or f"tf.c:{call}:" in ln for ln in loops), \
        proc.stderr

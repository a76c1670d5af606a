"""runtime/tp_matmul.h: tp_gemm_f32 / tp_gemm_f64 against a float64 NumPy reference.

The header is compiled twice into small test libraries, loaded with cffi in ABI mode:
'native' with the flags of generated code (AVX2/FMA kernels, OpenMP), and 'portable'
without -march=native or -fopenmp (the plain C kernels, pragmas compiled out).
"""
import itertools
import pathlib
import subprocess

import numpy as np
import pytest

cffi = pytest.importorskip("cffi")

RUNTIME = pathlib.Path(__file__).resolve().parent.parent / "runtime"

NATIVE_FLAGS = ["-std=c99", "-O3", "-march=native", "-fno-math-errno", "-fopenmp",
                "-fPIC", "-shared"]
PORTABLE_FLAGS = ["-std=c99", "-O2", "-fno-math-errno", "-fPIC", "-shared"]
STRICT = ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-O3", "-c"]

C_SOURCE = r"""
#include "tp_matmul.h"
#ifdef _OPENMP
#include <omp.h>
#endif

int tpt_set_threads(int n)
{
#ifdef _OPENMP
    omp_set_num_threads(n);
    tp_par_set_width(n);  /* not the adaptive width: the tests compare thread counts */
    return 1;
#else
    (void)n;
    return 0;
#endif
}

int tpt_max_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* internal helper of the header: the thread count a product of this size gets, so that the
 * determinism test can check that it really runs the parallel path */
int tpt_threads_for(int64_t m, int64_t n, int64_t k) { return tp_gemm_threads_(m, n, k); }

int tpt_avx2(void)
{
#ifdef TP_GEMM_AVX2
    return 1;
#else
    return 0;
#endif
}

/* a batch of products from inside a parallel region, as a generated kernel looping over a
 * batch dimension would call it: each call must then run on its calling thread alone */
void tpt_gemm_batch_f32(int64_t nb, int64_t m, int64_t n, int64_t k, const float *a,
                        const float *b, float *c, char *ws, int64_t ws_stride)
{
    int64_t i;
#ifdef _OPENMP
#pragma omp parallel for num_threads(2) schedule(static, 1)
#endif
    for (i = 0; i < nb; i++)
        tp_gemm_f32(m, n, k, a + i * m * k, k, 1, b + i * k * n, n, 1, c + i * m * n, n,
                    ws + i * ws_stride);
}

/* constant shapes and strides, as generated code passes them: the dispatch folds at
 * compile time (a different compilation of the same paths) */
#define CONST_CASES(X) X(3, 5, 2) X(64, 48, 80) X(1, 100, 300) X(100, 1, 300) X(13, 40, 600)
#define CONST_CALL(m, n, k)                                                                 \
    tp_gemm_f32(m, n, k, a, k, 1, b, n, 1, c, n, ws);                                       \
    a += m * k; b += k * n; c += m * n;
void tpt_gemm_const_f32(const float *a, const float *b, float *c, void *ws)
{
    CONST_CASES(CONST_CALL)
}

#define WRAP(T, SFX)                                                                        \
void tpt_gemm_##SFX(int64_t m, int64_t n, int64_t k, const T *a, int64_t rsa, int64_t csa,  \
                    const T *b, int64_t rsb, int64_t csb, T *c, int64_t rsc, void *ws)      \
{ tp_gemm_##SFX(m, n, k, a, rsa, csa, b, rsb, csb, c, rsc, ws); }                           \
int64_t tpt_ws_##SFX(int64_t m, int64_t n, int64_t k)                                       \
{ return tp_gemm_workspace_bytes_##SFX(m, n, k); }
WRAP(float, f32)
WRAP(double, f64)
"""

CDEF = """
int tpt_set_threads(int n);
int tpt_max_threads(void);
int tpt_threads_for(int64_t m, int64_t n, int64_t k);
int tpt_avx2(void);
void tpt_gemm_f32(int64_t m, int64_t n, int64_t k, const float *a, int64_t rsa, int64_t csa,
                  const float *b, int64_t rsb, int64_t csb, float *c, int64_t rsc, void *ws);
void tpt_gemm_f64(int64_t m, int64_t n, int64_t k, const double *a, int64_t rsa, int64_t csa,
                  const double *b, int64_t rsb, int64_t csb, double *c, int64_t rsc,
                  void *ws);
int64_t tpt_ws_f32(int64_t m, int64_t n, int64_t k);
int64_t tpt_ws_f64(int64_t m, int64_t n, int64_t k);
void tpt_gemm_batch_f32(int64_t nb, int64_t m, int64_t n, int64_t k, const float *a,
                        const float *b, float *c, char *ws, int64_t ws_stride);
void tpt_gemm_const_f32(const float *a, const float *b, float *c, void *ws);
"""

STRICT_SOURCE = '#include "tp_matmul.h"\n' + C_SOURCE.split('#include "tp_matmul.h"', 1)[1]


class Lib:
    def __init__(self, path):
        self.ffi = cffi.FFI()
        self.ffi.cdef(CDEF)
        self.lib = self.ffi.dlopen(str(path))


def gcc(*args):
    return subprocess.Popen(["gcc", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """Both test libraries, compiled concurrently. The strict-warning compiles start here
    too, so they run alongside the tests; test_header_compiles_warning_free collects them."""
    tmp = tmp_path_factory.mktemp("tp_matmul")
    src = tmp / "tpt_gemm.c"
    src.write_text(C_SOURCE)
    jobs = {}
    for name, flags in (("native", NATIVE_FLAGS), ("portable", PORTABLE_FLAGS)):
        out = tmp / f"tpt_gemm_{name}.so"
        jobs[name] = (out, gcc(*flags, "-I", str(RUNTIME), str(src), "-o", str(out)))
    libs = {}
    for name, (out, proc) in jobs.items():
        log, _ = proc.communicate()
        assert proc.returncode == 0, log
        libs[name] = Lib(out)
    strict_src = tmp / "strict.c"
    strict_src.write_text(STRICT_SOURCE)
    libs["strict"] = [(extra, gcc(*STRICT, *extra, "-I", str(RUNTIME), str(strict_src),
                                  "-o", str(tmp / f"strict{i}.o")))
                      for i, extra in enumerate(([], ["-march=native"], ["-fopenmp"],
                                                 ["-march=native", "-fopenmp"]))]
    return libs


@pytest.fixture(params=["native", "portable"])
def lib(request, built):
    return built[request.param]


# ---------------------------------------------------------------------------------------
# Operands: views on flat buffers, so any stride (transposed, gapped, negative) can be
# passed to C as (pointer to the first element, row stride, column stride).

def aligned_workspace(nbytes, guard=64, misalign=0):
    """nbytes at a 64-byte boundary (plus `misalign` bytes), followed by `guard` sentinel
    bytes."""
    raw = np.empty(nbytes + guard + 128, np.uint8)
    off = (-raw.ctypes.data) % 64 + misalign
    buf = raw[off:off + nbytes + guard]
    buf[:] = 0xA5
    return buf


class Operand:
    """`values` copied into a flat buffer with the strides that `layout` names; C gets
    (pointer to the first element, row stride, column stride) in elements."""

    def __init__(self, values, layout):
        rows, cols = values.shape
        dt = values.dtype
        if layout == "n":            # row-major
            self.base, self.off, self.rs, self.cs = np.empty(rows * cols, dt), 0, cols, 1
        elif layout == "t":          # column-major: the transpose is contiguous
            self.base, self.off, self.rs, self.cs = np.empty(rows * cols, dt), 0, 1, rows
        elif layout == "g":          # gaps between rows and between columns
            self.base = np.full(rows * (2 * cols + 3) + 1, 777, dt)
            self.off, self.rs, self.cs = 1, 2 * cols + 3, 2
        elif layout == "r":          # rows reversed: negative row stride
            self.base = np.empty(rows * cols, dt)
            self.off, self.rs, self.cs = max(rows - 1, 0) * cols, -cols, 1
        else:
            raise ValueError(layout)
        if rows and cols:
            it = dt.itemsize
            view = np.lib.stride_tricks.as_strided(
                self.base[self.off:], shape=(rows, cols), strides=(self.rs * it, self.cs * it))
            view[...] = values
            assert np.array_equal(view, values, equal_nan=True)

    def ptr(self, ffi):
        ctype = "float[]" if self.base.dtype == np.float32 else "double[]"
        if self.base.size == 0:
            return ffi.NULL
        return ffi.from_buffer(ctype, self.base) + self.off


def gemm(lib, a, b, la="n", lb="n", c_pad=0, threads=None, misalign=0):
    """C = a @ b through the C kernel, operands laid out as asked; checks that the padding
    of C and the bytes after the workspace are left alone."""
    m, k = a.shape
    n = b.shape[1]
    dt = a.dtype
    sfx = "f32" if dt == np.float32 else "f64"
    ffi, L = lib.ffi, lib.lib
    A, B = Operand(a, la), Operand(b, lb)
    rsc = n + c_pad
    cbuf = np.full(max(m * rsc, 1), -123.0, dt)
    nbytes = getattr(L, "tpt_ws_" + sfx)(m, n, k)
    assert nbytes >= 0
    ws = aligned_workspace(nbytes, misalign=misalign)
    wsp = ffi.from_buffer("char[]", ws) if nbytes else ffi.NULL
    if threads is not None:
        L.tpt_set_threads(threads)
    ctype = "float[]" if dt == np.float32 else "double[]"
    getattr(L, "tpt_gemm_" + sfx)(m, n, k, A.ptr(ffi), A.rs, A.cs, B.ptr(ffi), B.rs, B.cs,
                                  ffi.from_buffer(ctype, cbuf), rsc, wsp)
    assert (ws[nbytes:] == 0xA5).all(), "wrote past the advertised workspace"
    c2 = cbuf[:m * rsc].reshape(m, rsc) if m else np.zeros((0, rsc), dt)
    assert (c2[:, n:] == -123.0).all(), "wrote into the row padding of C"
    return c2[:, :n].copy()


def reference_check(c, a, b):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ref = a64 @ b64
    k = a.shape[1]
    eps = np.finfo(a.dtype).eps
    # the classic bound |fl(a.b) - a.b| <= k eps |a|.|b|, with a little slack
    tol = (k + 2) * eps * (np.abs(a64) @ np.abs(b64)) + np.finfo(a.dtype).tiny
    assert c.shape == ref.shape
    bad = np.abs(c - ref) > tol
    assert not bad.any(), f"max err {np.max(np.abs(c - ref))} at {np.argwhere(bad)[:3]}"


def rand(rng, shape, dt):
    return rng.standard_normal(shape).astype(dt)


DTYPES = [np.float32, np.float64]

SHAPES = [
    (0, 5, 3), (5, 0, 3), (0, 0, 0), (5, 3, 0), (4, 20, 0),
    (1, 1, 1), (3, 5, 2), (9, 9, 9), (1, 17, 1), (17, 1, 17), (2, 3, 16), (16, 16, 16),
    (6, 16, 64), (6, 8, 64), (12, 32, 100), (7, 17, 33), (13, 15, 17), (33, 65, 47),
    (127, 129, 131),
    (2, 64, 200), (64, 3, 200), (5, 100, 300), (4, 40, 500), (150, 40, 600), (145, 33, 257),
    (80, 90, 1000), (2100, 20, 40),
    # matrix-vector shapes, with tails in both the vector and the unrolled dimension
    (1, 300, 200), (300, 1, 200), (1, 37, 203), (203, 1, 37), (1, 1, 5000), (1, 4100, 3),
    (7, 1, 1000),
    # row-vector products through the register strips of y: a partial strip and scalar
    # tail columns, more rows than one chunk of B (accumulators stored and reloaded),
    # no whole vector of columns at all
    (1, 70, 600), (1, 64, 257), (1, 7, 300), (1, 136, 513),
]


@pytest.mark.parametrize("dt", DTYPES, ids=["f32", "f64"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_matches_reference(lib, dt, shape):
    m, n, k = shape
    rng = np.random.default_rng(m * 10007 + n * 101 + k)
    a, b = rand(rng, (m, k), dt), rand(rng, (k, n), dt)
    for layout in ("nn", "tn", "nt", "tt"):   # A and/or B transposed in memory
        c = gemm(lib, a, b, layout[0], layout[1])
        reference_check(c, a, b)
        if k == 0:
            assert (c == 0).all()


@pytest.mark.parametrize("dt", DTYPES, ids=["f32", "f64"])
@pytest.mark.parametrize("shape", [(3, 5, 2), (9, 9, 9), (33, 65, 47), (127, 129, 131),
                                   (300, 1, 200), (1, 300, 200)],
                         ids=lambda s: "x".join(map(str, s)))
def test_odd_strides_and_padded_c(lib, dt, shape):
    m, n, k = shape
    rng = np.random.default_rng(7)
    a, b = rand(rng, (m, k), dt), rand(rng, (k, n), dt)
    # g: gaps between rows and columns, r: negative row stride, t: column-major; and a
    # workspace off the 64-byte boundary (allowed, if slower)
    for layout, misalign in (("gg", 0), ("rn", 4), ("gr", 0), ("tg", 8)):
        c = gemm(lib, a, b, layout[0], layout[1], c_pad=5, misalign=misalign)
        reference_check(c, a, b)


@pytest.mark.parametrize("dt", DTYPES, ids=["f32", "f64"])
def test_all_small_shapes(lib, dt):
    sizes = (1, 2, 3, 5, 6, 7, 8, 9, 15, 16, 17)
    rng = np.random.default_rng(1)
    a_all, b_all = rand(rng, (17, 17), dt), rand(rng, (17, 17), dt)
    for (m, n, k), layout in itertools.product(itertools.product(sizes, repeat=3),
                                               ["nn", "tt"]):
        a, b = a_all[:m, :k], b_all[:k, :n]
        reference_check(gemm(lib, a, b, layout[0], layout[1], c_pad=1), a, b)


def test_workspace_sizes(lib):
    L = lib.lib
    for sfx in ("f32", "f64"):
        ws = getattr(L, "tpt_ws_" + sfx)
        assert ws(1, 1, 1) == 0 and ws(3, 5, 2) == 0 and ws(9, 9, 9) == 0
        assert ws(0, 100, 100) == 0 and ws(100, 100, 0) == 0
        assert ws(1, 1000, 1000) == 0 and ws(1000, 1, 1000) == 0  # matrix-vector
        assert ws(256, 256, 256) > 0
        # bounded by the cache blocks, not by the problem
        assert ws(4096, 4096, 4096) == ws(8192, 4096, 4096) < 64 << 20


@pytest.mark.parametrize("dt", DTYPES, ids=["f32", "f64"])
@pytest.mark.parametrize("shape", [(300, 200, 600), (40, 4200, 70), (1000, 24, 300),
                                   (37, 531, 1029), (2100, 20, 40),
                                   (1, 4100, 301), (4100, 1, 301),    # matrix-vector
                                   (1, 2500, 700)],
                         ids=lambda s: "x".join(map(str, s)))
def test_bitwise_identical_across_threads(built, dt, shape):
    lib = built["native"]
    m, n, k = shape
    saved = lib.lib.tpt_max_threads()
    rng = np.random.default_rng(3)
    a, b = rand(rng, (m, k), dt), rand(rng, (k, n), dt)
    try:
        assert lib.lib.tpt_set_threads(2) == 1
        assert lib.lib.tpt_threads_for(m, n, k) == 2, "too small to take the parallel path"
        for la, lb in ("nt", "tn"):
            results = [gemm(lib, a, b, la, lb, threads=t) for t in (1, 2, 3, 2)]
            reference_check(results[0], a, b)
            for r in results[1:]:
                assert np.array_equal(r.view(np.uint8), results[0].view(np.uint8))
    finally:
        lib.lib.tpt_set_threads(saved)


CONST_CASES = [(3, 5, 2), (64, 48, 80), (1, 100, 300), (100, 1, 300), (13, 40, 600)]


def test_constant_shapes(lib):
    """Calls with literal shapes, where gcc folds the dispatch at compile time."""
    rng = np.random.default_rng(13)
    As = [rand(rng, (m, k), np.float32) for m, n, k in CONST_CASES]
    Bs = [rand(rng, (k, n), np.float32) for m, n, k in CONST_CASES]
    c = np.full(sum(m * n for m, n, k in CONST_CASES), np.nan, np.float32)
    ws = aligned_workspace(max(lib.lib.tpt_ws_f32(*s) for s in CONST_CASES))
    ffi = lib.ffi
    a_all = np.concatenate([x.ravel() for x in As])
    b_all = np.concatenate([x.ravel() for x in Bs])
    lib.lib.tpt_gemm_const_f32(ffi.from_buffer("float[]", a_all), ffi.from_buffer("float[]", b_all),
                               ffi.from_buffer("float[]", c), ffi.from_buffer("char[]", ws))
    off = 0
    for (m, n, k), a, b in zip(CONST_CASES, As, Bs):
        reference_check(c[off:off + m * n].reshape(m, n), a, b)
        off += m * n


@pytest.mark.parametrize("shape", [(130, 70, 300), (1, 300, 200), (300, 1, 200)],
                         ids=lambda s: "x".join(map(str, s)))
def test_called_from_a_parallel_region(lib, shape):
    """Inside an enclosing parallel region the work-sharing loops of the header bind to its
    own one-thread team (a single thread outside any region runs without one): every
    product of the batch comes out right (and nothing hangs), packed and matrix-vector."""
    nb, (m, n, k) = 6, shape
    rng = np.random.default_rng(11)
    a, b = rand(rng, (nb, m, k), np.float32), rand(rng, (nb, k, n), np.float32)
    c = np.full((nb, m, n), np.nan, np.float32)
    stride = (lib.lib.tpt_ws_f32(m, n, k) + 63) // 64 * 64
    ws = aligned_workspace(nb * stride)
    ffi = lib.ffi
    lib.lib.tpt_gemm_batch_f32(nb, m, n, k, ffi.from_buffer("float[]", a),
                               ffi.from_buffer("float[]", b), ffi.from_buffer("float[]", c),
                               ffi.from_buffer("char[]", ws), stride)
    for i in range(nb):
        reference_check(c[i], a[i], b[i])


@pytest.mark.parametrize("dt", DTYPES, ids=["f32", "f64"])
@pytest.mark.parametrize("shape", [(3, 5, 4), (40, 50, 60), (130, 70, 300), (1, 50, 61),
                                   (61, 1, 50), (1, 1, 70)],
                         ids=lambda s: "x".join(map(str, s)))
def test_nan_and_inf_propagate(lib, dt, shape):
    m, n, k = shape
    rng = np.random.default_rng(5)
    a = np.abs(rand(rng, (m, k), dt)) + 1
    b = np.abs(rand(rng, (k, n), dt)) + 1
    a[min(1, m - 1), k - 1] = np.nan
    a[2 % m, 0] = np.inf
    b[1, n - 1] = -np.inf
    b[k - 1, 0] = np.inf            # in the leftover rows of the unrolled k loops
    c = gemm(lib, a, b)
    with np.errstate(invalid="ignore"):
        ref = a.astype(np.float64) @ b.astype(np.float64)
    assert np.isnan(c[min(1, m - 1)]).all()
    assert np.array_equal(np.isnan(c), np.isnan(ref))
    assert np.array_equal(np.isposinf(c), np.isposinf(ref))
    assert np.array_equal(np.isneginf(c), np.isneginf(ref))
    # all inputs are positive, so ref is also the error scale |a|.|b|
    fin = np.isfinite(ref)
    assert np.all(np.abs(c[fin] - ref[fin]) <= (k + 2) * np.finfo(dt).eps * ref[fin])


def test_portable_build_is_portable(built):
    """The 'portable' library really exercises the plain C kernels and no OpenMP."""
    L = built["portable"].lib
    assert L.tpt_avx2() == 0
    assert L.tpt_max_threads() == 1


def test_header_compiles_warning_free(built):
    """The header must stay clean under the strict flags of standalone C export, with and
    without -march=native and -fopenmp."""
    for extra, proc in built["strict"]:
        log, _ = proc.communicate()
        assert proc.returncode == 0 and not log.strip(), f"flags {extra}:\n{log}"

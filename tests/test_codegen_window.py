"""The row kernels of the windowed reductions (``codegen/window_kernels.py``): runs of
outputs along the last axis in a vector loop, the window taps outside it.

Each case is compiled twice, with the row kernel and with the one output per item kernel
(``ROW_MIN_COLUMNS`` raised so that it is not chosen), and the results must agree bit
for bit (NaN, -0 and all: each output combines the same taps in the same order); both
against a float64 NumPy loop over the windows; the generated C shows which kernel ran.
"""
from __future__ import annotations

import itertools
import shutil
import subprocess

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.config import enable_x64
from transpile.codegen import window_kernels as wk
from transpile.lax import windowed as win
from transpile.resources import runtime_dir

_MAX = (-np.inf, lax.max, "max")
_MIN = (np.inf, lax.min, "min")
_SUM = (0.0, lax.add, "sum")
_MUL = (1.0, lax.mul, "prod")   # a generic reduce_window (its monoid as a jaxpr)

#: (name, shape, dtype, (init, computation, reference), window, strides, padding,
#:  base dilation, window dilation, whether the row kernel is expected)
CASES = [
    ("nchw_max_2x2", (2, 3, 8, 12), "float32", _MAX, (1, 1, 2, 2), (1, 1, 2, 2),
     "VALID", None, None, True),
    ("nhwc_max_3x3_same", (2, 7, 6, 5), "float32", _MAX, (1, 3, 3, 1), (1, 2, 2, 1),
     "SAME", None, None, True),
    ("nchw_max_odd_pad", (1, 2, 9, 11), "float32", _MAX, (1, 1, 3, 3), (1, 1, 2, 2),
     ((0, 0), (0, 0), (1, 1), (2, 1)), None, None, True),
    ("strides_over_window", (1, 2, 9, 23), "float32", _MAX, (1, 1, 2, 2), (1, 1, 3, 3),
     ((0, 0), (0, 0), (0, 1), (1, 2)), None, None, True),
    ("min_dilated", (2, 5, 19), "float32", _MIN, (1, 2, 3), (1, 1, 2),
     ((0, 0), (1, 1), (2, 2)), None, (1, 2, 2), True),
    ("max_base_dilated_rows", (2, 5, 9), "float32", _MAX, (1, 2, 2), (1, 1, 1),
     ((0, 0), (1, 0), (0, 1)), (1, 2, 1), (1, 1, 1), True),
    ("sum_nhwc", (2, 5, 4, 6), "float32", _SUM, (1, 2, 2, 1), (1, 1, 1, 1),
     ((0, 0), (1, 0), (0, 1), (0, 0)), None, None, True),
    ("sum_f64_remainder", (3, 37), "float64", _SUM, (2, 3), (1, 2), "SAME", None,
     (1, 2), True),
    ("max_f64", (4, 13), "float64", _MAX, (2, 2), (1, 1), "SAME", None, None, True),
    ("max_int32", (3, 10), "int32", (np.iinfo(np.int32).min, lax.max, "max"), (2, 3),
     (1, 1), "VALID", None, None, True),
    ("sum_int32", (3, 10), "int32", (0, lax.add, "sum"), (1, 3), (1, 2), "SAME", None,
     None, True),
    ("max_f16", (2, 12), "float16", _MAX, (1, 2), (1, 2), "VALID", None, None, True),
    ("mul_generic", (2, 4, 9), "float32", _MUL, (1, 2, 2), (1, 1, 2), "SAME", None,
     None, True),
    ("long_rows_blocks", (2, 600), "float32", _MAX, (1, 3), (1, 1), "SAME", None, None,
     True),
    # kept on one output per item: a short last axis, base dilation along it
    ("short_last_axis", (2, 6, 3), "float32", _MAX, (1, 2, 2), (1, 1, 1), "VALID",
     None, None, False),
    ("base_dilated_last", (2, 9), "float32", _MAX, (1, 2), (1, 1), "VALID", (1, 2),
     None, False),
]


def _data(shape, dtype, seed: int) -> np.ndarray:
    """ReLU-like values with NaN, -0, +-inf, ties and subnormals sprinkled in."""
    rng = np.random.RandomState(seed)
    if np.issubdtype(np.dtype(dtype), np.integer):
        return rng.randint(-50, 50, shape).astype(dtype)
    x = np.maximum(rng.randn(*shape), 0.0)
    flat = x.reshape(-1)
    specials = [np.nan, -0.0, 0.0, np.inf, -np.inf, 1.0, 1e-40, -1e-40]
    idx = rng.choice(flat.size, size=min(flat.size, 3 * len(specials)), replace=False)
    flat[idx] = np.resize(specials, idx.size)
    return x.astype(dtype)


def _reference(x, init, op, window, strides, pads, base, wdil) -> np.ndarray:
    """The windowed reduction by a direct loop in float64 (holes and padding hold
    the initial value)."""
    x = np.asarray(x, np.float64)
    nd = x.ndim
    dshape = [(n - 1) * b + 1 for n, b in zip(x.shape, base)]
    xd = np.full(dshape, float(init))
    xd[tuple(slice(None, None, b) for b in base)] = x
    xp = np.pad(xd, pads, constant_values=float(init))
    ext = [(w - 1) * d + 1 for w, d in zip(window, wdil)]
    out_shape = [(n - e) // s + 1 for n, e, s in zip(xp.shape, ext, strides)]
    red = {"max": np.max, "min": np.min, "sum": np.sum, "prod": np.prod}[op]
    out = np.empty(out_shape)
    with np.errstate(invalid="ignore"):   # inf * 0 in a product: NaN, as in C
        _fill(out, xp, red, out_shape, ext, strides, wdil)
    return out


def _fill(out, xp, red, out_shape, ext, strides, wdil) -> None:
    nd = xp.ndim
    for o in itertools.product(*map(range, out_shape)):
        sl = tuple(slice(o[d] * strides[d], o[d] * strides[d] + ext[d], wdil[d])
                   for d in range(nd))
        out[o] = red(xp[sl])


def _bits(a) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


def _nan_sign_free(a) -> np.ndarray:
    """The bits, with the sign of NaNs cleared. Known gap: a window max/min whose taps
    reach a NaN after a negative value signs that NaN as XLA does in the row kernel
    (checked against JAX for ``min_dilated``) but not always in the one-output kernel or
    the NumPy rule; every other bit must agree."""
    b = _bits(a).copy()
    if np.issubdtype(a.dtype, np.floating):
        b[np.isnan(a)] &= np.array(np.iinfo(b.dtype).max >> 1, b.dtype)
    return b


def _flush(a) -> np.ndarray:
    """Subnormals as zeros of their sign (the C kernels' max/min flush; the rule
    passes a lone subnormal through)."""
    if not np.issubdtype(a.dtype, np.floating):
        return a
    tiny = np.finfo(a.dtype).tiny
    return np.where(np.abs(a) < tiny, np.copysign(np.zeros_like(a), a), a)


def _compiled(fn, x, row_kernel: bool, monkeypatch):
    """``fn`` lowered and compiled with or without the row kernel (outside the jit
    caches, which key on the jaxpr, not on the generated C)."""
    with monkeypatch.context() as m:
        if not row_kernel:
            m.setattr(wk, "ROW_MIN_COLUMNS", 1 << 60)
        lowered = jax.jit(fn).lower(x)
    return lowered.as_text(), lowered.compile()


@pytest.mark.parametrize("name, shape, dtype, red, window, strides, padding, base, wdil, "
                         "fast", CASES, ids=[c[0] for c in CASES])
def test_row_kernel_matches_item_kernel(name, shape, dtype, red, window, strides,
                                        padding, base, wdil, fast, monkeypatch):
    init, comp, op = red
    nd = len(shape)
    base, wdil = base or (1,) * nd, wdil or (1,) * nd
    x = _data(shape, dtype, sum(map(ord, name)))
    with enable_x64(dtype == "float64"):
        _check_case(name, x, init, comp, op, window, strides, padding, base, wdil, fast,
                    monkeypatch)


def _check_case(name, x, init, comp, op, window, strides, padding, base, wdil, fast,
                monkeypatch):
    shape, dtype = x.shape, str(x.dtype)

    def f(x):
        return lax.reduce_window(x, np.asarray(init, dtype)[()], comp, window, strides,
                                 padding, base_dilation=base, window_dilation=wdil)

    xa = jnp.asarray(x)
    src, fast_fn = _compiled(f, xa, True, monkeypatch)
    assert ("#pragma omp simd" in src) == fast, name
    got = np.asarray(fast_fn(xa))
    if fast:
        src_slow, slow_fn = _compiled(f, xa, False, monkeypatch)
        assert "#pragma omp simd" not in src_slow
        want = np.asarray(slow_fn(xa))
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(_nan_sign_free(got), _nan_sign_free(want), err_msg=name)
    pads = lax.padtype_to_pads([(n - 1) * b + 1 for n, b in zip(shape, base)],
                               [(w - 1) * d + 1 for w, d in zip(window, wdil)], strides,
                               padding) if isinstance(padding, str) else padding
    ref = _reference(_flush(x), init, op, window, strides, pads, base, wdil)
    tol = {"float16": 2e-3, "float32": 1e-5}.get(dtype, 1e-12)
    # subnormals are flushed by the kernels (as by XLA on CPU), not by NumPy
    np.testing.assert_allclose(got.astype(np.float64), ref, rtol=tol, atol=1e-37,
                               err_msg=name)
    if op in ("max", "min"):
        # max/min pick an element: NumPy's rule gives the same bits, -0 included
        prim = win.reduce_window_max_p if op == "max" else win.reduce_window_min_p
        rule = prim.impl(x, window_dimensions=window, window_strides=strides,
                         padding=tuple(map(tuple, pads)), base_dilation=base,
                         window_dilation=wdil)
        np.testing.assert_array_equal(_nan_sign_free(got),
                                      _nan_sign_free(_flush(np.asarray(rule))), err_msg=name)


def test_generic_reduce_leading_axis_uses_rows(monkeypatch):
    """``lax.reduce`` with a computation of its own over leading axes is a window
    reduction whose last axis is kept: a row kernel, bit for bit the item kernel."""
    x = _data((5, 3, 17), "float32", 7)

    def f(x):
        return lax.reduce((x, x * x), (0.0, 1.0),
                          lambda a, b: (a[0] + b[0], a[1] * b[1]), (0, 1))

    xa = jnp.asarray(x)
    src, fast = _compiled(f, xa, True, monkeypatch)
    _, slow = _compiled(f, xa, False, monkeypatch)
    assert "#pragma omp simd" in src
    for g, w in zip(fast(xa), slow(xa)):
        np.testing.assert_array_equal(_bits(np.asarray(g)), _bits(np.asarray(w)))
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(np.asarray(fast(xa)[0]), x64.sum((0, 1)), rtol=1e-5)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_row_kernel_vectorises(tmp_path):
    """gcc vectorises the row kernel's tap loop (max pooling, NCHW, float32)."""
    def f(x):
        return lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    src = jax.jit(f).lower(jnp.zeros((2, 4, 16, 16), jnp.float32)).as_text()
    path = tmp_path / "pool.c"
    path.write_text(src)
    res = subprocess.run(
        ["gcc", "-std=c99", "-O3", "-march=native", "-fno-math-errno",
         "-fno-trapping-math", "-fopenmp", "-c", f"-I{runtime_dir()}",
         "-fopt-info-vec-optimized", str(path), "-o", str(tmp_path / "pool.o")],
        capture_output=True, text=True, check=True)
    lines = src.splitlines()
    body = next(i for i, ln in enumerate(lines, 1) if "acc[j] = tp_max_f32" in ln)
    # (gcc names the loop by its header or its body's line)
    vectorised = {ln.split(":")[1] for ln in res.stderr.splitlines()
                  if "loop vectorized" in ln}
    assert vectorised & {str(i) for i in range(body - 2, body + 1)}, res.stderr


#: select_and_scatter_add (max/min pooling's gradient): (name, operand shape, select,
#: window, strides, padding, whether the row kernel is expected)
SCATTER_CASES = [
    ("nchw_2x2", (2, 3, 8, 12), lax.ge_p, (1, 1, 2, 2), (1, 1, 2, 2), "VALID", True),
    ("nchw_overlap_pad", (1, 2, 9, 11), lax.ge_p, (1, 1, 3, 3), (1, 1, 2, 1),
     ((0, 0), (0, 0), (1, 1), (1, 2)), True),
    ("nhwc_same_min", (2, 7, 6, 5), lax.le_p, (1, 3, 3, 1), (1, 2, 2, 1), "SAME", True),
    ("strides_over_window", (2, 2, 5, 19), lax.ge_p, (1, 1, 2, 2), (1, 1, 3, 3),
     ((0, 0), (0, 0), (0, 1), (1, 2)), True),
    ("last_free_blocks", (2, 3, 300), lax.ge_p, (1, 2, 1), (1, 1, 1), "VALID", True),
    # kept on one slab per item: a long spanned last axis, a short one
    ("last_spanned_long", (2, 520), lax.ge_p, (1, 2), (1, 2), "VALID", False),
    ("short_last", (2, 6, 3), lax.ge_p, (1, 2, 2), (1, 1, 1), "VALID", False),
]


@pytest.mark.parametrize("name, shape, select, window, strides, padding, fast",
                         SCATTER_CASES, ids=[c[0] for c in SCATTER_CASES])
def test_scatter_row_kernel_matches_item_kernel(name, shape, select, window, strides,
                                                padding, fast, monkeypatch):
    rng = np.random.RandomState(sum(map(ord, name)))
    # few distinct values: ties, which the selection breaks by the first tap
    x = rng.randint(0, 4, shape).astype(np.float32)
    x.reshape(-1)[rng.choice(x.size, 4, replace=False)] = [np.nan, -0.0, np.inf, -np.inf]
    pads = (lax.padtype_to_pads(shape, window, strides, padding)
            if isinstance(padding, str) else padding)
    params = dict(window_dimensions=window, window_strides=strides,
                  padding=tuple(map(tuple, pads)))
    src_shape = [(n + lo + hi - w) // s + 1
                 for n, (lo, hi), w, s in zip(shape, pads, window, strides)]
    g = rng.randint(-8, 8, src_shape).astype(np.float32) / 4

    def f(g, x):
        return win.select_and_scatter_add_p.bind(g, x, select_prim=select, **params)

    ga, xa = jnp.asarray(g), jnp.asarray(x)
    with monkeypatch.context() as m:
        lowered = jax.jit(f).lower(ga, xa)
        if not fast:
            m.setattr(wk, "ROW_MIN_COLUMNS", 1 << 60)
            assert lowered.as_text() == jax.jit(f).lower(ga, xa).as_text()
    assert ("#pragma omp simd" in lowered.as_text()) == fast, name
    got = np.asarray(lowered.compile()(ga, xa))
    _, slow = _compiled(lambda x: f(ga, x), xa, False, monkeypatch)
    np.testing.assert_array_equal(_bits(got), _bits(np.asarray(slow(xa))), err_msg=name)
    # the cotangents are quarters: every sum is exact, whatever the order
    want = win.select_and_scatter_add_p.impl(g, x, select_prim=select, **params)
    np.testing.assert_array_equal(got, want, err_msg=name)

"""Sums, products, means and cumulative sums/products of operands holding subnormals
(``reduce_sum``, ``reduce_prod``, ``cumsum``, ``cumprod``, ``cumlogsumexp``,
``jnp.sum/mean/prod/cumsum``).

XLA:CPU reads float32/float64 subnormal operands as zeros of their sign and flushes
subnormal results to zeros of their sign; so do our compiled kernels, and the NumPy rules
follow. Known answers recorded from JAX 0.10.2 (``tools/record_subnormal_sums.py`` ->
``tests/data/subnormal_sums.json``, cases in ``subnormal_sum_cases.py``), eager and
under ``jit``; and the eager rule against the compiled kernel, bit for bit.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from transpile import eager_kernels, lax
from transpile.config import enable_x64
from transpile.lax import reduction_ftz

from subnormal_sum_cases import all_cases

DATA = json.loads((Path(__file__).parent / "data" / "subnormal_sums.json").read_text())
CASES = {key: (fn, x) for key, fn, x in all_cases(lax, jnp)}

#: Where our compiled kernels' order or accumulator differs from XLA's, the NumPy rule
#: follows the kernel (checked against it below, not against JAX): float32 sums and
#: products (bfloat16's in jnp.sum/mean too) accumulate in double, so a partial result in
#: float32's subnormal range is not flushed before the next operand, as XLA's fold is (e.g.
#: [-1.5 tiny, tiny, 0]: -0.5 tiny -> -0.0, + 0.0 -> 0.0 in JAX, -0.0 here); a reverse
#: cumsum folds from the end, where XLA folds each output's window from its start.
KERNEL_ORDER = {
    "reduce_sum/float32", "jnp_sum/float32", "jnp_mean/float32", "jnp_sum/bfloat16",
    "jnp_mean/bfloat16", "cumsum_reverse/float32", "cumsum_reverse/float64"}
#: Not about subnormals: JAX rounds each step of a bfloat16 cumlogsumexp to bfloat16;
#: ours (the kernel and the rule) round once at the end.
ELSEWHERE = {"cumlogsumexp/bfloat16"}
#: The compiled cumprod's first step (1 * x, folded by gcc to x) does not flush a
#: subnormal first operand, as XLA does and the rule does.
KERNEL_BUGS = {"cumprod/float32", "cumprod/float64", "cumprod/bfloat16"}


def _bits(r):
    r = np.asarray(r)
    return str(r.dtype), r.view(f"u{r.dtype.itemsize}").reshape(-1).tolist()


def _want(key):
    rec = DATA[f"{key}/eager"]
    assert DATA[f"{key}/jit"] == rec   # JAX: eager and jit alike
    return rec["dtype"], rec["bits"]


def test_every_case_was_recorded():
    assert sorted(DATA) == sorted(f"{k}/{how}" for k in CASES for how in ("eager", "jit"))


@pytest.mark.parametrize("key", [k for k in CASES if k not in KERNEL_ORDER | ELSEWHERE])
def test_eager_as_jax(key):
    fn, x = CASES[key]
    with enable_x64(True):
        got = _bits(fn(x))
    assert got == _want(key)


@pytest.fixture(scope="module")
def compiled():
    """Every case's eager and compiled bits, from one compiled program (one compile)."""
    keys = list(CASES)
    with enable_x64(True):
        eager = [_bits(CASES[k][0](CASES[k][1])) for k in keys]
        outs = transpile.jit(lambda *xs: [CASES[k][0](x) for k, x in zip(keys, xs)])(
            *[CASES[k][1] for k in keys])
    return {k: (e, _bits(c)) for k, e, c in zip(keys, eager, outs, strict=True)}


@pytest.mark.parametrize("key", [
    pytest.param(k, marks=pytest.mark.xfail(reason="the compiled cumprod's first step "
                                            "is not flushed")) if k in KERNEL_BUGS else k
    for k in CASES])
def test_compiled_as_eager(compiled, key):
    eager, got = compiled[key]
    assert got == eager


def test_fast_path_is_plain_numpy():
    # Operands far from the subnormal range take NumPy's road; a value near it, the
    # flushing one (which gives the same bits when nothing flushes).
    x = np.array([[1.5, -2.0, 0.0, 3.25]], np.float32)
    assert not reduction_ftz.flushes(x)
    assert reduction_ftz.flushes(x * np.float32(2.0 ** -110))
    assert _bits(lax.reduce_sum(x, (1,))) == _bits(np.sum(x, axis=1))
    lines = np.array([[1.0, 2.0 ** -30, -1.0, 5.0]], np.float64)
    np.testing.assert_array_equal(reduction_ftz.fold(lines, "sum"), np.cumsum(lines, 1))


def _fold_by_hand(lines, op):
    """The flushed fold one element at a time (scalar NumPy arithmetic)."""
    out = np.empty_like(lines)
    tiny = np.finfo(lines.dtype).tiny
    for r in range(lines.shape[0]):
        acc = lines.dtype.type(0 if op == "sum" else 1)
        for c in range(lines.shape[1]):
            acc = acc + lines[r, c] if op == "sum" else acc * lines[r, c]
            if acc != 0 and abs(acc) < tiny:
                acc = np.copysign(lines.dtype.type(0), acc)
            out[r, c] = acc
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fold_restarts_as_a_fold_by_hand(dtype):
    # reduction_ftz.fold refolds a row from each flushed partial result: it must give
    # the element-by-element fold, with flushes many times a row.
    rng = np.random.default_rng(3)
    t = np.finfo(dtype).tiny
    values = np.array([t, -t, 1.5 * t, -1.5 * t, 2 * t, -0.5 * t, 0.0, -0.0, 1.0, -1.0,
                       0.5, 3 * t, -1.25 * t], dtype)
    with np.errstate(all="ignore"):
        for _ in range(20):
            lines = rng.choice(values, size=(3, int(rng.integers(1, 24))))
            for op in ("sum", "prod"):
                assert _bits(reduction_ftz.fold(lines, op)) == \
                    _bits(_fold_by_hand(lines, op))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_prebuilt_scan_agrees_with_the_numpy_check(dtype):
    # the prebuilt library's one-pass scan (reduction_ftz.SCANS) and the NumPy check it
    # replaces, on the values at the edge of the range and the ones it must ignore
    eager_kernels.load()
    scan = reduction_ftz.SCANS.get(np.dtype(dtype))
    if scan is None:
        pytest.skip("no prebuilt library (no C compiler)")
    bound = reduction_ftz._LIMITS[np.dtype(dtype)][0]
    below = np.nextafter(bound, dtype(0))
    tiny = np.finfo(dtype).tiny
    harmless = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, bound, -bound, 1.0], dtype)
    for near in (below, -below, tiny, -tiny / 2, np.finfo(dtype).smallest_subnormal):
        for at in (0, 5, 1000):
            x = np.resize(harmless, 1003).astype(dtype)
            x[at] = near
            assert scan(x, bound), (near, at)
            reduction_ftz.SCANS.pop(np.dtype(dtype))
            try:
                assert reduction_ftz.flushes(x)   # the NumPy check, without the scan
            finally:
                reduction_ftz.SCANS[np.dtype(dtype)] = scan
    x = np.resize(harmless, 1003).astype(dtype)
    assert not scan(x, bound) and not reduction_ftz.flushes(x)

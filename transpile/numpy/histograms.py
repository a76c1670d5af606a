"""Counting into bins: bincount, digitize, histogram_bin_edges, histogram,
histogram2d, histogramdd.

Bins are found with ``searchsorted`` and counted with a scatter-add, as in
``jax.numpy``: ``bincount`` needs a static ``length`` when ``x`` is traced (JAX's
``ConcretizationTypeError`` otherwise), and the histograms need static bin counts.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from .. import core, dtypes, lax
from ..errors import ConcretizationTypeError
from ._util import aval, check_arraylike, ensure_array, promote_dtypes_inexact, to_inexact_dtype
from .calculus import diff
from .creation import asarray, linspace, ones_like, zeros
from .reductions import max as jmax, min as jmin, sum as jsum
from .shape_ops import reshape, transpose
from .sorting import searchsorted
from .statistics import ptp
from .ufuncs_compound import clip, where

__all__ = ["bincount", "digitize", "histogram_bin_edges", "histogram", "histogram2d",
           "histogramdd"]


def concrete_value(x):
    """The NumPy value of ``x``, or None for an abstract tracer."""
    x = ensure_array(x)
    if isinstance(x, core.Tracer):
        v = x.to_concrete_value()
        return None if v is None else np.asarray(v)
    return np.asarray(x._value)


def bincount(x, weights=None, minlength=0, *, length=None, out_sharding=None):
    """Count the occurrences of each non-negative integer in ``x`` (weighted sums with
    ``weights``).

    Parameters
    ----------
    x : array_like
        1-D, integer or bool; negative values count into bin 0.
    weights : array_like, optional
        Of ``x``'s shape; the result has their dtype (int32 without weights).
    minlength : int
    length : int, optional
        Static number of bins (values beyond it are dropped); required under ``jit``.
    out_sharding : None

    Returns
    -------
    Array
    """
    check_arraylike("bincount", x)
    x = ensure_array(x)
    if aval(x).dtype == np.bool_:
        x = lax.convert_element_type(x, np.int32)
    elif aval(x).dtype.kind not in "iu":
        raise TypeError("x argument to bincount must have an integer type; got "
                        f"{dtypes.dtype_name(aval(x).dtype)}")
    if aval(x).ndim != 1:
        raise ValueError("only 1-dimensional input supported.")
    minlength = operator.index(minlength)
    if length is None:
        value = concrete_value(x)
        if value is None:
            raise ConcretizationTypeError(
                x, "The error occurred because of argument 'x' of jnp.bincount. To avoid "
                   "this error, pass a static `length` argument.")
        length = max(minlength, value.size and int(value.max()) + 1)
    else:
        length = operator.index(length)
    if weights is None:
        weights = np.array(1, dtypes.default_int_dtype())
    else:
        check_arraylike("bincount", weights)
        if aval(weights).shape != aval(x).shape:
            raise ValueError("shape of weights must match shape of x.")
    return zeros(length, aval(weights).dtype).at[clip(x, 0)].add(weights, mode="drop")


def digitize(x, bins, right=False, *, method=None):
    """Index of the bin of each ``x`` (bins increasing or decreasing).

    Parameters
    ----------
    x : array_like
    bins : array_like
        1-D, monotonic.
    right : bool
        Whether a bin includes its right edge.
    method : str, optional
        ``searchsorted``'s method.

    Returns
    -------
    Array of int32
    """
    check_arraylike("digitize", x, bins)
    right = bool(right)
    bins_arr = asarray(bins)
    if aval(bins_arr).ndim != 1:
        raise ValueError(f"digitize: bins must be a 1-dimensional array; got bins={bins}")
    n = aval(bins_arr).shape[0]
    if n == 0:
        return ensure_array(lax.full_like(ensure_array(x), 0, np.int32))
    side = "left" if right else "right"
    kw = {} if method is None else {"method": method}
    return where(bins_arr[-1] >= bins_arr[0], searchsorted(bins_arr, x, side=side, **kw),
                 n - searchsorted(bins_arr[::-1], x, side=side, **kw))


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """Edges of the histogram bins: ``bins`` itself if 1-D, else ``bins + 1`` evenly
    spaced edges over ``range`` (default: the data's range, widened by 0.5 each way
    when empty)."""
    del weights
    if isinstance(bins, str):
        raise NotImplementedError("string values for `bins` not implemented.")
    check_arraylike("histogram_bin_edges", a, bins)
    arr = asarray(a)
    dt = to_inexact_dtype(aval(arr).dtype)
    if not isinstance(bins, (int, np.integer)) and aval(ensure_array(bins)).ndim == 1:
        return asarray(bins, dtype=dt)
    n_bins = operator.index(bins)
    if range is None:
        range = [jmin(arr), jmax(arr)]  # noqa: A001
    rng = asarray(range, dtype=dt) if not isinstance(range, (list, tuple)) else \
        _stack_pair(range, dt)
    if aval(rng).shape != (2,):
        raise ValueError(f"`range` must be either None or a sequence of scalars, got {range}")
    empty = ptp(rng) == 0
    lo = where(empty, rng[0] - 0.5, rng[0])
    hi = where(empty, rng[1] + 0.5, rng[1])
    return linspace(lo, hi, n_bins + 1, dtype=dt)


def _stack_pair(pair, dt):
    if len(pair) != 2:
        raise ValueError(f"`range` must be either None or a sequence of scalars, got {pair}")
    lo, hi = (lax.convert_element_type(ensure_array(v), dt) for v in pair)
    return lax.concatenate([lax.reshape(lo, (1,)), lax.reshape(hi, (1,))], 0)


def histogram(a, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """Histogram of ``a``: (counts, bin edges); the last bin includes its right edge.

    Parameters
    ----------
    a : array_like
    bins : int or 1-D array_like
    range : (float, float), optional
    weights : array_like, optional
        Of ``a``'s shape.
    density : bool, optional
        Normalise to a probability density.

    Returns
    -------
    (Array, Array)
    """
    if weights is None:
        check_arraylike("histogram", a, bins)
        a, = promote_dtypes_inexact(asarray(a))
        weights = ones_like(a)
    else:
        check_arraylike("histogram", a, bins, weights)
        if np.shape(a) != np.shape(weights) and aval(a).shape != aval(weights).shape:
            raise ValueError("weights should have the same shape as a.")
        a, weights = promote_dtypes_inexact(asarray(a), asarray(weights))
    edges = histogram_bin_edges(a, bins, range, weights)
    n_edges = aval(edges).shape[0]
    idx = searchsorted(edges, a, side="right")
    idx = where(a == edges[-1], n_edges - 1, idx)
    counts = zeros(n_edges, aval(weights).dtype).at[idx].add(weights)[1:]
    if density:
        counts = counts / diff(edges) / jsum(counts)
    return counts, edges


def histogramdd(sample, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """Multidimensional histogram of the ``(N, D)`` points ``sample``.

    Returns
    -------
    (Array, list of Array)
        Counts of shape ``(bins_0, ..., bins_{D-1})`` and each dimension's edges.
    """
    if weights is None:
        check_arraylike("histogramdd", sample)
        sample, = promote_dtypes_inexact(asarray(sample))
    else:
        check_arraylike("histogramdd", sample, weights)
        if aval(weights).shape != aval(sample).shape[:1]:
            raise ValueError("should have one weight for each sample.")
        sample, weights = promote_dtypes_inexact(asarray(sample), asarray(weights))
    n, d = aval(sample).shape
    if range is not None and (len(range) != d or any(
            r is not None and np.shape(r)[0] != 2 for r in range)):
        raise ValueError(f"For sample.shape={(n, d)}, range must be a sequence of {d} pairs "
                         f"or Nones; got range={range}")
    try:
        n_bins = len(bins)
    except TypeError:
        per_dim = [bins] * d
    else:
        if n_bins != d:
            raise ValueError("should be a bin for each dimension.")
        per_dim = list(bins)
    idx_by_dim, edges_by_dim = [], []
    for i in np.arange(d):
        col = sample[:, int(i)]
        edges = histogram_bin_edges(col, per_dim[i], None if range is None else range[i],
                                    weights)
        idx = searchsorted(edges, col, side="right")
        idx = where(col == edges[-1], idx - 1, idx)
        idx_by_dim.append(idx)
        edges_by_dim.append(edges)
    nbins = tuple(aval(e).shape[0] + 1 for e in edges_by_dim)
    # Row-major flat index of each point's bin cell (indices clipped into the grid).
    flat = None
    for idx, nb, stride in zip(idx_by_dim, nbins, _strides(nbins), strict=True):
        term = clip(idx, 0, nb - 1) * stride
        flat = term if flat is None else flat + term
    hist = bincount(flat, weights, length=math.prod(nbins))
    hist = reshape(hist, nbins)[(slice(1, -1),) * d]
    if density:
        hist = hist.astype(aval(sample).dtype)
        hist = hist / jsum(hist)
        for k in np.arange(d):
            shape = [1] * d
            shape[int(k)] = nbins[int(k)] - 2
            hist = hist / reshape(diff(edges_by_dim[int(k)]), tuple(shape))
    return hist, edges_by_dim


def _strides(shape):
    out, acc = [], 1
    for n in reversed(shape):
        out.append(acc)
        acc *= n
    return out[::-1]


def histogram2d(x, y, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """Two-dimensional histogram of the points ``(x, y)``: (counts, x edges, y edges)."""
    check_arraylike("histogram2d", x, y)
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):
        edges = asarray(bins)
        bins = [edges, edges]
    sample = transpose(asarray([x, y]))
    hist, edges = histogramdd(sample, bins, range, weights, density)
    return hist, edges[0], edges[1]

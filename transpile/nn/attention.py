"""``jax.nn.dot_product_attention``: softmax(Q Kᵀ · scale + bias, masked) V, the 'xla'
implementation (the one JAX runs on CPU), with grouped-query heads.

Shapes: query ``(B, T, N, H)`` (or ``(T, N, H)``), key/value ``(B, S, K, H)`` with ``N`` a
multiple of ``K``; bias and mask broadcast to ``(B, N, T, S)``. Logits are computed in
``promote(query dtype, float32)``, the softmax in float32, the weighted sum in the key's
dtype. Masked-out logits become ``-0.7 * max`` of the logits' dtype (capped at float32's),
as JAX, so a fully masked row averages ``value`` instead of producing NaN.
"""
from __future__ import annotations

import numpy as np

from .. import lax
from .. import numpy as jnp
from ..numpy._util import aval
from .functions import logsumexp, softmax

__all__ = ["dot_product_attention"]


def _ensure_4d(t):
    t = jnp.asarray(t)
    missing = 4 - aval(t).ndim
    return jnp.expand_dims(t, tuple(range(missing))) if missing > 0 else t


def _check(t, shape, dtype, name: str) -> None:
    if t is None:
        return
    a = aval(t)
    if a.ndim != len(shape):
        raise ValueError(f"{name} ndim should be {len(shape)}, but got {a.ndim}")
    if dtype is not None and a.dtype != dtype:
        raise ValueError(f"{name} dtype should be {dtype}, but got {a.dtype}")
    if any(s != -1 and d != s for d, s in zip(a.shape, shape, strict=True)):
        raise ValueError(f"{name} shape should be {list(shape)}: but got {a.shape}")


def _grouped(t, K: int, G: int):
    """A ``(B, N|1, T, S)`` bias or mask as ``(B, K|1, G|1, T, S)``, matching the
    grouped logits."""
    if t is None:
        return None
    tb, tn, tt, ts = aval(t).shape
    if tn == 1:
        return jnp.reshape(t, (tb, 1, 1, tt, ts))
    return jnp.reshape(t, (tb, K, G, tt, ts))


def _masked(logits, mask, is_causal, q_len, kv_len, window):
    if mask is None and not is_causal and q_len is None and kv_len is None \
            and window is None:
        return logits
    T, S = aval(logits).shape[-2:]
    keep = jnp.ones(aval(logits).shape, dtype=bool)
    if mask is not None:
        keep = keep & mask
    rows = jnp.arange(T)[:, None]
    cols = jnp.arange(S)[None, :]
    if is_causal:
        keep = keep & (cols <= rows)
    if window is not None:
        left, right = window
        keep = keep & (rows <= cols + left) & (rows >= cols - right)
    if q_len is not None or kv_len is not None:
        pad = True
        if q_len is not None:
            pad = jnp.arange(T)[None, :, None] < q_len[:, None, None]
        if kv_len is not None:
            pad = pad & (jnp.arange(S)[None, None, :] < kv_len[:, None, None])
        keep = keep & jnp.reshape(pad, (-1, 1, 1, T, S))
    dtype = aval(logits).dtype
    big = min(float(np.finfo(dtype).max), float(np.finfo(np.float32).max))
    return jnp.where(keep, logits, jnp.asarray(-0.7 * big, dtype=dtype))


def dot_product_attention(query, key, value, bias=None, mask=None, *, scale=None,
                          is_causal: bool = False, query_seq_lengths=None,
                          key_value_seq_lengths=None, local_window_size=None,
                          implementation=None, return_residual: bool = False):
    """Scaled dot-product attention (``jax.nn.dot_product_attention``).

    Parameters
    ----------
    query : array ``(B, T, N, H)`` or ``(T, N, H)``
    key, value : arrays ``(B, S, K, H)`` or ``(S, K, H)``; ``N % K == 0``
    bias : array, optional
        Added to the logits; 4-D after leading ones, broadcastable to ``(B, N, T, S)``.
    mask : bool array, optional
        True where a query may attend to a key; same shape rules as ``bias``.
    scale : float, optional
        Multiplies the logits; default ``1 / sqrt(H)``.
    is_causal : bool
        Query ``t`` attends to keys ``s <= t`` only.
    query_seq_lengths, key_value_seq_lengths : int32 arrays ``(B,)``, optional
        Valid lengths; padded queries give zero output.
    local_window_size : int or (int, int), optional
        ``(left, right)``: query ``t`` attends to keys in ``[t - left, t + right]``.
    implementation : None or 'xla'
        ``'cudnn'`` needs cuDNN, which transpile does not use.
    return_residual : bool
        Also return the logsumexp of the logits, shape ``(B, T, N)``.

    Returns
    -------
    Array, or (Array, Array) with ``return_residual``
        Shaped like ``query``.

    Raises
    ------
    ValueError
        For mismatched shapes or dtypes, heads that do not group, or an unknown
        implementation.
    NotImplementedError
        For ``implementation='cudnn'``.
    """
    out_shape = aval(jnp.asarray(query)).shape
    q, k, v = _ensure_4d(query), _ensure_4d(key), _ensure_4d(value)
    bias = None if bias is None else _ensure_4d(bias)
    mask = None if mask is None else _ensure_4d(mask)
    q_len = None if query_seq_lengths is None else jnp.asarray(query_seq_lengths)
    kv_len = None if key_value_seq_lengths is None else jnp.asarray(key_value_seq_lengths)
    if isinstance(local_window_size, int):
        local_window_size = (local_window_size, local_window_size)
    B, S, K, H = aval(k).shape
    k_dtype = aval(k).dtype
    _check(v, [B, S, K, H], k_dtype, "value")
    _check(q, [B, -1, -1, H], k_dtype, "query")
    _check(mask, [-1] * 4, np.dtype(bool), "mask")
    _check(bias, [-1] * 4, None, "bias")
    _check(q_len, [B], np.dtype("int32"), "query_seq_lengths")
    _check(kv_len, [B], np.dtype("int32"), "key_value_seq_lengths")
    N = aval(q).shape[-2]
    if N % K != 0:
        raise ValueError("The number of query heads must be a multiple of key/value "
                         f"heads, but got {N} vs {K}")
    if implementation == "cudnn":
        raise NotImplementedError("dot_product_attention: implementation='cudnn' needs "
                                  "cuDNN; transpile has the 'xla' implementation only")
    if implementation not in (None, "xla"):
        raise ValueError(f"Unsupported implementation option: {implementation}")
    scale = (1.0 / np.sqrt(H)) if scale is None else scale

    T, G = aval(q).shape[1], N // K
    logits_dtype = jnp.promote_types(aval(q).dtype, np.float32)
    qg = jnp.reshape(q, (B, T, K, G, H))
    logits = jnp.einsum("btkgh,bskh->bkgts", qg, k, preferred_element_type=logits_dtype)
    logits = logits * jnp.array(scale, dtype=logits_dtype)
    if bias is not None:
        logits = (logits + _grouped(bias, K, G)).astype(logits_dtype)
    padded = _masked(logits, _grouped(mask, K, G), is_causal, q_len, kv_len,
                     local_window_size).astype(np.float32)
    probs = softmax(padded, axis=-1).astype(k_dtype)
    encoded = jnp.einsum("bkgts,bskh->btkgh", probs, v)
    if q_len is not None:
        valid = jnp.arange(T)[None, :] < q_len[:, None]
        encoded = encoded * valid.astype(aval(encoded).dtype)[:, :, None, None, None]
    out = jnp.reshape(encoded, out_shape)
    if not return_residual:
        return out
    lse = logsumexp(padded, axis=-1).astype(k_dtype)  # (B, K, G, T)
    lse = jnp.reshape(jnp.transpose(lse, (0, 3, 1, 2)), out_shape[:-1])
    return out, lax.stop_gradient(lse)

"""NumPy twins of ``runtime/tp_xla_math.h``'s float32 ``exp``, ``tanh`` and ``logistic``,
with the bits JAX 0.10.2 produces on CPU (XLA:CPU's vectorised expansions), for eager
mode.

Input: float32 arrays (anything ``np.asarray(..., np.float32)`` accepts). Output:
float32 arrays of the same shape, bit-identical to the C functions ``tp_xla_exp_f32``
etc., which are bit-identical to ``jax.jit(jnp.exp)``, ``jnp.tanh`` and
``jax.nn.sigmoid`` on all 2^32 float32 inputs (NaN payloads included). The schemes are
described at the C functions; every float32 operation is repeated here in its order,
fused multiply-adds rounded once (``_xla_math._fma``).
"""
from __future__ import annotations

import numpy as np

from ._xla_math import _CHUNK, _elementwise, _fma

__all__ = ["xla_exp_f32", "xla_tanh_f32", "xla_logistic_f32"]

_F32 = np.float32
_U32 = np.uint32

_EXP_LO, _EXP_HI = _F32(-87.8), _F32(88.8)
_LOG2E = _F32(1.44269504088896341)
_LN2_HI, _LN2_LO = _F32(-0.693359375), _F32(2.12194440e-4)   # r = x - n ln2
# e^r = 1 + r + r^2 P(r), highest degree first (Cephes expf)
_EXP_P = [_F32(v) for v in (1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3,
                            4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1)]


def _exp_parts(x: np.ndarray):
    """(n, e^r) of XLA's float32 exp: x = n ln2 + r, n in [-127, 127]."""
    c = np.minimum(np.maximum(x, _EXP_LO), _EXP_HI)   # NaN stays NaN (replaced later)
    n = np.floor(_fma(c, _LOG2E, _F32(0.5)))
    n = np.minimum(np.maximum(n, _F32(-127)), _F32(127)).astype(_F32)
    r = _fma(_LN2_HI, n, c)
    r = _fma(_LN2_LO, n, r)
    z = _fma(r, _EXP_P[0], _EXP_P[1])
    for p in _EXP_P[2:]:
        z = _fma(z, r, p)
    z = _fma(z, r * r, r)
    return n, _F32(1) + z


@_elementwise
def xla_exp_f32(x):
    """jnp.exp on float32 as XLA:CPU computes it (bit-exact).

    The product e^r 2^n is exact unless it falls below 2^-126 (n = -126 with e^r < 1;
    n = -127 scales by 0): FTZ flushes it there, even where it rounds up to 2^-126."""
    n, z = _exp_parts(x)
    nn = np.where(np.isnan(n), _F32(0), n).astype(np.int32)
    scale = ((nn + 127).astype(_U32) << _U32(23)).view(_F32)
    y = z * scale
    y[(n < _F32(-125)) & (z < _F32(1))] = 0
    nan = np.isnan(x)
    if nan.any():   # quieted, payload kept
        y[nan] = (x[nan].view(_U32) | _U32(0x00400000)).view(_F32)
    return y


# tanh x = x N(x^2) / D(x^2) on x clamped to +-_TANH_CLAMP, highest degree first
_TANH_N = [_F32(v) for v in (-2.76076847742355e-16, 2.00018790482477e-13,
                             -8.60467152213735e-11, 5.12229709037114e-08,
                             1.48572235717979e-05, 6.37261928875436e-04,
                             4.89352455891786e-03)]
_TANH_D = [_F32(v) for v in (1.19825839466702e-06, 1.18534705686654e-04,
                             2.26843463243900e-03, 4.89352518554385e-03)]
_TANH_CLAMP = _F32(7.99881172180175781)
_TANH_TINY = _F32(0.0004)


def _tanh(x: np.ndarray) -> np.ndarray:
    c = np.minimum(np.maximum(x, -_TANH_CLAMP), _TANH_CLAMP)
    x2 = c * c
    n = np.full_like(x2, _TANH_N[0])
    for k in _TANH_N[1:]:
        n = _fma(x2, n, k)
    d = np.full_like(x2, _TANH_D[0])
    for k in _TANH_D[1:]:
        d = _fma(x2, d, k)
    r = (c * n) / d
    ax = np.abs(x)
    small = ax < _TANH_TINY
    r[small] = x[small]
    big = ax >= _F32(20)
    r[big] = np.copysign(_F32(1), x[big])
    nan = np.isnan(x)
    if nan.any():   # quieted, sign and payload kept
        r[nan] = (x[nan].view(_U32) | _U32(0x00400000)).view(_F32)
    return r


def xla_tanh_f32(x) -> np.ndarray:
    """jnp.tanh on float32 as XLA:CPU computes it (bit-exact).

    The operand is not flushed: |x| < 0.0004 returns x itself, subnormals included."""
    x = np.asarray(x, _F32)
    flat = x.reshape(-1)
    out = np.empty(flat.shape, _F32)
    with np.errstate(all="ignore"):
        for i in range(0, flat.size, _CHUNK):   # cache-sized pieces, as _elementwise
            out[i:i + _CHUNK] = _tanh(flat[i:i + _CHUNK])
    return out.reshape(x.shape)


_LOGISTIC_BIG = _F32(2.0 ** 126)


@_elementwise
def xla_logistic_f32(x):
    """jax.nn.sigmoid (lax.logistic) on float32 as XLA:CPU computes it (bit-exact):
    1 / (1 + exp(-x)); quotients below 2^-126 are flushed, as FTZ flushes them, also
    where they would round up to 2^-126."""
    d = _F32(1) + xla_exp_f32(-x)
    y = _F32(1) / d
    y[d > _LOGISTIC_BIG] = 0
    nan = np.isnan(x)
    if nan.any():   # -x's NaN, quieted
        y[nan] = ((x[nan].view(_U32) ^ _U32(0x80000000)) | _U32(0x00400000)).view(_F32)
    return y

"""``expm`` and ``expm_frechet`` of ``transpile.scipy.linalg``.

``expm`` is JAX 0.10.2's scaling and squaring with Padé approximants (Higham 2005):
the matrix is scaled by ``2^-s`` so that its 1-norm is below a bound of its dtype, the
Padé approximant ``r = q^-1 p`` of the degree the norm calls for (3, 5, 7, 9 or 13 in
float64; 3, 5 or 7 in float32) is solved for, and ``r`` is squared ``s`` times (a
``scan`` of ``max_squarings`` steps each squaring under a ``cond``); more squarings
than ``max_squarings`` give NaN. Its derivative is that of these equations (JAX
defines no rule of its own); ``expm_frechet`` is the JVP.
"""
from __future__ import annotations

import numpy as np

from .. import lax
from .. import numpy as jnp
from ..autodiff import jvp
from ..jit import internal_jit
from ..numpy import _util
from ..vmapping import vmap

__all__ = ["expm", "expm_frechet"]

# Padé coefficients b_0..b_m of degree m (Higham 2005, table 2.3).
_PADE = {
    3: (120.0, 60.0, 12.0, 1.0),
    5: (30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0),
    7: (17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0),
    9: (17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0, 2162160.0,
        110880.0, 3960.0, 90.0, 1.0),
    13: (64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
         1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
         33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0),
}
# (1-norm bound of the scaled matrix, 1-norm limits of each lower degree, degrees)
_BOUNDS = {
    np.dtype(np.float64): (5.371920351148152, (0.01495585217958292, 0.253939833006323,
                                               0.9504178996162932, 2.097847961257068),
                           (3, 5, 7, 9, 13)),
    np.dtype(np.float32): (3.92572478313866, (0.4258730016922831, 1.880152677804762),
                           (3, 5, 7)),
}


def _dot(a, b):
    return jnp.dot(a, b, precision=lax.Precision.HIGHEST)


def _pade(m: int):
    """``A -> (U, V)``: the odd and even parts of the degree-``m`` Padé numerator
    (``p = V + U``, ``q = V - U``), in Higham's order of operations."""
    b = _PADE[m]

    def pade(a):
        n = _util.aval(a).shape[0]
        ident = jnp.eye(n, n, dtype=_util.aval(a).dtype)
        a2 = _dot(a, a)
        if m == 13:
            a4 = _dot(a2, a2)
            a6 = _dot(a4, a2)
            u = _dot(a, _dot(a6, b[13] * a6 + b[11] * a4 + b[9] * a2)
                     + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * ident)
            v = (_dot(a6, b[12] * a6 + b[10] * a4 + b[8] * a2)
                 + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * ident)
            return u, v
        powers = [ident, a2]  # A^0, A^2, A^4, ...: each the last times A^2
        for _ in range(2, m // 2 + 1):
            powers.append(_dot(powers[-1], a2))
        odd = b[m] * powers[m // 2]
        even = b[m - 1] * powers[m // 2]
        for k in range(m // 2 - 1, -1, -1):
            odd = odd + b[2 * k + 1] * powers[k]
            even = even + b[2 * k] * powers[k]
        return _dot(a, odd), even
    pade.__name__ = f"_pade{m}"
    return pade


def _digitize(x, bins):
    """How many of the increasing ``bins`` are ``<= x`` (NaN: all of them)."""
    count = jnp.sum(lax.convert_element_type(bins <= x, np.int32))
    return jnp.where(jnp.isnan(x), np.int32(len(bins)), count)


def _calc_p_q_impl(a):
    a_l1 = jnp.linalg.norm(a, 1)
    dt = _util.aval(a).dtype
    if dt not in _BOUNDS:
        raise TypeError(f"A.dtype={dt} is not supported.")
    maxnorm, conds, degrees = _BOUNDS[dt]
    n_squarings = jnp.maximum(0, jnp.floor(jnp.log2(a_l1 / maxnorm)))
    a = a / 2 ** n_squarings.astype(dt)
    idx = _digitize(a_l1, jnp.array(conds, dtype=_util.aval(a_l1).dtype))
    u, v = lax.switch(idx, [_pade(m) for m in degrees], a)
    return u + v, -u + v, n_squarings


_calc_p_q_impl.__name__ = _calc_p_q_impl.__qualname__ = "_calc_P_Q"
_calc_p_q = internal_jit(_calc_p_q_impl)


def _squaring_impl(r, n_squarings, max_squarings):
    def step(c, i):
        return lax.cond(i < n_squarings, lambda x: _dot(x, x), lambda x: x, c), None
    res, _ = lax.scan(step, r, jnp.arange(max_squarings,
                                          dtype=_util.aval(n_squarings).dtype))
    return res


_squaring_impl.__name__ = _squaring_impl.__qualname__ = "_squaring"
_squaring = internal_jit(_squaring_impl, static_argnums=2)


def _expm_impl(A, upper_triangular, max_squarings):  # noqa: N803 (SciPy's name)
    A, = _util.promote_dtypes_inexact(_util.ensure_array(A))  # noqa: N806
    shape = _util.aval(A).shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"Expected A to be a (batched) square matrix, got "
                         f"A.shape={tuple(shape)}.")
    if len(shape) > 2:
        fn = lambda x: _expm(x, upper_triangular=upper_triangular,  # noqa: E731
                             max_squarings=max_squarings)
        for _ in range(len(shape) - 2):
            fn = vmap(fn)
        return fn(A)
    p, q, n_squarings = _calc_p_q(A)

    def nan(args):
        return jnp.full_like(args[0], np.nan)

    def compute(args):
        _, p, q = args
        r = (jnp.linalg.solve(q, p) if not upper_triangular else
             lax.linalg.triangular_solve(q, p, left_side=True, lower=False))
        return _squaring(r, n_squarings, max_squarings)
    return lax.cond(n_squarings > max_squarings, nan, compute, (A, p, q))


_expm_impl.__name__ = _expm_impl.__qualname__ = "expm"
_expm = internal_jit(_expm_impl, static_argnames=("upper_triangular", "max_squarings"))


def expm(A, *, upper_triangular: bool = False, max_squarings: int = 16):  # noqa: N803
    """The matrix exponential of each matrix of ``A``.

    Parameters
    ----------
    A : array_like
        Shape ``(..., n, n)``; real (integers are promoted to the default float).
    upper_triangular : bool
        ``A`` is upper triangular (the Padé system is solved by back substitution).
    max_squarings : int
        At most this many squarings; a matrix whose norm needs more gives NaN.

    Returns
    -------
    Array
        ``exp(A)``, of ``A``'s shape.
    """
    dt = getattr(A, "dtype", None)
    if dt is not None and np.dtype(dt).kind == "c":
        raise NotImplementedError("transpile.scipy.linalg.expm supports real matrices only")
    return _expm(A, upper_triangular=bool(upper_triangular), max_squarings=int(max_squarings))


def _expm_frechet_impl(A, E, method, compute_expm):  # noqa: N803
    a, e = _util.ensure_array(A), _util.ensure_array(E)
    a_shape, e_shape = tuple(_util.aval(a).shape), tuple(_util.aval(e).shape)
    if len(a_shape) < 2 or a_shape[-2] != a_shape[1]:
        raise ValueError(f"expected A to be a (batched) square matrix, got A.shape={a_shape}")
    if len(e_shape) < 2 or e_shape[-2] != e_shape[-1]:
        raise ValueError(f"expected E to be a (batched) square matrix, got E.shape={e_shape}")
    if a_shape != e_shape:
        raise ValueError(f"expected A and E to be the same shape, got A.shape={a_shape} "
                         f"E.shape={e_shape}")
    value, frechet = jvp(lambda x: expm(x), (a,), (e,))
    return (value, frechet) if compute_expm else frechet


_expm_frechet_impl.__name__ = _expm_frechet_impl.__qualname__ = "expm_frechet"
_expm_frechet = internal_jit(_expm_frechet_impl, static_argnames=("method", "compute_expm"))


def expm_frechet(A, E, *, method=None, compute_expm: bool = True):  # noqa: N803
    """The Fréchet derivative of ``expm`` at ``A`` in the direction ``E`` (its JVP).

    Parameters
    ----------
    A, E : array_like
        Square matrices of one shape.
    method : None
        Ignored (JAX's).
    compute_expm : bool
        Return ``(expm(A), L(A, E))`` instead of ``L(A, E)`` alone.

    Returns
    -------
    Array or tuple
    """
    return _expm_frechet(A, E, method=method, compute_expm=bool(compute_expm))

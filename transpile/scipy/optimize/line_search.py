"""The line search of ``jax.scipy.optimize``'s BFGS: a step satisfying the strong Wolfe
conditions (Nocedal & Wright, *Numerical Optimization*, algorithms 3.5 and 3.6), written
as ``lax.while_loop``\\ s so that it traces and compiles.

The search doubles the trial step until it brackets an acceptable one, then ``zoom``
narrows the bracket by cubic interpolation (when it falls well inside the bracket),
else quadratic, else bisection. Every branch of a step is computed and the state
updated with ``where``, as JAX does, so the iterates are JAX's.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ... import lax
from ... import numpy as jnp
from ...autodiff import value_and_grad
from ...numpy import _util

__all__ = ["line_search"]


def _dot(a, b):
    return jnp.dot(a, b, precision=lax.Precision.HIGHEST)


def _cubicmin(a, fa, fpa, b, fb, c, fc):
    """The minimiser of the cubic through ``(a, fa)`` with slope ``fpa``, ``(b, fb)`` and
    ``(c, fc)`` (NaN when it has none)."""
    dtype = jnp.result_type(a, fa, fpa, b, fb, c, fc)
    db, dc = b - a, c - a
    denom = (db * dc) ** 2 * (db - dc)
    m = jnp.array([[dc ** 2, -db ** 2], [-dc ** 3, db ** 3]], dtype=dtype)
    rhs = jnp.array([fb - fa - fpa * db, fc - fa - fpa * dc], dtype=dtype)
    ca, cb = _dot(m, rhs) / denom
    radical = cb * cb - 3.0 * ca * fpa
    return a + (-cb + jnp.sqrt(radical)) / (3.0 * ca)


def _quadmin(a, fa, fpa, b, fb):
    """The minimiser of the parabola through ``(a, fa)`` with slope ``fpa`` and
    ``(b, fb)``."""
    db = b - a
    curv = (fb - fa - fpa * db) / db ** 2
    return a - fpa / (2.0 * curv)


def _where_update(cond, state, **new):
    """``state`` with the fields of ``new`` taken where ``cond`` holds."""
    return state._replace(**{k: jnp.where(cond, v, getattr(state, k)) for k, v in new.items()})


class _ZoomState(NamedTuple):
    done: object
    failed: object
    j: object
    a_lo: object
    phi_lo: object
    dphi_lo: object
    a_hi: object
    phi_hi: object
    dphi_hi: object
    a_rec: object
    phi_rec: object
    a_star: object
    phi_star: object
    dphi_star: object
    g_star: object
    nfev: object
    ngev: object


def _zoom(phi_and_grad, wolfe_one, wolfe_two, a_lo, phi_lo, dphi_lo, a_hi, phi_hi, dphi_hi,
          g_0, skip):
    """Narrow the bracket ``[a_lo, a_hi]`` to a step meeting both Wolfe conditions
    (nothing runs where ``skip``)."""
    state = _ZoomState(done=False, failed=False, j=0, a_lo=a_lo, phi_lo=phi_lo,
                       dphi_lo=dphi_lo, a_hi=a_hi, phi_hi=phi_hi, dphi_hi=dphi_hi,
                       a_rec=(a_lo + a_hi) / 2.0, phi_rec=(phi_lo + phi_hi) / 2.0,
                       a_star=1.0, phi_star=phi_lo, dphi_star=dphi_lo, g_star=g_0,
                       nfev=0, ngev=0)
    delta1, delta2 = 0.2, 0.1  # how far inside the bracket a cubic/quadratic step must be

    def body(s):
        dalpha = s.a_hi - s.a_lo
        lo = jnp.minimum(s.a_hi, s.a_lo)
        hi = jnp.maximum(s.a_hi, s.a_lo)
        cchk, qchk = delta1 * dalpha, delta2 * dalpha
        bits = np.finfo(_util.aval(dalpha).dtype).bits
        s = s._replace(failed=s.failed | (dalpha <= jnp.where(bits < 64, 1e-5, 1e-10)))
        a_cubic = _cubicmin(s.a_lo, s.phi_lo, s.dphi_lo, s.a_hi, s.phi_hi, s.a_rec,
                            s.phi_rec)
        use_cubic = (s.j > 0) & (a_cubic > lo + cchk) & (a_cubic < hi - cchk)
        a_quad = _quadmin(s.a_lo, s.phi_lo, s.dphi_lo, s.a_hi, s.phi_hi)
        use_quad = ~use_cubic & (a_quad > lo + qchk) & (a_quad < hi - qchk)
        use_bisect = ~use_cubic & ~use_quad
        a_j = jnp.where(use_cubic, a_cubic, s.a_rec)
        a_j = jnp.where(use_quad, a_quad, a_j)
        a_j = jnp.where(use_bisect, (s.a_lo + s.a_hi) / 2.0, a_j)
        phi_j, dphi_j, g_j = phi_and_grad(a_j)
        phi_j = phi_j.astype(_util.aval(s.phi_lo).dtype)
        dphi_j = dphi_j.astype(_util.aval(s.dphi_lo).dtype)
        g_j = g_j.astype(_util.aval(s.g_star).dtype)
        s = s._replace(nfev=s.nfev + 1, ngev=s.ngev + 1)
        hi_to_j = wolfe_one(a_j, phi_j) | (phi_j >= s.phi_lo)
        star_to_j = wolfe_two(dphi_j) & ~hi_to_j
        hi_to_lo = (dphi_j * (s.a_hi - s.a_lo) >= 0.0) & ~hi_to_j & ~star_to_j
        lo_to_j = ~hi_to_j & ~star_to_j
        s = _where_update(hi_to_j, s, a_hi=a_j, phi_hi=phi_j, dphi_hi=dphi_j, a_rec=s.a_hi,
                          phi_rec=s.phi_hi)
        s = _where_update(star_to_j, s._replace(done=star_to_j | s.done), a_star=a_j,
                          phi_star=phi_j, dphi_star=dphi_j, g_star=g_j)
        s = _where_update(hi_to_lo, s, a_hi=s.a_lo, phi_hi=s.phi_lo, dphi_hi=s.dphi_lo,
                          a_rec=s.a_hi, phi_rec=s.phi_hi)
        s = _where_update(lo_to_j & ~hi_to_lo, s, a_rec=s.a_lo, phi_rec=s.phi_lo)
        s = _where_update(lo_to_j, s, a_lo=a_j, phi_lo=phi_j, dphi_lo=dphi_j)
        s = s._replace(j=s.j + 1)
        return s._replace(failed=s.failed | (s.j >= 30))
    return lax.while_loop(lambda s: ~s.done & ~skip & ~s.failed, body, state)


class _LineSearchState(NamedTuple):
    done: object
    failed: object
    i: object
    a_i1: object
    phi_i1: object
    dphi_i1: object
    nfev: object
    ngev: object
    a_star: object
    phi_star: object
    dphi_star: object
    g_star: object


class _LineSearchResults(NamedTuple):
    """The result of :func:`line_search` (JAX's fields)."""
    failed: object
    nit: object
    nfev: object
    ngev: object
    k: object
    a_k: object
    f_k: object
    g_k: object
    status: object


def line_search(f, xk, pk, old_fval=None, old_old_fval=None, gfk=None, c1: float = 1e-4,
                c2: float = 0.9, maxiter: int = 20):
    """A step along ``pk`` from ``xk`` satisfying the strong Wolfe conditions.

    Parameters
    ----------
    f : callable
        The objective (differentiable).
    xk, pk : Array
        The point and the search direction.
    old_fval, gfk : Array, optional
        ``f(xk)`` and its gradient, when known.
    old_old_fval : Array, optional
        The objective at the previous point: the first trial step is taken from it.
    c1, c2 : float
        The sufficient-decrease and curvature constants.
    maxiter : int

    Returns
    -------
    _LineSearchResults
        ``a_k`` the step, ``f_k``/``g_k`` the objective and gradient there, ``failed``,
        ``status`` (0 ok, 1 failed, 3 too many iterations), counts of evaluations.
    """
    xk, pk = _util.promote_dtypes_inexact(_util.ensure_array(xk), _util.ensure_array(pk))
    p_dtype = _util.aval(pk).dtype

    def phi_and_grad(t):
        t = jnp.array(t, dtype=p_dtype)
        phi, g = value_and_grad(f)(xk + t * pk)
        return phi, jnp.real(_dot(g, pk)), g
    known = old_fval is not None and gfk is not None
    if known:
        phi_0, dphi_0 = old_fval, jnp.real(_dot(gfk, pk))
    else:
        phi_0, dphi_0, gfk = phi_and_grad(0)
    if old_old_fval is not None:
        candidate = 1.01 * 2 * (phi_0 - old_old_fval) / dphi_0
        start = jnp.where(candidate > 1, 1.0, candidate)
    else:
        start = 1

    def wolfe_one(a_i, phi_i):  # not a sufficient decrease
        return phi_i > phi_0 + c1 * a_i * dphi_0

    def wolfe_two(dphi_i):  # the curvature condition
        return jnp.abs(dphi_i) <= -c2 * dphi_0
    evals = 0 if known else 1
    state = _LineSearchState(done=jnp.array(False, dtype=bool),
                             failed=jnp.array(False, dtype=bool), i=1, a_i1=0.0,
                             phi_i1=phi_0, dphi_i1=dphi_0, nfev=evals, ngev=evals,
                             a_star=0.0, phi_star=phi_0, dphi_star=dphi_0, g_star=gfk)
    star_keys = ("a_star", "phi_star", "dphi_star", "g_star")

    def body(s):
        a_i = jnp.where(s.i == 1, start, s.a_i1 * 2.0)
        phi_i, dphi_i, g_i = phi_and_grad(a_i)
        s = s._replace(nfev=s.nfev + 1, ngev=s.ngev + 1)
        to_zoom1 = wolfe_one(a_i, phi_i) | ((phi_i >= s.phi_i1) & (s.i > 1))
        to_i = wolfe_two(dphi_i) & ~to_zoom1
        to_zoom2 = (dphi_i >= 0.0) & ~to_zoom1 & ~to_i
        zoom1 = _zoom(phi_and_grad, wolfe_one, wolfe_two, s.a_i1, s.phi_i1, s.dphi_i1, a_i,
                      phi_i, dphi_i, gfk, ~to_zoom1)
        s = s._replace(nfev=s.nfev + zoom1.nfev, ngev=s.ngev + zoom1.ngev)
        zoom2 = _zoom(phi_and_grad, wolfe_one, wolfe_two, a_i, phi_i, dphi_i, s.a_i1,
                      s.phi_i1, s.dphi_i1, gfk, ~to_zoom2)
        s = s._replace(nfev=s.nfev + zoom2.nfev, ngev=s.ngev + zoom2.ngev)
        s = _where_update(to_zoom1, s._replace(done=to_zoom1 | s.done,
                                               failed=(to_zoom1 & zoom1.failed) | s.failed),
                          **{k: getattr(zoom1, k) for k in star_keys})
        s = _where_update(to_i, s._replace(done=to_i | s.done), a_star=a_i, phi_star=phi_i,
                          dphi_star=dphi_i, g_star=g_i)
        s = _where_update(to_zoom2, s._replace(done=to_zoom2 | s.done,
                                               failed=(to_zoom2 & zoom2.failed) | s.failed),
                          **{k: getattr(zoom2, k) for k in star_keys})
        return s._replace(i=s.i + 1, a_i1=a_i, phi_i1=phi_i, dphi_i1=dphi_i)
    state = lax.while_loop(lambda s: ~s.done & (s.i <= maxiter) & ~s.failed, body, state)
    status = jnp.where(state.failed, jnp.array(1),
                       jnp.where(state.i > maxiter, jnp.array(3), jnp.array(0)))
    alpha = jnp.asarray(state.a_star)
    # a vanishing step in single precision is kept at 1e-8 (JAX's floor)
    alpha = jnp.where((np.finfo(_util.aval(alpha).dtype).bits != 64)
                      & (jnp.abs(alpha) < 1e-8), jnp.sign(alpha) * 1e-8, alpha)
    return _LineSearchResults(failed=state.failed | ~state.done, nit=state.i - 1,
                              nfev=state.nfev, ngev=state.ngev, k=state.i, a_k=alpha,
                              f_k=state.phi_star, g_k=state.g_star, status=status)

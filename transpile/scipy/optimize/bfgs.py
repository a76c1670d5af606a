"""BFGS minimisation as ``jax.scipy.optimize`` runs it: one ``lax.while_loop`` over
iterations, each a strong-Wolfe line search (``line_search.py``) along ``-H g`` and the
inverse-Hessian update ``H <- (I - rho s y^T) H (I - rho y s^T) + rho s s^T``
(Nocedal & Wright, algorithm 6.1), skipped when ``rho = 1 / (y . s)`` is not finite.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ... import lax
from ... import numpy as jnp
from ...autodiff import value_and_grad
from ...numpy import _util
from .line_search import line_search

__all__ = ["minimize_bfgs"]


class _BFGSResults(NamedTuple):
    """The state of the iteration, and its result (JAX's fields)."""
    converged: object
    failed: object
    k: object
    nfev: object
    ngev: object
    nhev: object
    x_k: object
    f_k: object
    g_k: object
    H_k: object  # noqa: N815 (JAX's name)
    old_old_fval: object
    status: object
    line_search_status: object


def _dot(a, b):
    return jnp.dot(a, b, precision=lax.Precision.HIGHEST)


def _sandwich(w, h):
    """``w @ h @ w.T`` as JAX's ``einsum("ij,jk,lk", w, h, w)`` contracts it: ``h`` with
    the first ``w`` first."""
    dt = _util.aval(h).dtype
    hw = lax.dot_general(h, w, (((0,), (1,)), ((), ())), precision=lax.Precision.HIGHEST,
                         preferred_element_type=dt)  # [k, i] = sum_j h[j, k] w[i, j]
    return lax.dot_general(hw, w, (((0,), (1,)), ((), ())), precision=lax.Precision.HIGHEST,
                           preferred_element_type=dt)


def minimize_bfgs(fun, x0, maxiter=None, norm=np.inf, gtol: float = 1e-5,
                  line_search_maxiter: int = 10) -> _BFGSResults:
    """Minimise ``fun`` from ``x0`` by BFGS.

    Parameters
    ----------
    fun : callable
        A scalar function of one 1-D array.
    x0 : Array
        Shape ``(d,)``.
    maxiter : int, optional
        ``200 * d`` by default.
    norm : float
        The order of the gradient norm compared with ``gtol``.
    gtol : float
        Converged when the gradient's norm is below it.
    line_search_maxiter : int

    Returns
    -------
    _BFGSResults
        ``status``: 0 converged, 1 ``maxiter`` reached, 2 + the line search's status
        when it failed.
    """
    x0 = _util.ensure_array(x0)
    if maxiter is None:
        maxiter = np.size(x0) * 200
    d = _util.aval(x0).shape[0]
    f_0, g_0 = value_and_grad(fun)(x0)
    state = _BFGSResults(converged=jnp.linalg.norm(g_0, ord=norm) < gtol, failed=False,
                         k=0, nfev=1, ngev=1, nhev=0, x_k=x0, f_k=f_0, g_k=g_0,
                         H_k=jnp.eye(d, dtype=_util.aval(x0).dtype),
                         old_old_fval=f_0 + jnp.linalg.norm(g_0) / 2, status=0,
                         line_search_status=0)

    def running(s):
        return jnp.logical_not(s.converged) & jnp.logical_not(s.failed) & (s.k < maxiter)

    def step(s):
        p_k = -_dot(s.H_k, s.g_k)
        ls = line_search(fun, s.x_k, p_k, old_fval=s.f_k, old_old_fval=s.old_old_fval,
                         gfk=s.g_k, maxiter=line_search_maxiter)
        s = s._replace(nfev=s.nfev + ls.nfev, ngev=s.ngev + ls.ngev, failed=ls.failed,
                       line_search_status=ls.status)
        s_k = ls.a_k * p_k
        y_k = ls.g_k - s.g_k
        rho = jnp.reciprocal(_dot(y_k, s_k))
        w = jnp.eye(d, dtype=_util.aval(rho).dtype) - rho * (s_k[:, None] * y_k[None, :])
        h_new = _sandwich(w, s.H_k) + rho * s_k[:, None] * s_k[None, :]
        h_new = jnp.where(jnp.isfinite(rho), h_new, s.H_k)
        return s._replace(converged=jnp.linalg.norm(ls.g_k, ord=norm) < gtol, k=s.k + 1,
                          x_k=s.x_k + s_k, f_k=ls.f_k, g_k=ls.g_k, H_k=h_new,
                          old_old_fval=s.f_k)
    state = lax.while_loop(running, step, state)
    status = jnp.where(state.converged, 0,
                       jnp.where(state.k == maxiter, 1,
                                 jnp.where(state.failed, 2 + state.line_search_status, -1)))
    return state._replace(status=status)

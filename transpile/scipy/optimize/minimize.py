"""``minimize`` and ``OptimizeResults`` of ``jax.scipy.optimize``."""
from __future__ import annotations

from typing import NamedTuple

from ... import numpy as jnp
from .bfgs import minimize_bfgs

__all__ = ["minimize", "OptimizeResults"]


class OptimizeResults(NamedTuple):
    """What :func:`minimize` returns.

    Attributes
    ----------
    x : Array
        The minimiser found.
    success : Array
        Converged, and no line search failed.
    status : Array
        0 converged, 1 too many iterations, 2 + the line search's status on its failure.
    fun, jac : Array
        The objective and its gradient at ``x``.
    hess_inv : Array
        The inverse-Hessian estimate.
    nfev, njev, nit : Array
        Evaluations of the objective and of its gradient; iterations.
    """
    x: object
    success: object
    status: object
    fun: object
    jac: object
    hess_inv: object
    nfev: object
    njev: object
    nit: object


def minimize(fun, x0, args: tuple = (), *, method: str, tol=None, options=None):
    """Minimise the scalar function ``fun(x, *args)`` of a 1-D array from ``x0``.

    Parameters
    ----------
    fun : callable
    x0 : Array
        Shape ``(n,)``.
    args : tuple
        Extra arguments of ``fun``.
    method : str
        ``"BFGS"`` (case-insensitive) is the one method.
    tol : float, optional
        Ignored (as by JAX: use ``options={"gtol": ...}``).
    options : dict, optional
        ``maxiter``, ``norm``, ``gtol``, ``line_search_maxiter``.

    Returns
    -------
    OptimizeResults
    """
    if options is None:
        options = {}
    if not isinstance(args, tuple):
        raise TypeError("args argument to jax.scipy.optimize.minimize must be a tuple, "
                        f"got {args}")

    def fun_with_args(x):
        return fun(x, *args)
    if method.lower() == "bfgs":
        res = minimize_bfgs(fun_with_args, x0, **options)
        return OptimizeResults(x=res.x_k, success=res.converged & jnp.logical_not(res.failed),
                               status=res.status, fun=res.f_k, jac=res.g_k,
                               hess_inv=res.H_k, nfev=res.nfev, njev=res.ngev, nit=res.k)
    raise ValueError(f"Method {method} not recognized")

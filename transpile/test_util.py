"""``jax.test_util.check_grads``: check a function's JVPs and VJPs against central
finite differences, to a given order.

Each check draws random tangents (NumPy, seeded), compares ``jvp`` with
``(f(x + eps t) - f(x - eps t)) / (2 eps)``, and checks that ``vjp`` is its transpose
(``<t, vjp(c)> == <jvp(t), c>``); higher orders repeat this on the derivative
functions. A failure raises ``AssertionError`` naming what was checked.
"""
from __future__ import annotations

import functools

import numpy as np

from . import dtypes
from .autodiff import jvp, vjp
from .tree_util import tree_leaves, tree_map

__all__ = ["check_grads", "check_jvp", "check_vjp"]

EPS = 1e-4

#: Default atol = rtol of gradient checks per dtype (JAX's values).
_GRADIENT_TOL = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 2e-3,
                 np.dtype(np.float64): 1e-5, np.dtype(np.complex64): 1e-3,
                 np.dtype(np.complex128): 1e-5}


def _tol(dtype, given):
    if given is not None:
        return given
    return _GRADIENT_TOL.get(np.dtype(dtype), 1e-5)


def _check_close(xs, ys, atol, rtol, err_msg):
    for x, y in zip(tree_leaves(xs), tree_leaves(ys), strict=True):
        x, y = np.asarray(x), np.asarray(y)
        dt = np.promote_types(x.dtype, y.dtype)
        np.testing.assert_allclose(x.astype(np.complex128 if dt.kind == "c" else np.float64),
                                   y.astype(np.complex128 if dt.kind == "c" else np.float64),
                                   atol=_tol(dt, atol), rtol=_tol(dt, rtol),
                                   err_msg=err_msg)


def _rand_like(rng, tree):
    def draw(x):
        dt, shape = dtypes.dtype(x), np.shape(x)
        r = rng.randn(*shape)
        if dt.kind == "c":
            r = r + 1j * rng.randn(*shape)
        return np.asarray(r).astype(dt)
    return tree_map(draw, tree)


def _shifted(primals, tangents, eps):
    return tree_map(lambda x, t: (np.asarray(x) + eps * np.asarray(t)).astype(
        dtypes.dtype(x)), primals, tangents)


def _numerical_jvp(f, primals, tangents, eps):
    f_pos = f(*_shifted(primals, tangents, eps))
    f_neg = f(*_shifted(primals, tangents, -eps))
    return tree_map(lambda a, b: (np.asarray(a) - np.asarray(b)) * (0.5 / eps), f_pos, f_neg)


def _inner(xs, ys):
    total = 0.0
    for x, y in zip(tree_leaves(xs), tree_leaves(ys), strict=True):
        total = total + np.real(np.dot(np.conj(np.asarray(x)).reshape(-1),
                                       np.asarray(y).reshape(-1)))
    return total


def check_jvp(f, f_jvp, args, atol=None, rtol=None, eps=EPS, err_msg=""):
    """Check ``f_jvp(args, tangents) == (f(*args), finite difference)``."""
    rng = np.random.RandomState(0)
    tangent = _rand_like(rng, args)
    v_out, t_out = f_jvp(args, tangent)
    _check_close(v_out, f(*args), atol, rtol, f"{err_msg} primal" if err_msg else "primal")
    expected = _numerical_jvp(f, args, tangent, eps)
    _check_close(t_out, expected, atol, rtol,
                 f"{err_msg} tangent" if err_msg else "tangent")


def check_vjp(f, f_vjp, args, atol=None, rtol=None, eps=EPS, err_msg=""):
    """Check ``f_vjp(*args)`` gives ``f(*args)`` and a VJP consistent with finite
    differences."""
    rng = np.random.RandomState(0)
    v_out, vjp_fn = f_vjp(*args)
    _check_close(v_out, f(*args), atol, rtol, f"{err_msg} primal" if err_msg else "primal")
    tangent = _rand_like(rng, args)
    tangent_out = _numerical_jvp(f, args, tangent, eps)
    cotangent = _rand_like(rng, v_out)
    cotangent_out = tree_map(np.conj, vjp_fn(tree_map(np.conj, cotangent)))
    ip = _inner(tangent, cotangent_out)
    ip_expected = _inner(tangent_out, cotangent)
    dt = np.result_type(*[dtypes.dtype(x) for x in tree_leaves(args)])
    np.testing.assert_allclose(ip, ip_expected, atol=_tol(dt, atol), rtol=_tol(dt, rtol),
                               err_msg=f"{err_msg} consistency check")


def check_grads(f, args, order: int, modes=("fwd", "rev"), atol=None, rtol=None,
                eps=None):
    """Check ``f``'s derivatives at ``args`` up to ``order`` against finite differences.

    Parameters
    ----------
    f : callable
    args : tuple
        Where to check (arrays or scalars, inexact).
    order : int
        1 checks first derivatives; 2 also the derivatives of the derivative
        functions; ...
    modes : sequence of {'fwd', 'rev'}
        JVPs (forward) and/or VJPs (reverse).
    atol, rtol : float, optional
        Default per dtype (float32 2e-3, float64 1e-5).
    eps : float, optional
        The finite-difference step (default 1e-4).

    Raises
    ------
    AssertionError
        Naming the failing check (``JVP``, ``VJP of JVP``, ... with ``primal``,
        ``tangent`` or ``consistency check``).
    """
    args = tuple(args)
    eps = eps or EPS

    def run(f, args, order, err_msg=""):
        if "fwd" in modes:
            msg = f"JVP of {err_msg}" if err_msg else "JVP"
            check_jvp(f, functools.partial(jvp, f), args, atol, rtol, eps, msg)
            if order > 1:
                run(functools.partial(jvp, f), (args, args), order - 1, msg)
        if "rev" in modes:
            msg = f"VJP of {err_msg}" if err_msg else "VJP"
            check_vjp(f, functools.partial(vjp, f), args, atol, rtol, eps, msg)
            if order > 1:
                def f_vjp(*a):
                    out, fn = vjp(f, *a)
                    return fn(out)
                run(f_vjp, args, order - 1, msg)

    run(f, args, order)

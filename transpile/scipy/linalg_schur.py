"""``jax.scipy.linalg.hessenberg`` and ``jax.scipy.linalg.schur`` on
``lax.linalg.hessenberg``/``householder_product``/``schur``.

As in JAX 0.10.2: ``hessenberg`` is a ``jit`` under its name (``calc_q`` static) that
keeps ``H = triu(h, -1)`` and, for ``calc_q``, builds ``Q`` from the reflectors below
the subdiagonal (a 1 in the corner, the reflectors' product in the trailing block);
``schur`` checks ``output`` and calls a ``jit`` named ``_schur`` that converts to
complex first for ``output="complex"``. Neither promotes integer input (the primitives
refuse it with JAX's message).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .. import numpy as jnp
from ..lax import elementwise as ew
from ..lax import linalg as lax_linalg
from .linalg_base import named_jit

__all__ = ["hessenberg", "schur"]


def _hessenberg_impl(a, calc_q, overwrite_a, check_finite):
    del overwrite_a, check_finite
    a = jnp.asarray(a)
    n = a.shape[-1]
    if n == 0:
        return (jnp.zeros_like(a), jnp.zeros_like(a)) if calc_q else jnp.zeros_like(a)
    a_out, taus = lax_linalg.hessenberg(a)
    h = jnp.triu(a_out, -1)
    if not calc_q:
        return h
    q = lax_linalg.householder_product(a_out[..., 1:, :-1], taus)
    batch = a_out.shape[:-2]
    dt = a_out.dtype
    q = jnp.block([[jnp.ones(batch + (1, 1), dtype=dt), jnp.zeros(batch + (1, n - 1), dtype=dt)],
                   [jnp.zeros(batch + (n - 1, 1), dtype=dt), q]])
    return h, q


_hessenberg = named_jit(_hessenberg_impl, "hessenberg",
                        static_argnames=("calc_q", "overwrite_a", "check_finite"))


def hessenberg(a, *, calc_q: bool = False, overwrite_a: bool = False,
               check_finite: bool = True):
    """Upper Hessenberg form ``a = Q H Q^H`` of each square matrix of ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``, floating.
    calc_q : bool
        Also return the orthogonal ``Q``.
    overwrite_a, check_finite
        Ignored.

    Returns
    -------
    Array or (Array, Array)
        ``H`` (zero below the first subdiagonal), and ``Q`` when ``calc_q``.
    """
    return _hessenberg(a, calc_q=bool(calc_q), overwrite_a=bool(overwrite_a),
                       check_finite=bool(check_finite))


def _schur_impl(a, output):
    if output == "complex":
        dt = np.dtype(a.dtype)
        a = ew.convert_element_type(
            a, dt if dt.kind == "c" else dtypes.COMPLEX_OF.get(dt, np.complex64))
    return lax_linalg.schur(a)


_schur = named_jit(_schur_impl, "_schur", static_argnames=("output",))


def schur(a, output: str = "real"):
    """Schur decomposition ``a = Z T Z^H`` of each square matrix of ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``, floating or complex.
    output : {"real", "complex"}
        Real Schur form (2 x 2 blocks for complex conjugate eigenvalue pairs of a real
        matrix) or complex (upper triangular ``T``, computed on the complex matrix).

    Returns
    -------
    (Array, Array)
        ``T`` and the unitary ``Z``.
    """
    if output not in ("real", "complex"):
        raise ValueError(f"Expected 'output' to be either 'real' or 'complex', got "
                         f"output={output!r}.")
    return _schur(a, output)

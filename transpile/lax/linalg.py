"""``transpile.lax.linalg``: linear-algebra primitives under JAX's names
(``jax.lax.linalg``), gathered from their modules.

``linalg_base.py`` holds cholesky, triangular_solve and lu with the helpers the others
share (their derivative rules are in ``linalg_ad.py``); ``linalg_qr.py`` holds qr with
its rules, ``linalg_eigh.py`` eigh, ``linalg_svd.py`` svd, ``linalg_tridiagonal.py``
tridiagonal_solve, ``linalg_eig.py`` eig and ``linalg_schur.py`` hessenberg,
householder_product and schur, each with its rules. This module only re-exports, so the modules below it never import it back.
"""
from __future__ import annotations

from .linalg_base import *  # noqa: F401,F403
from .linalg_base import __all__ as _base_all
from .linalg_base import (_ACCEPTED, _check_supported, _swap_last, check_batch,  # noqa: F401
                          solve_layout, symmetrize, tril, triu)
from .linalg_eig import EigImplementation, eig, eig_p  # noqa: F401
from .linalg_eigh import eigh, eigh_p  # noqa: F401
from .linalg_qr import qr, qr_p  # noqa: F401
from .linalg_schur import (hessenberg, hessenberg_p, householder_product,  # noqa: F401
                           householder_product_p, schur, schur_p)
from .linalg_svd import svd, svd_p  # noqa: F401
from .linalg_tridiagonal import tridiagonal_solve, tridiagonal_solve_p  # noqa: F401

__all__ = list(_base_all) + ["qr", "qr_p", "eigh", "eigh_p", "svd", "svd_p",
                             "tridiagonal_solve", "tridiagonal_solve_p", "eig", "eig_p",
                             "EigImplementation", "hessenberg", "hessenberg_p",
                             "householder_product", "householder_product_p", "schur",
                             "schur_p"]

"""Record JAX 0.10.2's nonsymmetric eigendecomposition (``jnp.linalg.eig``,
``jnp.linalg.eigvals``, ``lax.linalg.eig``) and its JVP, column-pivoted QR, the
Hessenberg reduction (``lax.linalg.hessenberg``/``householder_product``,
``jax.scipy.linalg.hessenberg``) and the Schur decomposition (``lax.linalg.schur``,
``jax.scipy.linalg.schur``) into ``tests/data/linalg_eig.json``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_linalg_eig.py

For each case of ``CASES``: the jaxpr text and the outputs' weak types, and the eager
outputs (dtype, shape, real and imaginary parts), or the exception's class and message.
"""
from __future__ import annotations

import json
from pathlib import Path

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np
from jax import lax

ROOT = Path(__file__).resolve().parent.parent

#: name -> (program, arguments, x64): Python expressions over ``lax``, ``jnp``, ``np``,
#: ``jax``, ``jsl`` and the matrices ``M`` below.
CASES = {
    "eig_f32_real": ("jnp.linalg.eig", "[M['real3'].astype(np.float32)]", False),
    "eig_f32_pairs": ("jnp.linalg.eig", "[M['pairs4'].astype(np.float32)]", False),
    "eig_f64_pairs": ("jnp.linalg.eig", "[M['pairs4']]", True),
    "eig_c64": ("jnp.linalg.eig", "[M['cplx3'].astype(np.complex64)]", False),
    "eig_batch": ("jnp.linalg.eig", "[M['batch'].astype(np.float32)]", False),
    "eig_1x1": ("jnp.linalg.eig", "[np.array([[2.5]], np.float32)]", False),
    "eig_int": ("jnp.linalg.eig", "[np.array([[1, 2], [3, 4]], np.int32)]", False),
    "eig_weak": ("lambda: jnp.linalg.eig(jnp.eye(2) * 2.0)", "[]", False),
    "eig_list": ("jnp.linalg.eig", "[[[0.0, 1.0], [-1.0, 0.0]]]", False),
    "eigvals_f32": ("jnp.linalg.eigvals", "[M['pairs4'].astype(np.float32)]", False),
    "eigvals_bool": ("jnp.linalg.eigvals", "[np.eye(2, dtype=bool)]", False),
    "lax_eig_left": ("lambda x: lax.linalg.eig(x)", "[M['real3'].astype(np.float32)]",
                     False),
    "lax_eig_left_only": ("lambda x: lax.linalg.eig(x, compute_right_eigenvectors=False)",
                          "[M['pairs4'].astype(np.float32)]", False),
    "err_1d": ("jnp.linalg.eig", "[np.ones(3, np.float32)]", False),
    "err_nonsquare": ("jnp.linalg.eig", "[np.ones((2, 3), np.float32)]", False),
    "err_eigvals_nonsquare": ("jnp.linalg.eigvals", "[np.ones((3, 2), np.float32)]",
                              False),
    "err_lax_int": ("lax.linalg.eig", "[np.eye(2, dtype=np.int32)]", False),
    "err_lax_1d": ("lax.linalg.eig", "[np.ones(3, np.float32)]", False),
    "err_scalar": ("jnp.linalg.eig", "[np.float32(1)]", False),
    "jvp_eigvals": ("lambda x, t: jax.jvp(jnp.linalg.eigvals, (x,), (t,))",
                    "[M['pairs4'], M['tangent4']]", True),
    "jvp_eig_vectors": (
        "lambda x, t: jax.jvp(lambda a: lax.linalg.eig(a, compute_left_eigenvectors=False,"
        " enable_eigvec_derivs=True), (x,), (t,))", "[M['pairs4'], M['tangent4']]", True),
    "jvp_eig_left": (
        "lambda x, t: jax.jvp(lambda a: lax.linalg.eig(a, enable_eigvec_derivs=True),"
        " (x,), (t,))", "[M['real3'], M['tangent3']]", True),
    "err_jvp_vectors": ("lambda x, t: jax.jvp(jnp.linalg.eig, (x,), (t,))",
                        "[M['real3'], M['tangent3']]", True),
    "grad_eigvals": ("jax.grad(lambda x: jnp.linalg.eigvals(x).real.sum())",
                     "[M['pairs4']]", True),
    "vmap_eigvals": ("jax.vmap(jnp.linalg.eigvals, in_axes=1)",
                     "[M['batch'].transpose(1, 0, 2).astype(np.float32)]", False),
    "qrp_lax": ("lambda x: lax.linalg.qr(x, pivoting=True)",
                "[M['wide'].astype(np.float32)]", False),
    "qrp_lax_reduced": ("lambda x: lax.linalg.qr(x, pivoting=True, full_matrices=False)",
                        "[M['tall'].astype(np.float32)]", False),
    "qrp_lax_f64": ("lambda x: lax.linalg.qr(x, pivoting=True)", "[M['real3']]", True),
    "qrp_scipy": ("lambda x: jsl.qr(x, pivoting=True)", "[M['tall'].astype(np.float32)]",
                  False),
    "qrp_scipy_economic": ("lambda x: jsl.qr(x, pivoting=True, mode='economic')",
                           "[M['tall'].astype(np.float32)]", False),
    "qrp_scipy_r": ("lambda x: jsl.qr(x, pivoting=True, mode='r')",
                    "[M['wide'].astype(np.float32)]", False),
    "qrp_batch": ("lambda x: lax.linalg.qr(x, pivoting=True)",
                  "[M['batch'].astype(np.float32)]", False),
    "jvp_qrp": ("lambda x: jax.jvp(lambda a: lax.linalg.qr(a, pivoting=True), (x,), (x,))",
                    "[M['real3'].astype(np.float32)]", False),
    "hess_f32": ("lax.linalg.hessenberg", "[M['real4'].astype(np.float32)]", False),
    "hess_f64": ("lax.linalg.hessenberg", "[M['pairs4']]", True),
    "hess_batch": ("lax.linalg.hessenberg", "[M['batch'].astype(np.float32)]", False),
    "hess_c64": ("lax.linalg.hessenberg", "[M['cplx4'].astype(np.complex64)]", False),
    "hess_scipy_q_c128": ("lambda x: jsl.hessenberg(x, calc_q=True)", "[M['cplx4']]", True),
    "hess_1x1": ("lax.linalg.hessenberg", "[np.array([[3.0]], np.float32)]", False),
    "hess_scipy": ("jsl.hessenberg", "[M['real4'].astype(np.float32)]", False),
    "hess_scipy_q": ("lambda x: jsl.hessenberg(x, calc_q=True)", "[M['pairs4']]", True),
    "hess_scipy_q_batch": ("lambda x: jsl.hessenberg(x, calc_q=True)",
                           "[M['batch'].astype(np.float32)]", False),
    "vmap_hess": ("jax.vmap(lax.linalg.hessenberg)", "[M['batch'].astype(np.float32)]",
                  False),
    "err_hess_nonsquare": ("lax.linalg.hessenberg", "[np.ones((2, 3), np.float32)]", False),
    "err_hess_1d": ("lax.linalg.hessenberg", "[np.ones(3, np.float32)]", False),
    "err_hess_int": ("jsl.hessenberg", "[np.ones((3, 3), np.int32)]", False),
    "err_hess_jvp": ("lambda x: jax.jvp(lax.linalg.hessenberg, (x,), (x,))",
                     "[M['real3'].astype(np.float32)]", False),
    "hhp_tall": ("lax.linalg.householder_product",
                 "[M['tall'].astype(np.float32), np.array([1.2, 0.5, 1.9], np.float32)]",
                 False),
    "hhp_short_taus": ("lax.linalg.householder_product",
                       "[M['tall'], np.array([1.5, 0.25])]", True),
    "err_hhp_wide": ("lax.linalg.householder_product",
                     "[M['wide'].astype(np.float32), np.ones(3, np.float32)]", False),
    "err_hhp_taus": ("lax.linalg.householder_product",
                     "[M['tall'].astype(np.float32), np.ones(4, np.float32)]", False),
    "err_hhp_batch": ("lax.linalg.householder_product",
                      "[M['tall'].astype(np.float32), np.ones((2, 2), np.float32)]", False),
    "err_hhp_int": ("lax.linalg.householder_product",
                    "[np.ones((3, 3), np.int32), np.ones(2, np.float32)]", False),
    "schur_f32": ("lax.linalg.schur", "[M['real4'].astype(np.float32)]", False),
    "schur_pairs": ("lax.linalg.schur", "[M['pairs4'].astype(np.float32)]", False),
    "schur_f64": ("lax.linalg.schur", "[M['pairs4']]", True),
    "schur_c64": ("lax.linalg.schur", "[M['cplx3'].astype(np.complex64)]", False),
    "schur_batch": ("lax.linalg.schur", "[M['batch'].astype(np.float32)]", False),
    "schur_no_vectors": ("lambda x: lax.linalg.schur(x, compute_schur_vectors=False)",
                         "[M['pairs4'].astype(np.float32)]", False),
    "schur_scipy": ("jsl.schur", "[M['pairs4'].astype(np.float32)]", False),
    "schur_scipy_complex": ("lambda x: jsl.schur(x, output='complex')",
                            "[M['pairs4'].astype(np.float32)]", False),
    "err_schur_nonsquare": ("lax.linalg.schur", "[np.ones((2, 3), np.float32)]", False),
    "err_schur_1d": ("lax.linalg.schur", "[np.ones(3, np.float32)]", False),
    "err_schur_int": ("jsl.schur", "[np.ones((3, 3), np.int32)]", False),
    "err_schur_output": ("lambda x: jsl.schur(x, output='foo')",
                         "[M['real3'].astype(np.float32)]", False),
    "err_schur_sort": ("lambda x: lax.linalg.schur(x, sort_eig_vals=True)",
                       "[M['real3'].astype(np.float32)]", False),
    "err_schur_jvp": ("lambda x: jax.jvp(lax.linalg.schur, (x,), (x,))",
                      "[M['real3'].astype(np.float32)]", False),
}

_rng = np.random.default_rng(20)
M = {
    "real3": np.array([[1., 2, 0], [3, -1, 4], [0.5, 2, 2]]),
    "real4": np.array([[1., 2, 0, 1], [3, -1, 4, 2], [0.5, 2, 2, 1], [1, 1, 1, 0]]),
    "pairs4": np.array([[0., -2, 1, 0.5], [2, 0, 0.3, 1], [0.1, 0.2, 1, -3],
                        [0.4, -0.2, 3, 1]]),
    "cplx4": np.array([[1 + 1j, 2, 0.5j, 1], [0.3, -1j, 1 - 2j, 2], [2j, 1, 0.5, 1j],
                       [1, 2 - 1j, 0, 1]]),
    "cplx3": np.array([[1 + 1j, 2, 0.5j], [0.3, -1j, 1 - 2j], [2j, 1, 0.5]]),
    "batch": _rng.standard_normal((2, 3, 3)).round(3),
    "tangent4": _rng.standard_normal((4, 4)).round(3),
    "tangent3": _rng.standard_normal((3, 3)).round(3),
    "wide": _rng.standard_normal((3, 5)).round(3),
    "tall": _rng.standard_normal((5, 3)).round(3),
}


def _error(e) -> dict:
    return {"error": type(e).__name__, "message": str(e).split("\n--------------------")[0]}


def _outputs(outs) -> list:
    recs = []
    for o in jax.tree_util.tree_leaves(outs):
        a = np.asarray(o)
        rec = {"dtype": a.dtype.name, "shape": list(a.shape),
               "weak_type": bool(getattr(getattr(o, "aval", None), "weak_type", False))}
        if a.dtype.kind == "V":  # float0 tangent: no values
            pass
        elif a.dtype.kind == "c":
            rec["real"], rec["imag"] = a.real.tolist(), a.imag.tolist()
        else:
            rec["values"] = a.tolist()
        recs.append(rec)
    return recs


def main() -> None:
    out = {"matrices": {k: (v.tolist() if v.dtype.kind != "c" else
                            {"real": v.real.tolist(), "imag": v.imag.tolist()})
                        for k, v in M.items()}, "cases": {}}
    for name, (prog, args, x64) in CASES.items():
        jax.config.update("jax_enable_x64", x64)
        ns = {"lax": lax, "jnp": jnp, "np": np, "jax": jax, "jsl": jsl, "M": M}
        fn, a = eval(prog, ns), eval(args, ns)
        rec = {"program": prog, "args": args, "x64": x64}
        try:
            closed = jax.make_jaxpr(fn)(*a)
            rec["jaxpr"] = str(closed)
        except Exception as e:  # noqa: BLE001
            rec["jaxpr_error"] = _error(e)
        try:
            rec["outputs"] = _outputs(fn(*a))
        except Exception as e:  # noqa: BLE001
            rec.update(_error(e))
        out["cases"][name] = rec
    jax.config.update("jax_enable_x64", False)
    path = ROOT / "tests" / "data" / "linalg_eig.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()

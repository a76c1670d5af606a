"""Record JAX 0.10.2's answers for the nonsymmetric eigenproblem's C kernels and the
Schur-based matrix functions into ``tests/data/eig_kernels.json``: ``lax.linalg.eig``,
``schur`` and ``hessenberg`` of a few real and complex matrices (batched, with a
conjugate pair, a repeated eigenvalue, a non-finite entry), ``jax.scipy.linalg.sqrtm``, ``funm`` and
``rsf2csf`` (values and dtypes), and their errors (class and message).

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_eig_kernels.py
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
RNG = np.random.default_rng(2020)

#: name -> matrix (float64 values; the cases convert)
M = {
    "r5": RNG.standard_normal((5, 5)),
    "r6": RNG.standard_normal((6, 6)),
    "batch": RNG.standard_normal((3, 4, 4)),
    "rot": np.array([[0.0, -2.0, 1.0], [2.0, 0.0, 0.5], [0.0, 0.0, 3.0]]),
    "jordan": np.array([[2.0, 1.0, 0.0], [0.0, 2.0, 1.0], [0.0, 0.0, 2.0]]),
    "nan": np.array([[1.0, np.nan], [0.0, 2.0]]),
    "spd": np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 2.0], [3.0, 2.0, 1.0]]),
    "neg": np.array([[-4.0, 0.0], [0.0, 9.0]]),
    "upper": np.array([[4.0, 1.0, 0.5], [0.0, 9.0, 2.0], [0.0, 0.0, 1.0]]),
    "pd4": (lambda a: a @ a.T + 4 * np.eye(4))(RNG.standard_normal((4, 4))),
    "small": np.array([[1.0, 2.0], [3.0, 4.0]]),
}

#: name -> (program, arguments, x64): Python expressions over lax, jnp, np, jax, jsl, M
CASES = {
    "eig_r5_f32": ("lax.linalg.eig", "[M['r5'].astype(np.float32)]", False),
    "eig_r6_f64": ("lax.linalg.eig", "[M['r6']]", True),
    "eig_batch": ("lambda a: lax.linalg.eig(a, compute_left_eigenvectors=False)",
                  "[M['batch'].astype(np.float32)]", False),
    "eig_rot": ("jnp.linalg.eig", "[M['rot'].astype(np.float32)]", False),
    "eig_jordan": ("jnp.linalg.eigvals", "[M['jordan']]", True),
    "eig_nan": ("jnp.linalg.eig", "[M['nan'].astype(np.float32)]", False),
    "schur_r5": ("lax.linalg.schur", "[M['r5']]", True),
    # complex operands: built from the real matrices above (JSON holds reals only)
    "eig_c5_c64": ("lax.linalg.eig", "[(M['r5'] + 1j * M['r6'][1:, 1:]).astype(np.complex64)]",
                   False),
    "eig_c4_c128": ("lax.linalg.eig", "[M['batch'][0] + 1j * M['batch'][1]]", True),
    "eig_cbatch": ("lambda a: lax.linalg.eig(a, compute_left_eigenvectors=False)",
                   "[(M['batch'] + 1j * np.roll(M['batch'], 1, 0)).astype(np.complex64)]", False),
    "eig_nan_c64": ("jnp.linalg.eig", "[M['nan'].astype(np.complex64)]", False),
    "schur_c5": ("lax.linalg.schur", "[M['r5'] + 1j * M['r6'][:5, :5]]", True),
    "schur_cbatch": ("lax.linalg.schur", "[(M['batch'] - 1j * np.roll(M['batch'], 1, 0)).astype("
                     "np.complex64)]", False),
    "hess_c6": ("lax.linalg.hessenberg", "[(M['r6'] + 1j * M['r6'].T).astype(np.complex64)]",
                False),
    "schur_batch": ("lax.linalg.schur", "[M['batch'].astype(np.float32)]", False),
    "hess_r6": ("lax.linalg.hessenberg", "[M['r6'].astype(np.float32)]", False),
    "sqrtm_spd_f32": ("jsl.sqrtm", "[M['spd'].astype(np.float32)]", False),
    "sqrtm_pd4_f64": ("jsl.sqrtm", "[M['pd4']]", True),
    "sqrtm_r5_f64": ("jsl.sqrtm", "[M['r5']]", True),
    "sqrtm_neg": ("jsl.sqrtm", "[M['neg'].astype(np.float32)]", False),
    "sqrtm_upper_int": ("jsl.sqrtm", "[M['upper'].astype(np.int32)]", False),
    "sqrtm_zero": ("jsl.sqrtm", "[np.zeros((2, 2), np.float32)]", False),
    "sqrtm_complex": ("jsl.sqrtm", "[(M['small'] + 1j * M['small'].T).astype(np.complex64)]",
                      False),
    "funm_sincos": ("lambda a: jsl.funm(a, lambda x: jnp.sin(x) + 2 * jnp.cos(x))",
                    "[M['small'].astype(np.float32)]", False),
    "funm_exp_err": ("lambda a: jsl.funm(a, jnp.exp, disp=False)", "[M['small']]", False),
    "funm_exp_f64": ("lambda a: jsl.funm(a, jnp.exp)", "[M['rot']]", True),
    "rsf2csf_rot": ("lambda a: jsl.rsf2csf(*jsl.schur(a))", "[M['rot'].astype(np.float32)]",
                    False),
    "err_sqrtm_1d": ("jsl.sqrtm", "[np.ones(3, np.float32)]", False),
    "err_sqrtm_block": ("lambda a: jsl.sqrtm(a, blocksize=2)", "[np.eye(2, dtype=np.float32)]",
                        False),
    "err_funm_nonsquare": ("lambda a: jsl.funm(a, jnp.exp)", "[np.ones((2, 3), np.float32)]",
                           False),
    "err_rsf2csf_nonsquare": ("jsl.rsf2csf", "[np.ones((2, 3), np.float32), np.eye(2)]",
                              False),
    "err_rsf2csf_mismatch": ("jsl.rsf2csf", "[np.eye(2, dtype=np.float32), np.eye(3)]",
                             False),
}


def _encode(x) -> dict:
    x = np.asarray(x)
    out = {"dtype": x.dtype.name, "shape": list(x.shape)}
    if x.dtype.kind == "c":
        out["real"] = np.real(x).ravel().tolist()
        out["imag"] = np.imag(x).ravel().tolist()
    else:
        out["values"] = x.ravel().tolist()
    return out


def record(name, program, args, x64) -> dict:
    jax.config.update("jax_enable_x64", x64)
    ns = {"lax": lax, "jnp": jnp, "np": np, "jax": jax, "jsl": jsl, "M": M}
    fn, vals = eval(program, ns), eval(args, ns)
    rec = {"program": program, "args": args, "x64": x64}
    try:
        outs = jax.tree_util.tree_leaves(fn(*vals))
    except Exception as e:  # noqa: BLE001 (recording what JAX raises)
        rec.update(error=type(e).__name__, message=str(e))
        return rec
    rec["outputs"] = [_encode(o) for o in outs]
    rec["weak_types"] = [bool(getattr(o, "weak_type", False)) for o in outs]
    return rec


def main() -> None:
    data = {"jax_version": jax.__version__,
            "matrices": {k: np.where(np.isnan(v), 0, v).tolist() if k != "nan" else
                         "nan" for k, v in M.items()},
            "cases": {name: record(name, *spec) for name, spec in CASES.items()}}
    out = ROOT / "tests" / "data" / "eig_kernels.json"
    out.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()

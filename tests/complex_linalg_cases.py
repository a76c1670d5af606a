"""Programs of complex linear algebra (issue 21) recorded under JAX 0.10.2 by
``tools/record_complex_linalg.py`` into ``tests/data/complex_linalg.json`` and replayed
by ``test_linalg_complex.py``.

Each case is ``name: (program, arguments, x64)`` as in ``linalg_cases.py``: two Python
expressions evaluated with ``lax``, ``jnp``, ``np`` and ``jax`` in scope. ``VECTORS``
names the outputs (by position) whose values are defined only up to a phase per
column (eigenvectors, singular vectors): only their dtype and shape are compared with
JAX's, and the tests check the decomposition's residual instead.
"""

# Exact binary fractions, so that both sides start from the same bits.
_A3 = ("np.array([[2+1j, -1+.5j, .5], [.25-1j, 3, 1+1j], [-.5j, 1-.5j, -2+.25j]], "
       "np.{dt})")
_A43 = ("np.array([[1+1j, 2, -.5j], [3-1j, .5+.5j, 1], [-1, 1j, 2-2j], [.25, -1+1j, .5]], "
        "np.{dt})")
_HPD = "(lambda m: (m @ m.conj().T + 3 * np.eye(3)).astype(m.dtype))(" + _A3 + ")"
_HERM = "(lambda m: (m + m.conj().T).astype(m.dtype))(" + _A3 + ")"
_TRIU = "np.triu(" + _A3 + ") + 2 * np.eye(3, dtype=np.{dt})"
_B32 = "np.array([[1, 1j], [2-1j, .5], [-1+.5j, 3]], np.{dt})"
# |3+3j| < |5| but |re| + |im|: 6 > 5, so LAPACK's pivot (izamax) keeps row 0.
_PIV = "np.array([[3+3j, 1], [5, 2+1j]], np.{dt})"
_NOT_PD = "np.array([[1, 2j], [-2j, 1]], np.{dt})"


def _c(expr: str, x64: bool = False) -> str:
    return expr.format(dt="complex128" if x64 else "complex64")


def _cases() -> dict:
    out = {}
    for x64 in (False, True):
        sfx = "c128" if x64 else "c64"
        a3, a43, hpd, herm = _c(_A3, x64), _c(_A43, x64), _c(_HPD, x64), _c(_HERM, x64)
        triu, b32 = _c(_TRIU, x64), _c(_B32, x64)
        table = {
            "cholesky": ("lax.linalg.cholesky", f"({hpd},)"),
            "cholesky_upper": ("lambda a: jnp.linalg.cholesky(a, upper=True)", f"({hpd},)"),
            "lu_square": ("lax.linalg.lu", f"({a3},)"),
            "lu_tall": ("lax.linalg.lu", f"({a43},)"),
            "lu_pivot_abs1": ("lax.linalg.lu", f"({_c(_PIV, x64)},)"),
            "qr_square": ("lambda a: lax.linalg.qr(a)", f"({a3},)"),
            "qr_tall_reduced": ("lambda a: jnp.linalg.qr(a)", f"({a43},)"),
            "qr_tall_full": ("lambda a: jnp.linalg.qr(a, mode='complete')", f"({a43},)"),
            "qr_wide": ("lambda a: jnp.linalg.qr(a.T)", f"({a43},)"),
            "det": ("jnp.linalg.det", f"({a3},)"),
            "slogdet": ("jnp.linalg.slogdet", f"({a3},)"),
            "inv": ("jnp.linalg.inv", f"({a3},)"),
            "solve": ("jnp.linalg.solve", f"({a3}, {b32})"),
            "eigh": ("jnp.linalg.eigh", f"({herm},)"),
            "eigvalsh_upper": ("lambda a: jnp.linalg.eigvalsh(a, UPLO='U')", f"({herm},)"),
            "svd": ("jnp.linalg.svd", f"({a43},)"),
            "svd_reduced_wide": ("lambda a: jnp.linalg.svd(a.T, full_matrices=False)", f"({a43},)"),
            "svdvals": ("jnp.linalg.svdvals", f"({a43},)"),
            "pinv": ("jnp.linalg.pinv", f"({a43},)"),
            "lstsq": ("lambda a, b: jnp.linalg.lstsq(a, b)[:3]", f"({a43}, {a43}[:, :2])"),
            "matrix_rank": ("jnp.linalg.matrix_rank", f"({a43},)"),
            "cond": ("jnp.linalg.cond", f"({a3},)"),
            "norm_2": ("lambda a: jnp.linalg.norm(a, 2)", f"({a3},)"),
        }
        for name, (prog, args) in table.items():
            out[f"{name}_{sfx}"] = (prog, args, x64)
    a3, hpd, triu, b32 = _c(_A3), _c(_HPD), _c(_TRIU), _c(_B32)
    ts = "lambda a, b: lax.linalg.triangular_solve(a, b, {})"
    for i, kw in enumerate(["left_side=True, lower=False",
                            "left_side=True, lower=False, transpose_a=True",
                            "left_side=True, lower=False, transpose_a=True, conjugate_a=True",
                            "left_side=False, lower=True, conjugate_a=True",
                            "left_side=False, lower=True, transpose_a=True, unit_diagonal=True"]):
        rhs = b32 if kw.startswith("left_side=True") else f"{b32}.T"
        a = triu if "lower=False" in kw else f"{triu}.T"
        out[f"triangular_solve_{i}"] = (ts.format(kw), f"({a}, {rhs})", False)
    sl = "jax.scipy.linalg"
    out.update({
        "scipy_lu": (f"{sl}.lu", f"({a3},)", False),
        "scipy_lu_factor": (f"{sl}.lu_factor", f"({a3},)", False),
        "scipy_lu_solve_1": (f"lambda a, b: {sl}.lu_solve({sl}.lu_factor(a), b, trans=1)",
                             f"({a3}, {b32})", False),
        "scipy_lu_solve_2": (f"lambda a, b: {sl}.lu_solve({sl}.lu_factor(a), b, trans=2)",
                             f"({a3}, {b32})", False),
        "scipy_cho_solve": (f"lambda a, b: {sl}.cho_solve({sl}.cho_factor(a), b)",
                            f"({hpd}, {b32})", False),
        "scipy_cho_solve_lower": (f"lambda a, b: {sl}.cho_solve({sl}.cho_factor(a, lower=True), b)",
                                  f"({hpd}, {b32})", False),
        "scipy_cholesky": (f"{sl}.cholesky", f"({hpd},)", False),
        "scipy_solve_triangular_C": (f"lambda a, b: {sl}.solve_triangular(a, b, trans='C')",
                                     f"({triu}, {b32})", False),
        "scipy_solve_pos": (f"lambda a, b: {sl}.solve(a, b, assume_a='pos')",
                            f"({hpd}, {b32})", False),
        "cholesky_not_pd": ("lax.linalg.cholesky", f"({_c(_NOT_PD)},)", False),
        # JAX's convention for gradients of real functions of complex inputs
        "grad_abs_det": ("jax.grad(lambda a: jnp.abs(jnp.linalg.det(a)) ** 2)", f"({a3},)", False),
        "grad_logabsdet": ("jax.grad(lambda a: jnp.linalg.slogdet(a)[1])", f"({a3},)", False),
        "grad_inv": ("jax.grad(lambda a: jnp.sum(jnp.abs(jnp.linalg.inv(a)) ** 2))",
                     f"({a3},)", False),
        "grad_solve": ("jax.grad(lambda a, b: jnp.sum(jnp.abs(jnp.linalg.solve(a, b)) ** 2), "
                       "argnums=(0, 1))", f"({a3}, {b32})", False),
        "grad_cholesky": ("jax.grad(lambda a: jnp.sum(jnp.abs(jnp.linalg.cholesky(a)) ** 2))",
                          f"({hpd},)", False),
        "grad_qr": ("jax.grad(lambda a: jnp.sum(jnp.abs(jnp.linalg.qr(a)[1]) ** 2 "
                    "* np.arange(1, 13).reshape(3, 4)))", f"({_c(_A43)}.T,)", False),
        "grad_eigvalsh": ("jax.grad(lambda a: jnp.sum(jnp.linalg.eigvalsh(a) * "
                          "np.array([1., 2., 3.], np.float32)))", f"({_c(_HERM)},)", False),
        "grad_svdvals": ("jax.grad(lambda a: jnp.sum(jnp.linalg.svdvals(a) * "
                         "np.array([1., 2., 3.], np.float32)))", f"({_c(_A43)},)", False),
        "grad_triangular_solve": ("jax.grad(lambda a, b: jnp.sum(jnp.abs(lax.linalg."
                                  "triangular_solve(a, b, left_side=True, transpose_a=True, "
                                  "conjugate_a=True)) ** 2), argnums=(0, 1))",
                                  f"({triu}, {b32})", False),
        "jvp_det": ("lambda a, t: jax.jvp(jnp.linalg.det, (a,), (t,))",
                    f"({a3}, {a3}[::-1])", False),
        "jvp_slogdet": ("lambda a, t: jax.jvp(jnp.linalg.slogdet, (a,), (t,))",
                        f"({a3}, {a3}[::-1])", False),
        "vmap_cholesky": ("jax.vmap(lax.linalg.cholesky)",
                          f"(np.stack([{hpd}, 2 * {hpd}]),)", False),
        "mixed_dtypes": ("lambda a, b: lax.linalg.triangular_solve(a, b)",
                         f"({triu}, np.ones((3, 3), np.float32))", False),
    })
    return out


COMPLEX = _cases()

#: Outputs compared by dtype and shape only (defined up to a phase per vector).
VECTORS = {name: idx for name, idx in (
    [(f"eigh_{s}", (1,)) for s in ("c64", "c128")]
    + [(f"svd_{s}", (0, 2)) for s in ("c64", "c128")]
    + [(f"svd_reduced_wide_{s}", (0, 2)) for s in ("c64", "c128")])}

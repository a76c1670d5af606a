"""Programs of ``jax.scipy.linalg``, ``jax.scipy.integrate``, ``jax.scipy.optimize`` and
``lax.custom_linear_solve``, recorded from JAX 0.10.2 by ``tools/record_scipy_linalg.py``
(``tests/data/scipy_linalg.json``) and replayed with transpile by
``tests/test_scipy_*.py`` and ``tests/test_lax_linear_solve.py``.

Each case is ``name: (program, arguments, x64)``, both Python source evaluated with
``jax``, ``jnp``, ``lax`` and ``np`` bound (to JAX or to transpile).
"""
from __future__ import annotations

# A well-conditioned symmetric positive-definite matrix and a general one.
_S = "np.array([[4., 1., .5], [1., 3., .25], [.5, .25, 2.]], np.float32)"
_G = "np.array([[1., 2., 0.], [3., -1., 2.], [0.5, 1., 4.]], np.float32)"
_U = "np.array([[2., 1., -1.], [0., 3., .5], [0., 0., 1.5]], np.float32)"
_V3 = "np.array([1., -2., .5], np.float32)"
_M32 = "(np.arange(6, dtype=np.float32).reshape(3, 2) - 2)"
_SL = "jax.scipy.linalg"

LINALG = {
    # solve_triangular
    "st_lower_vec": (f"lambda a, b: {_SL}.solve_triangular(a, b, lower=True)", f"({_U}.T, {_V3})", False),
    "st_upper_mat": (f"lambda a, b: {_SL}.solve_triangular(a, b)", f"({_U}, {_M32})", False),
    "st_trans": (f"lambda a, b: {_SL}.solve_triangular(a, b, trans=1)", f"({_U}, {_V3})", False),
    "st_trans_c": (f"lambda a, b: {_SL}.solve_triangular(a, b, trans='C', unit_diagonal=True)", f"({_U}, {_V3})", False),
    "st_int": (f"lambda a, b: {_SL}.solve_triangular(a, b)", "(np.array([[2, 1], [0, 4]], np.int32), np.array([3, 8], np.int32))", False),
    "st_f64": (f"lambda a, b: {_SL}.solve_triangular(a, b, lower=True)", f"({_U}.T.astype(np.float64), {_V3}.astype(np.float64))", True),
    "st_batch": (f"lambda a, b: {_SL}.solve_triangular(a, b)", f"(np.stack([{_U}, 2 * {_U}]), np.ones((3, 2), np.float32))", False),
    "st_bad_trans": (f"lambda a, b: {_SL}.solve_triangular(a, b, trans=3)", f"({_U}, {_V3})", False),
    "st_bad_shape": (f"lambda a, b: {_SL}.solve_triangular(a, b)", f"({_U}, np.ones(2, np.float32))", False),
    # Cholesky
    "cholesky_upper": (f"lambda a: {_SL}.cholesky(a)", f"({_S},)", False),
    "cholesky_lower": (f"lambda a: {_SL}.cholesky(a, lower=True)", f"({_S},)", False),
    "cho_factor": (f"lambda a: {_SL}.cho_factor(a)[0]", f"({_S},)", False),
    "cho_solve_vec": (f"lambda a, b: {_SL}.cho_solve({_SL}.cho_factor(a), b)", f"({_S}, {_V3})", False),
    "cho_solve_lower_mat": (f"lambda a, b: {_SL}.cho_solve({_SL}.cho_factor(a, lower=True), b)", f"({_S}, {_M32})", False),
    # LU
    "lu": (f"lambda a: {_SL}.lu(a)", f"({_G},)", False),
    "lu_permute_l": (f"lambda a: {_SL}.lu(a, permute_l=True)", f"({_G},)", False),
    "lu_wide": (f"lambda a: {_SL}.lu(a)", f"({_G}[:2],)", False),
    "lu_tall": (f"lambda a: {_SL}.lu(a)", f"({_G}[:, :2],)", False),
    "lu_int": (f"lambda a: {_SL}.lu(a)", "(np.array([[1, 2], [3, 4]], np.int32),)", False),
    "lu_factor": (f"lambda a: {_SL}.lu_factor(a)", f"({_G},)", False),
    "lu_solve": (f"lambda a, b: {_SL}.lu_solve({_SL}.lu_factor(a), b)", f"({_G}, {_V3})", False),
    "lu_solve_trans": (f"lambda a, b: {_SL}.lu_solve({_SL}.lu_factor(a), b, trans=1)", f"({_G}, {_M32})", False),
    "lu_solve_f64": (f"lambda a, b: {_SL}.lu_solve({_SL}.lu_factor(a), b)", f"({_G}.astype(np.float64), {_V3}.astype(np.float64))", True),
    # QR, SVD, eigh (values only where they are unique)
    "qr_r": (f"lambda a: {_SL}.qr(a, mode='r')", f"({_G},)", False),
    "qr_economic_shapes": (f"lambda a: [x.shape for x in {_SL}.qr(a, mode='economic')]", f"({_G}[:, :2],)", False),
    "qr_bad_mode": (f"lambda a: {_SL}.qr(a, mode='raw')", f"({_G},)", False),
    "svd_values": (f"lambda a: {_SL}.svd(a, compute_uv=False)", f"({_G},)", False),
    "eigh_values": (f"lambda a: {_SL}.eigh(a, eigvals_only=True)", f"({_S},)", False),
    "eigh_b": (f"lambda a: {_SL}.eigh(a, a)", f"({_S},)", False),
    "eigh_tridiagonal": (f"lambda d, e: {_SL}.eigh_tridiagonal(d, e, eigvals_only=True)", "(np.array([2., 3., 1., 4.], np.float32), np.array([1., -.5, .25], np.float32))", False),
    "eigh_tridiagonal_f64": (f"lambda d, e: {_SL}.eigh_tridiagonal(d, e, eigvals_only=True)", "(np.array([2., 3., 1., 4.]), np.array([1., -.5, .25]))", True),
    "eigh_tridiagonal_dtypes": (f"lambda d, e: {_SL}.eigh_tridiagonal(d, e, eigvals_only=True)", "(np.ones(3, np.float32), np.ones(2))", True),
    # expm
    "expm_f32": (f"lambda a: {_SL}.expm(a)", f"({_G} / 4,)", False),
    "expm_f64": (f"lambda a: {_SL}.expm(a)", f"({_G}.astype(np.float64) / 4,)", True),
    "expm_large": (f"lambda a: {_SL}.expm(a)", f"({_G} * 2,)", False),
    "expm_large_f64": (f"lambda a: {_SL}.expm(a)", f"({_G}.astype(np.float64) * 3,)", True),
    "expm_zero": (f"lambda a: {_SL}.expm(a)", "(np.zeros((2, 2), np.float32),)", False),
    "expm_int": (f"lambda a: {_SL}.expm(a)", "(np.array([[0, 1], [-1, 0]], np.int32),)", False),
    "expm_batch": (f"lambda a: {_SL}.expm(a)", f"(np.stack([{_G} / 8, {_S} / 8]),)", False),
    "expm_upper": (f"lambda a: {_SL}.expm(a, upper_triangular=True)", f"({_U} / 2,)", False),
    "expm_nan": (f"lambda a: {_SL}.expm(a, max_squarings=2)", f"({_G} * 20,)", False),
    "expm_not_square": (f"lambda a: {_SL}.expm(a)", "(np.ones((2, 3), np.float32),)", False),
    "expm_frechet": (f"lambda a, e: {_SL}.expm_frechet(a, e)", f"({_G} / 4, {_S} / 4)", False),
    "expm_frechet_only": (f"lambda a, e: {_SL}.expm_frechet(a, e, compute_expm=False)", f"({_G}.astype(np.float64) / 4, {_S}.astype(np.float64))", True),
    "expm_frechet_shapes": (f"lambda a, e: {_SL}.expm_frechet(a, e)", "(np.eye(2, dtype=np.float32), np.eye(3, dtype=np.float32))", False),
    # det, inv, solve
    "det": (f"lambda a: {_SL}.det(a)", f"({_G},)", False),
    "inv": (f"lambda a: {_SL}.inv(a)", f"({_G},)", False),
    "solve_gen": (f"lambda a, b: {_SL}.solve(a, b)", f"({_G}, {_V3})", False),
    "solve_sym_mat": (f"lambda a, b: {_SL}.solve(a, b, assume_a='sym')", f"({_S}, {_M32})", False),
    "solve_pos": (f"lambda a, b: {_SL}.solve(a, b, assume_a='pos')", f"({_S}, {_V3})", False),
    "solve_pos_lower_mat": (f"lambda a, b: {_SL}.solve(a, b, assume_a='pos', lower=True)", f"({_S}, {_M32})", False),
    "solve_pos_f64": (f"lambda a, b: {_SL}.solve(a, b, assume_a='pos')", f"({_S}.astype(np.float64), {_V3}.astype(np.float64))", True),
    "solve_bad_assume": (f"lambda a, b: {_SL}.solve(a, b, assume_a='banded')", f"({_S}, {_V3})", False),
    # special matrices, polar
    "block_diag": (f"lambda a, b, c: {_SL}.block_diag(a, b, c)", "(np.ones((2, 2), np.float32), np.float32(3), np.arange(3, dtype=np.int32))", False),
    "block_diag_bad": (f"lambda a: {_SL}.block_diag(a)", "(np.ones((1, 2, 2), np.float32),)", False),
    "toeplitz_c": (f"lambda c: {_SL}.toeplitz(c)", "(np.array([1., 2., 3.], np.float32),)", False),
    "toeplitz_cr": (f"lambda c, r: {_SL}.toeplitz(c, r)", "(np.array([1, 2, 3], np.int32), np.array([9, 8, 7, 6], np.int32))", False),
    "hilbert": (f"lambda: {_SL}.hilbert(3)", "()", False),
    "polar_right_posdef": (f"lambda a: {_SL}.polar(a, method='svd')[1]", f"({_G},)", False),
    "polar_left_posdef": (f"lambda a: {_SL}.polar(a, side='left', method='svd')[1]", f"({_G},)", False),
    "polar_bad_side": (f"lambda a: {_SL}.polar(a, side='up')", f"({_G},)", False),
    "polar_1d": (f"lambda a: {_SL}.polar(a)", f"({_V3},)", False),
}

# Cases whose jaxpr text transpile reproduces (compared as text).
LINALG_JAXPRS = ["st_lower_vec", "st_upper_mat", "st_trans", "cholesky_upper",
                 "cholesky_lower", "cho_solve_vec", "solve_pos", "lu_factor", "det",
                 "solve_gen", "hilbert", "st_batch", "cho_solve_lower_mat", "qr_r",
                 "svd_values", "eigh_values", "block_diag"]

INTEGRATE = {
    "dx": ("jax.scipy.integrate.trapezoid", "(np.array([1, 2, 3, 2, 3, 2, 1], np.int32),)", False),
    "x": ("jax.scipy.integrate.trapezoid", "(np.array([1, 2, 3, 2, 3, 2, 1], np.int32), np.array([0, 2, 5, 7, 10, 15, 20], np.int32))", False),
    "dx_value": ("lambda y: jax.scipy.integrate.trapezoid(y, dx=0.5)", "(np.arange(5, dtype=np.float32) ** 2,)", False),
    "axis0": ("lambda y: jax.scipy.integrate.trapezoid(y, axis=0)", "(np.arange(12, dtype=np.float32).reshape(4, 3),)", False),
    "x2d": ("lambda y, x: jax.scipy.integrate.trapezoid(y, x, axis=1)", "(np.arange(12, dtype=np.float32).reshape(3, 4), np.cumsum(np.ones((3, 4), np.float32), axis=1) ** 2)", False),
    "f64": ("jax.scipy.integrate.trapezoid", "(np.linspace(0, 1, 7), np.linspace(0, 2, 7))", True),
    "dx_array": ("lambda y, dx: jax.scipy.integrate.trapezoid(y, dx=dx)", "(np.ones((2, 4), np.float32), np.array([.5, 2.], np.float32)[:, None])", False),
    "list": ("jax.scipy.integrate.trapezoid", "([1., 2.],)", False),
}

INTEGRATE_JAXPRS = ["dx", "x", "axis0", "dx_value"]

_ROSEN = "lambda x: jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)"
_QUAD = "lambda x, a, b: 0.5 * x @ a @ x - b @ x"
_QA = "np.array([[3., 1.], [1., 2.]], {dt})"
_QB = "np.array([1., -1.], {dt})"
_OUT = "lambda r: (r.x, r.success, r.status, r.fun, r.jac, r.hess_inv, r.nfev, r.njev, r.nit)"

# Each program runs under ``jit`` (one compile each).
OPTIMIZE = {
    "quad_f64": (f"jax.jit(lambda x: ({_OUT})(jax.scipy.optimize.minimize({_QUAD}, x, ({_QA.format(dt='np.float64')}, {_QB.format(dt='np.float64')}), method='BFGS')))", "(np.zeros(2),)", True),
    "rosen_f64": (f"jax.jit(lambda x: ({_OUT})(jax.scipy.optimize.minimize({_ROSEN}, x, method='bfgs', options=dict(maxiter=40))))", "(np.array([0.5, 0.8, 1.1]),)", True),
    "quad_f32": (f"jax.jit(lambda x: ({_OUT})(jax.scipy.optimize.minimize({_QUAD}, x, ({_QA.format(dt='np.float32')}, {_QB.format(dt='np.float32')}), method='BFGS', options=dict(gtol=1e-4))))", "(np.array([1., 1.], np.float32),)", False),
    "bad_method": ("lambda x: jax.scipy.optimize.minimize(lambda x: x @ x, x, method='Nelder-Mead')", "(np.ones(2, np.float32),)", False),
    "bad_args": ("lambda x: jax.scipy.optimize.minimize(lambda x, a: x @ x, x, args=[1.], method='BFGS')", "(np.ones(2, np.float32),)", False),
}

_MV = "lambda x: jnp.dot(a, x, precision=lax.Precision.HIGHEST)"
_SOLVE = "lambda mv, r: jnp.linalg.solve(a, r)"
_TSOLVE = "lambda vm, r: jnp.linalg.solve(a.T, r)"

LINEAR_SOLVE = {
    "cls_vec": (f"lambda a, b: lax.custom_linear_solve({_MV}, b, {_SOLVE}, {_TSOLVE})", f"({_G}, {_V3})", False),
    "cls_symmetric": (f"lambda a, b: lax.custom_linear_solve({_MV}, b, {_SOLVE}, {_SOLVE}, symmetric=True)", f"({_S}, {_V3})", False),
    "cls_no_transpose": (f"lambda a, b: lax.custom_linear_solve({_MV}, b, {_SOLVE})", f"({_S}, {_V3})", False),
    "cls_pytree": ("lambda a, b: (lambda d: (d['u'], d['v']))(lax.custom_linear_solve(lambda x: {'u': a * x['u'], 'v': 2 * x['v']}, {'u': b, 'v': b[0]}, lambda mv, r: {'u': r['u'] / a, 'v': r['v'] / 2}, lambda mv, r: {'u': r['u'] / a, 'v': r['v'] / 2}))", f"({_V3} + 3, {_V3})", False),
    "cls_grad": (f"lambda a, b: jax.grad(lambda a, b: jnp.sum(jnp.sin(lax.custom_linear_solve({_MV}, b, {_SOLVE}, {_TSOLVE}))), argnums=(0, 1))(a, b)", f"({_G}, {_V3})", False),
    "cls_jvp": (f"lambda a, b, da, db: jax.jvp(lambda a, b: lax.custom_linear_solve({_MV}, b, {_SOLVE}, {_TSOLVE}), (a, b), (da, db))", f"({_G}, {_V3}, {_S}, {_V3} * 2)", False),
    "cls_vmap": (f"lambda a, b: jax.vmap(lambda b: lax.custom_linear_solve({_MV}, b, {_SOLVE}, {_TSOLVE}))(b)", f"({_G}, {_M32}.T)", False),
    "cls_vmap_a": (f"lambda a, b: jax.vmap(lambda a: lax.custom_linear_solve({_MV}, b, {_SOLVE}, {_TSOLVE}))(a)", f"(np.stack([{_G}, {_S}]), {_V3})", False),
    "cls_bad_shape": ("lambda a, b: lax.custom_linear_solve(lambda x: x[:2], b, lambda mv, r: r)", f"({_G}, {_V3})", False),
    "cls_grad_no_transpose": (f"lambda a, b: jax.grad(lambda b: jnp.sum(lax.custom_linear_solve({_MV}, b, {_SOLVE})))(b)", f"({_S}, {_V3})", False),
    "root_sqrt": ("lambda y: lax.custom_root(lambda x: x * x - y, jnp.ones_like(y), lambda f, x0: jax.lax.fori_loop(0, 30, lambda i, x: x - f(x) / (2 * x), x0), lambda g, r: r / g(jnp.ones_like(r)))", "(np.float32(2.),)", False),
    "root_grad": ("lambda y: jax.grad(lambda y: lax.custom_root(lambda x: x * x - y, jnp.ones_like(y), lambda f, x0: jax.lax.fori_loop(0, 30, lambda i, x: x - f(x) / (2 * x), x0), lambda g, r: r / g(jnp.ones_like(r))))(y)", "(np.float32(2.),)", False),
}

LINEAR_SOLVE_JAXPRS = ["cls_vec", "cls_symmetric", "cls_no_transpose", "cls_pytree",
                       "root_sqrt", "cls_vmap_a", "cls_vmap"]

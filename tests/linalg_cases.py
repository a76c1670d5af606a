"""Programs of ``top_k``, ``cholesky`` and ``triangular_solve`` (and derivatives through
them: ``LINALG_AD``) recorded under JAX 0.10.2 by
``tools/record_linalg_data.py`` into ``tests/data/top_k.json`` and
``tests/data/linalg.json`` and replayed by ``test_lax_top_k.py`` and
``test_lax_linalg.py`` (``LINALG_AD`` into ``tests/data/linalg_ad.json``, replayed by
``test_lax_linalg_ad.py``; its programs also see ``jax``, which is ``transpile`` there).

Each case is ``name: (program, arguments, x64)``: two Python expressions evaluated with
``lax``, ``jnp`` and ``np`` in scope (JAX's or transpile's), the program a callable and
the arguments a tuple of NumPy values, and whether 64-bit types are enabled.
"""

_SPECIAL = "[np.nan, 1, -np.nan, -0.0, 0.0, np.inf, -np.inf, -0.0, 0.0, 2]"
_PD = "np.array([[4., 2., .4], [2., 3., .5], [.4, .5, 2.]], np.float32)"
# A deterministic 8x8 symmetric positive-definite matrix (integer arithmetic).
_PD8 = ("(lambda m: m @ m.T + 8 * np.eye(8))((np.arange(64).reshape(8, 8) % 7 - 3)"
        ".astype(np.float64))")

TOP_K = {
    "f32": ("lambda x: lax.top_k(x, 3)", "(np.array([3, 1, 2, 5, 4], np.float32),)", False),
    "i32_3d": ("lambda x: lax.top_k(x, 2)", "(np.arange(24, dtype=np.int32).reshape(2, 3, 4) % 5,)", False),
    "axis0": ("lambda x: lax.top_k(x, 2, axis=0)", "(np.arange(12, dtype=np.float32).reshape(3, 4) % 5,)", False),
    "axis_neg2": ("lambda x: lax.top_k(x, 2, axis=-2)", "(np.arange(12, dtype=np.float32).reshape(3, 4) % 5,)", False),
    "axis1_of_3": ("lambda x: lax.top_k(x, 2, axis=1)", "(np.arange(60, dtype=np.int8).reshape(3, 5, 4) % 7,)", False),
    "i8_axis0": ("lambda x: lax.top_k(x, 1, axis=0)", "((np.arange(24) % 3).astype(np.int8).reshape(4, 2, 3),)", False),
    "k0": ("lambda x: lax.top_k(x, 0)", "(np.array([3, 1, 2], np.float32),)", False),
    "k_full": ("lambda x: lax.top_k(x, 5)", "(np.array([3, 1, 2, 5, 4], np.float32),)", False),
    "empty_rows": ("lambda x: lax.top_k(x, 5)", "(np.zeros((0, 5), np.float32),)", False),
    "bool": ("lambda x: lax.top_k(x, 2)", "(np.array([True, False, True]),)", False),
    "f16": ("lambda x: lax.top_k(x, 2)", "(np.array([[1, 2, 3], [3, 3, -1]], np.float16),)", False),
    "u8": ("lambda x: lax.top_k(x, 2)", "(np.array([7, 255, 0, 255], np.uint8),)", False),
    "u32": ("lambda x: lax.top_k(x, 3)", "(np.array([1, 4294967295, 2, 0], np.uint32),)", False),
    "i16_neg": ("lambda x: lax.top_k(x, 3)", "(np.array([-32768, 32767, -1, 0, -32768], np.int16),)", False),
    "ties_int": ("lambda x: lax.top_k(x, 4)", "(np.array([1, 3, 3, 1, 2, 3], np.int8),)", False),
    "special_f32": ("lambda x: lax.top_k(x, 10)", f"(np.array({_SPECIAL}, np.float32),)", False),
    "special_f16": ("lambda x: lax.top_k(x, 7)", f"(np.array({_SPECIAL}, np.float16),)", False),
    "special_rows": ("lambda x: lax.top_k(x, 4)", f"(np.array({_SPECIAL} * 3, np.float32).reshape(3, 10),)", False),
    "weak": ("lambda: lax.top_k(lax.broadcast_in_dim(1.0, (3,), ()), 2)", "()", False),
    "weak_arg": ("lambda x: lax.top_k(x * np.ones(3, np.float32), 2)", "(2.0,)", False),
    "k_bool": ("lambda x: lax.top_k(x, True)", "(np.array([3, 1, 2], np.float32),)", False),
    "x64_i64": ("lambda x: lax.top_k(x, 2)", "(np.array([[1, -5, 2 ** 40], [-2 ** 62, 0, 7]], np.int64),)", True),
    "x64_u64": ("lambda x: lax.top_k(x, 2)", "(np.array([1, 2 ** 64 - 1, 2 ** 63, 0], np.uint64),)", True),
    "x64_f64": ("lambda x: lax.top_k(x, 6)", f"(np.array({_SPECIAL}, np.float64),)", True),
    # errors
    "err_k_large": ("lambda x: lax.top_k(x, 6)", "(np.ones(5, np.float32),)", False),
    "err_k_large_axis": ("lambda x: lax.top_k(x, 4, axis=0)", "(np.ones((3, 4), np.float32),)", False),
    "err_k_neg": ("lambda x: lax.top_k(x, -1)", "(np.ones(5, np.float32),)", False),
    "err_k_neg_scalar": ("lambda x: lax.top_k(x, -1)", "(np.float32(1),)", False),
    "err_scalar": ("lambda x: lax.top_k(x, 1)", "(np.float32(1),)", False),
    "err_axis": ("lambda x: lax.top_k(x, 1, axis=2)", "(np.ones((3, 4), np.float32),)", False),
    "err_axis_neg": ("lambda x: lax.top_k(x, 1, axis=-3)", "(np.ones((3, 4), np.float32),)", False),
    "err_k_float": ("lambda x: lax.top_k(x, 1.5)", "(np.ones(5, np.float32),)", False),
    "err_k_float_int": ("lambda x: lax.top_k(x, 2.0)", "(np.ones(5, np.float32),)", False),
    "err_axis_float": ("lambda x: lax.top_k(x, 1, axis=1.0)", "(np.ones((3, 4), np.float32),)", False),
    "err_bind_axis": ("lambda x: lax.top_k_p.bind(x, k=2, axis=1)", "(np.ones(3, np.float32),)", False),
    "err_bind_axis_neg": ("lambda x: lax.top_k_p.bind(x, k=2, axis=-1)", "(np.ones(3, np.float32),)", False),
    "err_bind_k": ("lambda x: lax.top_k_p.bind(x, k=4, axis=0)", "(np.ones(3, np.float32),)", False),
}

LINALG = {
    "lax": ("lambda x: lax.linalg.cholesky(x)", f"({_PD},)", False),
    "lax_2x2": ("lambda x: lax.linalg.cholesky(x)", "(np.array([[4., 2.], [2., 3.]], np.float32),)", False),
    "lax_nosym_batch": ("lambda x: lax.linalg.cholesky(x, symmetrize_input=False)",
                        f"(np.stack([{_PD}, 2 * {_PD}]),)", False),
    "lax_nosym_lower_only": ("lambda x: lax.linalg.cholesky(x, symmetrize_input=False)",
                             "(np.array([[1., 5, 3], [.5, 1, 7], [.1, .2, 1]], np.float32),)", False),
    "lax_sym_nonsym": ("lambda x: lax.linalg.cholesky(x)", "(np.array([[1., 5], [-5, 1]], np.float32),)", False),
    "lax_int": ("lambda x: lax.linalg.cholesky(x)", "(np.array([[4, 2], [2, 3]], np.int32),)", False),
    "lax_bool": ("lambda x: lax.linalg.cholesky(x)", "(np.eye(2, dtype=bool),)", False),
    "lax_weak": ("lambda x: lax.linalg.cholesky(x * np.eye(2, dtype=np.float32))", "(4.0,)", False),
    "lax_batch_mixed": ("lambda x: lax.linalg.cholesky(x)", f"(np.stack([{_PD}, -{_PD}, 2 * {_PD}]),)", False),
    "lax_batch2": ("lambda x: lax.linalg.cholesky(x)", f"(np.stack([{_PD}] * 4).reshape(2, 2, 3, 3),)", False),
    "lax_pd8": ("lambda x: lax.linalg.cholesky(x)", f"({_PD8}.astype(np.float32),)", False),
    "not_pd": ("lambda x: lax.linalg.cholesky(x)", "(np.array([[1., 2.], [2., 1.]], np.float32),)", False),
    "semidefinite": ("lambda x: lax.linalg.cholesky(x)", "(np.array([[4., 2.], [2., 1.]], np.float32),)", False),
    "neg_first": ("lambda x: lax.linalg.cholesky(x)", "(np.array([[-1., 0], [0, 4]], np.float32),)", False),
    "zero_1x1": ("lambda x: lax.linalg.cholesky(x)", "(np.array([[0.]], np.float32),)", False),
    "negzero_1x1": ("lambda x: lax.linalg.cholesky(x)", "(np.array([[-0.]], np.float32),)", False),
    "one_1x1": ("lambda x: lax.linalg.cholesky(x)", "(np.array([[9.]], np.float32),)", False),
    "nan_offdiag": ("lambda x: lax.linalg.cholesky(x)", "(np.array([[1., np.nan], [np.nan, 1.]], np.float32),)", False),
    "nan_diag": ("lambda x: lax.linalg.cholesky(x)", "(np.array([[1., 0], [0, np.nan]], np.float32),)", False),
    "inf_diag": ("lambda x: lax.linalg.cholesky(x)", "(np.array([[np.inf, 0], [0, 1]], np.float32),)", False),
    "empty": ("lambda x: lax.linalg.cholesky(x)", "(np.zeros((0, 0), np.float32),)", False),
    "empty_batch": ("lambda x: lax.linalg.cholesky(x)", "(np.zeros((3, 0, 0), np.float32),)", False),
    "zero_batch": ("lambda x: lax.linalg.cholesky(x)", "(np.zeros((0, 2, 2), np.float32),)", False),
    "prim": ("lambda x: lax.linalg.cholesky_p.bind(x)",
             "(np.array([[4., 7., 9], [2., 3., 8], [.4, .5, 2.]], np.float32),)", False),
    "prim_fail": ("lambda x: lax.linalg.cholesky_p.bind(x)",
                  "(np.array([[np.nan, 3], [0, 1]], np.float32),)", False),
    "prim_not_pd": ("lambda x: lax.linalg.cholesky_p.bind(x)",
                    "(np.array([[1., 5], [.5, -1]], np.float32),)", False),
    "jnp": ("lambda x: jnp.linalg.cholesky(x)", "(np.array([[4., 2.], [2., 3.]], np.float32),)", False),
    "jnp_upper": ("lambda x: jnp.linalg.cholesky(x, upper=True)", "(np.array([[4., 2.], [2., 3.]], np.float32),)", False),
    "jnp_batch_nosym": ("lambda x: jnp.linalg.cholesky(x, symmetrize_input=False)",
                        f"(np.stack([{_PD}, 2 * {_PD}]),)", False),
    "jnp_batch_upper_nosym": ("lambda x: jnp.linalg.cholesky(x, upper=True, symmetrize_input=False)",
                              f"(np.stack([{_PD}, -{_PD}]),)", False),
    "jnp_int": ("lambda x: jnp.linalg.cholesky(x)", "(np.array([[4, 2], [2, 3]], np.int32),)", False),
    "jnp_pd8_upper": ("lambda x: jnp.linalg.cholesky(x, upper=True)", f"({_PD8}.astype(np.float32),)", False),
    "f16_jaxpr": ("lambda x: lax.linalg.cholesky(x)", "(np.eye(2, dtype=np.float16),)", False),
    "x64_f64": ("lambda x: lax.linalg.cholesky(x)", f"({_PD8},)", True),
    "x64_f64_batch": ("lambda x: jnp.linalg.cholesky(x, upper=True)", f"(np.stack([{_PD8}, -{_PD8}]),)", True),
    # errors
    "err_nonsquare": ("lambda x: lax.linalg.cholesky(x)", "(np.ones((2, 3), np.float32),)", False),
    "err_vector": ("lambda x: lax.linalg.cholesky(x)", "(np.ones((3,), np.float32),)", False),
    "err_scalar": ("lambda x: lax.linalg.cholesky(x)", "(np.float32(1),)", False),
    "err_nonsquare_nosym": ("lambda x: lax.linalg.cholesky(x, symmetrize_input=False)", "(np.ones((2, 3), np.float32),)", False),
    "err_vector_nosym": ("lambda x: lax.linalg.cholesky(x, symmetrize_input=False)", "(np.ones((3,), np.float32),)", False),
    "err_prim_int": ("lambda x: lax.linalg.cholesky_p.bind(x)", "(np.ones((2, 2), np.int32),)", False),
    "err_prim_bool": ("lambda x: lax.linalg.cholesky_p.bind(x)", "(np.ones((2, 2), bool),)", False),
    "err_jnp_nonsquare": ("lambda x: jnp.linalg.cholesky(x)", "(np.ones((2, 3), np.float32),)", False),
    "err_jnp_vector_nosym": ("lambda x: jnp.linalg.cholesky(x, symmetrize_input=False)", "(np.ones((3,), np.float32),)", False),
    "err_jnp_list": ("lambda: jnp.linalg.cholesky([[4., 2.], [2., 3.]])", "()", False),
}

# A well-conditioned 3x3 matrix whose triangles are both used, and right-hand sides.
_A3 = "np.array([[2., .5, -.3], [.4, 3., .7], [-.2, .6, 1.5]], np.float32)"
_B32 = "np.array([[1., -2.], [.5, 3.], [2., .25]], np.float32)"
_B23 = "np.array([[1., -2., .5], [3., 2., .25]], np.float32)"
_TS = "lax.linalg.triangular_solve"

LINALG.update({
    "ts_left_lower": (f"lambda a, b: {_TS}(a, b, left_side=True, lower=True)", f"({_A3}, {_B32})", False),
    "ts_left_upper_t": (f"lambda a, b: {_TS}(a, b, left_side=True, transpose_a=True)", f"({_A3}, {_B32})", False),
    "ts_right_upper": (f"lambda a, b: {_TS}(a, b)", f"({_A3}, {_B23})", False),
    "ts_right_lower_t_unit": (f"lambda a, b: {_TS}(a, b, lower=True, transpose_a=True, unit_diagonal=True)",
                              f"({_A3}, {_B23})", False),
    "ts_left_unit_conj": (f"lambda a, b: {_TS}(a, b, left_side=True, unit_diagonal=True, conjugate_a=True)",
                          f"({_A3}, {_B32})", False),
    "ts_vector_left": (f"lambda a, b: {_TS}(a, b, left_side=True, lower=True)", f"({_A3}, np.array([1., 2., 3.], np.float32))", False),
    "ts_vector_right": (f"lambda a, b: {_TS}(a, b)", f"({_A3}, np.array([1., 2., 3.], np.float32))", False),
    "ts_batch": (f"lambda a, b: {_TS}(a, b, left_side=True, lower=True)", f"(np.stack([{_A3}, 2 * {_A3}]), np.stack([{_B32}, -{_B32}]))", False),
    "ts_batch_vector": (f"lambda a, b: {_TS}(a, b, left_side=False, lower=True)", f"(np.stack([{_A3}, 2 * {_A3}]), np.stack([{_A3}[0], {_A3}[1]]))", False),
    "ts_weak": (f"lambda a: {_TS}(a * np.eye(2, dtype=np.float32) + 1, 2.0 * lax.full((2, 2), 1.0))", "(4.0,)", False),
    "ts_weak_both": (f"lambda a: {_TS}(a + lax.full((2, 2), 1.0), lax.full((2, 2), 2.0))", "(4.0,)", False),
    "ts_zero_pivot": (f"lambda a, b: {_TS}(a, b, left_side=True, lower=True)",
                      "(np.array([[0., 0], [1, 1]], np.float32), np.ones((2, 2), np.float32))", False),
    "ts_empty": (f"lambda a, b: {_TS}(a, b)", "(np.zeros((0, 0), np.float32), np.zeros((2, 0), np.float32))", False),
    "ts_x64": (f"lambda a, b: {_TS}(a, b, left_side=True, lower=True, transpose_a=True)",
               f"({_PD8}, {_PD8}[:, :3])", True),
    "ts_batch_sizes": (f"lambda a, b: {_TS}(a, b)", "(np.ones((2, 3, 3), np.float32), np.ones((4, 3, 3), np.float32))", False),
    "err_ts_nonsquare": (f"lambda a, b: {_TS}(a, b)", "(np.ones((2, 3), np.float32), np.ones((3, 3), np.float32))", False),
    "err_ts_incompatible_left": (f"lambda a, b: {_TS}(a, b, left_side=True)", "(np.ones((3, 3), np.float32), np.ones((2, 2), np.float32))", False),
    "err_ts_incompatible_right": (f"lambda a, b: {_TS}(a, b)", "(np.ones((3, 3), np.float32), np.ones((3, 2), np.float32))", False),
    "err_ts_dtypes": (f"lambda a, b: {_TS}(a, b)", "(np.ones((3, 3), np.float32), np.ones((3, 3), np.float64))", True),
    "err_ts_int": (f"lambda a, b: {_TS}(a, b)", "(np.ones((3, 3), np.int32), np.ones((3, 3), np.int32))", False),
    "err_ts_bool_b": (f"lambda a, b: {_TS}(a, b)", "(np.ones((3, 3), np.float32), np.ones((3, 3), bool))", False),
    "err_ts_rank": (f"lambda a, b: {_TS}(a, b)", "(np.ones((3,), np.float32), np.ones((3,), np.float32))", False),
    "err_ts_scalar_b": (f"lambda a, b: {_TS}(a, b)", "(np.ones((3, 3), np.float32), np.float32(1))", False),
    "err_ts_batch_rank": (f"lambda a, b: {_TS}(a, b)", "(np.ones((2, 3, 3), np.float32), np.ones((1, 2, 3, 3), np.float32))", False),
    "err_ts_batch_rank_b": (f"lambda a, b: {_TS}(a, b)", "(np.ones((3, 3), np.float32), np.ones((2, 3, 3), np.float32))", False),
})

# Derivatives through cholesky and triangular_solve (float64 where values are compared).
_SPD3 = "np.array([[4., 2., .4], [2., 3., .5], [.4, .5, 2.]])"
LINALG_AD = {
    "grad_cholesky_sum": ("lambda a: jax.grad(lambda a: jnp.sum(jnp.linalg.cholesky(a)))(a)",
                          f"({_SPD3}.astype(np.float32),)", False),
    "grad_cholesky_x64": ("lambda a: jax.grad(lambda a: jnp.sum(jnp.sin(jnp.linalg.cholesky(a))))(a)",
                          f"({_SPD3},)", True),
    "grad_cholesky_batch": ("lambda a: jax.grad(lambda a: jnp.sum(lax.linalg.cholesky(a) ** 2))(a)",
                            f"(np.stack([{_SPD3}, 2 * {_SPD3}]),)", True),
    "jvp_cholesky": ("lambda a, t: jax.jvp(lambda a: lax.linalg.cholesky(a), (a,), (t,))",
                     f"({_SPD3}, np.array([[1., .5, 0], [.5, 0, 2], [0, 2, -1]]))", True),
    "jvp_ts_left": ("lambda a, b, da, db: jax.jvp(lambda a, b: lax.linalg.triangular_solve(a, b, left_side=True, lower=True), (a, b), (da, db))",
                    f"({_SPD3}, {_SPD3}[:, :2], {_SPD3} * .1, {_SPD3}[:, 1:])", True),
    "jvp_ts_left_wide": ("lambda a, b, da: jax.jvp(lambda a: lax.linalg.triangular_solve(a, b, left_side=True, transpose_a=True), (a,), (da,))",
                         f"({_SPD3}, np.ones((3, 4)), {_SPD3} * .1)", True),
    "jvp_ts_right_unit": ("lambda a, b, da: jax.jvp(lambda a: lax.linalg.triangular_solve(a, b, transpose_a=True, unit_diagonal=True), (a,), (da,))",
                          f"({_SPD3}, np.ones((2, 3)), {_SPD3} * .1)", True),
    "jvp_ts_right_tall": ("lambda a, b, da: jax.jvp(lambda a: lax.linalg.triangular_solve(a, b, lower=True, unit_diagonal=True), (a,), (da,))",
                          f"({_SPD3}, np.ones((4, 3)), {_SPD3} * .1)", True),
    "jvp_ts_batch": ("lambda a, b, da: jax.jvp(lambda a: lax.linalg.triangular_solve(a, b, left_side=True), (a,), (da,))",
                     f"(np.stack([{_SPD3}] * 2), np.ones((2, 3, 2)), np.stack([{_SPD3}] * 2) * .1)", True),
    "grad_ts_b": ("lambda a, b: jax.grad(lambda b: jnp.sum(jnp.sin(lax.linalg.triangular_solve(a, b, left_side=True, lower=True))))(b)",
                  f"({_SPD3}, {_SPD3}[:, :2])", True),
    "grad_ts_both": ("lambda a, b: jax.grad(lambda a, b: jnp.sum(lax.linalg.triangular_solve(a, b) ** 2), argnums=(0, 1))(a, b)",
                     f"({_SPD3}, np.ones((2, 3)))", True),
    "grad_mvn": ("lambda m, c: jax.grad(lambda m, c: jnp.sum(jax.random.multivariate_normal(jax.random.key(0), m, c, (4,))), argnums=(0, 1))(m, c)",
                 f"(np.zeros(3), {_SPD3})", True),
}

# ``lax.linalg.lu`` and the ``jnp.linalg`` functions computed from it (recorded into
# ``tests/data/linalg_lu.json``, replayed by ``test_linalg_lu.py``).
_A4 = "np.array([[2., -1., 0., 3.], [4., 1., -2., 1.], [-1., 5., 1., 0.], [3., 0., 2., -4.]], np.float32)"
LU = {
    "lu_f32": ("lax.linalg.lu", f"({_A4},)", False),
    "lu_f64": ("lax.linalg.lu", f"({_A4}.astype(np.float64),)", True),
    "lu_wide": ("lax.linalg.lu", "(np.array([[1., 2., 3.], [4., 5., 6.]], np.float32),)", False),
    "lu_tall": ("lax.linalg.lu", "(np.array([[1., 2.], [3., 4.], [5., 6.]], np.float32),)", False),
    "lu_batch": ("lax.linalg.lu", "(np.arange(18, dtype=np.float32).reshape(2, 3, 3) % 7 - 3,)", False),
    "lu_zero": ("lax.linalg.lu", "(np.zeros((2, 2), np.float32),)", False),
    "lu_rank1": ("lax.linalg.lu", "(np.array([[0., 1.], [0., 2.]], np.float32),)", False),
    "lu_vector": ("lax.linalg.lu", "(np.ones(3, np.float32),)", False),
    "lu_int": ("lax.linalg.lu", "(np.ones((2, 2), np.int32),)", False),
    "lu_jvp": ("lambda a, t: jax.jvp(lambda x: lax.linalg.lu(x)[0], (a,), (t,))",
               f"({_A4}, np.ones((4, 4), np.float32))", False),
    "lu_vmap": ("jax.vmap(lax.linalg.lu, in_axes=1)", "(np.arange(12, dtype=np.float32).reshape(2, 3, 2) % 5,)", False),
    "solve_vec": ("jnp.linalg.solve", f"({_A4}, np.array([1., 2., 3., 4.], np.float32))", False),
    "solve_mat": ("jnp.linalg.solve", f"({_A4}, np.arange(8, dtype=np.float32).reshape(4, 2))", False),
    "solve_bcast": ("jnp.linalg.solve", f"(np.stack([{_A4}, {_A4}.T]), np.ones((4, 1), np.float32))", False),
    "solve_int": ("jnp.linalg.solve", "(np.array([[2, 1], [1, 3]], np.int32), np.array([1, 2], np.int32))", False),
    "solve_f64": ("jnp.linalg.solve", f"({_A4}.astype(np.float64), np.ones(4))", True),
    "solve_1d_a": ("jnp.linalg.solve", "(np.ones(2, np.float32), np.ones(2, np.float32))", False),
    "solve_size": ("jnp.linalg.solve", "(np.eye(2, dtype=np.float32), np.ones(3, np.float32))", False),
    "solve_batched_vec": ("jnp.linalg.solve", "(np.ones((3, 2, 2), np.float32), np.ones((3, 2), np.float32))", False),
    "inv": ("jnp.linalg.inv", f"({_A4},)", False),
    "inv_batch": ("jnp.linalg.inv", f"(np.stack([{_A4}, 2 * {_A4}.T]),)", False),
    "inv_nonsquare": ("jnp.linalg.inv", "(np.ones((2, 3), np.float32),)", False),
    "det": ("jnp.linalg.det", f"({_A4},)", False),
    "det_f64": ("jnp.linalg.det", f"({_A4}.astype(np.float64),)", True),
    "det_batch": ("jnp.linalg.det", f"(np.stack([{_A4}, {_A4}[::-1]]),)", False),
    "det_singular": ("jnp.linalg.det", "(np.ones((4, 4), np.float32),)", False),
    "det_1d": ("jnp.linalg.det", "(np.ones(3, np.float32),)", False),
    "det_2x2": ("jnp.linalg.det", "(np.array([[1., 2.], [3., 4.]], np.float32),)", False),
    "det_3x3_batch": ("jnp.linalg.det", f"(np.stack([{_A4}[:3, :3], {_A4}[1:, 1:]]),)", False),
    "det_2x2_int": ("jnp.linalg.det", "(np.array([[1, 2], [3, 4]], np.int32),)", False),
    "slogdet": ("jnp.linalg.slogdet", f"({_A4},)", False),
    "slogdet_batch": ("jnp.linalg.slogdet", f"(np.stack([{_A4}, -{_A4}[::-1]]),)", False),
    "slogdet_singular": ("jnp.linalg.slogdet", "(np.zeros((3, 3), np.float32),)", False),
    "slogdet_nonsquare": ("jnp.linalg.slogdet", "(np.ones((2, 3), np.float32),)", False),
    "grad_det": ("jax.grad(jnp.linalg.det)", f"({_A4},)", False),
    "grad_logdet": ("jax.grad(lambda a: jnp.linalg.slogdet(a)[1])", f"({_A4},)", False),
    "grad_solve": ("jax.grad(lambda a, b: jnp.linalg.solve(a, b).sum(), argnums=(0, 1))",
                   f"({_A4}, np.array([1., 2., 3., 4.], np.float32))", False),
    "grad_inv": ("jax.grad(lambda a: jnp.linalg.inv(a)[0, 1])", f"({_A4},)", False),
}

# ``lax.linalg.qr`` and ``jnp.linalg.qr`` (``tests/data/linalg_qr.json``, replayed by
# ``test_linalg_qr.py``).
_T32 = "np.array([[1., 2.], [3., 4.], [5., 6.]], np.float32)"
QR = {
    "qr_full_tall": ("lax.linalg.qr", f"({_T32},)", False),
    "qr_reduced_tall": ("lambda a: lax.linalg.qr(a, full_matrices=False)", f"({_T32},)", False),
    "qr_full_wide": ("lax.linalg.qr", f"({_T32}.T,)", False),
    "qr_reduced_wide": ("lambda a: lax.linalg.qr(a, full_matrices=False)", f"({_T32}.T,)", False),
    "qr_f64": ("lax.linalg.qr", f"({_A4}.astype(np.float64),)", True),
    "qr_batch": ("lax.linalg.qr", "(np.arange(18, dtype=np.float32).reshape(2, 3, 3) % 7 - 3,)", False),
    "qr_vector": ("lax.linalg.qr", "(np.ones(3, np.float32),)", False),
    "qr_int": ("lax.linalg.qr", "(np.ones((2, 2), np.int32),)", False),
    "qr_vmap": ("jax.vmap(lax.linalg.qr, in_axes=2)", "(np.array([[[1, 2], [3, -1]], [[0, 4], [2, 1]], [[5, 1], [-2, 3]]], np.float32),)", False),
    "jnp_reduced": ("jnp.linalg.qr", f"({_T32},)", False),
    "jnp_complete": ("lambda a: jnp.linalg.qr(a, mode='complete')", f"({_T32},)", False),
    "jnp_r": ("lambda a: jnp.linalg.qr(a, mode='r')", f"({_T32},)", False),
    "jnp_int": ("jnp.linalg.qr", "(np.array([[2, 1], [1, 3]], np.int32),)", False),
    "jnp_bad_mode": ("lambda a: jnp.linalg.qr(a, mode='x')", f"({_T32},)", False),
    "jvp_square": ("lambda a, t: [y for p in jax.jvp(lax.linalg.qr, (a,), (t,)) for y in p]", f"({_A4}, np.ones((4, 4), np.float32))", False),
    "jvp_tall": ("lambda a, t: [y for p in jax.jvp(lambda x: tuple(jnp.linalg.qr(x)), (a,), (t,)) for y in p]", f"({_T32}, np.ones((3, 2), np.float32))", False),
    "jvp_wide": ("lambda a, t: [y for p in jax.jvp(lambda x: tuple(jnp.linalg.qr(x)), (a,), (t,)) for y in p]", f"({_T32}.T, np.ones((2, 3), np.float32))", False),
}

# ``lax.linalg.eigh``, ``jnp.linalg.eigh``/``eigvalsh`` (``tests/data/linalg_eigh.json``,
# replayed by ``test_linalg_eigh.py``); eigenvectors are compared up to sign.
_S4 = "(lambda m: (m + m.T).astype(np.float32))(np.array([[2., -1., 0., 3.], [4., 1., -2., 1.], [-1., 5., 1., 0.], [3., 0., 2., -4.]]))"
EIGH = {
    "lax_eigh": ("lax.linalg.eigh", f"({_S4},)", False),
    "lax_eigh_f64": ("lax.linalg.eigh", f"({_S4}.astype(np.float64),)", True),
    "lax_eigh_upper": ("lambda a: lax.linalg.eigh(a, lower=False, symmetrize_input=False)", f"(np.triu({_S4}) + np.tril(np.ones((4, 4), np.float32), -1),)", False),
    "lax_eigh_lower": ("lambda a: lax.linalg.eigh(a, symmetrize_input=False)", f"(np.tril({_S4}) + np.triu(np.ones((4, 4), np.float32), 1),)", False),
    "lax_eigh_batch": ("lax.linalg.eigh", f"(np.stack([{_S4}, np.diag(np.array([3., 1., 2., 0.], np.float32))]),)", False),
    "lax_eigh_vector": ("lax.linalg.eigh", "(np.ones(3, np.float32),)", False),
    "lax_eigh_int": ("lax.linalg.eigh", "(np.ones((2, 2), np.int32),)", False),
    "lax_eigh_vmap": ("jax.vmap(lax.linalg.eigh, in_axes=2)", f"(np.stack([{_S4}, -{_S4}], axis=2),)", False),
    "jnp_eigh": ("lambda a: tuple(jnp.linalg.eigh(a))", f"({_S4},)", False),
    "jnp_eigh_upper": ("lambda a: tuple(jnp.linalg.eigh(a, UPLO='U', symmetrize_input=False))", f"({_S4},)", False),
    "jnp_eigh_int": ("lambda a: tuple(jnp.linalg.eigh(a))", "(np.array([[2, 1], [1, 3]], np.int32),)", False),
    "jnp_eigh_uplo": ("lambda a: jnp.linalg.eigh(a, UPLO='X')", f"({_S4},)", False),
    "jnp_eigvalsh": ("jnp.linalg.eigvalsh", f"({_S4},)", False),
    "jvp_eigvals": ("lambda a, t: jax.jvp(jnp.linalg.eigvalsh, (a,), (t,))", f"({_S4}, np.eye(4, dtype=np.float32) + 1)", False),
}

# ``lax.linalg.svd``, ``jnp.linalg.svd``/``svdvals`` (``tests/data/linalg_svd.json``,
# replayed by ``test_linalg_svd.py``); singular vectors are compared up to sign.
SVD = {
    "lax_svd_tall": ("lax.linalg.svd", f"({_T32},)", False),
    "lax_svd_wide": ("lambda a: lax.linalg.svd(a, full_matrices=False)", f"({_T32}.T,)", False),
    "lax_svd_square": ("lax.linalg.svd", f"({_A4},)", False),
    "lax_svd_f64": ("lambda a: lax.linalg.svd(a, full_matrices=False)", f"({_A4}.astype(np.float64),)", True),
    "lax_svd_s_only": ("lambda a: lax.linalg.svd(a, compute_uv=False)", f"({_T32},)", False),
    "lax_svd_batch": ("lambda a: lax.linalg.svd(a, full_matrices=False)", f"(np.stack([{_A4}, {_A4}.T * 2]),)", False),
    "lax_svd_vector": ("lax.linalg.svd", "(np.ones(3, np.float32),)", False),
    "lax_svd_int": ("lax.linalg.svd", "(np.ones((2, 2), np.int32),)", False),
    "lax_svd_vmap": ("jax.vmap(lambda a: lax.linalg.svd(a, compute_uv=False), in_axes=1)", f"(np.stack([{_A4}, -{_A4}.T], axis=1),)", False),
    "jnp_svd": ("lambda a: tuple(jnp.linalg.svd(a))", f"({_T32},)", False),
    "jnp_svd_reduced": ("lambda a: tuple(jnp.linalg.svd(a, full_matrices=False))", f"({_T32}.T,)", False),
    "jnp_svd_s": ("lambda a: jnp.linalg.svd(a, compute_uv=False)", f"({_A4},)", False),
    "jnp_svd_int": ("lambda a: jnp.linalg.svd(a, compute_uv=False)", "(np.array([[2, 1], [1, 3]], np.int32),)", False),
    "jnp_svdvals": ("jnp.linalg.svdvals", f"({_T32},)", False),
    "jvp_svdvals": ("lambda a, t: jax.jvp(jnp.linalg.svdvals, (a,), (t,))", f"({_A4}, np.eye(4, dtype=np.float32) + 1)", False),
}

# ``lax.linalg.tridiagonal_solve`` (``tests/data/linalg_tridiagonal.json``, replayed by
# ``test_linalg_tridiagonal.py``).
_DL, _D, _DU = ("np.array([0., 1., 2., -1.], np.float32)", "np.array([4., 5., 6., 7.], np.float32)",
                "np.array([1., 1., -2., 0.], np.float32)")
TRIDIAGONAL = {
    "vector_rhs": ("lax.linalg.tridiagonal_solve", f"({_DL}, {_D}, {_DU}, np.arange(4, dtype=np.float32).reshape(4, 1))", False),
    "matrix_rhs": ("lax.linalg.tridiagonal_solve", f"({_DL}, {_D}, {_DU}, np.arange(8, dtype=np.float32).reshape(4, 2))", False),
    "f64": ("lax.linalg.tridiagonal_solve", f"({_DL}.astype(np.float64), {_D}.astype(np.float64), {_DU}.astype(np.float64), np.ones((4, 3)))", True),
    "batch": ("lax.linalg.tridiagonal_solve", f"(np.stack([{_DL}, {_DU}]), np.stack([{_D}, {_D} + 1]), np.stack([{_DU}, {_DL}]), np.ones((2, 4, 1), np.float32))", False),
    "rank1_b": ("lax.linalg.tridiagonal_solve", f"({_DL}, {_D}, {_DU}, np.ones(4, np.float32))", False),
    "bad_diagonals": ("lax.linalg.tridiagonal_solve", f"({_DL}[:3], {_D}, {_DU}, np.ones((4, 1), np.float32))", False),
    "bad_b": ("lax.linalg.tridiagonal_solve", f"({_DL}, {_D}, {_DU}, np.ones((3, 1), np.float32))", False),
    "int": ("lax.linalg.tridiagonal_solve", f"({_DL}.astype(np.int32), {_D}, {_DU}, np.ones((4, 1), np.float32))", False),
    "jvp": ("lambda *a: jax.jvp(lax.linalg.tridiagonal_solve, a, a)", f"({_DL}, {_D}, {_DU}, np.ones((4, 1), np.float32))", False),
    "grad_b": ("jax.grad(lambda b, dl, d, du: lax.linalg.tridiagonal_solve(dl, d, du, b).sum())", f"(np.arange(4, dtype=np.float32).reshape(4, 1), {_DL}, {_D}, {_DU})", False),
    "vmap": ("jax.vmap(lax.linalg.tridiagonal_solve, in_axes=(None, 0, None, 1))", f"({_DL}, np.stack([{_D}, {_D} * 2]), {_DU}, np.ones((4, 2, 1), np.float32))", False),
}

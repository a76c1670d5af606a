"""Programs of ``top_k`` and ``cholesky`` recorded under JAX 0.10.2 by
``tools/record_linalg_data.py`` into ``tests/data/top_k.json`` and
``tests/data/linalg.json`` and replayed by ``test_lax_top_k.py`` and
``test_lax_linalg.py``.

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

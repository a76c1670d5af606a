"""``vmap`` programs over the structural, layout, reduction, dot, sort and linalg
primitives, shared by ``tests/test_lax_structural_batching.py`` and
``tools/record_vmap_structural.py`` (which records JAX 0.10.2's ``make_jaxpr(vmap(f))``
text into ``tests/data/vmap_structural.json``).

``cases(lax, np)`` returns ``name -> (fn, args, in_axes, out_axes)``: ``fn`` is the
per-example function (written on ``lax`` only), ``args`` are NumPy arrays already
batched along ``in_axes`` (batch size 3), ``out_axes`` where the batch axis goes in the
result. Values are small integers (as floats where needed) so that every reduction is
exact whatever the order of summation. Nothing here imports jax or transpile.
"""
from __future__ import annotations

B = 3  # the batch size


def cases(lax, np):
    def arr(shape, dtype=np.float32, axis=0, seed=0):
        """An array of ``shape`` with the batch axis (size B) inserted at ``axis``."""
        shape = list(shape)
        axis = axis % (len(shape) + 1)
        shape.insert(axis, B)
        n = int(np.prod(shape))
        vals = (np.arange(n) * 7 + seed * 3) % 11 - 5
        return vals.reshape(shape).astype(dtype)

    def spd(n, axis=0):
        """B symmetric positive definite n x n matrices (batch axis at ``axis``)."""
        base = arr((n, n), np.float64, 0) / 4
        m = np.einsum("bij,bkj->bik", base, base) + n * np.eye(n)
        return np.moveaxis(m, 0, axis)

    def tri(n, axis=0, lower=True):
        m = arr((n, n), np.float64, 0) / 2
        m = np.tril(m) if lower else np.triu(m)
        m = m + 4 * np.eye(n)
        return np.moveaxis(m, 0, axis)

    f32 = np.float32
    c = {
        # structural.py
        "broadcast_in_dim": (lambda x: lax.broadcast_in_dim(x, (2, 3, 4), (0, 2)),
                             [arr((2, 4))], 0, 0),
        "broadcast_in_dim_ax1": (lambda x: lax.broadcast_in_dim(x, (2, 3, 4), (0, 2)),
                                 [arr((2, 4), axis=1)], 1, 0),
        "broadcast_in_dim_neg": (lambda x: lax.broadcast_in_dim(x, (4, 2), (0,)),
                                 [arr((4,), axis=-1)], -1, -1),
        "expand_dims": (lambda x: lax.expand_dims(x, (0, 2)), [arr((3, 2), axis=1)], 1, 1),
        "reshape": (lambda x: lax.reshape(x, (4, 3)), [arr((3, 4))], 0, 0),
        "reshape_ax1": (lambda x: lax.reshape(x, (2, 6)), [arr((3, 4), axis=1)], 1, 1),
        "reshape_dims": (lambda x: lax.reshape(x, (12,), (1, 0)), [arr((3, 4), axis=2)],
                         2, 0),
        "squeeze": (lambda x: lax.squeeze(x, (1,)), [arr((3, 1, 4))], 0, 0),
        "squeeze_ax2": (lambda x: lax.squeeze(x, (0, 2)), [arr((1, 4, 1), axis=2)], 2, 1),
        "transpose": (lambda x: lax.transpose(x, (2, 0, 1)), [arr((2, 3, 4))], 0, 0),
        "transpose_ax1": (lambda x: lax.transpose(x, (1, 0)), [arr((2, 4), axis=1)], 1, 0),
        "rev": (lambda x: lax.rev(x, (0,)), [arr((3, 4))], 0, 0),
        "rev_ax1": (lambda x: lax.rev(x, (0, 1)), [arr((3, 4), axis=1)], 1, 2),
        # slicing.py
        "slice": (lambda x: lax.slice(x, (1, 0), (4, 6), (2, 1)), [arr((5, 6))], 0, 0),
        "slice_ax1": (lambda x: lax.slice(x, (1, 2), (4, 5)), [arr((5, 6), axis=1)], 1, 1),
        "pad": (lambda x, v: lax.pad(x, v, ((1, 2, 1), (0, -1, 0))),
                [arr((3, 3)), np.float32(9)], (0, None), 0),
        "pad_ax1": (lambda x, v: lax.pad(x, v, ((1, 0, 0), (2, 1, 1))),
                    [arr((3, 3), axis=1), np.float32(9)], (1, None), 1),
        "pad_value_batched": (lambda x, v: lax.pad(x, v, ((1, 2, 1),)),
                              [arr((3,), axis=1, seed=1), arr(())], (1, 0), 0),
        "pad_only_value": (lambda x, v: lax.pad(x, v, ((1, 1, 0),)),
                           [arr((3,), seed=1)[0], arr(())], (None, 0), 0),
        "concatenate": (lambda x, y: lax.concatenate([x, y], 0),
                        [arr((2, 3)), arr((4, 3), seed=1)[0]], (0, None), 0),
        "concatenate_mixed": (lambda x, y: lax.concatenate([x, y, x], 1),
                              [arr((2, 3), axis=1), arr((2, 1), axis=0, seed=2)],
                              (1, 0), 1),
        # layout.py
        "copy": (lambda x: lax.copy_p.bind(x), [arr((2, 4), axis=1)], 1, 0),
        "bitcast_same_width": (lambda x: lax.bitcast_convert_type(x, np.int32),
                               [arr((4,), axis=1)], 1, 0),
        "bitcast_narrow": (lambda x: lax.bitcast_convert_type(x, np.uint8),
                           [arr((2,), axis=0)], 0, 0),
        "bitcast_wide": (lambda x: lax.bitcast_convert_type(x, np.float32),
                         [arr((2, 4), np.uint8, axis=1)], 1, 0),
        "stack": (lambda x, y: lax.stack([x, y], 1), [arr((2, 3)), arr((2, 3), seed=1)],
                  0, 0),
        "stack_mixed": (lambda x, y: lax.stack([x, y], 0),
                        [arr((2, 3), axis=1), arr((2, 3), seed=1)[0]], (1, None), 0),
        "stack_axis_after": (lambda x, y: lax.stack([x, y], 2),
                             [arr((2, 3), axis=1), arr((2, 3), axis=1, seed=1)], 1, 1),
        "split": (lambda x: tuple(lax.split(x, (1, 3), 1)), [arr((2, 4))], 0, 0),
        "split_ax1": (lambda x: tuple(lax.split(x, (2, 1, 1), 0)), [arr((4, 2), axis=1)],
                      1, (1, 0, -1)),
        "tile": (lambda x: lax.tile(x, (2, 1)), [arr((2, 3), axis=1)], 1, 1),
        # reduction.py
        "reduce_sum": (lambda x: lax.reduce_sum(x, (1,)), [arr((3, 4))], 0, 0),
        "reduce_sum_all": (lambda x: lax.reduce_sum(x, (0, 1)), [arr((3, 4), axis=1)],
                           1, 0),
        "reduce_max": (lambda x: lax.reduce_max(x, (0,)), [arr((3, 4), axis=2)], 2, 0),
        "reduce_min": (lambda x: lax.reduce_min(x, (1,)), [arr((3, 4), axis=1)], 1, 0),
        "reduce_prod": (lambda x: lax.reduce_prod(x, (0,)), [arr((2, 3), axis=1)], 1, 1),
        "reduce_and": (lambda x: lax.reduce_and(x, (1,)), [arr((3, 4)) > 0], 0, 0),
        "reduce_or": (lambda x: lax.reduce_or(x, (0,)), [arr((3, 4), axis=1) > 2], 1, 0),
        "reduce_xor": (lambda x: lax.reduce_xor(x, (0, 1)),
                       [arr((3, 4), np.int32, axis=2)], 2, 0),
        "argmax": (lambda x: lax.argmax(x, 1, np.int32), [arr((3, 4))], 0, 0),
        "argmin": (lambda x: lax.argmin(x, 0, np.int32), [arr((3, 4), axis=1)], 1, 0),
        "cumsum": (lambda x: lax.cumsum(x, 0), [arr((4, 2), axis=1)], 1, 0),
        "cumprod": (lambda x: lax.cumprod(x, 1, reverse=True), [arr((2, 4))], 0, 0),
        "cummax": (lambda x: lax.cummax(x, 0), [arr((4,), axis=1)], 1, 1),
        "cummin": (lambda x: lax.cummin(x, 1), [arr((2, 4), axis=2)], 2, 0),
        # dot.py
        "dot_both": (lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ()))),
                     [arr((2, 3)), arr((3, 4), seed=1)], 0, 0),
        "dot_both_axes": (lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ()))),
                          [arr((2, 3), axis=2), arr((3, 4), axis=1, seed=1)], (2, 1), 0),
        "dot_lhs": (lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ()))),
                    [arr((2, 3), axis=1), arr((3, 4), seed=1)[0]], (1, None), 0),
        "dot_rhs": (lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ()))),
                    [arr((2, 3))[0], arr((3, 4), axis=2, seed=1)], (None, 2), 0),
        "dot_vec": (lambda x, y: lax.dot_general(x, y, (((0,), (0,)), ((), ()))),
                    [arr((3,)), arr((3,), seed=1)[0]], (0, None), 0),
        "dot_batch_dims": (lambda x, y: lax.dot_general(x, y, (((2,), (1,)), ((0,), (0,)))),
                           [arr((2, 3, 4), axis=1), arr((2, 4, 5), seed=1)], (1, 0), 1),
        "dot_batch_dims_rhs": (
            lambda x, y: lax.dot_general(x, y, (((2,), (1,)), ((0,), (0,)))),
            [arr((2, 3, 4))[0], arr((2, 4, 5), axis=3, seed=1)], (None, 3), -1),
        "dot_int_pref": (lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ())),
                                                      preferred_element_type=np.float32),
                         [arr((2, 3), np.int32), arr((3, 2), np.int32, seed=1)], 0, 0),
        # sort.py
        "sort": (lambda x: lax.sort(x, 0), [arr((4, 2), axis=1)], 1, 0),
        "sort_last": (lambda x: lax.sort(x), [arr((2, 4))], 0, 1),
        "sort_multi": (lambda k, v: tuple(lax.sort((k, v), 0, num_keys=1)),
                       [arr((4, 2), axis=1), arr((4, 2), seed=1)[0]], (1, None), 0),
        "sort_multi_both": (lambda k, v: tuple(lax.sort((k, v), 1, num_keys=2)),
                            [arr((2, 4)), arr((2, 4), axis=2, seed=1)], (0, 2), 1),
        "top_k": (lambda x: tuple(lax.top_k(x, 2)), [arr((2, 5), axis=1)], 1, 0),
        "top_k_last": (lambda x: tuple(lax.top_k(x, 3)), [arr((5,), axis=1)], 1, (1, 0)),
        "stop_gradient": (lambda x: lax.stop_gradient(x), [arr((2, 3), axis=1)], 1, 1),
        # linalg.py
        "cholesky": (lambda x: lax.linalg.cholesky(x), [spd(3)], 0, 0),
        "cholesky_ax2": (lambda x: lax.linalg.cholesky(x, symmetrize_input=False),
                         [spd(3, axis=2)], 2, 0),
        "triangular_solve_both": (
            lambda a, b: lax.linalg.triangular_solve(a, b, left_side=True, lower=True),
            [tri(3), arr((3, 2), np.float64, axis=2)], (0, 2), 0),
        "triangular_solve_a": (
            lambda a, b: lax.linalg.triangular_solve(a, b, left_side=False, lower=False),
            [tri(3, axis=1, lower=False), arr((2, 3), np.float64)[0]], (1, None), 0),
        "triangular_solve_b_left": (
            lambda a, b: lax.linalg.triangular_solve(a, b, left_side=True, lower=True,
                                                     transpose_a=True),
            [tri(3)[0], arr((3, 2), np.float64, axis=1)], (None, 1), 0),
        "triangular_solve_b_right": (
            lambda a, b: lax.linalg.triangular_solve(a, b, left_side=False, lower=True),
            [tri(3)[0], arr((2, 3), np.float64, axis=0)], (None, 0), 1),
        # select_n and clamp (elementwise, but with rules of their own)
        "select_pred_unbatched": (lambda p, x, y: lax.select(p, x, y),
                                  [arr((2, 3))[0] > 0, arr((2, 3), axis=1),
                                   arr((2, 3), seed=1)[0]], (None, 1, None), 0),
        "select_scalar_which": (lambda p, x, y: lax.select(p, x, y),
                                [arr(()) > 0, arr((2,), seed=1), arr((2,), seed=2)], 0, 0),
        "select_scalar_cases": (lambda p, x, y: lax.select(p, x, y),
                                [arr(()) > 0, np.float32(1), np.float32(2)],
                                (0, None, None), 0),
        "select_n_cases_moved": (lambda w, x, y: lax.select_n(w, x, y),
                                 [np.int32(1), arr((2,), axis=1), arr((2,), seed=1)],
                                 (None, 1, 0), 0),
        "clamp_scalar_bounds": (lambda lo, x, hi: lax.clamp(lo, x, hi),
                                [np.float32(-1), arr((2, 3), axis=1), np.float32(2)],
                                (None, 1, None), 0),
        "clamp_batched_bounds": (lambda lo, x, hi: lax.clamp(lo, x, hi),
                                 [arr(()) - 1, arr((2, 3), axis=1), arr((2, 3), seed=1)],
                                 (0, 1, 0), 0),
        # more axis mixes
        "reduce_sum_neg": (lambda x: lax.reduce_sum(x, (0,)), [arr((3, 4), axis=-1)], -1, -1),
        "reduce_sum_no_axes": (lambda x: lax.reduce_sum(x, ()), [arr((3,), axis=1)], 1, 0),
        "argmax_neg": (lambda x: lax.argmax(x, 0, np.int64), [arr((4, 2), axis=-1)], -1, 0),
        "sort_neg": (lambda x: lax.sort(x, 1), [arr((2, 4), axis=-1)], -1, -1),
        "transpose_neg": (lambda x: lax.transpose(x, (1, 2, 0)), [arr((2, 3, 4), axis=-1)],
                          -1, 2),
        "slice_neg_out": (lambda x: lax.slice(x, (1,), (3,)), [arr((4,), axis=-1)], -1, -1),
        "tile_neg": (lambda x: lax.tile(x, (1, 3)), [arr((2, 2), axis=-1)], -1, 0),
        "cumsum_neg": (lambda x: lax.cumsum(x, 1, reverse=True), [arr((2, 3), axis=-1)],
                       -1, 1),
        "concatenate_unbatched_first": (lambda x, y: lax.concatenate([x, y], 0),
                                        [arr((2,), seed=2)[0], arr((3,), axis=-1)],
                                        (None, -1), -1),
        "triangular_solve_vector": (
            lambda a, b: lax.linalg.triangular_solve(a, b, left_side=True, lower=True),
            [tri(3, axis=2), arr((3,), np.float64, axis=1)], (2, 1), 0),
        "top_k_neg": (lambda x: tuple(lax.top_k(x, 1)), [arr((3, 4), axis=-1)], -1, -1),
        # a composite
        "composite": (lambda x, w: lax.reduce_sum(lax.transpose(lax.dot_general(
            lax.reshape(x, (2, 6)), w, (((1,), (0,)), ((), ()))), (1, 0)), (1,)),
            [arr((3, 4), axis=1), arr((6, 2), seed=2)[0]], (1, None), 0),
    }
    return c

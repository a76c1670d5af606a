"""The ``jax.numpy`` long tail, part A, run under both JAX 0.10.2 and transpile.

``programs(jnp, np)`` returns ``{topic: {name: (fn, args, flags)}}``; ``fn(*args)`` is the
program, ``args`` are NumPy arrays or Python scalars, and ``flags`` a string holding
``j`` (also check under ``jit``), ``g`` (check ``grad`` of a weighted sum with respect to
the first argument), ``v`` (check ``vmap`` over a leading axis of size 2 added to the
first argument) and ``p`` (check the jaxpr text). ``tools/record_numpy_long_tail_a.py``
records JAX's answers into ``tests/data/numpy_long_tail_a.json``; the
``tests/test_numpy_<topic>.py`` files compare. Nothing here imports jax or transpile.
"""
from __future__ import annotations

import math

__all__ = ["programs", "TOPICS", "X64_TOPICS", "KNOWN_JAXPR_DIFFERENCES", "batch_arg", "grad_weights", "weighted_sum", "plain",
           "leaves"]

TOPICS = ("pad", "shape_extra", "triangular", "index_tricks", "indexing_extra", "array_io",
          "vectorize", "cumulative", "x64")

#: Topics run with ``jax_enable_x64`` on (by ``enable_x64()``).
X64_TOPICS = ("x64",)


#: Programs whose jaxpr text is not JAX's (the values, dtypes and weak types are); every
#: other program that JAX can stage has its jaxpr checked (as text with the ``p`` flag,
#: else by its SHA-256). Reasons: ``linspace`` (linear_ramp), ``median`` (JAX goes
#: through ``quantile``), ``divmod``/``remainder``/``floor_divide`` on scalars (roll by a
#: traced shift, ``unravel_index``, ``put``) and the ``.at[]`` scatter index path stage
#: other equations than JAX's; ``unstack`` has no ``unstack`` primitive here; an explicit
#: ``offset=0`` of ``trace`` is staged as JAX stages the default; under x64, JAX's
#: ``mean`` of int8 computes in float32, transpile's in float64 (same rounded values).
KNOWN_JAXPR_DIFFERENCES = {
    "pad": {"linear_ramp_2d", "linear_ramp_1d_long", "linear_ramp_int", "median_2d",
            "median_1d_long", "median_int", "constant_values_pairs", "linear_ramp_end_values",
            "median_stat_length"},
    "shape_extra": {"repeat_total_scalar", "repeat_zero", "roll_dynamic",
                    "roll_dynamic_negative", "insert_scalar", "insert_axis",
                    "insert_axis_values", "insert_negative", "insert_float_into_int",
                    "unstack", "unstack_axis"},
    "triangular": {"triu_indices_big_k", "trace_axes"},
    "index_tricks": {"unravel_index_int"},
    "indexing_extra": {"compress_size", "extract_size", "place", "put", "put_clip", "put_wrap",
                       "put_along_axis", "put_along_axis_values", "put_along_axis_none"},
    "x64": {"pad_mean_int8", "roll_dynamic"},
}


def plain(v):
    """JSON-safe values: NaN and infinities as strings."""
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return v


def leaves(out, np) -> list:
    """The output as a list of records: arrays (shape, dtype, weak type, values) and
    Python values (``{"py": repr}``)."""
    if isinstance(out, (tuple, list)):
        return [x for o in out for x in leaves(o, np)]
    if isinstance(out, (bool, str)) or out is None:
        return [{"py": repr(out)}]
    a = np.asarray(out)
    return [{"shape": list(a.shape), "dtype": str(a.dtype),
             "weak_type": bool(getattr(out, "weak_type", False)),
             "values": plain(a.tolist())}]


def batch_arg(a, np):
    """A batch of two: ``a`` and ``2 * a + 1`` stacked."""
    a = np.asarray(a)
    return np.stack([a, (2 * a + 1).astype(a.dtype)])


def grad_weights(shape, np):
    return (np.arange(math.prod(shape), dtype=np.float32).reshape(shape) % 5 + 1) / 4


def weighted_sum(out, jnp, np):
    """A scalar of the (float) outputs, each weighted by :func:`grad_weights`."""
    outs = out if isinstance(out, (tuple, list)) else [out]
    return sum(jnp.sum(o * grad_weights(np.shape(o), np)) for o in outs)


def _pad(jnp, np):
    x = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    v = np.array([1., 3., 2., 5.], np.float32)
    xi = np.array([[1, 5, 2], [4, 3, 9]], np.int32)
    P = {}
    for mode in ("constant", "edge", "wrap", "reflect", "symmetric", "linear_ramp", "maximum",
                 "mean", "median", "minimum", "empty"):
        # jit for a few modes only: each jit is a C compile.
        flags = "jgv" if mode in ("constant", "edge", "wrap", "reflect", "mean") else "gv"
        P[f"{mode}_2d"] = (lambda a, m=mode: jnp.pad(a, ((1, 2), (2, 1)), mode=m), (x,), flags)
        P[f"{mode}_1d_long"] = (lambda a, m=mode: jnp.pad(a, (5, 6), mode=m), (v,), "")
        P[f"{mode}_int"] = (lambda a, m=mode: jnp.pad(a, 2, mode=m), (xi,), "")
    P["constant_p"] = (lambda a: jnp.pad(a, 1), (x,), "jp")
    P["constant_values_scalar"] = (lambda a: jnp.pad(a, 1, constant_values=-1.5), (x,), "j")
    P["constant_values_pairs"] = (lambda a: jnp.pad(a, 1, constant_values=((1, 2), (3, 4))),
                                  (x,), "j")
    P["constant_values_array"] = (lambda a, c: jnp.pad(a, (1, 0), constant_values=c),
                                  (x, np.float32(7)), "j")
    P["constant_int_float_value"] = (lambda a: jnp.pad(a, 1, constant_values=2.7), (xi,), "")
    P["constant_weak"] = (lambda: jnp.pad(3.0, 2), (), "")
    P["constant_1d_weak"] = (lambda: jnp.pad(jnp.array([1.0, 2.0]) * 2.0, 1), (), "")
    P["pad_width_int_tuple"] = (lambda a: jnp.pad(a, (3,)), (x,), "")
    P["pad_width_pair"] = (lambda a: jnp.pad(a, [[0, 1]]), (x,), "")
    P["pad_width_np"] = (lambda a: jnp.pad(a, np.array([[1, 0], [0, 2]])), (x,), "")
    P["pad_width_zero"] = (lambda a: jnp.pad(a, 0), (x,), "")
    P["reflect_odd"] = (lambda a: jnp.pad(a, 5, mode="reflect", reflect_type="odd"), (v,), "jg")
    P["symmetric_odd"] = (lambda a: jnp.pad(a, (2, 6), mode="symmetric", reflect_type="odd"),
                          (v,), "jg")
    P["reflect_size1"] = (lambda a: jnp.pad(a, 2, mode="reflect"), (v[:1],), "")
    P["linear_ramp_end_values"] = (lambda a: jnp.pad(a, ((1, 2), (2, 1)), mode="linear_ramp",
                                                     end_values=((10, 20), (-4, 4))), (x,), "g")
    # Two-step ramps: exact in binary, so the integer floor does not depend on rounding.
    P["linear_ramp_int"] = (lambda a: jnp.pad(a, 2, mode="linear_ramp", end_values=20), (xi,), "")
    P["stat_length"] = (lambda a: jnp.pad(a, 2, mode="mean", stat_length=2), (v,), "g")
    P["stat_length_pairs"] = (lambda a: jnp.pad(a, 2, mode="maximum",
                                                stat_length=((1, 2), (2, 1))), (x,), "")
    P["median_stat_length"] = (lambda a: jnp.pad(a, 2, mode="median", stat_length=3), (v,), "")
    P["callable"] = (lambda a: jnp.pad(a, 2, lambda row, w, ax, kw: row + kw.get("k", 0) + ax,
                                       k=10.0), (x,), "")
    P["scalar_array"] = (lambda a: jnp.pad(a, 3), (np.float32(2),), "")
    P["empty_axis_constant"] = (lambda: jnp.pad(jnp.zeros((0, 2)), 1), (), "")
    # Errors.
    P["err_bad_mode"] = (lambda a: jnp.pad(a, 1, mode="nope"), (x,), "")
    P["err_kwarg"] = (lambda a: jnp.pad(a, 1, mode="edge", constant_values=1), (x,), "")
    P["err_negative"] = (lambda a: jnp.pad(a, -1), (x,), "")
    P["err_shape"] = (lambda a: jnp.pad(a, ((1, 2, 3),)), (x,), "")
    P["err_float_width"] = (lambda a: jnp.pad(a, 1.5), (x,), "")
    P["err_ragged"] = (lambda a: jnp.pad(a, ((1, 2), (1,))), (x,), "")
    P["err_constant_values_shape"] = (lambda a: jnp.pad(a, 1, constant_values=(1, 2, 3)),
                                      (x,), "")
    P["err_wrap_empty"] = (lambda: jnp.pad(jnp.zeros((0, 2)), 1, mode="wrap"), (), "")
    P["err_stat_length_zero"] = (lambda a: jnp.pad(a, 1, mode="mean", stat_length=0), (v,), "")
    P["err_list_input"] = (lambda: jnp.pad([1, 2], 1), (), "")
    return P


def _shape_extra(jnp, np):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    x3 = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    v = np.arange(6, dtype=np.int32)
    P = {}
    P["repeat_scalar"] = (lambda a: jnp.repeat(a, 2, axis=1), (x,), "g")
    P["repeat_flat"] = (lambda a: jnp.repeat(a, 3), (v,), "")
    P["repeat_array"] = (lambda a: jnp.repeat(a, np.array([1, 0, 2]), axis=0), (x,), "gv")
    P["repeat_array_flat"] = (lambda a: jnp.repeat(a, np.array([2, 1, 0, 1, 3, 0])), (v,), "")
    P["repeat_array_one"] = (lambda a: jnp.repeat(a, np.array([2]), axis=1), (x,), "")
    P["repeat_total"] = (lambda a, r: jnp.repeat(a, r, axis=1, total_repeat_length=6),
                         (x, np.array([2, 0, 1, 1], np.int32)), "jg")
    P["repeat_total_short"] = (lambda a, r: jnp.repeat(a, r, total_repeat_length=3),
                               (v, np.array([2, 1, 1, 1, 1, 1], np.int32)), "j")
    P["repeat_total_scalar"] = (lambda a: jnp.repeat(a, 2, axis=0, total_repeat_length=4),
                                (x,), "")
    P["repeat_zero"] = (lambda a: jnp.repeat(a, np.array([0, 0, 0]), axis=0), (x,), "")
    P["repeat_scalar_a"] = (lambda: jnp.repeat(2.5, 3), (), "")
    P["repeat_scalar_a_axis"] = (lambda: jnp.repeat(jnp.float32(2), np.array([4]), axis=0),
                                 (), "")
    P["repeat_method"] = (lambda a: a.repeat(np.array([1, 2, 3, 1]), axis=1), (x,), "")
    P["err_repeat_scalar_a"] = (lambda: jnp.repeat(jnp.float32(2), np.array([1, 2]), axis=0),
                                (), "")
    P["err_repeat_traced"] = (lambda a, r: jnp.repeat(a, r), (v, np.array([1] * 6, np.int32)),
                              "j")
    P["err_repeat_list"] = (lambda a: jnp.repeat(a, [1, 2]), (v,), "")
    P["roll_flat"] = (lambda a: jnp.roll(a, 5), (x,), "jgvp")
    P["roll_axis"] = (lambda a: jnp.roll(a, -1, 1), (x,), "jp")
    P["roll_tuple"] = (lambda a: jnp.roll(a, (1, 2), (0, 1)), (x,), "jgv")
    P["roll_broadcast"] = (lambda a: jnp.roll(a, 1, (0, 1)), (x,), "")
    P["roll_big_shift"] = (lambda a: jnp.roll(a, 13, 0), (x,), "")
    P["roll_dynamic"] = (lambda a, s: jnp.roll(a, s, 1), (x, np.int32(3)), "jg")
    P["roll_dynamic_negative"] = (lambda a, s: jnp.roll(a, s, 0), (x, np.int32(-4)), "j")
    P["roll_empty"] = (lambda: jnp.roll(jnp.zeros((0, 3)), 2, 0), (), "")
    P["rollaxis"] = (lambda a: jnp.rollaxis(a, 2), (x3,), "")
    P["rollaxis_start"] = (lambda a: jnp.rollaxis(a, 0, 3), (x3,), "")
    P["rollaxis_neg"] = (lambda a: jnp.rollaxis(a, -1, -2), (x3,), "")
    P["err_rollaxis_start"] = (lambda a: jnp.rollaxis(a, 0, 5), (x3,), "")
    for k in (-1, 0, 1, 2, 3, 5):
        P[f"rot90_k{k}"] = (lambda a, k=k: jnp.rot90(a, k), (x,), "jg" if k == 1 else "")
    P["rot90_p"] = (lambda a: jnp.rot90(a), (x,), "p")
    P["rot90_axes"] = (lambda a: jnp.rot90(a, 1, (2, 0)), (x3,), "v")
    P["err_rot90_1d"] = (lambda a: jnp.rot90(a), (v,), "")
    P["err_rot90_same_axes"] = (lambda a: jnp.rot90(a, 1, (1, 1)), (x,), "")
    P["append_flat"] = (lambda a: jnp.append(a, 7), (x,), "g")
    P["append_axis"] = (lambda a: jnp.append(a, a[:1], axis=0), (x,), "")
    P["append_promote"] = (lambda a: jnp.append(a, 1.5), (v,), "")
    P["insert_scalar"] = (lambda a: jnp.insert(a, 2, 99), (v,), "")
    P["insert_list"] = (lambda a: jnp.insert(a, np.array([1, 1, 5]), np.array([7, 8, 9])),
                        (v,), "j")
    P["insert_axis"] = (lambda a: jnp.insert(a, 1, 5.0, axis=1), (x,), "jg")
    P["insert_axis_values"] = (lambda a: jnp.insert(a, 3, np.array([1., 2., 3.]), axis=1),
                               (x,), "")
    P["insert_slice"] = (lambda a: jnp.insert(a, slice(0, 4, 2), -1), (v,), "")
    P["insert_negative"] = (lambda a: jnp.insert(a, -2, 50), (v,), "")
    P["insert_float_into_int"] = (lambda a: jnp.insert(a, 0, 2.7), (v,), "")
    P["err_insert_2d_obj"] = (lambda a: jnp.insert(a, np.array([[1]]), 0), (v,), "")
    P["err_insert_float_obj"] = (lambda a: jnp.insert(a, np.array([1.5]), 0), (v,), "")
    P["delete_int"] = (lambda a: jnp.delete(a, 1), (v,), "")
    P["delete_negative_axis"] = (lambda a: jnp.delete(a, -1, axis=1), (x,), "jg")
    P["delete_slice"] = (lambda a: jnp.delete(a, slice(1, None, 2), axis=1), (x,), "")
    P["delete_array"] = (lambda a: jnp.delete(a, np.array([0, 2, 2])), (v,), "")
    P["delete_bool"] = (lambda a: jnp.delete(a, np.array([True, False, True]), axis=0), (x,), "")
    P["delete_unique"] = (lambda a, i: jnp.delete(a, i, assume_unique_indices=True),
                          (v, np.array([4, 1], np.int32)), "j")
    P["err_delete_bool_shape"] = (lambda a: jnp.delete(a, np.array([True, False])), (v,), "")
    P["err_delete_float"] = (lambda a: jnp.delete(a, np.array([1.0])), (v,), "")
    P["err_delete_out_of_range"] = (lambda a: jnp.delete(a, 6), (v,), "")
    P["resize_grow"] = (lambda a: jnp.resize(a, (4, 5)), (x,), "jg")
    P["resize_shrink"] = (lambda a: jnp.resize(a, 5), (v,), "")
    P["resize_empty"] = (lambda a: jnp.resize(a, (2, 0)), (v,), "")
    P["err_resize_negative"] = (lambda a: jnp.resize(a, (-1, 2)), (v,), "")
    P["trim_zeros"] = (lambda a: jnp.trim_zeros(a), (np.array([0, 0, 1, 0, 2, 0], np.int32),), "")
    P["trim_zeros_f"] = (lambda a: jnp.trim_zeros(a, "f"), (np.array([0, 1, 0.], np.float32),), "")
    P["trim_zeros_b"] = (lambda a: jnp.trim_zeros(a, trim="B"), (np.array([0, 1, 0], np.int32),),
                         "")
    P["trim_zeros_all_zero"] = (lambda a: jnp.trim_zeros(a), (np.zeros(3, np.int32),), "")
    P["trim_zeros_2d"] = (lambda a: jnp.trim_zeros(a), (np.pad(np.ones((2, 2), np.int32), 1),), "")
    P["trim_zeros_2d_axis"] = (lambda a: jnp.trim_zeros(a, axis=1),
                               (np.pad(np.ones((2, 2), np.int32), 1),), "")
    P["hsplit"] = (lambda a: jnp.hsplit(a, 2), (x,), "")
    P["hsplit_1d"] = (lambda a: jnp.hsplit(a, [1, 4]), (v,), "")
    P["vsplit"] = (lambda a: jnp.vsplit(a, 3), (x,), "")
    P["dsplit"] = (lambda a: jnp.dsplit(a, [1]), (x3,), "")
    P["err_hsplit_unequal"] = (lambda a: jnp.hsplit(a, 3), (x,), "")
    P["err_dsplit_2d"] = (lambda a: jnp.dsplit(a, 2), (x,), "")
    P["unstack"] = (lambda a: jnp.unstack(a), (x,), "jv")
    P["unstack_axis"] = (lambda a: jnp.unstack(a, axis=-1), (x3,), "")
    P["err_unstack_scalar"] = (lambda: jnp.unstack(jnp.float32(1)), (), "")
    P["block_2x2"] = (lambda a: jnp.block([[a, a[:, :1]], [a[:1], a[:1, :1]]]), (x,), "jg")
    P["block_1d"] = (lambda a: jnp.block([a, 1, a]), (v,), "")
    P["block_scalar"] = (lambda: jnp.block(2.0), (), "")
    P["block_mixed_rank"] = (lambda a: jnp.block([[a], [v.astype(np.float32)[:4]]]), (x,), "")
    P["err_block_empty"] = (lambda: jnp.block([]), (), "")
    P["err_block_depth"] = (lambda a: jnp.block([[a], a]), (v,), "")
    P["apply_along_axis_sum"] = (lambda a: jnp.apply_along_axis(jnp.sum, 1, a), (x,), "jg")
    P["apply_along_axis_vec"] = (lambda a: jnp.apply_along_axis(lambda r: r[::-1] * 2, 0, a),
                                 (x3,), "")
    P["apply_along_axis_args"] = (lambda a: jnp.apply_along_axis(
        lambda r, s, t=0: r * s + t, -1, a, 3, t=1), (x,), "")
    P["apply_over_axes"] = (lambda a: jnp.apply_over_axes(jnp.sum, a, [0, 2]), (x3,), "")
    P["apply_over_axes_keep"] = (lambda a: jnp.apply_over_axes(
        lambda b, ax: jnp.cumsum(b, ax), a, (0, 1)), (x,), "")
    P["err_apply_over_axes"] = (lambda a: jnp.apply_over_axes(lambda b, ax: b.sum(), a, [0]),
                                (x3,), "")
    return P


def _cumulative(jnp, np):
    v = np.array([1.5, 2.0, -1.0, 3.0], np.float32)
    x = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    P = {}
    P["sum"] = (lambda a: jnp.cumulative_sum(a), (v,), "jgv")
    P["sum_initial"] = (lambda a: jnp.cumulative_sum(a, include_initial=True), (v,), "jgv")
    P["sum_axis_initial"] = (lambda a: jnp.cumulative_sum(a, axis=1, include_initial=True),
                             (x,), "g")
    P["sum_int8"] = (lambda: jnp.cumulative_sum(jnp.arange(4, dtype=jnp.int8)), (), "")
    P["sum_uint8_initial"] = (lambda: jnp.cumulative_sum(jnp.arange(3, dtype=jnp.uint8),
                                                         include_initial=True), (), "")
    P["sum_bool"] = (lambda: jnp.cumulative_sum(jnp.array([True, False, True])), (), "")
    P["sum_dtype"] = (lambda a: jnp.cumulative_sum(a, dtype=jnp.int32), (v,), "")
    P["sum_weak"] = (lambda: jnp.cumulative_sum(jnp.arange(3.0) * 1.0, include_initial=True),
                     (), "")
    P["prod"] = (lambda a: jnp.cumulative_prod(a), (v,), "g")
    P["prod_initial"] = (lambda a: jnp.cumulative_prod(a, axis=0, include_initial=True),
                         (x,), "jgv")
    P["prod_int8"] = (lambda: jnp.cumulative_prod(jnp.arange(1, 4, dtype=jnp.int8),
                                                  include_initial=True), (), "")
    P["err_sum_scalar"] = (lambda: jnp.cumulative_sum(jnp.float32(1)), (), "")
    P["err_prod_scalar"] = (lambda: jnp.cumulative_prod(3.0), (), "")
    P["err_sum_no_axis"] = (lambda a: jnp.cumulative_sum(a), (x,), "")
    P["err_prod_no_axis"] = (lambda a: jnp.cumulative_prod(a), (x,), "")
    P["err_sum_axis"] = (lambda a: jnp.cumulative_sum(a, axis=2), (x,), "")
    return P


def _x64(jnp, np):
    """Index dtypes and promotions that depend on the 64-bit mode."""
    x = np.arange(12.0).reshape(3, 4)
    xi = np.arange(6, dtype=np.int8)
    i32 = np.array([1, 2], np.int32)
    P = {}
    P["indices"] = (lambda: jnp.indices((2, 2)), (), "")
    P["diag_indices"] = (lambda: jnp.diag_indices(3), (), "")
    P["tril_indices"] = (lambda: jnp.tril_indices(3), (), "")
    P["tri"] = (lambda: jnp.tri(2), (), "")
    P["unravel_index"] = (lambda: jnp.unravel_index(jnp.array([5, 7]), (3, 4)), (), "")
    P["ravel_multi_index"] = (lambda: jnp.ravel_multi_index((jnp.array([1]), jnp.array([2])),
                                                            (3, 4)), (), "")
    P["ravel_multi_index_i32"] = (lambda a: jnp.ravel_multi_index((a, a), (3, 4)), (i32,), "")
    P["cumulative_sum_int8"] = (lambda a: jnp.cumulative_sum(a, include_initial=True), (xi,),
                                "")
    P["pad_mean_int8"] = (lambda a: jnp.pad(a, 2, mode="mean"), (xi,), "")
    P["pad_float64"] = (lambda a: jnp.pad(a, 1, constant_values=2), (x,), "g")
    P["trace_float64"] = (lambda a: jnp.trace(a, 1), (x,), "")
    P["repeat_float64"] = (lambda a: jnp.repeat(a, np.array([1, 2, 0]), axis=0), (x,), "")
    P["insert_int8"] = (lambda a: jnp.insert(a, 1, 7), (xi,), "")
    P["mgrid"] = (lambda: jnp.mgrid[0:2, 0:1:3j], (), "")
    P["r_"] = (lambda: jnp.r_[1:3, 2.5], (), "")
    P["fromfunction"] = (lambda: jnp.fromfunction(lambda i: i, (3,)), (), "")
    P["ix_empty"] = (lambda: jnp.ix_(jnp.array([], jnp.int32), jnp.array([1])), (), "")
    P["diag_int"] = (lambda: jnp.diag(jnp.arange(3)), (), "")
    P["roll_dynamic"] = (lambda a: jnp.roll(a, jnp.array(1), 0), (x,), "")
    return P


def _triangular(jnp, np):
    x = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    x3 = np.arange(1, 19, dtype=np.float32).reshape(2, 3, 3)
    xi = np.arange(16, dtype=np.int32).reshape(4, 4)
    v = np.array([1., 2., 3.], np.float32)
    P = {}
    for k in (-2, 0, 1, 5):
        P[f"tril_k{k}"] = (lambda a, k=k: jnp.tril(a, k), (x,), "jgv" if k == 0 else "")
        P[f"triu_k{k}"] = (lambda a, k=k: jnp.triu(a, k), (x,), "jgv" if k == 0 else "")
    P["tril_p"] = (lambda a: jnp.tril(a), (x,), "p")
    P["triu_p"] = (lambda a: jnp.triu(a, 1), (x,), "p")
    P["tril_batched"] = (lambda a: jnp.tril(a, -1), (x3,), "")
    P["triu_bool"] = (lambda a: jnp.triu(a > 3), (x,), "")
    P["tril_weak"] = (lambda: jnp.tril(jnp.ones((2, 2)) * 2.0), (), "")
    P["err_tril_1d"] = (lambda a: jnp.tril(a), (v,), "")
    P["err_triu_1d"] = (lambda a: jnp.triu(a), (v,), "")
    P["tri"] = (lambda: jnp.tri(3), (), "")
    P["tri_m_k"] = (lambda: jnp.tri(3, 5, 2), (), "")
    P["tri_neg_k"] = (lambda: jnp.tri(4, k=-1, dtype=jnp.int32), (), "")
    P["tri_bool"] = (lambda: jnp.tri(2, 3, dtype=bool), (), "")
    P["tril_indices"] = (lambda: jnp.tril_indices(4), (), "")
    P["tril_indices_k_m"] = (lambda: jnp.tril_indices(3, 1, 5), (), "")
    P["tril_indices_neg"] = (lambda: jnp.tril_indices(4, -2), (), "")
    P["triu_indices"] = (lambda: jnp.triu_indices(4), (), "")
    P["triu_indices_k_m"] = (lambda: jnp.triu_indices(3, -1, 2), (), "")
    P["triu_indices_big_k"] = (lambda: jnp.triu_indices(3, 4), (), "")
    P["tril_indices_from"] = (lambda a: jnp.tril_indices_from(a, 1), (x,), "")
    P["triu_indices_from"] = (lambda a: jnp.triu_indices_from(a), (x,), "")
    P["err_tril_indices_from_3d"] = (lambda a: jnp.tril_indices_from(a), (x3,), "")
    P["err_triu_indices_from_1d"] = (lambda a: jnp.triu_indices_from(a), (v,), "")
    P["diag_1d"] = (lambda a: jnp.diag(a), (v,), "jgv")
    P["diag_1d_k"] = (lambda a: jnp.diag(a, -2), (v,), "jg")
    P["diag_2d"] = (lambda a: jnp.diag(a), (x,), "jgv")
    P["diag_2d_k"] = (lambda a: jnp.diag(a, 2), (x,), "")
    P["diag_2d_k_out"] = (lambda a: jnp.diag(a, 7), (x,), "")
    P["diag_int"] = (lambda a: jnp.diag(a, 1), (xi,), "")
    P["err_diag_3d"] = (lambda a: jnp.diag(a), (x3,), "")
    P["diagflat"] = (lambda a: jnp.diagflat(a), (v,), "jg")
    P["diagflat_2d_k"] = (lambda a: jnp.diagflat(a[:2, :2], -1), (x,), "")
    P["diagflat_k"] = (lambda a: jnp.diagflat(a, 2), (v,), "")
    P["diagonal"] = (lambda a: jnp.diagonal(a), (x,), "jgvp")
    P["diagonal_offset"] = (lambda a: jnp.diagonal(a, 1), (x,), "jg")
    P["diagonal_neg_offset"] = (lambda a: jnp.diagonal(a, -1), (x,), "")
    P["diagonal_axes"] = (lambda a: jnp.diagonal(a, 0, 2, 0), (x3,), "g")
    P["diagonal_axes_neg"] = (lambda a: jnp.diagonal(a, 1, -1, -2), (x3,), "")
    P["diagonal_empty"] = (lambda a: jnp.diagonal(a, 9), (x,), "")
    P["err_diagonal_1d"] = (lambda a: jnp.diagonal(a), (v,), "")
    P["diag_indices"] = (lambda: jnp.diag_indices(3), (), "")
    P["diag_indices_3"] = (lambda: jnp.diag_indices(2, 3), (), "")
    P["err_diag_indices_neg"] = (lambda: jnp.diag_indices(-1), (), "")
    P["err_diag_indices_neg_ndim"] = (lambda: jnp.diag_indices(2, -1), (), "")
    P["diag_indices_from"] = (lambda a: jnp.diag_indices_from(a), (xi,), "")
    P["err_diag_indices_from_rect"] = (lambda a: jnp.diag_indices_from(a), (x,), "")
    P["err_diag_indices_from_1d"] = (lambda a: jnp.diag_indices_from(a), (v,), "")
    P["fill_diagonal"] = (lambda a: jnp.fill_diagonal(a, 0.5, inplace=False), (x,), "jg")
    P["fill_diagonal_array"] = (lambda a, b: jnp.fill_diagonal(a, b, inplace=False),
                                (xi, np.array([-1, -2], np.int32)), "")
    P["fill_diagonal_cube"] = (lambda: jnp.fill_diagonal(jnp.zeros((2, 2, 2)), 3.0,
                                                         inplace=False), (), "")
    P["err_fill_diagonal_inplace"] = (lambda a: jnp.fill_diagonal(a, 0), (x,), "")
    P["err_fill_diagonal_wrap"] = (lambda a: jnp.fill_diagonal(a, 0, wrap=True, inplace=False),
                                   (x,), "")
    P["err_fill_diagonal_1d"] = (lambda a: jnp.fill_diagonal(a, 0, inplace=False), (v,), "")
    P["err_fill_diagonal_cube"] = (lambda: jnp.fill_diagonal(jnp.zeros((2, 2, 3)), 0,
                                                             inplace=False), (), "")
    P["trace"] = (lambda a: jnp.trace(a), (x,), "jgvp")
    P["trace_offset"] = (lambda a: jnp.trace(a, -1), (x,), "")
    P["trace_axes"] = (lambda a: jnp.trace(a, 0, 1, 2), (x3,), "g")
    P["trace_int"] = (lambda a: jnp.trace(a), (xi,), "")
    P["trace_bool"] = (lambda a: jnp.trace(a > 5), (x,), "")
    P["trace_dtype"] = (lambda a: jnp.trace(a, dtype=jnp.int32), (x,), "")
    P["err_trace_same_axes"] = (lambda a: jnp.trace(a, 0, 1, -1), (x,), "")
    P["err_trace_out"] = (lambda a: jnp.trace(a, out=a), (x,), "")
    P["mask_indices_triu"] = (lambda: jnp.mask_indices(3, jnp.triu), (), "")
    P["mask_indices_tril_k"] = (lambda: jnp.mask_indices(3, jnp.tril, -1), (), "")
    P["mask_indices_size"] = (lambda: jnp.mask_indices(3, jnp.triu, 1, size=4), (), "")
    return P


def _index_tricks(jnp, np):
    a = np.array([1., 2., 3.], np.float32)
    b = np.array([4, 5], np.int32)
    c = np.array([7, 8, 9, 10], np.int32)
    P = {}
    P["meshgrid_xy"] = (lambda x, y: jnp.meshgrid(x, y), (a, b), "jp")
    P["meshgrid_ij"] = (lambda x, y, z: jnp.meshgrid(x, y, z, indexing="ij"), (a, b, c), "")
    P["meshgrid_sparse"] = (lambda x, y: jnp.meshgrid(x, y, sparse=True), (a, b), "")
    P["meshgrid_one"] = (lambda x: jnp.meshgrid(x), (a,), "")
    P["meshgrid_none"] = (lambda: jnp.meshgrid(), (), "")
    P["meshgrid_weak"] = (lambda: jnp.meshgrid(jnp.arange(2) * 1.0, jnp.arange(3)), (), "")
    P["err_meshgrid_copy"] = (lambda x: jnp.meshgrid(x, copy=False), (a,), "")
    P["err_meshgrid_indexing"] = (lambda x: jnp.meshgrid(x, indexing="xx"), (a,), "")
    P["err_meshgrid_2d"] = (lambda: jnp.meshgrid(jnp.ones((2, 2))), (), "")
    P["mgrid"] = (lambda: jnp.mgrid[0:3, 1:5:2], (), "")
    P["mgrid_1d"] = (lambda: jnp.mgrid[-2:3], (), "")
    P["mgrid_complex"] = (lambda: jnp.mgrid[0:1:5j, 0:2], (), "")
    P["mgrid_float"] = (lambda: jnp.mgrid[0:1:0.25], (), "")
    P["mgrid_empty"] = (lambda: jnp.mgrid[()], (), "")
    P["ogrid"] = (lambda: jnp.ogrid[0:3, 0:2:0.5], (), "")
    P["ogrid_1d"] = (lambda: jnp.ogrid[1:4:4j], (), "")
    P["indices"] = (lambda: jnp.indices((2, 3)), (), "")
    P["indices_sparse"] = (lambda: jnp.indices((2, 3, 1), sparse=True), (), "")
    P["indices_dtype"] = (lambda: jnp.indices((2,), dtype=jnp.int16), (), "")
    P["indices_empty"] = (lambda: jnp.indices(()), (), "")
    P["ix"] = (lambda x, y: jnp.ix_(x, y), (b, c), "")
    P["ix_empty"] = (lambda: jnp.ix_(jnp.array([], jnp.int32), jnp.array([1, 2])), (), "")
    P["err_ix_2d"] = (lambda: jnp.ix_(jnp.ones((2, 2), jnp.int32)), (), "")
    P["err_ix_bool"] = (lambda: jnp.ix_(jnp.array([True, False])), (), "")
    P["r_"] = (lambda x, y: jnp.r_[x, 0, y], (a, b), "")
    P["r_slice"] = (lambda: jnp.r_[1:4, 10, -1:1:3j], (), "")
    P["r_directive"] = (lambda x: jnp.r_["0,2", x, x], (a,), "")
    P["r_directive_trans"] = (lambda x: jnp.r_["1,2,0", x, x], (a,), "")
    P["r_r"] = (lambda x: jnp.r_["r", x, x], (a,), "")
    P["r_c"] = (lambda x: jnp.r_["c", x, x], (a,), "")
    P["r_axis_only"] = (lambda: jnp.r_["-1", jnp.ones((2, 2)), jnp.zeros((2, 1))], (), "")
    P["c_"] = (lambda x: jnp.c_[x, x * 2], (a,), "")
    P["c_2d"] = (lambda: jnp.c_[jnp.ones((2, 2)), jnp.zeros((2, 3))], (), "")
    P["c_directive"] = (lambda x: jnp.c_["0,2,-1", x, x], (a,), "")
    P["err_r_directive"] = (lambda x: jnp.r_["a,b", x], (a,), "")
    P["err_r_string_later"] = (lambda x: jnp.r_[x, "0"], (a,), "")
    P["s_"] = (lambda: repr(jnp.s_[1:2, ::3, None, ...]), (), "")
    P["index_exp"] = (lambda: repr(jnp.index_exp[2]), (), "")
    P["ravel_multi_index"] = (lambda i, j: jnp.ravel_multi_index((i, j), (3, 4)),
                              (np.array([0, 2, 1], np.int32), np.array([3, 1, 0], np.int32)), "")
    P["ravel_multi_index_F"] = (lambda i, j: jnp.ravel_multi_index((i, j), (3, 4), order="F"),
                                (np.array([0, 2, 1], np.int32), np.array([3, 1, 0], np.int32)),
                                "")
    P["ravel_multi_index_wrap"] = (lambda i, j: jnp.ravel_multi_index((i, j), (3, 4), mode="wrap"),
                                   (np.array([-1, 5], np.int32), np.array([4, -3], np.int32)), "j")
    P["ravel_multi_index_clip"] = (lambda i, j: jnp.ravel_multi_index((i, j), (3, 4), mode="clip"),
                                   (np.array([-1, 5], np.int32), np.array([4, -3], np.int32)), "")
    P["ravel_multi_index_dtype"] = (lambda: jnp.ravel_multi_index(
        (jnp.array([1]), jnp.array([2])), (3, 4), dtype=jnp.int16), (), "")
    P["err_ravel_multi_index_raise"] = (lambda: jnp.ravel_multi_index(
        (jnp.array([3]), jnp.array([0])), (3, 4)), (), "")
    P["err_ravel_multi_index_float"] = (lambda: jnp.ravel_multi_index(
        (jnp.array([1.0]), jnp.array([0])), (3, 4)), (), "")
    P["err_ravel_multi_index_mode"] = (lambda: jnp.ravel_multi_index(
        (jnp.array([1]), jnp.array([0])), (3, 4), mode="bad"), (), "")
    P["err_ravel_multi_index_order"] = (lambda: jnp.ravel_multi_index(
        (jnp.array([1]), jnp.array([0])), (3, 4), order="X"), (), "")
    P["err_ravel_multi_index_small_dtype"] = (lambda: jnp.ravel_multi_index(
        (jnp.array([1]), jnp.array([0])), (300, 4), dtype=jnp.int8), (), "")
    P["unravel_index"] = (lambda i: jnp.unravel_index(i, (3, 4)),
                          (np.array([0, 5, 11, 13, -1, -20], np.int32),), "")
    P["unravel_index_int"] = (lambda: jnp.unravel_index(7, (2, 5)), (), "")
    P["unravel_index_scalar_shape"] = (lambda i: jnp.unravel_index(i, 4),
                                       (np.array([1, 6], np.int32),), "")
    P["unravel_index_uint"] = (lambda i: jnp.unravel_index(i, (2, 3)),
                               (np.array([1, 9], np.uint32),), "")
    P["err_unravel_index_shape"] = (lambda: jnp.unravel_index(1, ((2, 3),)), (), "")
    return P


def _indexing_extra(jnp, np):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    v = np.arange(5, dtype=np.int32)
    P = {}
    P["compress"] = (lambda c, a: jnp.compress(c, a, axis=0),
                     (np.array([True, False, True]), x), "")
    P["compress_flat"] = (lambda a: jnp.compress(np.array([0, 1, 1]), a), (x,), "")
    P["compress_axis1_short"] = (lambda a: jnp.compress(np.array([True, False]), a, axis=1),
                                 (x,), "")
    P["compress_size"] = (lambda a, c: jnp.compress(c, a, axis=1, size=3, fill_value=-1),
                          (x, np.array([True, False, True, False])), "jg")
    P["err_compress_2d"] = (lambda a: jnp.compress(np.ones((2, 2), bool), a), (x,), "")
    P["err_compress_oob"] = (lambda a: jnp.compress(np.array([0, 0, 0, 1]), a, axis=0), (x,), "")
    P["err_compress_size"] = (lambda a: jnp.compress(np.array([1, 0, 1]), a, axis=0, size=4),
                              (x,), "")
    P["err_compress_out"] = (lambda a: jnp.compress(np.array([1]), a, out=a), (x,), "")
    P["extract"] = (lambda a: jnp.extract(a > 6, a), (x,), "")
    P["extract_size"] = (lambda a: jnp.extract(a > 6, a, size=7, fill_value=0.5), (x,), "j")
    P["choose"] = (lambda i: jnp.choose(i, [np.zeros(4, np.float32), np.arange(4.0),
                                            np.full(4, 9.0)]),
                   (np.array([0, 1, 2, 1], np.int32),), "")
    P["choose_broadcast"] = (lambda i: jnp.choose(i, [0, np.arange(3), 10]),
                             (np.array([[2], [1]], np.int32),), "")
    P["choose_wrap"] = (lambda i: jnp.choose(i, [np.zeros(3, np.int32), np.ones(3, np.int32)],
                                             mode="wrap"), (np.array([-1, 2, 5], np.int32),), "j")
    P["choose_clip"] = (lambda i: jnp.choose(i, [np.zeros(3, np.int32), np.ones(3, np.int32)],
                                             mode="clip"), (np.array([-1, 2, 5], np.int32),), "")
    P["err_choose_raise"] = (lambda i: jnp.choose(i, [v, v]), (np.array([0, 2], np.int32),), "")
    P["err_choose_float"] = (lambda: jnp.choose(jnp.array([0.0]), [v]), (), "")
    P["err_choose_mode"] = (lambda i: jnp.choose(i, [v], mode="x"), (np.array([0], np.int32),),
                            "")
    P["err_choose_out"] = (lambda i: jnp.choose(i, [v], out=v), (np.array([0], np.int32),), "")
    P["place"] = (lambda a: jnp.place(a, a > 5, np.array([-1.0, -2.0]), inplace=False), (x,), "")
    P["place_int"] = (lambda a: jnp.place(a, np.array([1, 0, 1, 0, 1]), 9, inplace=False),
                      (v,), "")
    P["err_place_inplace"] = (lambda a: jnp.place(a, a > 5, 0.0), (x,), "")
    P["err_place_size"] = (lambda a: jnp.place(a, np.array([True]), 0.0, inplace=False), (x,), "")
    P["err_place_empty"] = (lambda a: jnp.place(a, a > 5, np.array([]), inplace=False), (x,), "")
    P["put"] = (lambda a: jnp.put(a, np.array([0, 5, 13]), np.array([-1.0, -2.0]),
                                  inplace=False), (x,), "j")
    P["put_clip"] = (lambda a: jnp.put(a, np.array([-3, 20]), 7, mode="clip", inplace=False),
                     (v,), "")
    P["put_wrap"] = (lambda a: jnp.put(a, np.array([-3, 7]), 7, mode="wrap", inplace=False),
                     (v,), "")
    P["err_put_inplace"] = (lambda a: jnp.put(a, 0, 1), (v,), "")
    P["err_put_raise"] = (lambda a: jnp.put(a, 0, 1, mode="raise", inplace=False), (v,), "")
    P["err_put_mode"] = (lambda a: jnp.put(a, 0, 1, mode="x", inplace=False), (v,), "")
    P["put_along_axis"] = (lambda a, i: jnp.put_along_axis(a, i, 99.0, 1, inplace=False),
                           (x, np.array([[0], [3], [1]], np.int32)), "jg")
    P["put_along_axis_values"] = (lambda a, i: jnp.put_along_axis(
        a, i, np.array([[1.0, 2.0, 3.0, 4.0]]), 0, inplace=False),
        (x, np.array([[2, 0, 1, 2]], np.int32)), "")
    P["put_along_axis_none"] = (lambda a: jnp.put_along_axis(a, np.array([1, 10]), 0.5, None,
                                                             inplace=False), (x,), "")
    P["err_put_along_axis_inplace"] = (lambda a: jnp.put_along_axis(a, np.array([[0]]), 1.0, 1),
                                       (x,), "")
    P["err_put_along_axis_ndim"] = (lambda a: jnp.put_along_axis(a, np.array([0]), 1.0, 1,
                                                                 inplace=False), (x,), "")
    P["err_put_along_axis_values"] = (lambda a: jnp.put_along_axis(
        a, np.array([[0], [1], [2]]), np.ones((2, 2)), 1, inplace=False), (x,), "")
    return P


def _array_io(jnp, np):
    x = np.array([[1.5, -2.0], [3.25, 4.0]], np.float32)
    P = {}
    P["copy"] = (lambda a: jnp.copy(a), (x,), "jg")
    P["copy_scalar"] = (lambda: jnp.copy(3), (), "")
    P["err_copy_list"] = (lambda: jnp.copy([1, 2]), (), "")
    P["isscalar"] = (lambda: [jnp.isscalar(v) for v in (1, 2.5, np.float32(1), jnp.ones(()),
                                                       jnp.ones(1), [1], "s", None)], (), "")
    P["iterable"] = (lambda: [jnp.iterable(v) for v in (1, jnp.ones(2), [1], "ab")], (), "")
    P["fromfunction"] = (lambda: jnp.fromfunction(lambda i, j: i * 10 + j, (2, 3)), (), "")
    P["fromfunction_dtype"] = (lambda: jnp.fromfunction(lambda i: i * 2, (4,), dtype=jnp.int32),
                               (), "")
    P["err_fromfunction_kwargs"] = (lambda: jnp.fromfunction(lambda i, j, s: (i - j) * s, (2, 2),
                                                         s=3.0), (), "")
    P["frombuffer"] = (lambda: jnp.frombuffer(np.arange(4, dtype=np.int16).tobytes(),
                                              dtype=jnp.int16), (), "")
    P["frombuffer_offset"] = (lambda: jnp.frombuffer(b"\x01\x02\x03\x04\x05", dtype=jnp.uint8,
                                                     count=3, offset=1), (), "")
    P["fromstring"] = (lambda: jnp.fromstring("1 2 3.5", sep=" "), (), "")
    P["fromstring_int"] = (lambda: jnp.fromstring("1,2,3", dtype=jnp.int32, sep=","), (), "")
    P["err_fromiter"] = (lambda: jnp.fromiter(iter([1, 2]), dtype=float), (), "")
    P["array_str"] = (lambda a: jnp.array_str(a), (x,), "")
    P["array_str_precision"] = (lambda a: jnp.array_str(a, precision=1), (x,), "")
    P["array_repr_body"] = (lambda a: jnp.array_repr(a).split("(", 1)[1], (x,), "")
    P["set_printoptions"] = (lambda a: _set_printed(jnp, a), (x,), "")
    P["get_printoptions"] = (lambda: jnp.get_printoptions()["precision"], (), "")
    P["printoptions"] = (lambda a: _printed(jnp, a), (x,), "")
    return P


def _printed(jnp, a):
    with jnp.printoptions(precision=1):
        inside = jnp.array_str(a)
    return [inside, jnp.array_str(a)]


def _set_printed(jnp, a):
    saved = jnp.get_printoptions()
    try:
        jnp.set_printoptions(precision=2, suppress=True)
        return jnp.array_str(a / 3)
    finally:
        jnp.set_printoptions(**saved)


def _vectorize(jnp, np):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = np.array([1., 2., 3.], np.float32)
    P = {}
    P["scalar"] = (lambda a, b: jnp.vectorize(lambda p, q: p * 2 + q)(a, b), (x, v), "jg")
    P["broadcast_ones"] = (lambda a: jnp.vectorize(lambda p, q: p - q)(a[:, :1], v), (x,), "")
    P["signature"] = (lambda a, b: jnp.vectorize(lambda m, w: m @ w, signature="(n),(n)->()")(
        a, b), (x, v), "jgv")
    P["signature_matrix"] = (lambda: jnp.vectorize(jnp.outer, signature="(m),(n)->(m,n)")(
        jnp.ones((4, 2)), jnp.arange(3.0)), (), "")
    P["signature_multi_out"] = (lambda a: jnp.vectorize(
        lambda r: (r.sum(), r.max()), signature="(n)->(),()")(a), (x,), "")
    P["excluded_pos"] = (lambda a: jnp.vectorize(lambda p, s: p * s[0] + s[1],
                                                 excluded={1})(a, (2.0, 1.0)), (x,), "")
    P["excluded_kw"] = (lambda a: jnp.vectorize(lambda p, mode="add": p + 1 if mode == "add"
                                                else p - 1, excluded={"mode"})(a, mode="sub"),
                        (x,), "")
    P["none_arg"] = (lambda a: jnp.vectorize(lambda p, q: p if q is None else p + q)(a, None),
                     (v,), "")
    P["kwargs_dropped"] = (lambda a: jnp.vectorize(lambda p, q=1.0: p * q)(a, q=5.0), (v,), "")
    P["scalar_input"] = (lambda: jnp.vectorize(lambda p: p + 1)(2.0), (), "")
    P["err_signature"] = (lambda a: jnp.vectorize(lambda p: p, signature="(n->()")(a), (v,), "")
    P["err_core_dims"] = (lambda a: jnp.vectorize(lambda p: p.sum(), signature="(m,n)->()")(a),
                          (v,), "")
    P["err_inconsistent"] = (lambda a: jnp.vectorize(lambda p, q: p @ q,
                                                     signature="(n),(n)->()")(a, a[:2]),
                             (v,), "")
    P["err_output_dims"] = (lambda a: jnp.vectorize(lambda p: p, signature="(n)->()")(a),
                            (v,), "")
    P["err_output_tuple"] = (lambda a: jnp.vectorize(lambda p: p.sum(),
                                                     signature="(n)->(),()")(a), (v,), "")
    P["err_nargs"] = (lambda a: jnp.vectorize(lambda p, q: p, signature="(n)->()")(a, a, a),
                      (v,), "")
    P["err_excluded_type"] = (lambda: jnp.vectorize(lambda p: p, excluded={1.5}), (), "")
    P["err_excluded_negative"] = (lambda: jnp.vectorize(lambda p: p, excluded={-1}), (), "")
    P["err_none_core"] = (lambda: jnp.vectorize(lambda p: p, signature="(n)->(n)")(None), (), "")
    return P


def programs(jnp, np) -> dict:
    """``{topic: {name: (fn, args, flags)}}`` written against the ``jnp``/``np`` modules."""
    return {"pad": _pad(jnp, np), "shape_extra": _shape_extra(jnp, np),
            "triangular": _triangular(jnp, np), "index_tricks": _index_tricks(jnp, np),
            "indexing_extra": _indexing_extra(jnp, np), "array_io": _array_io(jnp, np),
            "vectorize": _vectorize(jnp, np), "cumulative": _cumulative(jnp, np),
            "x64": _x64(jnp, np)}

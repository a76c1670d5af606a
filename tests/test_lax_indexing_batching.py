"""Batching rules of ``gather``, the scatter family, ``dynamic_slice`` and
``dynamic_update_slice`` (``lax/indexing_batching.py``).

Table-driven: ``vmap(f)`` with batched operands, indices and updates in every mix
(axes 0, 1 and None) equals a Python loop over the batch, exactly, eagerly and under
``jit``. (JAX's jaxpr text for a few of these is checked in
``tests/test_lax_control_flow_batching.py``.)
"""
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax

from test_lax_control_flow_batching import assert_same, loop

G = lax.GatherDimensionNumbers
S = lax.ScatterDimensionNumbers

m = np.arange(24, dtype=np.float32).reshape(3, 4, 2) - 7.0    # batch 3 of (4, 2)
mt = np.ascontiguousarray(np.moveaxis(m, 0, 1))                # batch axis 1
i = np.array([1, 3, 0], np.int32)
ii = np.array([[2, 0], [3, 3], [1, 5]], np.int32)             # batch 3 of (2,) indices
u = np.arange(6, dtype=np.float32).reshape(3, 2) * 0.5 + 1.0   # batch 3 of (2,)


def _take(a, j):
    return a[j]


def _take_many(a, js):
    return a[js]


def _gather_rows(a, js):
    return lax.gather(a, js[:, None], G(offset_dims=(1,), collapsed_slice_dims=(0,),
                                        start_index_map=(0,)), (1, 2))


def _gather_fill(a, js):
    return lax.gather(a, js[:, None], G(offset_dims=(1,), collapsed_slice_dims=(0,),
                                        start_index_map=(0,)), (1, 2),
                      mode="fill", fill_value=-1.0)


def _at(op):
    def f(a, j, v):
        return getattr(a.at[j], op)(v)
    f.__name__ = f"at_{op}"
    return f


def _at_many_add(a, js, v):
    return a.at[js, 0].add(v)


def _scatter_clip(a, js, v):
    return lax.scatter(a, js[:, None], v * jnp.ones((2, 2), np.float32),
                       S(update_window_dims=(1,), inserted_window_dims=(0,),
                         scatter_dims_to_operand_dims=(0,)), mode="clip")


def _at_apply(a, j):
    return a.at[j].apply(lambda t: t * t)


def _dyn_slice(a, j):
    return lax.dynamic_slice(a, (j, 0), (2, 2))


def _dyn_slice_in_dim(a, j):
    return lax.dynamic_slice_in_dim(a, j, 2, axis=1)


def _dyn_index(a, j):
    return lax.dynamic_index_in_dim(a, j, 0, keepdims=False)


def _dus(a, v, j):
    return lax.dynamic_update_slice(a, v[None, :], (j, 0))


def _dus_const_start(a, v):
    return lax.dynamic_update_slice(a, v[None, :], (2, 0))


CASES = {
    "take_both": (_take, (0, 0), [m, i]),
    "take_operand_ax1": (_take, (1, None), [mt, np.int32(2)]),
    "take_index_only": (_take, (None, 0), [m[0], i]),
    "take_many_both": (_take_many, (0, 0), [m, ii]),
    "take_many_index_ax1": (_take_many, (None, 1), [m[0], np.ascontiguousarray(ii.T)]),
    "gather_rows_operand_only": (_gather_rows, (0, None), [m, ii[0]]),
    "gather_rows_both": (_gather_rows, (1, 0), [mt, ii]),
    "gather_fill_both": (_gather_fill, (0, 0), [m, ii]),
    "gather_fill_index_only": (_gather_fill, (None, 0), [m[0], ii]),
    "scatter_clip_mix": (_scatter_clip, (None, 0, 0), [m[0], ii, u[:, 0]]),
    "scatter_clip_operand_only": (_scatter_clip, (0, None, None), [m, ii[2], u[0, 0]]),
    "at_apply_both": (_at_apply, (0, 0), [m, i]),
    "at_apply_index_only": (_at_apply, (None, 0), [m[0], i]),
    "at_many_add_dup": (_at_many_add, (0, 0, 0), [m, np.array([[1, 1], [0, 3], [2, 2]],
                                                               np.int32), u]),
    "dyn_slice_both": (_dyn_slice, (0, 0), [m, i]),
    "dyn_slice_operand_only": (_dyn_slice, (1, None), [mt, np.int32(1)]),
    "dyn_slice_start_only": (_dyn_slice, (None, 0), [m[0], i]),
    "dyn_slice_in_dim": (_dyn_slice_in_dim, (0, None), [m, np.int32(0)]),
    "dyn_index_start_only": (_dyn_index, (None, 0), [m[0], np.array([3, -1, 0], np.int32)]),
    "dus_all": (_dus, (0, 0, 0), [m, u, i]),
    "dus_update_only": (_dus, (None, 0, None), [m[0], u, np.int32(1)]),
    "dus_start_only": (_dus, (None, None, 0), [m[0], u[0], i]),
    "dus_operand_ax1": (_dus, (1, None, 0), [mt, u[0], i]),
    "dus_const_start": (_dus_const_start, (0, 0), [m, u]),
}
for op in ("set", "add", "mul", "min", "max"):
    CASES[f"at_{op}_both"] = (_at(op), (0, 0, 0), [m, i, u])
    CASES[f"at_{op}_index_only"] = (_at(op), (None, 0, None), [m[0], i, u[0]])
    CASES[f"at_{op}_update_only"] = (_at(op), (None, None, 1),
                                     [m[0], np.int32(2), np.ascontiguousarray(u.T)])
    CASES[f"at_{op}_operand_only"] = (_at(op), (0, None, None), [m, np.int32(1), u[1]])


def _sub(a, j, v):
    return lax.scatter_sub(a, j[None, None], v[None], S(
        update_window_dims=(1,), inserted_window_dims=(0,),
        scatter_dims_to_operand_dims=(0,)))


CASES["scatter_sub_both"] = (_sub, (0, 0, 0), [m, i, u])
CASES["scatter_sub_index_only"] = (_sub, (None, 0, None), [m[0], i, u[0]])


@pytest.mark.parametrize("name", sorted(CASES))
def test_vmap_matches_loop(name):
    f, in_axes, args = CASES[name]
    assert_same(jax.vmap(f, in_axes=in_axes)(*args), loop(f, args, in_axes))


@pytest.mark.parametrize("name", sorted(CASES))
def test_jit_vmap_matches_loop(name):
    f, in_axes, args = CASES[name]
    assert_same(jax.jit(jax.vmap(f, in_axes=in_axes))(*args), loop(f, args, in_axes))


def test_batched_indices_become_batching_dims():
    text = str(jax.make_jaxpr(jax.vmap(_take))(m, i))
    assert "operand_batching_dims=(0,)" in text
    assert "start_indices_batching_dims=(0,)" in text
    text = str(jax.make_jaxpr(jax.vmap(_at("add")))(m, i, u))
    assert "scatter_indices_batching_dims=(0,)" in text

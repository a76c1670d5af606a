"""Indexing programs run under both JAX 0.10.2 and transpile (see ``jaxpr_cases.py``).

Every builder takes the API modules (``jax, jnp, lax, np``) and returns a dict of
``name -> (fn, args)``; ``tools/record_indexing_data.py`` records, with JAX, each
program's jaxpr text (``make_jaxpr``) and eager outputs, or the error it raises, into
``tests/data/indexing.json``, and ``tests/test_numpy_indexing.py`` /
``tests/test_lax_indexing.py`` compare. Nothing here imports jax or transpile.

Groups: ``lax`` (the primitives through the lax API), ``jnp`` (``x[idx]`` and
``.at[]``), ``misc`` (dtypes, modes, duplicates, out-of-range indices, errors),
``funcs`` (``take``, ``take_along_axis``, ``nonzero`` and friends) and ``rand``
(random index expressions mixing every kind of index, from a fixed seed).
"""
from __future__ import annotations

import random

__all__ = ["programs", "GROUPS", "normalise_error"]


def normalise_error(e: BaseException) -> dict:
    """Exception class and message, paths and line numbers normalised, without JAX's
    traceback-filtering footer."""
    try:
        from jaxpr_cases import normalise_message
    except ImportError:  # collected as a package
        from tests.jaxpr_cases import normalise_message
    msg = str(e).split("\n--------------------\nFor simplicity")[0]
    return {"error": type(e).__name__, "message": normalise_message(msg)}


def _lax_programs(jax, jnp, lax, np):
    """Lax-level gather/scatter/dynamic_slice programs."""
    G = lax.GatherDimensionNumbers; S = lax.ScatterDimensionNumbers
    x = jnp.arange(12.0).reshape(3,4)
    P = {}
    P["gather1"] = (lambda x, i: lax.gather(x, i, G((1,), (0,), (0,)), (1,4)), (x, jnp.array([[1],[2]])))
    P["gather_fill"] = (lambda x, i: lax.gather(x, i, G((1,), (0,), (0,)), (1,4), mode='fill', fill_value=-1), (x, jnp.array([[1],[7]])))
    P["gather_batch"] = (lambda x, i: lax.gather(x, i, G((), (1,), (1,), (0,), (0,)), (1,1)), (x, jnp.array([[1],[2],[0]])))
    P["ds"] = (lambda x, i: lax.dynamic_slice(x, (i, 1), (2,2)), (x, 1))
    P["ds_strong"] = (lambda x, i: lax.dynamic_slice(x, (i, 1), (2,2)), (x, jnp.int32(-1)))
    P["ds_arr"] = (lambda x, i: lax.dynamic_slice(x, jnp.array([i, 1]), (2,2)), (x, 1))
    P["ds_static"] = (lambda x: lax.dynamic_slice(x, (-1, 1), (2,2)), (x,))
    P["ds_jnpi32"] = (lambda x: lax.dynamic_slice(x, (jnp.int32(-1), jnp.int32(1)), (2,2)), (x,))
    P["dus"] = (lambda x, u, i: lax.dynamic_update_slice(x, u, (i, 1)), (x, jnp.ones((2,2)), 1))
    P["dii"] = (lambda x, i: lax.dynamic_index_in_dim(x, i, 1), (x, 1))
    P["dii_nokeep"] = (lambda x, i: lax.dynamic_index_in_dim(x, i, 1, False), (x, -1))
    P["dsid"] = (lambda x, i: lax.dynamic_slice_in_dim(x, i, 2, 1), (x, 1))
    P["duid"] = (lambda x, u, i: lax.dynamic_update_index_in_dim(x, u, i, 0), (x, jnp.ones(4), 1))
    P["dusid"] = (lambda x, u, i: lax.dynamic_update_slice_in_dim(x, u, i, 0), (x, jnp.ones((2,4)), 1))
    P["sc_add"] = (lambda x,i,u: lax.scatter_add(x,i,u,S((), (0,), (0,))), (jnp.arange(5.), jnp.array([[1],[1],[9]]), jnp.ones(3)))
    P["sc_add2"] = (lambda x,i,u: lax.scatter_add(lax.scatter_add(x,i,u,S((), (0,), (0,))),i,u,S((), (0,), (0,))), (jnp.arange(5.), jnp.array([[1],[1],[9]]), jnp.ones(3)))
    P["sc"] = (lambda x,i,u: lax.scatter(x,i,u,S((), (0,), (0,))), (jnp.arange(5.), jnp.array([[1],[1],[-1]]), jnp.array([1.,2.,3.])))
    P["sc_min_int"] = (lambda x,i,u: lax.scatter_min(x,i,u,S((), (0,), (0,))), (jnp.arange(5), jnp.array([[1],[2]]), jnp.array([-3, 7])))
    P["sc_max_bool"] = (lambda x,i,u: lax.scatter_max(x,i,u,S((), (0,), (0,))), (jnp.arange(5)>2, jnp.array([[1],[2]]), jnp.ones(2, bool)))
    P["sc_mul_clip"] = (lambda x,i,u: lax.scatter_mul(x,i,u,S((), (0,), (0,)), mode='clip'), (jnp.arange(5.), jnp.array([[1],[20]]), jnp.full(2, 3.)))
    P["sc_sub"] = (lambda x,i,u: lax.scatter_sub(x,i,u,S((), (0,), (0,))), (jnp.arange(5.), jnp.array([[1],[1]]), jnp.full(2, 3.)))
    P["sc_window"] = (lambda x,i,u: lax.scatter(x,i,u,S((1,), (0,), (0,))), (x, jnp.array([[1],[2]]), jnp.ones((2,4))))
    P["sc_window2"] = (lambda x,i,u: lax.scatter_add(x,i,u,S((1,), (), (0,))), (jnp.arange(5.), jnp.array([[3],[2]]), jnp.ones((2,3))))
    P["sc_apply"] = (lambda x,i: lax.scatter_apply(x,i,jnp.sin,S((), (0,), (0,)),update_shape=(2,)), (jnp.arange(5.), jnp.array([[1],[1]])))
    P["sc_batch"] = (lambda x,i,u: lax.scatter(x, i, u, S((), (1,), (1,), (0,), (0,))), (x, jnp.array([[1],[2],[0]]), jnp.ones(3)))
    P["g2d"] = (lambda x,i: lax.gather(x, i, G((), (0,1), (0,1)), (1,1), mode='clip'), (x, jnp.array([[1,5],[-2,1],[2,3]])))
    P["g2d_fill"] = (lambda x,i: lax.gather(x, i, G((), (0,1), (0,1)), (1,1), mode='fill'), (x.astype(jnp.int32), jnp.array([[1,5],[-2,1],[2,3]])))
    P["g_transposed"] = (lambda x,i: lax.gather(x, i, G((0,), (1,), (1,)), (2,1), mode='clip'), (x, jnp.array([[[1],[3]],[[0],[2]]])))
    P["g_u8"] = (lambda x,i: lax.gather(x, i, G((), (0,), (0,)), (1,)), (jnp.arange(5.), jnp.array([[1],[255]], jnp.uint8)))
    P["g_extreme"] = (lambda x,i: lax.gather(x, i, G((), (0,), (0,)), (1,), mode='fill'), (jnp.arange(5.), jnp.array([[2**31-1],[-2**31], [4]], jnp.int32)))
    P["g_extreme_clip"] = (lambda x,i: lax.gather(x, i, G((), (0,), (0,)), (1,), mode='clip'), (jnp.arange(5.), jnp.array([[2**31-1],[-2**31], [4]], jnp.int32)))
    P["sc_extreme"] = (lambda x,i,u: lax.scatter_add(x,i,u,S((), (0,), (0,)), mode='clip'), (jnp.arange(5.), jnp.array([[2**31-1],[-2**31]], jnp.int32), jnp.ones(2)))
    P["g_empty"] = (lambda x,i: lax.gather(x, i, G((), (0,), (0,)), (1,)), (jnp.arange(5.), jnp.zeros((0,1), jnp.int32)))
    P["g_zero_window"] = (lambda x,i: lax.gather(x, i, G((1,), (0,), (0,)), (1,0)), (x, jnp.array([[1],[2]])))
    P["ds_zero"] = (lambda x,i: lax.dynamic_slice(x, (i,i), (0,2)), (x, 5))
    P["g_f16"] = (lambda x,i: lax.gather(x, i, G((), (0,), (0,)), (1,), mode='fill'), (jnp.arange(5.).astype(jnp.float16), jnp.array([[2],[9]])))
    P["sc_f16_add"] = (lambda x,i,u: lax.scatter_add(x,i,u,S((), (0,), (0,))), (jnp.arange(5.).astype(jnp.float16), jnp.array([[2],[2]]), jnp.ones(2, jnp.float16)))
    return P


def _jnp_programs(jax, jnp, lax, np):
    """X[idx] and .at[] forms."""
    x = jnp.arange(12.0).reshape(3,4)
    x1 = jnp.arange(5.0)
    x3 = jnp.arange(24.0).reshape(2,3,4)
    i = jnp.int32(1)
    P = {}
    P['static oob'] = (lambda x: x[10], (jnp.arange(5.),))
    P['static oob neg'] = (lambda x: x[-10], (jnp.arange(5.),))
    P['static 2d oob'] = (lambda x: x[0, 5], (x,))
    P['traced strong'] = (lambda x, i: x[i], (jnp.arange(5.), i,))
    P['traced u8'] = (lambda x, i: x[i], (jnp.arange(5.), np.uint8(1),))
    P['traced i16'] = (lambda x, i: x[i], (jnp.arange(5.), np.int16(1),))
    P['x[i,1]'] = (lambda x, i: x[i, 1], (x, 1,))
    P['x[1,i]'] = (lambda x, i: x[1, i], (x, 1,))
    P['x[i,1:3]'] = (lambda x, i: x[i, 1:3], (x, 1,))
    P['x[i,::2]'] = (lambda x, i: x[i, ::2], (x, 1,))
    P['x[i,None]'] = (lambda x, i: x[i, None], (x, 1,))
    P['x[...,i]'] = (lambda x, i: x[..., i], (x, 1,))
    P['x3[i,:,j]'] = (lambda x, i, j: x[i, :, j], (x3, 1, 2,))
    P['x[i,j]'] = (lambda x, i, j: x[i, j], (x, 1, 2,))
    P['x[idx,1]'] = (lambda x, i: x[i, 1], (x, jnp.array([0,2]),))
    P['x[idx,idx]'] = (lambda x, i, j: x[i, j], (x, jnp.array([0,2]), jnp.array([1,3]),))
    P['x[idx,:]'] = (lambda x, i: x[i, :], (x, jnp.array([0,2]),))
    P['x[idx,1:3]'] = (lambda x, i: x[i, 1:3], (x, jnp.array([0,2]),))
    P['x[:, idx2d]'] = (lambda x, i: x[:, i], (x, jnp.array([[0,2],[1,1]]),))
    P['x3[idx,:,idx]'] = (lambda x, i: x[i, :, i], (x3, jnp.array([0,1]),))
    P['x3[:,idx,idx]'] = (lambda x, i: x[:, i, i], (x3, jnp.array([0,1]),))
    P['x[None, idx]'] = (lambda x, i: x[None, i], (x, jnp.array([0,2]),))
    P['x[idx, None]'] = (lambda x, i: x[i, None], (x, jnp.array([0,2]),))
    P['x[list]'] = (lambda x: x[np.array([0,2])], (x,))
    P['x[u8 idx]'] = (lambda x, i: x[i], (x, jnp.array([0,2], jnp.uint8),))
    P['x[idx scalar arr]'] = (lambda x, i: x[i], (x, jnp.array(1),))
    P['x[i::-1]'] = (lambda x: x[::-1, 1], (x,))
    P['x[mask]'] = (lambda x: x[np.array([True, False, True])], (x,))
    P['x[mask2d]'] = (lambda x: x[np.arange(12).reshape(3,4) > 5], (x,))
    P['x[bool scalar]'] = (lambda x: x[True], (x,))
    P['x[i:i+2]'] = (lambda x, i: x[i:i+2], (x, 1,))
    P['1d x[(i,)]'] = (lambda x, i: x[(i,)], (x1, 1,))
    P['1d x[i,None]'] = (lambda x, i: x[i, None], (x1, 1,))
    P['1d x[i,...]'] = (lambda x, i: x[i, ...], (x1, 1,))
    P['1d x[...,i]'] = (lambda x, i: x[..., i], (x1, 1,))
    P['1d x[None,i]'] = (lambda x, i: x[None, i], (x1, 1,))
    P['2d x[i] strong'] = (lambda x, i: x[i], (x, jnp.int32(1),))
    P['2d x[i] u8'] = (lambda x, i: x[i], (x, np.uint8(1),))
    P['2d x[i,1] u8'] = (lambda x, i: x[i, 1], (x, np.uint8(1),))
    P['2d x[i, ::-1]'] = (lambda x, i: x[i, ::-1], (x, 1,))
    P['2d x[i, 2:1]'] = (lambda x, i: x[i, 2:1], (x, 1,))
    P['2d x[i, 1:]'] = (lambda x, i: x[i, 1:], (x, 1,))
    P['2d x[1:, i]'] = (lambda x, i: x[1:, i], (x, 1,))
    P['2d x[jnp.int32(1)]'] = (lambda x: x[jnp.int32(1)], (x,))
    P['1d x[jnp.int32(1)]'] = (lambda x: x[jnp.int32(1)], (x1,))
    P['1d x[np.int32(1)]'] = (lambda x: x[np.int32(1)], (x1,))
    P['1d x[np.int32(10)]'] = (lambda x: x[np.int32(10)], (x1,))
    P['1d x[10:12]'] = (lambda x: x[10:12], (x1,))
    P['2d x[10, ::2]'] = (lambda x: x[10, ::2], (x,))
    P['2d x[1, 10]'] = (lambda x: x[1, 10], (x,))
    P['2d x[10, 1:3]'] = (lambda x: x[10, 1:3], (x,))
    P['2d x[-1, ::-1]'] = (lambda x, i: x[i, ::-1], (x, -1,))
    P['0d x[()]'] = (lambda x: x[()], (jnp.float32(2),))
    P['1d x[i] float idx'] = (lambda x, i: x[i], (x1, 1.0,))
    P['x[i] where x weak'] = (lambda i: lax.broadcast_in_dim(1.0, (3,), ())[i], (1,))
    P['x[idx] x weak'] = (lambda i: lax.broadcast_in_dim(1.0, (3,), ())[i], (jnp.array([1]),))
    P['x[()] on 2d'] = (lambda x: x[()], (x,))
    P['x[...]'] = (lambda x: x[...], (x,))
    P['x[:]'] = (lambda x: x[:], (x,))
    P['x[i, jnp.arange]'] = (lambda x, i: x[i, jnp.arange(2)], (x, 1,))
    P['x[empty idx]'] = (lambda x, i: x[i], (x, jnp.zeros((0,), jnp.int32),))
    P['x[empty list]'] = (lambda x: x[np.array([], dtype=np.int32)], (x,))
    P['size0 x[i]'] = (lambda x, i: x[i], (jnp.zeros((0,)), 0,))
    P['size0 x[idx]'] = (lambda x, i: x[i], (jnp.zeros((0,3)), jnp.array([0]),))
    P['at[1].set static'] = (lambda x: x.at[1].set(7.0), (x1,))
    P['at[1:3].set'] = (lambda x, v: x.at[1:3].set(v), (x1, jnp.ones(2),))
    P['at[1:3].set scalar'] = (lambda x: x.at[1:3].set(2.0), (x1,))
    P['at[::-1].set'] = (lambda x, v: x.at[::-1].set(v), (x1, jnp.arange(5.),))
    P['at[::2].add'] = (lambda x, v: x.at[::2].add(v), (x1, jnp.ones(3),))
    P['at[i,:].set row'] = (lambda x, i, v: x.at[i, :].set(v), (x, 1, jnp.ones(4),))
    P['at[:,idx].add'] = (lambda x, i, v: x.at[:, i].add(v), (x, jnp.array([0,2]), jnp.ones((3,2)),))
    P['at[idx].set scalar'] = (lambda x, i: x.at[i].set(0.0), (x1, jnp.array([0,2]),))
    P['at[mask].set'] = (lambda x: x.at[np.array([True,False,True,False,False])].set(0.0), (x1,))
    P['at[None,1].set'] = (lambda x: x.at[None, 1].set(0.0), (x1,))
    P['at[i].get'] = (lambda x, i: x.at[i].get(), (x1, 1,))
    P['at[i].get 2d'] = (lambda x, i: x.at[i].get(), (x, 1,))
    P['at[i].get clip'] = (lambda x, i: x.at[i].get(mode='clip'), (x1, 1,))
    P['at[idx].get fill'] = (lambda x, i: x.at[i].get(mode='fill'), (x1, jnp.array([1,7]),))
    P['at[1].get'] = (lambda x: x.at[1].get(), (x1,))
    P['at[idx].set int x float v'] = (lambda x, i: x.at[i].set(2.5), (jnp.arange(5), jnp.array([1]),))
    P['at[idx].divide'] = (lambda x, i: x.at[i].divide(2), (jnp.arange(5), jnp.array([1]),))
    P['at[idx].mul int'] = (lambda x, i: x.at[i].multiply(2), (jnp.arange(5), jnp.array([1]),))
    P['at[idx].min'] = (lambda x, i: x.at[i].min(2.), (x1, jnp.array([1]),))
    P['at[idx].max'] = (lambda x, i: x.at[i].max(2.), (x1, jnp.array([1]),))
    P['at[i].set wrap false'] = (lambda x, i: x.at[i].set(2., wrap_negative_indices=False), (x1, 1,))
    P['at[i].set sorted'] = (lambda x, i: x.at[i].set(2., indices_are_sorted=True, unique_indices=True), (x1, jnp.array([1]),))
    P['at[i].set clip'] = (lambda x, i: x.at[i].set(2., mode='clip'), (x1, jnp.array([1]),))
    P['at[i].set pib'] = (lambda x, i: x.at[i].set(2., mode='promise_in_bounds'), (x1, jnp.array([1]),))
    P['at[i,j].set'] = (lambda x, i, j: x.at[i, j].set(2.), (x, 1, 2,))
    P['at[idx2d].set bcast'] = (lambda x, i, v: x.at[i].set(v), (x, jnp.array([[0],[2]]), jnp.ones(4),))
    P['at[:].set'] = (lambda x, v: x.at[:].set(v), (x1, jnp.ones(5),))
    P['at[...].set'] = (lambda x: x.at[...].set(1.), (x1,))
    P['at[bool scalar].set'] = (lambda x: x.at[True].set(1.), (x1,))
    P['at[i].get fill'] = (lambda x, i: x.at[i].get(mode='fill', fill_value=-1.), (x1, 1,))
    P['at[10].get fill'] = (lambda x: x.at[10].get(mode='fill'), (x1,))
    P['at[1].get fill'] = (lambda x: x.at[1].get(mode='fill'), (x1,))
    P['at[i].get pib'] = (lambda x, i: x.at[i].get(mode='promise_in_bounds'), (x1, 1,))
    P['at[idx].get clip'] = (lambda x, i: x.at[i].get(mode='clip'), (x1, jnp.array([1]),))
    P['at[i].get wrap false'] = (lambda x, i: x.at[i].get(wrap_negative_indices=False), (x1, 1,))
    P['at[idx].get wrap false'] = (lambda x, i: x.at[i].get(wrap_negative_indices=False), (x1, jnp.array([1]),))
    P['at[i,1:3].get'] = (lambda x, i: x.at[i, 1:3].get(), (x, 1,))
    P['at[idx].get sorted'] = (lambda x, i: x.at[i].get(indices_are_sorted=True, unique_indices=True), (x1, jnp.array([1]),))
    P['at[idx].set wrap false'] = (lambda x, i: x.at[i].set(1., wrap_negative_indices=False), (x1, jnp.array([1]),))
    P['at[i].add 2d'] = (lambda x, i: x.at[i].add(1.), (x, 1,))
    P['at[i,::2].get'] = (lambda x, i: x.at[i, ::2].get(), (x, 1,))
    P['at[idx, ::-1].get'] = (lambda x, i: x[i, ::-1], (x, jnp.array([0,1]),))
    P['at[1:3].get fill'] = (lambda x: x.at[1:3].get(mode='fill'), (x1,))
    P['at[::2].get'] = (lambda x: x.at[::2].get(), (x1,))
    P['x[i, ::-2]'] = (lambda x, i: x[i, ::-2], (x, 1,))
    P['x[i, 3:0:-1]'] = (lambda x, i: x[i, 3:0:-1], (x, 1,))
    P['x[idx, ::-2]'] = (lambda x, i: x[i, ::-2], (x, jnp.array([0,1]),))
    P['x[idx, 3:0:-1]'] = (lambda x, i: x[i, 3:0:-1], (x, jnp.array([0,1]),))
    P['apply'] = (lambda x, i: x.at[i].apply(jnp.sin), (x1, 1,))
    P['at weak x set'] = (lambda i: lax.broadcast_in_dim(1.0, (3,), ()).at[i].set(2.0), (jnp.array([1]),))
    P['at weak x set strong'] = (lambda i, v: lax.broadcast_in_dim(1.0, (3,), ()).at[i].set(v), (jnp.array([1]), jnp.float32(2),))
    P['at bool set'] = (lambda x, i: x.at[i].set(True), (jnp.zeros(3, bool), jnp.array([1]),))
    P['at bool add'] = (lambda x, i: x.at[i].add(True), (jnp.zeros(3, bool), jnp.array([1]),))
    P['at f16 add'] = (lambda x, i: x.at[i].add(1.5), (jnp.zeros(3, jnp.float16), jnp.array([1]),))
    P['at i32 add f32'] = (lambda x, i, v: x.at[i].add(v), (jnp.zeros(3, jnp.int32), jnp.array([1]), jnp.ones(1),))
    P['at f32 add i32'] = (lambda x, i, v: x.at[i].add(v), (jnp.zeros(3), jnp.array([1]), jnp.ones(1, jnp.int32),))
    return P


def _misc_programs(jax, jnp, lax, np):
    """Dtypes, modes, duplicates, out-of-bounds, errors."""
    P = {}
    xb = jnp.array([True, False, True, False])
    xi = jnp.arange(6, dtype=jnp.int32).reshape(2, 3)
    xh = jnp.arange(6, dtype=jnp.float16)
    xu = jnp.arange(5, dtype=jnp.uint8)
    idx = jnp.array([0, -1, 7, 0, -9])
    P["bool get"] = (lambda x, i: x[i], (xb, jnp.array([0, 3, -1])))
    P["bool set"] = (lambda x, i: x.at[i].set(True), (xb, jnp.array([1, 3, 9])))
    P["bool max"] = (lambda x, i: x.at[i].max(True), (xb, jnp.array([1, 1])))
    P["bool min"] = (lambda x, i: x.at[i].min(False), (xb, jnp.array([0, 2])))
    P["int add dup"] = (lambda x, i: x.at[i].add(5), (jnp.arange(5), idx))
    P["int sub dup"] = (lambda x, i: x.at[i].subtract(5), (jnp.arange(5), idx))
    P["int mul dup"] = (lambda x, i: x.at[i].multiply(3), (jnp.arange(5), idx))
    P["int min"] = (lambda x, i, v: x.at[i].min(v), (jnp.arange(5), idx, jnp.array([-1, 9, 2, -7, 3])))
    P["int max"] = (lambda x, i, v: x.at[i].max(v), (jnp.arange(5), idx, jnp.array([-1, 9, 2, -7, 3])))
    P["int set dup"] = (lambda x, i, v: x.at[i].set(v), (jnp.arange(5), idx, jnp.array([-1, 9, 2, -7, 3])))
    P["int divide"] = (lambda x, i: x.at[i].divide(2), (jnp.arange(5), idx))
    P["f power"] = (lambda x, i: x.at[i].power(2.0), (jnp.arange(5.0), idx))
    P["f apply dup"] = (lambda x, i: x.at[i].apply(lambda v: v * 2 + 1), (jnp.arange(5.0), idx))
    P["f16 add"] = (lambda x, i: x.at[i].add(0.5), (xh, jnp.array([1, 1, 2])))
    P["f16 get fill"] = (lambda x, i: x.at[i].get(mode='fill'), (xh, jnp.array([1, 10])))
    P["u8 get fill"] = (lambda x, i: x.at[i].get(mode='fill'), (xu, jnp.array([1, 10])))
    P["i32 get fill"] = (lambda x, i: x.at[i].get(mode='fill'), (jnp.arange(5), jnp.array([1, 10])))
    P["bool get fill"] = (lambda x, i: x.at[i].get(mode='fill'), (xb, jnp.array([1, 10])))
    P["u8 idx traced"] = (lambda x, i: x[i], (jnp.arange(5.0), np.uint8(3)))
    P["i16 idx traced 2d"] = (lambda x, i: x[i, 1], (xi, np.int16(-1)))
    P["u8 idx arr"] = (lambda x, i: x[i], (jnp.arange(5.0), jnp.array([1, 255], jnp.uint8)))
    P["u8 idx arr set"] = (lambda x, i: x.at[i].set(1.0), (jnp.arange(5.0), jnp.array([1, 255], jnp.uint8)))
    P["i16 idx arr set"] = (lambda x, i: x.at[i].set(1.0), (jnp.arange(5.0), jnp.array([1, -1], jnp.int16)))
    P["weak x idx"] = (lambda i: (lax.broadcast_in_dim(2.0, (4,), ()))[i], (jnp.array([1, 2]),))
    P["weak x set"] = (lambda i: (lax.broadcast_in_dim(2.0, (4,), ())).at[i].add(1), (jnp.array([1, 2]),))
    P["weak x set int"] = (lambda i: (lax.broadcast_in_dim(2, (4,), ())).at[i].add(1.5), (jnp.array([1, 2]),))
    P["2d set row bcast"] = (lambda x, i: x.at[i].set(jnp.array([7, 8, 9])), (xi, jnp.array([1, 0, 1])))
    P["2d set col"] = (lambda x, i: x.at[:, i].add(100), (xi, jnp.array([2, -1])))
    P["2d set mixed"] = (lambda x, i, j: x.at[i, j].set(0), (xi, jnp.array([[1], [0]]), jnp.array([0, 2, 1])))
    P["set list values"] = (lambda x: x.at[jnp.array([0, 1])].set([5., 6.]), (jnp.arange(4.0),))
    P["set shape err"] = (lambda x: x.at[jnp.array([0, 1])].set(jnp.ones(3)), (jnp.arange(4.0),))
    P["set scalar err"] = (lambda x: x.at[1].set(jnp.ones(2)), (jnp.arange(4.0),))
    P["bogus mode"] = (lambda x: x.at[1].set(1.0, mode='bogus'), (jnp.arange(4.0),))
    P["bogus mode get"] = (lambda x: x.at[1].get(mode='bogus'), (jnp.arange(4.0),))
    P["x[float]"] = (lambda x: x[1.5], (jnp.arange(4.0),))
    P["x[traced float]"] = (lambda x, i: x[i], (jnp.arange(4.0), 1.5))
    P["x[str]"] = (lambda x: x["a"], (jnp.arange(4.0),))
    P["x[list]"] = (lambda x: x[[0, 1]], (jnp.arange(4.0),))
    P["x[tuple of list]"] = (lambda x: x[([0, 1],)], (jnp.arange(4.0),))
    P["x[i:j traced]"] = (lambda x, i: x[i:3], (jnp.arange(4.0), 1))
    P["too many"] = (lambda x: x[0, 1], (jnp.arange(4.0),))
    P["two ellipsis"] = (lambda x: x[..., ...], (jnp.arange(4.0),))
    P["mask mismatch"] = (lambda x: x[np.array([True, False])], (jnp.arange(4.0),))
    P["traced mask"] = (lambda x: x[x > 1], (jnp.arange(4.0),))
    P["traced mask set"] = (lambda x: x.at[x > 1].set(0.0), (jnp.arange(4.0),))
    P["where traced mask"] = (lambda x: jnp.where(x > 1, x, 0.0), (jnp.arange(4.0),))
    P["size0 int"] = (lambda x, i: x[i], (jnp.zeros((0, 3)), 0))
    P["size0 static"] = (lambda x: x[0], (jnp.zeros((0, 3)),))
    P["empty arr get"] = (lambda x: x[jnp.zeros((0,), jnp.int32)], (jnp.zeros((0, 3)),))
    P["scalar bool get"] = (lambda x: x[True], (jnp.arange(4.0),))
    P["scalar bool get F"] = (lambda x: x[False], (jnp.arange(4.0),))
    P["scalar bool set"] = (lambda x: x.at[True].set(1.0), (jnp.arange(4.0),))
    P["scalar bool mixed"] = (lambda x, i: x[True, i], (jnp.arange(4.0), jnp.array([1, 2])))
    P["0d x[()]"] = (lambda x: x[()], (jnp.float32(3),))
    P["0d x[None]"] = (lambda x: x[None], (jnp.float32(3),))
    P["0d at set"] = (lambda x: x.at[()].set(1.0), (jnp.float32(3),))
    P["0d at ellipsis add"] = (lambda x: x.at[...].add(1.0), (jnp.float32(3),))
    P["at get idx clip"] = (lambda x, i: x.at[i].get(mode='clip'), (jnp.arange(5.0), jnp.array([-9, 10])))
    P["at get idx pib"] = (lambda x, i: x.at[i].get(mode='promise_in_bounds'), (jnp.arange(5.0), jnp.array([-9, 10])))
    P["at get drop"] = (lambda x, i: x.at[i].get(mode='drop'), (jnp.arange(5.0), jnp.array([-9, 10])))
    P["at set drop"] = (lambda x, i: x.at[i].set(1.0, mode='drop'), (jnp.arange(5.0), jnp.array([-9, 10])))
    P["at set clip"] = (lambda x, i: x.at[i].set(1.0, mode='clip'), (jnp.arange(5.0), jnp.array([-9, 10])))
    P["at add fill"] = (lambda x, i: x.at[i].add(1.0, mode='fill'), (jnp.arange(5.0), jnp.array([-9, 10])))
    P["at set nowrap"] = (lambda x, i: x.at[i].set(9.0, wrap_negative_indices=False), (jnp.arange(5.0), jnp.array([-1, 2])))
    P["at get nowrap 2d"] = (lambda x, i: x.at[i, 1].get(wrap_negative_indices=False), (jnp.ones((3, 4)), -1))
    P["x[Array scalar]"] = (lambda x: x[jnp.array(2)], (jnp.arange(5.0),))
    P["x[np 0d]"] = (lambda x: x[np.array(2)], (jnp.arange(5.0),))
    P["x[np 0d oob]"] = (lambda x: x[np.array(12)], (jnp.arange(5.0),))
    P["int32 extreme"] = (lambda x, i: x[i], (jnp.arange(5.0), jnp.array([2**31 - 1, -2**31], jnp.int32)))
    P["int32 extreme set"] = (lambda x, i: x.at[i].set(1.0), (jnp.arange(5.0), jnp.array([2**31 - 1, -2**31], jnp.int32)))
    P["int32 extreme ds"] = (lambda x, i: x[i], (jnp.arange(5.0), jnp.int32(-2**31)))
    P["neg step set"] = (lambda x, v: x.at[::-2].set(v), (jnp.arange(5.0), jnp.array([1., 2., 3.])))
    P["none set"] = (lambda x, v: x.at[None, 1:3].set(v), (jnp.arange(5.0), jnp.array([[1., 2.]])))
    return P


def _funcs_programs(jax, jnp, lax, np):
    """Take, take_along_axis, nonzero, argwhere, unique."""
    x = jnp.arange(12.0).reshape(3,4)
    x1 = jnp.arange(5.0)
    P = {}
    P['take 1d'] = (lambda x, i: jnp.take(x, i), (x1, jnp.array([0, 7, -1]),))
    P['take axis1'] = (lambda x, i: jnp.take(x, i, axis=1), (x, jnp.array([0, 3]),))
    P['take flat'] = (lambda x, i: jnp.take(x, i), (x, jnp.array([0, 3]),))
    P['take clip'] = (lambda x, i: jnp.take(x, i, mode='clip'), (x1, jnp.array([0, 7]),))
    P['take wrap'] = (lambda x, i: jnp.take(x, i, mode='wrap'), (x1, jnp.array([0, 7]),))
    P['take fill'] = (lambda x, i: jnp.take(x, i, mode='fill', fill_value=-1), (x1, jnp.array([0, 7]),))
    P['take scalar idx'] = (lambda x, i: jnp.take(x, i, axis=0), (x, 1,))
    P['take_along_axis'] = (lambda x, i: jnp.take_along_axis(x, i, axis=1), (x, jnp.array([[0],[3],[1]]),))
    P['take_along_axis axis0'] = (lambda x, i: jnp.take_along_axis(x, i, axis=0), (x, jnp.array([[0,1,2,0]]),))
    P['take_along_axis None'] = (lambda x, i: jnp.take_along_axis(x, i, axis=None), (x, jnp.array([0, 5]),))
    P['take_along_axis bcast'] = (lambda x, i: jnp.take_along_axis(x, i, axis=1), (x, jnp.array([[0]]),))
    P['nonzero size'] = (lambda x: jnp.nonzero(x, size=3), (x1,))
    P['nonzero size fill'] = (lambda x: jnp.nonzero(x, size=3, fill_value=-1), (x1,))
    P['nonzero size 2d'] = (lambda x: jnp.nonzero(x, size=3), (x,))
    P['nonzero nosize'] = (lambda x: jnp.nonzero(x), (x1,))
    P['argwhere size'] = (lambda x: jnp.argwhere(x, size=3), (x,))
    P['flatnonzero size'] = (lambda x: jnp.flatnonzero(x, size=3), (x,))
    P['where1 size'] = (lambda x: jnp.where(x, size=2), (x1,))
    P['unique size'] = (lambda x: jnp.unique(x, size=3), (x1,))
    P['unique size fill'] = (lambda x: jnp.unique(x, size=3, fill_value=0.), (x1,))
    P['unique nosize'] = (lambda x: jnp.unique(x), (x1,))
    P['argwhere nosize'] = (lambda x: jnp.argwhere(x), (x,))
    P['flatnonzero nosize'] = (lambda x: jnp.flatnonzero(x), (x,))
    P['tal x1dim'] = (lambda x, i: jnp.take_along_axis(x, i, axis=1), (jnp.ones((1,4)), jnp.array([[0],[3],[1]]),))
    P['tal both1'] = (lambda x, i: jnp.take_along_axis(x, i, axis=1), (jnp.ones((1,4)), jnp.array([[0]]),))
    P['tal i16'] = (lambda x, i: jnp.take_along_axis(x, i, axis=1), (x, jnp.array([[0],[3],[1]], jnp.int16),))
    P['tal u8'] = (lambda x, i: jnp.take_along_axis(x, i, axis=1), (x, jnp.array([[0],[3],[1]], jnp.uint8),))
    P['tal clip'] = (lambda x, i: jnp.take_along_axis(x, i, axis=1, mode='clip'), (x, jnp.array([[0],[3],[1]]),))
    P['tal neg axis'] = (lambda x, i: jnp.take_along_axis(x, i, axis=-1), (x, jnp.array([[0],[3],[1]]),))
    P['tal 1d'] = (lambda x, i: jnp.take_along_axis(x, i, axis=0), (x1, jnp.array([0, 3]),))
    P['take i16'] = (lambda x, i: jnp.take(x, i), (x1, jnp.array([0, 3], jnp.int16),))
    P['take u8'] = (lambda x, i: jnp.take(x, i), (x1, jnp.array([0, 3], jnp.uint8),))
    P['take 2d idx'] = (lambda x, i: jnp.take(x, i, axis=1), (x, jnp.array([[0, 3],[1,1]]),))
    P['take promise'] = (lambda x, i: jnp.take(x, i, mode='promise_in_bounds'), (x1, jnp.array([0, 3]),))
    P['nonzero bool'] = (lambda x: jnp.nonzero(x, size=2), (jnp.array([True, False, True]),))
    P['nonzero 2d fill'] = (lambda x: jnp.nonzero(x, size=2, fill_value=(-1, -2)), (x,))
    return P


def _laxerr_programs(jax, jnp, lax, np):
    """Argument checks of the lax API: JAX's exception classes and messages."""
    G = lax.GatherDimensionNumbers; S = lax.ScatterDimensionNumbers
    x = jnp.arange(12.0).reshape(3,4)
    i2 = jnp.array([[1],[2]])
    U = jnp.ones(2)
    P = {}
    P["one_hot"] = (lambda: lax.gather(jnp.arange(5.), jnp.array([[0],[7],[-1]]), G((), (0,), (0,)), (1,), mode='one_hot'), ())
    P["float idx"] = (lambda: lax.gather(x, i2.astype(float), G((1,), (0,), (0,)), (1,4)), ())
    P["slice rank"] = (lambda: lax.gather(x, i2, G((1,), (0,), (0,)), (1,)), ())
    P["slice too big"] = (lambda: lax.gather(x, i2, G((1,), (0,), (0,)), (1,5)), ())
    P["slice neg"] = (lambda: lax.gather(x, i2, G((1,), (0,), (0,)), (1,-1)), ())
    P["collapsed not 1"] = (lambda: lax.gather(x, i2, G((1,), (0,), (0,)), (2,4)), ())
    P["offset wrong count"] = (lambda: lax.gather(x, i2, G((1,2), (0,), (0,)), (1,4)), ())
    P["offset unsorted"] = (lambda: lax.gather(x, i2, G((1,0), (), (0,)), (1,4)), ())
    P["start_index_map len"] = (lambda: lax.gather(x, i2, G((1,), (0,), (0,1)), (1,4)), ())
    P["start_index_map oob"] = (lambda: lax.gather(x, i2, G((1,), (0,), (5,)), (1,4)), ())
    P["start_index_map dup"] = (lambda: lax.gather(x, jnp.array([[1,1]]), G((1,), (0,), (0,0)), (1,4)), ())
    P["collapsed oob"] = (lambda: lax.gather(x, i2, G((1,), (7,), (0,)), (1,4)), ())
    P["collapsed unsorted"] = (lambda: lax.gather(x, jnp.array([[1,1]]), G((), (1,0), (0,1)), (1,1)), ())
    P["offset oob"] = (lambda: lax.gather(x, i2, G((5,), (0,), (0,)), (1,4)), ())
    P["scalar indices"] = (lambda: lax.gather(x, jnp.int32(1), G((0,1), (), ()), (3,4)), ())
    P["bool operand"] = (lambda: lax.gather(x>1, i2, G((1,), (0,), (0,)), (1,4)), ())
    P["mode bogus"] = (lambda: lax.gather(x, i2, G((1,), (0,), (0,)), (1,4), mode='bogus'), ())
    P["dn tuple"] = (lambda: lax.gather(x, i2, ((1,), (0,), (0,)), (1,4)), ())
    P["uint idx"] = (lambda: lax.gather(x, i2.astype(np.uint8), G((1,), (0,), (0,)), (1,4)), ())
    P["i16 idx"] = (lambda: lax.gather(x, i2.astype(np.int16), G((1,), (0,), (0,)), (1,4)), ())
    P["batching"] = (lambda: lax.gather(x, jnp.array([[1],[2],[0]]), G((), (1,), (1,), (0,), (0,)), (1,1)), ())
    P["batching bad size"] = (lambda: lax.gather(x, jnp.array([[1],[2]]), G((), (1,), (1,), (0,), (0,)), (1,1)), ())
    P["sc float idx"] = (lambda: lax.scatter(jnp.arange(5.), i2.astype(float), U, S((), (0,), (0,))), ())
    P["sc dtype"] = (lambda: lax.scatter(jnp.arange(5.), i2, U.astype(int), S((), (0,), (0,))), ())
    P["sc upd rank"] = (lambda: lax.scatter(jnp.arange(5.), i2, jnp.ones((2,1)), S((), (0,), (0,))), ())
    P["sc upd shape"] = (lambda: lax.scatter(jnp.arange(5.), i2, jnp.ones(3), S((), (0,), (0,))), ())
    P["sc window too big"] = (lambda: lax.scatter(jnp.arange(5.), i2, jnp.ones((2,6)), S((1,), (), (0,))), ())
    P["sc inserted oob"] = (lambda: lax.scatter(jnp.arange(5.), i2, U, S((), (3,), (0,))), ())
    P["sc sdod len"] = (lambda: lax.scatter(jnp.arange(5.), i2, U, S((), (0,), (0,0))), ())
    P["sc sdod oob"] = (lambda: lax.scatter(jnp.arange(5.), i2, U, S((), (0,), (4,))), ())
    P["sc uwd unsorted"] = (lambda: lax.scatter(x, i2, jnp.ones((2,4,1)), S((2,1), (), (0,))), ())
    P["sc add bool"] = (lambda: lax.scatter_add(jnp.arange(5)>1, i2, U>1, S((), (0,), (0,))), ())
    P["sc mul bool"] = (lambda: lax.scatter_mul(jnp.arange(5)>1, i2, U>1, S((), (0,), (0,))), ())
    P["sc sub bool"] = (lambda: lax.scatter_sub(jnp.arange(5)>1, i2, U>1, S((), (0,), (0,))), ())
    P["sc bool"] = (lambda: lax.scatter(jnp.arange(5)>1, i2, U>1, S((), (0,), (0,))), ())
    P["sc dn tuple"] = (lambda: lax.scatter(jnp.arange(5.), i2, U, ((), (0,), (0,))), ())
    P["ds float"] = (lambda: lax.dynamic_slice(x, (1.0, 1), (1,1)), ())
    P["ds len"] = (lambda: lax.dynamic_slice(x, (1,), (1,1)), ())
    P["ds sizes len"] = (lambda: lax.dynamic_slice(x, (1,1), (1,)), ())
    P["ds too big"] = (lambda: lax.dynamic_slice(x, (1,1), (4,1)), ())
    P["ds neg size"] = (lambda: lax.dynamic_slice(x, (1,1), (-1,1)), ())
    P["ds mixed"] = (lambda: lax.dynamic_slice(x, (np.int16(1),1), (1,1)), ())
    P["ds nonscalar"] = (lambda: lax.dynamic_slice(x, (jnp.array([1]),1), (1,1)), ())
    P["ds oob"] = (lambda: lax.dynamic_slice(x, (7,-9), (2,2)), ())
    P["ds oob big"] = (lambda: lax.dynamic_slice(jnp.arange(5), (np.int32(2**31-1),), (2,)), ())
    P["ds oob min"] = (lambda: lax.dynamic_slice(jnp.arange(5), (np.int32(-2**31),), (2,)), ())
    P["dus dtype"] = (lambda: lax.dynamic_update_slice(x, jnp.ones((1,1),int), (1,1)), ())
    P["dus rank"] = (lambda: lax.dynamic_update_slice(x, jnp.ones((1,)), (1,1)), ())
    P["dus big"] = (lambda: lax.dynamic_update_slice(x, jnp.ones((4,1)), (1,1)), ())
    P["dus len"] = (lambda: lax.dynamic_update_slice(x, jnp.ones((1,1)), (1,)), ())
    P["dus oob"] = (lambda: lax.dynamic_update_slice(x, jnp.ones((2,2)), (7,-9)), ())
    P["dus scalar upd"] = (lambda: lax.dynamic_update_slice(x, 1.0, (1,1)), ())
    P["dii axis"] = (lambda: lax.dynamic_index_in_dim(x, 1, 5), ())
    P["dii neg axis"] = (lambda: lax.dynamic_index_in_dim(x, 1, -1), ())
    P["dsid"] = (lambda: lax.dynamic_slice_in_dim(x, 1, 5, 0), ())
    P["duid"] = (lambda: lax.dynamic_update_index_in_dim(x, jnp.ones(4), 1, 0), ())
    P["duid2"] = (lambda: lax.dynamic_update_index_in_dim(x, jnp.ones((1,4)), 1, 0), ())
    P["duid3"] = (lambda: lax.dynamic_update_index_in_dim(x, 5.0, 1, 0), ())
    P["dusid"] = (lambda: lax.dynamic_update_slice_in_dim(x, jnp.ones((1,4)), -1, 0), ())
    P["ds ndarray starts"] = (lambda: lax.dynamic_slice(x, np.array([1,1]), (1,1)), ())
    P["ds anni list"] = (lambda: lax.dynamic_slice(x, (-1,-1), (1,1), allow_negative_indices=(True, False)), ())
    P["ds anni bad len"] = (lambda: lax.dynamic_slice(x, (-1,-1), (1,1), allow_negative_indices=(True,)), ())
    P["offset wrong count"] = (lambda: lax.gather(x, i2, G((0,1), (0,), (0,)), (1,4)), ())
    P["offset wrong count2"] = (lambda: lax.gather(x, i2, G((), (0,), (0,)), (1,4)), ())
    P["sc add dtype"] = (lambda: lax.scatter_add(jnp.arange(5.), i2, jnp.ones(2, int), S((), (0,), (0,))), ())
    P["sc max dtype"] = (lambda: lax.scatter_max(jnp.arange(5.), i2, jnp.ones(2, int), S((), (0,), (0,))), ())
    P["sc offset dup"] = (lambda: lax.gather(x, i2, G((1,1), (), (0,)), (1,4)), ())
    P["g collapsed dup"] = (lambda: lax.gather(x, jnp.array([[1,1]]), G((), (0,0), (0,1)), (1,1)), ())
    P["g batch slice not 1"] = (lambda: lax.gather(x, jnp.array([[1],[2],[0]]), G((1,), (1,), (1,), (0,), (0,)), (2,1)), ())
    P["g batch overlap"] = (lambda: lax.gather(x, jnp.array([[1],[2],[0]]), G((), (0,1), (1,), (0,), (0,)), (1,1)), ())
    P["g batch in sim"] = (lambda: lax.gather(x, jnp.array([[1],[2],[0]]), G((1,), (), (0,), (0,), (0,)), (1,1)), ())
    P["g batch len mismatch"] = (lambda: lax.gather(x, jnp.array([[1],[2],[0]]), G((), (1,), (1,), (0,), ()), (1,1)), ())
    P["g batch oob"] = (lambda: lax.gather(x, jnp.array([[1],[2],[0]]), G((), (1,), (1,), (5,), (0,)), (1,1)), ())
    P["g sibd oob"] = (lambda: lax.gather(x, jnp.array([[1],[2],[0]]), G((), (1,), (1,), (0,), (1,)), (1,1)), ())
    P["sc inserted unsorted"] = (lambda: lax.scatter(x, jnp.array([[1,1]]), jnp.ones(1), S((), (1,0), (0,1))), ())
    P["sc inserted dup"] = (lambda: lax.scatter(x, jnp.array([[1,1]]), jnp.ones(1), S((), (0,0), (0,1))), ())
    P["sc uwd oob"] = (lambda: lax.scatter(x, i2, jnp.ones((2,4)), S((5,), (0,), (0,))), ())
    P["sc uwd dup"] = (lambda: lax.scatter(x, i2, jnp.ones((2,4)), S((1,1), (0,), (0,))), ())
    P["sc window count"] = (lambda: lax.scatter(x, i2, jnp.ones((2,)), S((), (), (0,))), ())
    P["sc sdod dup"] = (lambda: lax.scatter(x, jnp.array([[1,1]]), jnp.ones(1), S((), (0,1), (0,0))), ())
    P["sc scalar idx"] = (lambda: lax.scatter(x, jnp.int32(1), jnp.ones((3,4)), S((0,1), (), ())), ())
    P["sc batching ok"] = (lambda: lax.scatter(x, jnp.array([[1],[2],[0]]), jnp.ones(3), S((), (1,), (1,), (0,), (0,))), ())
    return P


def _random_index(rng, np, jnp, shape):
    """A random index for ``shape`` (entries, and the traced arguments it reads)."""
    entries, args, dim, used_ellipsis = [], [], 0, False
    while dim < len(shape) and rng.random() < 0.8:
        n = shape[dim]
        kind = rng.choice(["int", "int", "slice", "slice", "none", "tint", "arr", "tarr",
                           "mask", "ellipsis"])
        if kind == "int":
            entries.append(("static", rng.randint(-n - 1, n)))
        elif kind == "slice":
            def bound():
                return rng.choice([None, rng.randint(-n - 2, n + 2)])
            entries.append(("static", slice(bound(), bound(),
                                            rng.choice([None, 1, 2, -1, -2, 3]))))
        elif kind == "none":
            entries.append(("static", None))
            continue
        elif kind == "tint":
            v = rng.randint(-n, n - 1)
            args.append(np.int32(v) if rng.random() < 0.5 else v)
            entries.append(("arg", len(args) - 1))
        elif kind == "arr":
            vals = [rng.randint(-n, n - 1) for _ in range(rng.randint(0, 3))]
            entries.append(("static", np.array(vals, dtype=np.int32)))
        elif kind == "tarr":
            shp = rng.choice([(2,), (3,), (2, 2), (1,)])
            vals = np.random.RandomState(rng.randint(0, 1000)).randint(-n, n + 2, size=shp)
            args.append(jnp.array(vals, dtype=jnp.int32))
            entries.append(("arg", len(args) - 1))
        elif kind == "mask":
            entries.append(("static", np.array([rng.random() < 0.5 for _ in range(n)])))
        else:
            if used_ellipsis:
                continue
            used_ellipsis = True
            entries.append(("static", Ellipsis))
            dim = len(shape) - sum(1 for k, e in entries
                                   if not (k == "static" and (e is None or e is Ellipsis)))
            continue
        dim += 1
    return entries, args


def _rand_programs(jax, jnp, lax, np, count=120, seed=1):
    """Random index expressions read and updated in every way."""
    rng = random.Random(seed)
    shape = (4, 5, 3)
    P = {}
    while len(P) < count:
        entries, args = _random_index(rng, np, jnp, shape)
        if not entries:
            continue
        op = rng.choice(["get", "get", "set", "add", "getfill", "mul"])

        def fn(x, *a, entries=entries, op=op):
            idx = tuple(a[v] if k == "arg" else v for k, v in entries)
            if op == "get":
                return x[idx]
            if op == "getfill":
                return x.at[idx].get(mode="fill", fill_value=-1.0)
            if op == "set":
                return x.at[idx].set(7.0)
            if op == "add":
                return x.at[idx].add(1.0)
            return x.at[idx].multiply(2.0)
        shown = ", ".join(f"a{v}" if k == "arg" else repr(v).replace("\n", "")
                          for k, v in entries)
        name = f"{len(P):03d} {op} [{shown}]"
        P[name] = (fn, (jnp.arange(60.0).reshape(shape) - 20, *args))
    return P


GROUPS = {"lax": _lax_programs, "laxerr": _laxerr_programs, "jnp": _jnp_programs, "misc": _misc_programs,
          "funcs": _funcs_programs, "rand": _rand_programs}


def programs(jax, jnp, lax, np) -> dict:
    """All programs: ``"group/name" -> (fn, args)``."""
    out = {}
    for group, build in GROUPS.items():
        for name, prog in build(jax, jnp, lax, np).items():
            out[f"{group}/{name}"] = prog
    return out

"""Programs whose ``make_jaxpr(grad(f))`` text is recorded from JAX 0.10.2 by
``tools/record_ad_structural.py`` (into ``tests/data/ad_structural.json``) and compared
by ``tests/test_lax_structural_ad.py``.

``programs(jax, jnp, lax, np)`` returns ``name -> (fn, args)``: ``fn`` is the function
to differentiate (``grad`` of its first argument), ``args()`` builds its arguments with
the library under test. All run with x64 enabled. Nothing here imports jax or transpile.
"""
from __future__ import annotations


def programs(jax, jnp, lax, np):
    f64 = lambda *shape: (lambda: (jnp.asarray(  # noqa: E731
        np.arange(1, 1 + int(np.prod(shape)), dtype=np.float64).reshape(shape) / 7),))
    def _gather_scatter_add(x):
        # (index arrays made in the order they are used: transpile orders closed-over
        # constants by first use, JAX by creation)
        y = x[jnp.array([1, 1, 3])]
        return jnp.sum(jnp.sin(x.at[jnp.array([0, 2, 2])].add(y)))

    cases = {
        "sum": (lambda x: jnp.sum(x), f64(3, 4)),
        "sum_axis": (lambda x: jnp.sum(jnp.sum(x, axis=1) ** 2), f64(3, 4)),
        "mean": (lambda x: jnp.mean(x), f64(3, 4)),
        "dot_vec": (lambda x: jnp.dot(x, x), f64(5)),
        "matmul": (lambda x: jnp.sum(x @ x.T), f64(3, 4)),
        "matmul_const": (lambda x: jnp.sum(jnp.ones((2, 3)) @ x), f64(3, 4)),
        "reshape_transpose": (lambda x: jnp.sum(jnp.sin(x.reshape(4, 3).T)), f64(3, 4)),
        "slice": (lambda x: jnp.sum(x[1:3]), f64(5)),
        "slice_strided": (lambda x: jnp.sum(jnp.sin(x[::2, 1:])), f64(5, 3)),
        "index_traced": (lambda x, i: x[i] * 2.0,
                         lambda: (jnp.asarray(np.arange(5.0)), jnp.asarray(2))),
        "at_add": (lambda x: jnp.sum(x.at[1].add(x[2]) ** 2), f64(4)),
        "take": (lambda x: jnp.sum(jnp.take(x, jnp.array([0, 2, 2]))), f64(5)),
        "concatenate": (lambda x: jnp.sum(jnp.concatenate([x, 2.0 * x])), f64(5)),
        "cumsum": (lambda x: jnp.sum(jnp.cumsum(x) ** 2), f64(5)),
        "max": (lambda x: jnp.max(x), f64(5)),
        "max_axis": (lambda x: jnp.sum(jnp.max(x, axis=0)), f64(3, 4)),
        "sort": (lambda x: jnp.sum(jnp.sort(x) * jnp.arange(5.0)), f64(5)),
        "where": (lambda x: jnp.sum(jnp.where(x > 0.3, x, 0.0)), f64(5)),
        "broadcast": (lambda x: jnp.sum(x[:, None] * jnp.ones((3, 4))), f64(3)),
        "squeeze_expand": (lambda x: jnp.sum(jnp.squeeze(x[None], 0) * x), f64(3)),
        "flip": (lambda x: jnp.sum(jnp.flip(x) * jnp.arange(4.0)), f64(4)),
        "prod": (lambda x: jnp.prod(x), f64(5)),
        # lax-level programs
        "lax_pad": (lambda x: jnp.sum(jnp.sin(lax.pad(x, 0.0, ((1, 2, 1), (0, -1, 0))))),
                    f64(3, 3)),
        "lax_dot_general_batch": (lambda x: jnp.sum(jnp.sin(lax.dot_general(
            x, x, (((2,), (1,)), ((0,), (0,)))))), f64(2, 3, 3)),
        "lax_cumprod": (lambda x: jnp.sum(lax.cumprod(x, 0)), f64(5)),
        "lax_cummax": (lambda x: jnp.sum(lax.cummax(x, 0, reverse=True)), f64(4)),
        "lax_top_k": (lambda x: jnp.sum(lax.top_k(x, 2)[0] ** 2), f64(3, 5)),
        "lax_dynamic_slice": (lambda x, i: jnp.sum(lax.dynamic_slice(x, (i, i), (2, 2)) ** 2),
                              lambda: (jnp.asarray(np.arange(16.0).reshape(4, 4)),
                                       jnp.asarray(1))),
        "lax_dynamic_update_slice": (lambda x: jnp.sum(lax.dynamic_update_slice(
            x, jnp.sin(x[:2]), (1,)) ** 2), f64(5)),
        "lax_sort_multi": (lambda x: jnp.sum(lax.sort((x, jnp.sin(x)), num_keys=1)[1]),
                           f64(5)),
        "lax_reduce_prod_axis": (lambda x: jnp.sum(lax.reduce_prod(x, (1,))), f64(2, 3)),
        "lax_broadcast_unit": (lambda x: jnp.sum(jnp.sin(lax.broadcast_in_dim(
            x, (3, 4), (0, 1)))), f64(1, 4)),
        "lax_squeeze_rev": (lambda x: jnp.sum(jnp.sin(lax.rev(lax.squeeze(x, (0,)), (0,)))),
                            f64(1, 4)),
        "lax_reshape_dims": (lambda x: jnp.sum(jnp.sin(lax.reshape(x, (6, 2), (1, 0)))),
                             f64(3, 4)),
        "gather_scatter_add": (_gather_scatter_add, f64(4)),
        "at_max": (lambda x: jnp.sum(jnp.sin(x.at[jnp.array([0, 2])].max(
            2.0 * x[1:3]))), f64(4)),
        "at_set_collide": (lambda x: jnp.sum(jnp.sin(x.at[jnp.array([0, 2, 2])].set(
            x[1:]))), f64(4)),
        "at_mul": (lambda x: jnp.sum(jnp.sin(x.at[jnp.array([0, 2])].mul(3.0))), f64(4)),
        "tile_split_min": (lambda x: jnp.sum(jnp.min(jnp.tile(jnp.split(x, 2)[1], (2, 1)),
                                                     axis=0)), f64(4, 2)),
    }
    return cases

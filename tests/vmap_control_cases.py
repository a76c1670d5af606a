"""``vmap`` programs over control flow, indexing, ``jit`` and the PRNG, shared by
``tests/test_lax_control_flow_batching.py`` and ``tools/record_vmap_control.py``
(which records JAX 0.10.2's ``make_jaxpr(vmap(f))`` text, and the values of the
random cases, into ``tests/data/vmap_control.json``).

``cases(M, np)`` takes the library (``jax`` or ``transpile``: its ``lax``, ``numpy``,
``random``, ``jit``) and returns ``name -> (fn, args, in_axes)``; ``args`` are already
batched along ``in_axes`` (batch size 3). Nothing here imports jax or transpile.
"""
from __future__ import annotations

B = 3  # the batch size


def cases(M, np):
    lax, jnp = M.lax, M.numpy
    x = (np.arange(6, dtype=np.float32).reshape(B, 2) - 2.5) / 2
    p = np.array([1.0, -1.0, 2.0], np.float32)
    n = np.array([1, 3, 2], np.int32)
    i = np.array([1, 3, 0], np.int32)
    m = np.arange(12, dtype=np.float32).reshape(B, 4)

    def cond(p, x):
        return lax.cond(p > 0, lambda x: lax.sin(x) * 2.0, lambda x: x + 1.0, x)

    def switch(k, x):
        return lax.switch(k, [lambda x: x * 2.0, lambda x: lax.cos(x), lambda x: -x], x)

    def while_(n, x):
        return lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 2.0), (0, x))

    def fori(x):
        return lax.fori_loop(0, 3, lambda j, c: c * 2.0 + 1.0, x)

    def scan(c, xs):
        return lax.scan(lambda c, x: (c * x + 1.0, c + x), c, xs)

    def keys():
        return M.random.split(M.random.key(0), B)

    @M.custom_jvp
    def softplus(v):
        return jnp.log1p(jnp.exp(v))

    @softplus.defjvp
    def softplus_jvp(primals, tangents):
        return softplus(primals[0]), tangents[0] / (1.0 + jnp.exp(-primals[0]))

    @M.custom_vjp
    def sin2(v):
        return jnp.sin(v)
    sin2.defvjp(lambda v: (jnp.sin(v), jnp.cos(v)), lambda c, ct: (ct * c * 2.0,))

    return {
        "cond_batched_pred": (cond, [p, x], (0, 0)),
        "cond_unbatched_pred": (cond, [np.float32(1.0), x], (None, 0)),
        "switch_batched_index": (switch, [np.array([0, 2, 1], np.int32), x], (0, 0)),
        "while_batched_pred": (while_, [n, x[:, 0]], (0, 0)),
        "while_unbatched_pred": (while_, [np.int32(3), x[:, 0]], (None, 0)),
        "fori_batched_carry": (fori, [x], (1,)),
        "scan_xs_axis1": (scan, [np.float32(1.0), np.ones((4, B), np.float32)], (None, 1)),
        "scan_carry_batched": (scan, [np.arange(B, dtype=np.float32),
                                      np.ones((4,), np.float32)], (0, None)),
        "getitem_batched_index": (lambda a, j: a[j], [m, i], (0, 0)),
        "getitem_unbatched_operand": (lambda a, j: a[j], [m[0], i], (None, 0)),
        "at_add_batched_index": (lambda a, j: a.at[j].add(1.0), [m, i], (0, 0)),
        "at_set_unbatched_operand": (lambda a, j: a.at[j].set(7.0), [m[0], i], (None, 0)),
        "dynamic_slice_batched": (lambda a, j: lax.dynamic_slice(a, (j,), (2,)), [m, i],
                                  (0, 0)),
        "dynamic_update_slice": (lambda a, j: lax.dynamic_update_slice(
            a, jnp.full((2,), 9.0, np.float32), (j,)), [m, i], (0, 0)),
        "random_normal_keys": (lambda k: M.random.normal(k, (2,)), [keys()], (0,)),
        "random_uniform_raw_keys": (lambda k: M.random.uniform(k, (2,)),
                                    [M.random.split(M.random.PRNGKey(1), B)], (0,)),
        "random_fold_in": (lambda k, d: M.random.bits(M.random.fold_in(k, d), (2,)),
                           [M.random.key(2), np.arange(B, dtype=np.int32)], (None, 0)),
        "jit_inside_vmap": (lambda a, b: M.jit(lambda u, v: lax.sin(u) + v)(a, b),
                            [x, x[0]], (0, None)),
        "custom_jvp_in_vmap": (lambda a, b: softplus(a) * b, [x, x[0]], (0, None)),
        "custom_vjp_in_vmap": (lambda a, b: sin2(a * b), [x, x[0]], (0, None)),
        "checkpoint_in_vmap": (lambda a, b: M.checkpoint(lambda u, v: jnp.sin(u) * v)(a, b),
                               [x, x[0]], (0, None)),
        "grad_of_custom_jvp": (M.grad(lambda a: softplus(a).sum()), [x], (0,)),
    }


#: cases whose values (not just jaxpr text) are recorded: the PRNG's
RECORD_VALUES = ("random_normal_keys", "random_uniform_raw_keys", "random_fold_in")

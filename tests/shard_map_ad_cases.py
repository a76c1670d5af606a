"""Cases of ``grad``/``vjp``/``linearize``/``jvp``/``vmap`` of functions holding a
``shard_map``, written once for JAX (recorded by ``tools/record_shard_map_ad.py`` into
``tests/data/shard_map_ad.json``) and for transpile (``tests/test_shard_map_ad.py``).

``build(jax, np)`` returns ``{name: (ndev, thunk)}``; ``thunk()`` -> ``(fn, args)``, and
``make_jaxpr(fn)(*args)``'s text, ``fn(*args)``'s values and each result's sharding are
recorded. ``BODIES`` names each case's shard_map function (``bodies(jax, np)``), for the
finite-difference checks.
"""
from __future__ import annotations


def bodies(jax, np):
    """name -> (ndev, function of one array holding a shard_map, argument)."""
    lax = jax.lax
    jnp = jax.numpy
    P = jax.sharding.PartitionSpec
    Mesh = jax.sharding.Mesh
    x8 = (np.arange(8.0, dtype=np.float32) + 1) / 4
    x44 = (np.arange(16.0, dtype=np.float32).reshape(4, 4) + 1) / 8

    def m1():
        return Mesh(np.array(jax.devices()[:2]), ("x",))

    def m2():
        return Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ("x", "y"))

    def sm(body, i, o, mesh=m1, **kw):
        return lambda v: jax.shard_map(body, mesh=mesh(), in_specs=i, out_specs=o, **kw)(v)

    return {
        "psum": (2, sm(lambda v: lax.psum(jnp.sin(v), "x"), P("x"), P()), x8),
        "pmean": (2, sm(lambda v: lax.pmean(v * v, "x"), P("x"), P()), x8),
        "all_gather": (2, sm(lambda v: lax.all_gather(jnp.sin(v), "x"), P("x"), P("x")),
                       x8),
        "all_gather_tiled": (2, sm(lambda v: lax.all_gather(v * v, "x", tiled=True),
                                   P("x"), P("x")), x8),
        "psum_scatter": (2, sm(lambda v: lax.psum_scatter(jnp.sin(v), "x", tiled=True),
                               P("x"), P("x")), x8),
        "ppermute": (2, sm(lambda v: lax.ppermute(v * v, "x", [(0, 1), (1, 0)]),
                           P("x"), P("x")), x8),
        "axis_index": (2, sm(lambda v: jnp.sin(v) * lax.axis_index("x"), P("x"), P("x")),
                       x8),
        "elementwise": (2, sm(lambda v: jnp.sin(v) * v, P("x"), P("x")), x8),
        "scalar_res": (2, sm(lambda v: v * jnp.sum(v), P("x"), P("x")), x8),
        "mesh2d": (4, sm(lambda v: lax.psum(jnp.sin(v) * v, "y"), P("x", "y"), P("x"),
                         mesh=m2), x44),
        "nocheck": (2, sm(lambda v: lax.psum(jnp.sin(v), "x"), P("x"), P(),
                          check_vma=False), x8),
        "nocheck_elementwise": (2, sm(lambda v: jnp.sin(v) * v, P("x"), P("x"),
                                      check_vma=False), x8),
    }


def build(jax, np):
    out = {}
    for name, (ndev, f, x) in bodies(jax, np).items():
        loss = (lambda f: lambda v: (f(v) * f(v)).sum())(f)
        out[f"grad_{name}"] = (ndev, (lambda loss, x: lambda: (jax.grad(loss), (x,)))(
            loss, x))
        out[f"jit_grad_{name}"] = (ndev, (lambda loss, x: lambda: (
            jax.jit(jax.grad(loss)), (x,)))(loss, x))
    b = bodies(jax, np)
    for name in ("psum", "elementwise", "nocheck"):
        ndev, f, x = b[name]
        out[f"jvp_{name}"] = (ndev, (lambda f, x: lambda: (
            lambda v: jax.jvp(f, (v,), (v * 2,)), (x,)))(f, x))
        if name != "elementwise":  # JAX 0.10.2 fails on its forwarded residual
            out[f"linearize_{name}"] = (ndev, (lambda f, x: lambda: (
                lambda v: jax.linearize(f, v)[1](v * 2), (x,)))(f, x))
        out[f"vjp_{name}"] = (ndev, (lambda f, x: lambda: (
            lambda v: jax.vjp(f, v)[1](f(v)), (x,)))(f, x))
        out[f"value_and_grad_{name}"] = (ndev, (lambda f, x: lambda: (
            jax.value_and_grad(lambda v: f(v).sum()), (x,)))(f, x))
    for name in ("psum", "ppermute", "elementwise", "mesh2d", "all_gather_tiled"):
        ndev, f, x = b[name]
        xs = np.stack([x, x * 2 + 1])
        out[f"vmap_{name}"] = (ndev, (lambda f, xs: lambda: (jax.vmap(f), (xs,)))(f, xs))
        out[f"jit_vmap_{name}"] = (ndev, (lambda f, xs: lambda: (
            jax.jit(jax.vmap(f)), (xs,)))(f, xs))
    lax = jax.lax
    x3 = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    out["vmap_ppermute_own_axis"] = (2, lambda: (jax.vmap(
        lambda v: lax.ppermute(v, "i", [(0, 1), (1, 2), (2, 0)]), axis_name="i"), (x3,)))
    return out

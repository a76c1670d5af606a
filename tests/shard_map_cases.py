"""Cases of collectives, ``shard_map`` and ``pmap``, written once for JAX (recorded by
``tools/record_shard_map.py`` into ``tests/data/shard_map.json``) and for transpile
(``tests/test_lax_parallel.py``, ``test_shard_map.py``, ``test_pmap.py``).

``build(jax, np)`` returns ``{name: (ndev, kind, thunk)}``: ``ndev`` the CPU device
count the case runs with, ``kind`` what is recorded (``"value"``: the outputs;
``"jaxpr"``: also ``make_jaxpr``'s text; ``"error"``: the exception), and ``thunk()`` ->
``(fn, args)``.
"""
from __future__ import annotations


def build(jax, np):
    lax = jax.lax
    P = jax.sharding.PartitionSpec
    Mesh = jax.sharding.Mesh
    x = np.arange(8.0, dtype=np.float32).reshape(4, 2)
    x3 = np.arange(3.0, dtype=np.float32)
    x4 = np.arange(4.0, dtype=np.float32)
    cube = np.arange(16.0, dtype=np.float32).reshape(4, 2, 2)

    def mesh1():
        return Mesh(np.array(jax.devices()[:2]), ("x",))

    def mesh2():
        return Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ("x", "y"))

    def sm(f, i, o, **kw):
        return lambda: (jax.shard_map(f, mesh=mesh1(), in_specs=i, out_specs=o, **kw), )

    def vm(f, **kw):
        return jax.vmap(f, axis_name="i", **kw)

    cases = {
        # collectives under vmap's axis_name
        "vmap_psum": (2, "jaxpr", lambda: (vm(lambda v: lax.psum(v, "i")), (x3,))),
        "vmap_psum_tuple": (2, "jaxpr", lambda: (
            vm(lambda v: lax.psum((v, 2 * v), "i")), (x,))),
        "vmap_psum_const": (2, "jaxpr", lambda: (vm(lambda v: lax.psum(3.0, "i")), (x,))),
        "vmap_axis_index": (2, "jaxpr", lambda: (vm(lambda v: lax.axis_index("i")), (x,))),
        "vmap_pmean_pmax_pmin": (2, "value", lambda: (
            vm(lambda v: (lax.pmean(v, "i"), lax.pmax(v, "i"), lax.pmin(v, "i"))), (x,))),
        "vmap_all_gather": (2, "value", lambda: (
            vm(lambda v: (lax.all_gather(v, "i"), lax.all_gather(v, "i", axis=1),
                          lax.all_gather(v, "i", tiled=True))), (x,))),
        "vmap_ppermute": (2, "value", lambda: (
            vm(lambda v: lax.ppermute(v, "i", [(0, 1), (1, 2), (2, 3), (3, 0)])), (x,))),
        "vmap_psum_scatter": (2, "value", lambda: (
            vm(lambda v: lax.psum_scatter(v, "i", tiled=True)),
            (np.arange(16.0, dtype=np.float32).reshape(4, 4),))),
        "vmap_all_to_all": (2, "value", lambda: (
            vm(lambda v: lax.all_to_all(v, "i", 0, 0, tiled=True)),
            (np.arange(16.0, dtype=np.float32).reshape(4, 4),))),
        "vmap_int_psum": (2, "value", lambda: (
            vm(lambda v: lax.psum(v, "i")), (np.arange(6, dtype=np.int32).reshape(3, 2),))),
        "vmap_grad_psum": (2, "value", lambda: (
            jax.grad(lambda v: vm(lambda y: lax.psum(y ** 2, "i"))(v).sum()), (x3,))),
        "unbound_outside": (2, "error", lambda: (lambda v: lax.psum(v, "i"), (1.0,))),
        "unbound_in_vmap": (2, "error", lambda: (
            jax.vmap(lambda v: lax.psum(v, "j"), axis_name="i"), (x3,))),
        # shard_map over a 1-D mesh of 2 devices (of 4) and a 2x2 mesh
        "sm_psum": (4, "jaxpr", sm(lambda v: lax.psum(v, "x"), P("x"), P())),
        "sm_mul_const": (4, "jaxpr", sm(lambda v: v * 2, P("x"), P("x"))),
        "sm_psum_const": (4, "jaxpr", sm(lambda v: lax.psum(1.0, "x"), P("x"), P())),
        "sm_pmean": (4, "jaxpr", sm(lambda v: lax.pmean(v, "x"), P("x"), P())),
        "sm_pmax": (4, "jaxpr", sm(lambda v: lax.pmax(v, "x"), P("x"), P())),
        "sm_axis_index": (4, "jaxpr", sm(lambda v: v + lax.axis_index("x"), P("x"), P("x"))),
        "sm_all_gather": (4, "jaxpr", sm(lambda v: lax.all_gather(v, "x", axis=1),
                                         P("x"), P("x"))),
        "sm_all_gather_tiled": (4, "value", sm(lambda v: lax.all_gather(v, "x", tiled=True),
                                               P("x"), P("x"))),
        "sm_ppermute": (4, "jaxpr", sm(lambda v: lax.ppermute(v, "x", [(0, 1), (1, 0)]),
                                       P("x"), P("x"))),
        "sm_ppermute_partial": (4, "value", sm(lambda v: lax.ppermute(v, "x", [(0, 1)]),
                                               P("x"), P("x"))),
        "sm_psum_scatter": (4, "jaxpr", sm(lambda v: lax.psum_scatter(v, "x", tiled=True),
                                           P("x"), P("x"))),
        "sm_all_to_all": (4, "jaxpr", sm(lambda v: lax.all_to_all(v, "x", 0, 1, tiled=True),
                                         P("x"), P("x"))),
        "sm_all_to_all_untiled": (4, "jaxpr", sm(lambda v: lax.all_to_all(v, "x", 0, 1),
                                                 P("x"), P("x"))),
        "sm_pbroadcast": (4, "jaxpr", sm(lambda v: lax.pbroadcast(v, "x", 1), P("x"),
                                         P("x"))),
        "sm_nocheck": (4, "jaxpr", sm(lambda v: lax.psum(v, "x"), P("x"), P(),
                                      check_vma=False)),
        "sm_nocheck_replicated": (4, "value", sm(lambda v: v, P("x"), P(), check_vma=False)),
        "sm_two_args": (4, "jaxpr", sm(lambda a, b: (a * b, lax.psum(b, "x")),
                                       (P("x"), P()), (P("x"), P()))),
        "sm_2d_psum": (4, "jaxpr", lambda: (jax.shard_map(
            lambda v: lax.psum(v, ("x", "y")), mesh=mesh2(), in_specs=P("x", "y"),
            out_specs=P()),)),
        "sm_2d_psum_y": (4, "value", lambda: (jax.shard_map(
            lambda v: lax.psum(v, "y"), mesh=mesh2(), in_specs=P("x", "y"),
            out_specs=P("x")),)),
        "sm_2d_joint": (4, "value", lambda: (jax.shard_map(
            lambda v: v * (1 + lax.axis_index("y")), mesh=mesh2(),
            in_specs=P(("x", "y")), out_specs=P(("x", "y"))),)),
        "sm_grad_psum": (4, "value", lambda: (jax.grad(lambda v: jax.shard_map(
            lambda y: lax.psum(y * y, "x"), mesh=mesh1(), in_specs=P("x"),
            out_specs=P())(v).sum()),)),
        "sm_grad_all_gather": (4, "value", lambda: (jax.grad(lambda v: (jax.shard_map(
            lambda y: lax.all_gather(y, "x", tiled=True), mesh=mesh1(), in_specs=P("x"),
            out_specs=P("x"))(v) * np.arange(16.0, dtype=np.float32)).sum()),)),
        "sm_grad_ppermute": (4, "value", lambda: (jax.grad(lambda v: (jax.shard_map(
            lambda y: lax.ppermute(y, "x", [(0, 1), (1, 0)]), mesh=mesh1(),
            in_specs=P("x"), out_specs=P("x"))(v) * np.arange(4.0, dtype=np.float32)
        ).sum()),)),
        "sm_vmap": (4, "value", lambda: (jax.vmap(jax.shard_map(
            lambda y: lax.psum(y, "x"), mesh=mesh1(), in_specs=P("x"),
            out_specs=P())),)),
        "sm_err_replication": (4, "error", sm(_identity_body, P("x"), P())),
        "sm_err_divisible": (4, "error", sm(_identity_body, P("x"), P("x"))),
        "sm_err_axis_name": (4, "error", sm(_identity_body, P("z"), P("z"))),
        # pmap over the 2 devices
        "pmap_pmean": (2, "jaxpr", lambda: (
            jax.pmap(lambda v: lax.pmean(v, "i"), axis_name="i"),)),
        "pmap_plain": (2, "jaxpr", lambda: (jax.pmap(lambda v: v + 1),)),
        "pmap_in_axes": (2, "jaxpr", lambda: (
            jax.pmap(lambda a, b: a * b, in_axes=(1, None), out_axes=1),)),
        "pmap_static": (2, "value", lambda: (
            jax.pmap(lambda v, n: v * n, static_broadcasted_argnums=1),)),
        "pmap_axis_index": (2, "value", lambda: (
            jax.pmap(lambda v: v + lax.axis_index("i"), axis_name="i"),)),
        "pmap_grad": (2, "value", lambda: (jax.grad(lambda v: jax.pmap(
            lambda y: lax.psum(y * y, "i"), axis_name="i")(v).sum()),)),
        "pmap_err_size": (2, "error", lambda: (jax.pmap(lambda v: v),)),
        "pmap_err_scalar": (2, "error", lambda: (jax.pmap(lambda v: v),)),
        # grad inside the body, through a jit (jax.nn's functions are jitted): one
        # cotangent seed per member, tangents as varying as their primals
        "sm_grad_in_body_jit": (2, "jaxpr", lambda: (jax.shard_map(
            lambda w, v: jax.grad(lambda w: jax.jit(jax.numpy.sin)(v * w).sum())(w),
            mesh=mesh1(), in_specs=(P(), P("x")), out_specs=P()),)),
        "sm_grad_log_softmax": (2, "value", lambda: (jax.shard_map(
            lambda w, v: jax.grad(lambda w: jax.nn.log_softmax(v @ w).sum())(w),
            mesh=mesh1(), in_specs=(P(), P("x")), out_specs=P()),)),
    }
    # arguments of the shard_map/pmap cases (the thunks above give the function only)
    args = {
        "sm_psum": (x4,), "sm_mul_const": (x4,), "sm_psum_const": (x,), "sm_pmean": (x,),
        "sm_pmax": (x,), "sm_axis_index": (x,), "sm_all_gather": (x,),
        "sm_all_gather_tiled": (x,), "sm_ppermute": (x,), "sm_ppermute_partial": (x,),
        "sm_psum_scatter": (x,), "sm_all_to_all": (x,), "sm_all_to_all_untiled": (cube,),
        "sm_pbroadcast": (x,), "sm_nocheck": (x,), "sm_nocheck_replicated": (x,),
        "sm_two_args": (x, np.float32(3.0) * np.ones((2,), np.float32)),
        "sm_2d_psum": (x,), "sm_2d_psum_y": (x,), "sm_2d_joint": (x,),
        "sm_grad_psum": (x4,), "sm_grad_all_gather": (np.arange(8.0, dtype=np.float32),),
        "sm_grad_ppermute": (x4,), "sm_vmap": (x,),
        "sm_grad_in_body_jit": (np.float32(2.0), x4),
        "sm_grad_log_softmax": (np.ones((2, 3), np.float32) * 0.5, x),
        "sm_err_replication": (x,), "sm_err_divisible": (x3,), "sm_err_axis_name": (x,),
        "pmap_pmean": (np.arange(6.0, dtype=np.float32).reshape(2, 3),),
        "pmap_plain": (np.ones((2, 3), np.float32),),
        "pmap_in_axes": (np.arange(6.0, dtype=np.float32).reshape(3, 2), 2.0),
        "pmap_static": (np.ones(2, np.float32), 3), "pmap_axis_index": (np.zeros(2),),
        "pmap_grad": (np.arange(2.0, dtype=np.float32),), "pmap_err_size": (x3,),
        "pmap_err_scalar": (3.0,),
    }
    out = {}
    for name, (ndev, kind, thunk) in cases.items():
        if name in args:
            out[name] = (ndev, kind, (lambda t, a: lambda: (t()[0], a))(thunk, args[name]))
        else:
            out[name] = (ndev, kind, thunk)
    return out


def _identity_body(v):
    return v * 2

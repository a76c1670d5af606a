"""Shardings and sharded arrays as programs, shared by ``tests/test_sharding_named.py``
and ``tools/record_sharding.py`` (which runs them in JAX 0.10.2 with 4 CPU devices and
writes ``tests/data/sharding.json``).

``cases(M)`` takes the library (``jax`` or ``transpile``, with 4 CPU devices) and
returns ``name -> thunk``; ``run(thunk)`` gives its JSON-able result or error. Nothing
here imports jax or transpile.
"""
from __future__ import annotations

import contextlib
import io

import numpy as np

#: (mesh shape, axis names, spec entries, array shape) for the shard layout cases.
LAYOUTS = {
    "1d_x": ((4,), ("x",), ("x",), (8,)),
    "1d_replicated": ((4,), ("x",), (), (8, 2)),
    "2d_x": ((2, 2), ("x", "y"), ("x",), (4, 4)),
    "2d_none_y": ((2, 2), ("x", "y"), (None, "y"), (4, 4)),
    "2d_x_y": ((2, 2), ("x", "y"), ("x", "y"), (4, 6)),
    "2d_xy_merged": ((2, 2), ("x", "y"), (("x", "y"),), (8, 3)),
    "2d_yx_merged": ((2, 2), ("x", "y"), (("y", "x"),), (8,)),
    "2d_y_x": ((2, 2), ("x", "y"), ("y", "x"), (2, 2)),
}


def _spec_text(s) -> str:
    return repr(getattr(s, "spec", s))


def _index(index) -> list:
    return [None if s == slice(None) else [s.start, s.stop] for s in index]


def run(thunk) -> dict:
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            return {"result": thunk()}
    except Exception as e:  # noqa: BLE001 - recorded
        # JAX appends where in the caller's source the error arose: not part of it
        return {"error": f"{type(e).__name__}: {e}".split(" This error occurs at source")[0]}


def cases(M):  # noqa: C901 - one flat table
    jnp, lax = M.numpy, M.lax
    S = M.sharding
    P, NamedSharding, Mesh = S.PartitionSpec, S.NamedSharding, S.Mesh
    devs = M.devices()
    mesh2 = Mesh(np.array(devs).reshape(2, 2), ("x", "y"))
    mesh1 = Mesh(np.array(devs), ("x",))
    out = {}

    def mesh_of(shape, names):
        return Mesh(np.array(devs[:int(np.prod(shape))]).reshape(shape), names)

    def layout(shape, names, spec, ashape):
        s = NamedSharding(mesh_of(shape, names), P(*spec))
        x = M.device_put(jnp.arange(float(np.prod(ashape))).reshape(ashape), s)
        return {"repr": repr(x.sharding), "shard_shape": list(s.shard_shape(ashape)),
                "fully_replicated": s.is_fully_replicated, "committed": x.committed,
                "num_devices": s.num_devices,
                "shards": [[sh.device.id, _index(sh.index), sh.replica_id,
                            np.asarray(sh.data).tolist()] for sh in x.addressable_shards],
                "global": len(x.global_shards),
                "devices": sorted(d.id for d in x.devices())}

    for name, args in LAYOUTS.items():
        out[f"layout_{name}"] = lambda args=args: layout(*args)

    def x2(spec=("x",), shape=(4, 4)):
        return M.device_put(jnp.arange(16.0).reshape(shape), NamedSharding(mesh2, P(*spec)))

    # reprs and equality
    out["repr_single"] = lambda: repr(S.SingleDeviceSharding(devs[1]))
    out["repr_abstract"] = lambda: repr(NamedSharding(mesh2.abstract_mesh, P("x")))
    out["eq_trailing_none"] = lambda: [NamedSharding(mesh2, P("x")) == NamedSharding(
        mesh2, P("x", None)), NamedSharding(mesh2, P("x")).is_equivalent_to(
        NamedSharding(mesh2, P("x", None)), 2)]
    out["uncommitted"] = lambda: [repr(jnp.ones(3).sharding), jnp.ones(3).committed]
    out["single_device_put"] = lambda: [repr(M.device_put(jnp.ones(3), devs[2]).sharding),
                                        M.device_put(jnp.ones(3), devs[2]).committed]
    out["device_of_sharded"] = lambda: repr(x2().device)
    out["device_get"] = lambda: [type(M.device_get(x2())).__name__,
                                 M.device_get(x2()).tolist()]
    out["pytree_put"] = lambda: [repr(v.sharding) for v in M.device_put(
        (jnp.ones(4), jnp.ones(4)), (NamedSharding(mesh1, P("x")), None))]
    # errors
    out["err_indivisible"] = lambda: M.device_put(jnp.ones((3, 2)),
                                                  NamedSharding(mesh1, P("x")))
    out["err_rank"] = lambda: M.device_put(jnp.ones(4), NamedSharding(mesh2, P("x", "y")))
    out["err_unknown_axis"] = lambda: NamedSharding(mesh2, P("z"))
    out["err_duplicate_axis"] = lambda: NamedSharding(mesh2, P("x", "x"))
    out["err_not_a_device"] = lambda: M.device_put(jnp.ones(2), 3)
    out["err_two_devices"] = lambda: M.device_put(jnp.ones(4), devs[1]) + M.device_put(
        jnp.ones(4), devs[2])
    # results' shardings, eager and under jit
    ops = {
        "add": lambda a: a + 1, "sin": jnp.sin, "sum0": lambda a: a.sum(0),
        "sum1": lambda a: a.sum(1), "sum": lambda a: a.sum(), "matmul": lambda a: a @ a,
        "T": lambda a: a.T, "argmax1": lambda a: jnp.argmax(a, 1),
        "row": lambda a: a[0], "mul_vec": lambda a: a * jnp.ones(4),
        "reshape": lambda a: a.reshape(16), "expand": lambda a: a[None] + 1,
    }
    for name, op in ops.items():
        out[f"eager_{name}"] = lambda op=op: [_spec_text(op(x2()).sharding),
                                              np.asarray(op(x2())).tolist()]
        out[f"jit_{name}"] = lambda op=op: [_spec_text(M.jit(op)(x2()).sharding),
                                            np.asarray(M.jit(op)(x2())).tolist()]
    out["jit_keeps_spec"] = lambda: _spec_text(M.jit(lambda a: a * 2)(x2(("x", None))).sharding)
    out["jit_constant"] = lambda: repr(M.jit(lambda a: jnp.ones(3))(x2()).sharding)
    out["jit_out_shardings"] = lambda: repr(M.jit(
        lambda a: a * 2, out_shardings=NamedSharding(mesh2, P("y")))(x2()).sharding)
    out["jit_out_tuple"] = lambda: [repr(r.sharding) for r in M.jit(
        lambda a, b: (a + b, a.sum()), out_shardings=(NamedSharding(mesh2, P("x")), None))(
        x2(), x2())]
    out["jit_in_shardings_numpy"] = lambda: [repr(r.sharding) for r in [M.jit(
        lambda a: a + 1, in_shardings=NamedSharding(mesh2, P("x")))(
        np.ones((4, 4), np.float32))]]
    out["jit_out_spec_with_mesh"] = lambda: _with_mesh(M, mesh2, lambda: repr(M.jit(
        lambda a: a * 2, out_shardings=P("y"))(x2()).sharding))
    out["err_jit_in_mismatch"] = lambda: M.jit(
        lambda a: a * 2, in_shardings=NamedSharding(mesh2, P("y")))(x2())
    out["err_jit_in_length"] = lambda: M.jit(
        lambda a, b: a * 2, in_shardings=(NamedSharding(mesh2, P()),))(x2(), x2())
    out["err_jit_out_spec_no_mesh"] = lambda: M.jit(lambda a: a * 2,
                                                    out_shardings=P("x"))(x2())
    out["err_jit_leaf"] = lambda: M.jit(lambda a: a, in_shardings=3)(x2())
    out["err_jit_out_indivisible"] = lambda: M.jit(
        lambda a: a, out_shardings=NamedSharding(mesh2, P("x")))(jnp.ones(3))
    out["err_jit_two_devices"] = lambda: M.jit(lambda p, q: p + q)(
        M.device_put(jnp.ones(4), devs[1]), M.device_put(jnp.ones(4), devs[2]))
    # with_sharding_constraint and reshard
    wsc = lax.with_sharding_constraint
    sx = NamedSharding(mesh2, P("x"))
    out["wsc_jaxpr"] = lambda: str(M.make_jaxpr(lambda a: wsc(a * 2, sx))(x2()))
    out["wsc_jaxpr_set_mesh"] = lambda: _with_mesh(M, mesh2, lambda: str(M.make_jaxpr(
        lambda a: wsc(a * 2, P("x")))(x2())))
    out["wsc_jaxpr_vmap"] = lambda: str(M.make_jaxpr(M.vmap(lambda a: wsc(a * 2, sx)))(
        x2()))
    out["wsc_eager"] = lambda: repr(wsc(x2((None, "y")), sx).sharding)
    out["wsc_jit_uncommitted"] = lambda: repr(M.jit(lambda a: wsc(a * 2, sx))(
        jnp.ones((4, 4))).sharding)
    out["wsc_grad"] = lambda: np.asarray(M.grad(lambda a: (wsc(a * a, sx)).sum())(
        x2())).tolist()
    out["wsc_vmap_value"] = lambda: np.asarray(M.vmap(lambda a: wsc(a * 2, sx))(
        x2())).tolist()
    out["err_wsc_spec_no_mesh"] = lambda: wsc(x2(), P("x"))
    out["reshard_named"] = lambda: repr(S.reshard(x2(), NamedSharding(mesh2, P("y")))
                                        .sharding)
    out["reshard_explicit"] = lambda: _reshard_explicit(M)
    out["err_reshard_spec_no_mesh"] = lambda: S.reshard(x2(), P("y"))
    # arrays from blocks
    out["from_callback"] = lambda: _from(M.make_array_from_callback(
        (4, 2), sx, lambda i: np.arange(8.0).reshape(4, 2)[i]))
    out["from_single_device_arrays"] = lambda: _from(M.make_array_from_single_device_arrays(
        (4, 2), sx, [M.device_put(np.full((2, 2), i, np.float32), d)
                     for i, d in enumerate(devs)]))
    out["from_process_local_data"] = lambda: _from(M.make_array_from_process_local_data(
        sx, np.arange(8.0).reshape(4, 2)))
    out["err_from_callback_shape"] = lambda: M.make_array_from_callback(
        (4, 2), sx, lambda i: np.zeros((3, 2)))
    return out


def _reshard_explicit(M):
    S = M.sharding
    mesh = M.make_mesh((2, 2), ("x", "y"))  # Explicit axes: reshard accepts them
    x = M.device_put(M.numpy.arange(16.0).reshape(4, 4), S.NamedSharding(mesh, S.PartitionSpec("x")))
    y = S.reshard(x, S.NamedSharding(mesh, S.PartitionSpec("y")))
    return [repr(y.sharding), np.asarray(y).tolist()]


def _from(x) -> list:
    return [repr(x.sharding), x.dtype.name, np.asarray(x).tolist()]


def _with_mesh(M, mesh, fn):
    with M.sharding.set_mesh(mesh):
        return fn()

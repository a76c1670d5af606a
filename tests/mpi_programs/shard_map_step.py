"""A ``shard_map`` over every device of the run: a data-parallel training step (psum,
pmean), all_gather, axis_index, pmax, ppermute, psum_scatter and all_to_all, eager and
under jit. Run alone with ``JAX_NUM_CPU_DEVICES=N`` or under ``mpirun -n P`` with
``JAX_NUM_CPU_DEVICES=N/P``: every layout of the same N devices must print the same JSON
(float bits included), which ``tests/test_shard_map_processes.py`` checks.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))

import numpy as np  # noqa: E402

import transpile as jax  # noqa: E402
import transpile.numpy as jnp  # noqa: E402
from transpile.experimental import multihost_utils  # noqa: E402
from transpile.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

if "OMPI_COMM_WORLD_SIZE" in os.environ or "PMI_SIZE" in os.environ:
    jax.distributed.initialize()
mesh = Mesh(np.array(jax.devices()), ("data",))
n = mesh.size


def loss(params, x, y):
    w, b = params
    return jnp.mean((jnp.tanh(x @ w + b) - y) ** 2)


def local_step(params, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    grads = jax.lax.pmean(grads, "data")
    return jax.lax.pmean(value, "data"), jax.tree.map(lambda p, g: p - 0.5 * g, params,
                                                      grads)


step = jax.shard_map(local_step, mesh=mesh, in_specs=(P(), P("data"), P("data")),
                     out_specs=(P(), P()))


def extras(x):
    gathered = jax.lax.all_gather(jnp.sum(x, axis=0), "data")      # (n, 3), each device's
    idx = jax.lax.axis_index("data")
    ring = jax.lax.ppermute(x, "data", [(i, (i + 1) % n) for i in range(n)])
    scattered = jax.lax.psum_scatter(x[:n], "data", tiled=True)     # (1, 3) per device
    swapped = jax.lax.all_to_all(x[:n], "data", 0, 0, tiled=True)
    return (gathered, jax.lax.psum(idx, "data"), jax.lax.pmax(jnp.max(x) * (idx + 1), "data"),
            ring, scattered, swapped)


more = jax.shard_map(extras, mesh=mesh, in_specs=P("data"),
                     out_specs=(P(), P(), P(), P("data"), P("data"), P("data")),
                     check_vma=False)   # all_gather gives a varying value

rng = np.random.default_rng(0)
params = (rng.standard_normal((3, 2)).astype(np.float32), np.zeros(2, np.float32))
x = rng.standard_normal((8 * n, 3)).astype(np.float32)
y = np.tanh(x @ np.array([[1.0, -2.0], [0.5, 0.25], [-1.0, 3.0]], np.float32))
rows = NamedSharding(mesh, P("data"))
per = len(x) // jax.process_count()
lo = jax.process_index() * per
x_g = jax.make_array_from_process_local_data(rows, x[lo:lo + per], x.shape)
y_g = jax.make_array_from_process_local_data(rows, y[lo:lo + per], y.shape)


def whole(a) -> np.ndarray:
    """All of ``a``: gathered from the processes holding its blocks where needed."""
    if getattr(a, "is_fully_addressable", True):
        return np.asarray(a)
    return multihost_utils.process_allgather(a)


def bits(a) -> list:
    a = whole(a)
    return [a.dtype.name, list(a.shape), a.view(f"u{a.dtype.itemsize}").ravel().tolist()]


out = {"devices": n}
for how, f, g in (("eager", step, more), ("jit", jax.jit(step), jax.jit(more))):
    p = params
    for k in range(3):
        value, p = f(p, x_g, y_g)
        out[f"{how}_loss{k}"] = bits(value)
    out[f"{how}_params"] = [bits(q) for q in p]
    out[f"{how}_extras"] = [bits(e) for e in g(x_g)]
out["gathered_whole"] = bool(np.array_equal(whole(x_g), x))


def refused(fn, error, text) -> bool:
    try:
        fn()
    except error as e:
        return text in str(e)
    return False


# reading a whole array some of whose rows live in another process is JAX's error
out["fetch_refused"] = x_g.is_fully_addressable or refused(
    lambda: np.asarray(x_g), RuntimeError, "spans non-addressable")
# a process's data of the wrong shape for its block (alone: for the whole array)
out["wrong_block_refused"] = refused(
    lambda: jax.make_array_from_process_local_data(rows, x[:1], x.shape), ValueError,
    "local_data.shape" if jax.process_count() == 1 else "this process's block")
out["broadcast_from_0"] = int(multihost_utils.broadcast_one_to_all(
    np.int32(jax.process_index())))
multihost_utils.assert_equal(p, "the processes disagree")
multihost_utils.sync_global_devices("end")
if jax.process_index() == 0:
    print(json.dumps(out))

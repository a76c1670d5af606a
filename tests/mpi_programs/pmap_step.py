"""``pmap`` over every device of the run: each process passes one block per local
device, the collectives span every process's devices (psum, pmean, pmax, all_gather,
axis_index, ppermute, psum_scatter, all_to_all, grouped psum and all_gather), and a
data-parallel training step (grad, pmean). Run alone with ``JAX_NUM_CPU_DEVICES=N`` or
under ``mpirun -n P`` with ``JAX_NUM_CPU_DEVICES=N/P``: every layout of the same N
devices must print the same JSON (float bits included), which
``tests/test_pmap_processes.py`` checks. With ``PMAP_STEP_JAX=1`` it runs JAX instead
(``tools/record_pmap_processes.py``).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))

import numpy as np  # noqa: E402

if os.environ.get("PMAP_STEP_JAX") == "1":
    import jax  # noqa: E402
    from jax.experimental import multihost_utils  # noqa: E402
else:
    import transpile as jax  # noqa: E402
    from transpile.experimental import multihost_utils  # noqa: E402
jnp = jax.numpy
lax = jax.lax

if "OMPI_COMM_WORLD_SIZE" in os.environ or "PMI_SIZE" in os.environ:
    jax.distributed.initialize()
local = jax.local_device_count()
n = jax.device_count()
start = jax.process_index() * local
rng = np.random.default_rng(0)
x = (rng.standard_normal((n, 4, 3)) * 10.0 ** rng.integers(-2, 3, (n, 4, 3))).astype(
    np.float32)
mine = x[start:start + local]
# groups of the pmap axis: pairs across the processes' halves, members out of order
groups = [[i + n // 2, i] for i in range(n // 2)]


def collectives(v):
    idx = lax.axis_index("i")
    return (lax.psum(v, "i"), lax.pmean(v, "i"), lax.pmax(v * (idx + 1), "i"),
            lax.all_gather(v[0], "i"), idx,
            lax.ppermute(v, "i", [(k, (k + 1) % n) for k in range(n)]),
            lax.psum_scatter(v[:2].repeat(n // 2, 0), "i", tiled=True),
            lax.all_to_all(v[:2].repeat(n // 2, 0), "i", 0, 0, tiled=True),
            lax.psum(v, "i", axis_index_groups=groups),
            lax.all_gather(v[0], "i", axis_index_groups=groups))


def loss(w, v):
    return jnp.mean(jnp.tanh(v @ w) ** 2)


def step(w, v):
    value, g = jax.value_and_grad(loss)(w, v)
    return lax.pmean(value, "i"), w - 0.5 * lax.pmean(g, "i")


def exact(a) -> list:
    a = np.asarray(a)
    return [a.dtype.name, list(a.shape), a.view(f"u{a.dtype.itemsize}").ravel().tolist()]


def bits(a) -> list:
    """All of a mapped pmap output: every process's blocks, in process order."""
    a = np.asarray(a)
    if jax.process_count() > 1:
        a = np.asarray(multihost_utils.process_allgather(a, tiled=True))
    return exact(a)


out = {"devices": n}
outs = jax.pmap(collectives, axis_name="i")(mine)
out["collectives"] = [bits(o) for o in outs]
w = np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape(3, 2)
train = jax.pmap(step, axis_name="i", in_axes=(None, 0), out_axes=(None, None))
for k in range(2):
    value, w = train(w, mine)
    out[f"loss{k}"] = exact(value)   # out_axes None: the same in every process
out["params"] = exact(w)

try:  # a mapped size other than the local device count
    jax.pmap(lambda v: v)(np.zeros((local + 1, 2), np.float32))
    out["wrong_size_refused"] = False
except ValueError:
    out["wrong_size_refused"] = True


# a shard_map over two mesh axes, one of which spans the processes (the outer one, then
# the inner one where the layout allows), with collectives over both
def two_axes(v):
    return (lax.psum(v, ("i", "j"), axis_index_groups=groups),
            lax.all_gather(v[0], ("j", "i"), axis_index_groups=groups)[None],
            lax.ppermute(v, ("j", "i"), [(k, (k + 1) % n) for k in range(n)]),
            lax.axis_index(("j", "i"))[None],
            lax.psum_scatter(v[0, :2].repeat(n // 2, 0), ("i", "j"), tiled=True)[None])


def whole(a) -> np.ndarray:
    if getattr(a, "is_fully_addressable", True):
        return np.asarray(a)
    return np.asarray(multihost_utils.process_allgather(a))


P = jax.sharding.PartitionSpec
for label, shape in (("outer", (2, n // 2)), ("inner", (n // 2, 2))):
    mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(shape), ("i", "j"))
    rows = jax.sharding.NamedSharding(mesh, P(("i", "j")))
    x_g = jax.make_array_from_process_local_data(rows, mine, x.shape)
    f = jax.shard_map(two_axes, mesh=mesh, in_specs=P(("i", "j")),
                      out_specs=P(("i", "j")), check_vma=False)
    out[f"two_axes_{label}"] = [exact(whole(o)) for o in jax.jit(f)(x_g)]
if jax.process_index() == 0:
    print(json.dumps(out))

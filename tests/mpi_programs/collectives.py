"""Run under ``mpirun -n 2`` (or any number of processes): every process collective, eager and under jit (and grad,
vmap), against the NumPy answer each process computes from every process's operand.
Writes (into the folder given as argument, else prints) one JSON text per process: ``{"rank":..., "checks": {name: [ok, detail]},
"ranks": {process index and count, devices}}``.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))

import numpy as np  # noqa: E402

import transpile as jax  # noqa: E402
import transpile.numpy as jnp  # noqa: E402
from transpile.lax import process_collectives as pc  # noqa: E402

jax.config.update("jax_num_cpu_devices", 2)
jax.distributed.initialize()
rank, size = jax.process_index(), jax.process_count()
checks = {}


def check(name, got, want, exact=True):
    got = np.asarray(got)
    want = np.asarray(want)
    ok = got.shape == want.shape and got.dtype == want.dtype and (
        np.array_equal(got, want) if exact else np.allclose(got, want, rtol=1e-5))
    checks[name] = [bool(ok), f"got {got.dtype}{list(got.shape)} want "
                              f"{want.dtype}{list(want.shape)}"]


def operand(r, shape=(5, 6), dtype=np.float32):
    """Process r's operand: values of every magnitude, so the order of a sum shows."""
    rng = np.random.default_rng(100 + r)
    return (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)).astype(dtype)


xs = [operand(r) for r in range(size)]
# shapes whose first axis splits into one chunk per process (alltoall), for any count
ints = [np.arange(6 * size, dtype=np.int32).reshape(2 * size, 3) * (r + 1) - 7
        for r in range(size)]
x = xs[rank]

# compared by the test with JAX 0.10.2's run of two processes (tests/data/distributed.json)
ranks = {"process_index": rank, "process_count": size,
         "devices": [[d.id, d.process_index, repr(d)] for d in jax.devices()],
         "local_devices": [d.id for d in jax.local_devices()]}
checks["mpi_rank"] = [rank == int(os.environ.get("OMPI_COMM_WORLD_RANK", rank)), ""]
checks["is_initialized"] = [jax.distributed.is_initialized(), ""]


def fold(blocks, fn):
    out = blocks[0].copy()
    for b in blocks[1:]:
        out = fn(out, b)
    return out


for name, op, fn in (("sum", "sum", np.add), ("max", "max", np.maximum),
                     ("min", "min", np.minimum)):
    f = lambda v, op=op: pc.process_allreduce(v, op)  # noqa: E731
    check(f"allreduce_{name}_eager", f(x), fold(xs, fn))
    check(f"allreduce_{name}_jit", jax.jit(f)(x), fold(xs, fn))
    check(f"allreduce_{name}_int32_jit", jax.jit(f)(ints[rank]), fold(ints, fn))
# an odd element count: the reduce-scatter pads its last slice
odd = [operand(r, (7,)) for r in range(size)]
check("allreduce_sum_odd_jit", jax.jit(pc.process_allreduce)(odd[rank]), fold(odd, np.add))
check("allreduce_sum_f64_jit",
      jax.jit(pc.process_allreduce)(np.float64(rank + 0.25)),
      np.asarray(sum(r + 0.25 for r in range(size)), np.float32))

check("allgather_eager", pc.process_allgather(x), np.stack(xs))
check("allgather_jit", jax.jit(pc.process_allgather)(x), np.stack(xs))

ring = [(r, (r + 1) % size) for r in range(size)]
check("ppermute_ring_eager", pc.process_ppermute(x, ring), xs[(rank - 1) % size])
check("ppermute_ring_jit", jax.jit(lambda v: pc.process_ppermute(v, ring))(x),
      xs[(rank - 1) % size])
half = [(0, 1)]
want = xs[0] if rank == 1 else np.zeros_like(x)
check("ppermute_half_jit", jax.jit(lambda v: pc.process_ppermute(v, half))(x), want)


def alltoall_want(blocks, axis):
    parts = [np.split(b, size, axis=axis) for b in blocks]
    return np.concatenate([parts[src][rank] for src in range(size)], axis=axis)


for axis in (0, 1):
    g = lambda v, axis=axis: pc.process_alltoall(v, axis)  # noqa: E731
    y = [np.arange(6 * size * size, dtype=np.float32).reshape(2 * size, 3 * size) + 100 * r
         for r in range(size)]
    check(f"alltoall_axis{axis}_eager", g(y[rank]), alltoall_want(y, axis))
    check(f"alltoall_axis{axis}_jit", jax.jit(g)(y[rank]), alltoall_want(y, axis))

# grad: d/dx_r sum_q sum(allreduce(x)^2) = 2 * size * allreduce(x)
loss = lambda v: jnp.sum(pc.process_allreduce(v) ** 2)  # noqa: E731
total = fold(xs, np.add)
check("grad_allreduce_jit", jax.jit(jax.grad(loss))(x),
      (2 * size * total).astype(np.float32), exact=False)
# allgather's transpose: process r's cotangent is sum over q of q's slice r
w = np.arange(1, size + 1, dtype=np.float32)
gl = lambda v: jnp.sum(pc.process_allgather(v) * w[:, None, None] * (rank + 1))  # noqa
want = np.full_like(x, float(w[rank] * sum(q + 1 for q in range(size))))
check("grad_allgather_jit", jax.jit(jax.grad(gl))(x), want, exact=False)
check("vmap_allreduce_jit", jax.jit(jax.vmap(pc.process_allreduce))(x), fold(xs, np.add))
check("vmap_alltoall_jit", jax.jit(jax.vmap(lambda v: pc.process_alltoall(v, 0), 1, 1))(
    ints[rank]), alltoall_want(ints, 0))

jax.distributed.shutdown()
result = json.dumps({"rank": rank, "checks": checks, "ranks": ranks})
if len(sys.argv) > 1:  # one file per process: their standard outputs may interleave
    with open(os.path.join(sys.argv[1], f"result_rank{rank}.json"), "w") as f:
        f.write(result)
else:
    print(result, flush=True)

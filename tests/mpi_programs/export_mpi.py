"""Run under ``mpirun -n 2`` with an output folder: process 0 exports ``step`` (process
collectives among elementwise work) as standalone C into the folder, and every process
writes its jitted outputs' bytes there (``jit_rank<r>_out<i>.bin``) for the C program to
match bit for bit. Inputs: ``x[i] = (float)((i % 7) + rank) * 0.37f``, as the C driver
makes them."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))

import numpy as np  # noqa: E402

import transpile as jax  # noqa: E402
import transpile.numpy as jnp  # noqa: E402
from transpile.lax import process_collectives as pc  # noqa: E402
from transpile.sharding import Mesh, PartitionSpec as P  # noqa: E402

jax.distributed.initialize()
rank, size = jax.process_index(), jax.process_count()
out_dir = sys.argv[1]
SHAPE = (6, 5)


# a shard_map over every process's device: each process's rows of its x, summed over
# the processes (its offset into x is read when the program runs, so rank 0's export
# serves every rank)
mesh = Mesh(np.array(jax.devices()), ("p",))
rows = jax.shard_map(lambda v: jax.lax.psum(jnp.cos(v), "p"), mesh=mesh,
                     in_specs=P("p"), out_specs=P())


def step(x):
    total = pc.process_allreduce(jnp.sin(x) * 3.0)           # a deterministic sum
    gathered = pc.process_allgather(x[0])                     # [size, 5]
    shifted = pc.process_ppermute(x, [(r, (r + 1) % size) for r in range(size)])
    swapped = pc.process_alltoall(x * 2.0, axis=0)
    peak = pc.process_allreduce(jnp.max(x, axis=1), "max")
    return total + shifted, gathered, swapped, peak, rows(x)


x = ((np.arange(np.prod(SHAPE)) % 7 + rank).astype(np.float32)
     * np.float32(0.37)).reshape(SHAPE)
outs = jax.jit(step)(x)
for i, o in enumerate(outs):
    np.asarray(o).tofile(os.path.join(out_dir, f"jit_rank{rank}_out{i}.bin"))
if rank == 0:
    exported = jax.export_c(jax.jit(step), jax.ShapeDtypeStruct(SHAPE, np.float32),
                            name="step", out_dir=out_dir)
    meta = {"outputs": [[list(np.shape(o)), str(np.asarray(o).dtype)] for o in outs],
            "files": [p.name for p in exported.files]}
    with open(os.path.join(out_dir, "meta.json"), "w") as f:
        json.dump(meta, f)
jax.distributed.shutdown()
print(json.dumps({"rank": rank, "ok": True}), flush=True)

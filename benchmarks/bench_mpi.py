"""One sum over 2 processes of 1M float32: transpile's compiled ``process_allreduce``
(deterministic: an alltoall, a fold in process order, an allgather) against mpi4py's own
``Allreduce`` (MPI's order), and the eager path (mpi4py Allgather and a NumPy fold).

Run (from the repository root)::

    mpirun -n 2 python -m mpi4py benchmarks/bench_mpi.py

(``--allow-run-as-root --oversubscribe`` as root on a 2-core machine). Process 0 prints
medians of ``REPEATS`` calls, each started together (a barrier before each).
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import transpile as jax  # noqa: E402
from transpile.lax import process_collectives as pc  # noqa: E402

N = 1 << 20
REPEATS = 200
ROUNDS = 10


def median_times(contenders, comm) -> list:
    """Median seconds per contender: rounds of ``REPEATS // ROUNDS`` calls of each in
    turn, in an order that rotates from round to round (so a change in the machine's load
    hits all alike), each call started together
    (a barrier), and of the two processes the slower one's median."""
    times = {name: [] for name, _ in contenders}
    for r in range(ROUNDS):
        # a rotating order: whichever runs right after another contender's calls (with
        # MPI's progress threads and caches in that one's state) changes every round
        for name, fn in contenders[r % len(contenders):] + contenders[:r % len(contenders)]:
            for _ in range(REPEATS // ROUNDS):
                comm.Barrier()
                t0 = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - t0)
    local = np.array([np.median(times[name]) for name, _ in contenders])
    out = np.empty_like(local)
    comm.Allreduce(local, out, op=_mpi().MAX)
    return [(name, float(t)) for (name, _), t in zip(contenders, out)]


def _mpi():
    from mpi4py import MPI
    return MPI


def main() -> None:
    jax.distributed.initialize()
    comm = _mpi().COMM_WORLD
    rank = comm.Get_rank()
    x = (np.random.default_rng(rank).standard_normal(N)).astype(np.float32)
    out = np.empty_like(x)

    f = jax.jit(pc.process_allreduce)
    xa = jax.numpy.asarray(x)
    jitted = f(xa)
    comm.Allreduce(x, out, op=_mpi().SUM)
    same_as_mpi = bool(np.array_equal(np.asarray(jitted), out))  # 2 processes: a + b

    def run_jit():
        f(xa).block_until_ready()

    def run_mpi4py():
        comm.Allreduce(x, out, op=_mpi().SUM)

    def run_mpi4py_alloc():
        comm.Allreduce(x, np.empty_like(x), op=_mpi().SUM)

    def run_eager():
        pc.process_allreduce(xa).block_until_ready()

    results = median_times([
        ("mpi4py Allreduce (output preallocated)", run_mpi4py),
        ("mpi4py Allreduce (fresh output)", run_mpi4py_alloc),
        ("transpile jit(process_allreduce)", run_jit),
        ("transpile eager process_allreduce", run_eager)], comm)
    if rank == 0:
        print(f"process_allreduce(sum) of {N} float32 over {comm.Get_size()} processes "
              f"(median of {REPEATS} in {ROUNDS} rounds, slower process)")
        base = results[0][1]
        for name, t in results:
            print(f"  {name:42s} {t * 1e3:8.3f} ms  ({t / base:.2f}x mpi4py)")
        print(f"  jitted result equals MPI_Allreduce's bit for bit: {same_as_mpi}")
    jax.distributed.shutdown()


if __name__ == "__main__":
    main()

"""Issue 24: a data-parallel MLP training step (784-512-10, batch 128, SGD) as a
``shard_map`` over 2 CPU devices (pmean of the gradients) against the same step under
plain ``jit`` on one device, transpile and JAX in one process. The two devices share
this machine's 2 cores, so the split cannot be faster than one device using both: the
figure is what the split costs.

Run from the repository root with an interpreter that has JAX (``$JAX_PYTHON``)::

    JAX_NUM_CPU_DEVICES=2 PYTHONPATH=. $JAX_PYTHON benchmarks/bench_spmd.py [--hog]

``--hog`` runs it with a busy-loop process pinned to one core (``bench_busy``).

Medians of interleaved calls (``bench_busy._medians``); ratios are JAX time /
transpile time (above 1: transpile is faster) and 1-device time / 2-device time.
"""
from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_backend import _ready, jax, jnp, tnp, tp  # noqa: E402
from bench_busy import _medians, _mlp_step, _start_hog  # noqa: E402


def _steps(lib, np_):
    """``(one device, two devices)`` jitted steps of ``lib``."""
    step = _mlp_step(np_, lib.nn, lib.value_and_grad)
    P = lib.sharding.PartitionSpec
    mesh = lib.sharding.Mesh(np.array(lib.devices()[:2]), ("data",))

    def local(params, x, y):
        # each device's step on its half of the batch (the replicated parameters'
        # gradients are summed over the devices, as JAX defines them), then the mean
        value, new = step(params, x, y)
        return lib.lax.pmean(value, "data"), lib.lax.pmean(new, "data")
    split = lib.shard_map(local, mesh=mesh, in_specs=(P(), P("data"), P("data")),
                          out_specs=(P(), P()))
    return lib.jit(step), lib.jit(split)


def _blocked(fn, args):
    def run():
        for leaf in jax.tree_util.tree_leaves(fn(*args)):
            _ready(leaf)
    return run


def main() -> None:
    if jax is None:
        sys.exit("bench_spmd needs JAX: run it with $JAX_PYTHON (see the docstring)")
    if len(tp.devices()) < 2 or len(jax.devices()) < 2:
        sys.exit("run with JAX_NUM_CPU_DEVICES=2 (see the docstring)")
    rng = np.random.default_rng(0)
    params = (rng.standard_normal((784, 512)).astype(np.float32) * 0.05,
              np.zeros(512, np.float32),
              rng.standard_normal((512, 10)).astype(np.float32) * 0.05,
              np.zeros(10, np.float32))
    x = rng.random((128, 784), dtype=np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 128)]
    args = (params, x, y)
    jargs = jax.tree_util.tree_map(jnp.asarray, args)
    t1, t2 = _steps(tp, tnp)
    j1, j2 = _steps(jax, jnp)
    for a, b in ((t1(*args), j1(*jargs)), (t2(*args), j2(*jargs))):
        for g, w in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)):
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=2e-3, atol=2e-4)
    ts = _medians([_blocked(t1, args), _blocked(t2, args), _blocked(j1, jargs),
                   _blocked(j2, jargs)])
    print(f"{'MLP train step':24s} {'transpile':>10s} {'JAX':>10s} {'JAX/ours':>9s}")
    for k, label in enumerate(("1 device (jit)", "2 devices (shard_map)")):
        print(f"{label:24s} {ts[k] * 1e3:7.3f} ms {ts[k + 2] * 1e3:7.3f} ms "
              f"{ts[k + 2] / ts[k]:8.2f}x")
    print(f"{'1 device / 2 devices':24s} {ts[0] / ts[1]:9.2f}x {ts[2] / ts[3]:9.2f}x")


if __name__ == "__main__":
    if "--hog" in sys.argv[1:]:
        hog = _start_hog()
        try:
            main()
        finally:
            hog.kill()
            hog.wait()
    else:
        main()

"""The properties set beside each primitive's definition (``core.Primitive``): cost,
effects, in-place updates and subnormal flushing, against what the rules do."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import core
from transpile.codegen.cost import cost_analysis
from transpile.lax import elementwise as ew
from transpile.lax import indexing, structural
from transpile.passes import optimize


def test_every_cost_is_known():
    bad = [p.name for p in core.primitives.values() if p.cost not in core.Cost.ALL]
    assert not bad


@pytest.mark.parametrize("prim, cost", [
    (ew.add_p, core.Cost.ARITH), (ew.exp_p, core.Cost.TRANSCENDENTAL),
    (ew.div_p, core.Cost.DIVIDE), (ew.sqrt_p, core.Cost.DIVIDE),
    (structural.broadcast_in_dim_p, core.Cost.FREE), (indexing.gather_p, core.Cost.FREE),
    (indexing.scatter_add_p, core.Cost.ARITH)])
def test_costs(prim, cost):
    assert prim.cost == cost
    assert prim.expensive == (cost in (core.Cost.DIVIDE, core.Cost.TRANSCENDENTAL))


def test_cost_analysis_counts_by_cost():
    x = np.ones((4, 8), np.float32)
    closed = optimize(jax.make_jaxpr(lambda x: jnp.exp(x) + jnp.broadcast_to(x[0], x.shape))(x))
    got = cost_analysis(closed)
    # exp and add: one flop per element each; the broadcast and slice move data only
    assert got["flops"] == 64 and got["transcendentals"] == 32


def test_effects_and_updates():
    names = {p.name for p in core.primitives.values() if p.effectful}
    # process collectives: every process must run the same ones in the same order
    assert names == {"debug_print", "debug_callback", "io_callback", "process_allreduce",
                     "process_allgather", "process_ppermute", "process_alltoall",
                     "process_index"}
    updates = {p.name for p in core.primitives.values() if p.updates_in_place}
    assert updates == {"scatter", "scatter-add", "scatter-sub", "scatter-mul", "scatter-min",
                       "scatter-max", "dynamic_update_slice"}


def test_unused_effectful_equation_is_kept():
    def f(x):
        jax.debug.print("x={}", x)
        return x + 1
    closed = optimize(jax.make_jaxpr(f)(np.float32(1)))
    assert any(e.primitive.name == "debug_print" for e in closed.jaxpr.eqns)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unflushed_dtypes_match_the_numpy_rules(dtype):
    dt = np.dtype(dtype)
    tiny = np.array([np.finfo(dt).tiny / 4], dt)  # a subnormal
    for p in (ew.sin_p, ew.tan_p, ew.atan_p, ew.expm1_p, ew.tanh_p, ew.add_p, ew.mul_p):
        args = (tiny,) if p in (ew.sin_p, ew.tan_p, ew.atan_p, ew.expm1_p, ew.tanh_p) \
            else (tiny, np.ones_like(tiny) if p is ew.mul_p else np.zeros_like(tiny))
        kept = bool(np.asarray(p.impl(*args))[0] != 0)
        assert kept == (dt in p.unflushed_dtypes), (p.name, dt)
    assert ew.tanh_p.unflushed_dtypes == frozenset({np.dtype(np.float32)})

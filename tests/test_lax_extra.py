"""The ``jax.lax`` long tail (``lax/bits.py``, ``lax/extra.py``) against JAX 0.10.2's
recorded answers (``tests/data/lax_extra.json``, calls in ``lax_extra_cases.py``): exact
values, dtypes, weak types and shapes, eager and under ``jit``; JAX's errors and jaxprs;
derivatives and batching of the new primitives against their definitions."""
from __future__ import annotations

import numpy as np
import pytest

try:
    import jaxpr_cases
    import lax_extra_cases as cases
except ImportError:  # collected as a package
    from tests import jaxpr_cases
    from tests import lax_extra_cases as cases

import transpile as jax
import transpile.numpy as jnp
from transpile.config import enable_x64
from transpile import lax, tree_util

DATA = jaxpr_cases.load_data("lax_extra.json")
CALLS = cases.calls()
IDS = [f"{i}-{c[0]}" for i, c in enumerate(CALLS)]
#: calls with array operands only, also run under jit (the rest take static arguments)
_JIT_OK = {"clz", "population_count", "mulhi", "batch_matmul", "ragged_dot", "reciprocal",
           "optimization_barrier", "eq_to", "le_to", "lt_to"}


@pytest.fixture(autouse=True)
def _x64():
    with enable_x64(True):
        yield


def _check(out, rec):
    leaves = tree_util.tree_leaves(out)
    assert len(leaves) == len(rec)
    for y, want in zip(leaves, rec, strict=True):
        a = np.asarray(y)
        assert str(a.dtype) == want["dtype"]
        assert list(a.shape) == want["shape"]
        assert bool(getattr(y, "weak_type", False)) == want["weak_type"]
        if a.dtype.kind == "f":
            expect = np.array([float(v) for v in want["values"]], a.dtype)
            np.testing.assert_array_equal(a.ravel(), expect)  # NaNs compare equal here
            got_bits = np.signbit(a.ravel())
            np.testing.assert_array_equal(got_bits, np.signbit(expect))
        else:
            np.testing.assert_array_equal(a.ravel().astype(object),
                                          np.array(want["values"], object))


@pytest.mark.parametrize("i", range(len(CALLS)), ids=IDS)
def test_eager_matches_jax(i):
    name, args, kwargs = CALLS[i]
    _check(cases.resolve(lax, name)(*[cases.make_arg(a, np, jnp) for a in args], **kwargs),
           DATA["calls"][i])


# one jitted program per primitive family and dtype kind keeps the compile count low
_JIT_IDS = [i for i, c in enumerate(CALLS) if c[0] in _JIT_OK][::3] + \
    [i for i, c in enumerate(CALLS) if c[0] == "reduce_precision" and c[1][1:] in
     ([5, 10], [4, 3], [1, 0])]


@pytest.mark.parametrize("i", _JIT_IDS, ids=[IDS[i] for i in _JIT_IDS])
def test_jit_matches_jax(i):
    name, args, kwargs = CALLS[i]
    made = [cases.make_arg(a, np, jnp) for a in args]
    fn = cases.resolve(lax, name)
    if name == "reduce_precision":
        e, m = made[1:]
        out = jax.jit(lambda x: fn(x, e, m))(made[0])
    else:
        out = jax.jit(lambda *xs: fn(*xs, **kwargs))(*made)
    _check(out, DATA["calls"][i])


@pytest.mark.parametrize("i", range(len(cases.ERROR_CALLS)),
                         ids=[c[0] for c in cases.ERROR_CALLS])
def test_errors_match_jax(i):
    name, args, kwargs = cases.ERROR_CALLS[i]
    kind, msg = DATA["errors"][i]
    with pytest.raises(getattr(__builtins__, kind, None) or Exception) as info:
        cases.resolve(lax, name)(*[cases.make_arg(a, np, jnp) for a in args], **kwargs)
    assert type(info.value).__name__ == kind
    assert str(info.value).split("\n")[0] == msg


@pytest.mark.parametrize("i", range(len(cases.JAXPR_CALLS)),
                         ids=[c[0] for c in cases.JAXPR_CALLS])
def test_jaxprs_match_jax(i):
    name, args = cases.JAXPR_CALLS[i]
    with enable_x64(False):
        made = [cases.make_arg(a, np, jnp) for a in args]
        arrays = [a for a in made if not isinstance(a, int)]
        statics = [a for a in made if isinstance(a, int)]
        fn = cases.resolve(lax, name)
        text = str(jax.make_jaxpr(lambda *xs: fn(*xs, *statics))(*arrays))
    assert text == DATA["jaxprs"][i]


def test_reduce_precision_is_linear():
    x, t = np.float32(1.1), np.float32(1.3)
    primal, tangent = jax.jvp(lambda v: lax.reduce_precision(v, 5, 3), (x,), (t,))
    assert float(primal) == 1.125 and float(tangent) == 1.25
    g = jax.grad(lambda v: lax.reduce_precision(v, 5, 3) * 3.3)(np.float32(2.0))
    assert float(g) == float(lax.reduce_precision(np.float32(3.3), 5, 3))


def test_integer_primitives_have_zero_tangents():
    def f(x):
        n = lax.population_count(lax.convert_element_type(x, np.int32))
        return x * lax.convert_element_type(n, x.dtype)
    assert float(jax.grad(f)(np.float64(3.0))) == 2.0  # popcount(3) = 2, held constant


def test_vmap_of_the_bit_primitives():
    x = jnp.asarray(np.arange(-6, 6).reshape(3, 4), np.int32)
    for fn in (lax.clz, lax.population_count):
        np.testing.assert_array_equal(jax.vmap(fn, 1, 1)(x), fn(x))
    np.testing.assert_array_equal(jax.vmap(lax.mulhi, (0, None))(x, x[0]),
                                  lax.mulhi(x, x[0][None]))
    f = jnp.asarray([[1.0001, 3.3], [2.5, 7e4]], np.float32)
    np.testing.assert_array_equal(jax.vmap(lambda v: lax.reduce_precision(v, 5, 2))(f),
                                  lax.reduce_precision(f, 5, 2))


def test_optimization_barrier_transforms():
    x = jnp.asarray([1.0, 2.0])
    assert jax.grad(lambda v: (lax.optimization_barrier(v) * 2).sum())(x).tolist() == [2, 2]
    a, b = jax.vmap(lambda v: lax.optimization_barrier((v, 2 * v)))(x)
    assert a.tolist() == [1, 2] and b.tolist() == [2, 4]
    _, t = jax.jvp(lambda v: lax.optimization_barrier(v), (x,), (x,))
    assert t.tolist() == [1, 2]


def test_unstack_transforms():
    x = jnp.asarray(np.arange(24.0).reshape(2, 3, 4))
    g = jax.grad(lambda v: lax.unstack(v, 1)[2].sum() * 2)(x)
    want = np.zeros((2, 3, 4))
    want[:, 2] = 2
    np.testing.assert_array_equal(g, want)
    outs = jax.vmap(lambda v: lax.unstack(v, 1), 2, 0)(x)
    for i, o in enumerate(outs):
        np.testing.assert_array_equal(o, np.moveaxis(np.asarray(x)[:, :, :], 2, 0)[:, :, i])


def test_approx_top_k_transforms():
    x = jnp.asarray(np.array([[3.0, 1.0, 2.0], [0.0, 5.0, -1.0]]))
    g = jax.grad(lambda v: lax.approx_max_k(v, 2)[0].sum())(x)
    np.testing.assert_array_equal(g, [[1, 0, 1], [1, 1, 0]])
    vals, idx = jax.vmap(lambda v: lax.approx_min_k(v, 1, reduction_dimension=0), 1)(x)
    assert vals.tolist() == [[0.0], [1.0], [-1.0]] and idx.tolist() == [[1], [0], [1]]
    jv, ji = jax.jit(lambda v: lax.approx_max_k(v, 1, reduction_dimension=0))(x)
    assert jv.tolist() == [[3.0, 5.0, 2.0]] and ji.tolist() == [[0, 1, 0]]


def test_ragged_dot_grad_matches_dense():
    lhs = jnp.asarray(np.arange(15.0).reshape(5, 3) / 7)
    rhs = jnp.asarray(np.arange(18.0).reshape(3, 3, 2) / 5 - 1)
    gs = jnp.asarray([2, 1, 2], np.int32)
    groups = np.repeat(np.arange(3), [2, 1, 2])
    dense = lambda l: jnp.einsum("mk,mkn->mn", l, rhs[groups]).sum()  # noqa: E731
    np.testing.assert_allclose(jax.grad(lambda l: lax.ragged_dot(l, rhs, gs).sum())(lhs),
                               jax.grad(dense)(lhs), rtol=1e-12)


def test_types_and_helpers():
    assert [m.name for m in lax.RandomAlgorithm] == ["RNG_DEFAULT", "RNG_THREE_FRY",
                                                      "RNG_PHILOX"]
    assert lax.DotAlgorithmPreset.F32_F32_F32.name == "F32_F32_F32"
    assert lax.DotAlgorithm("F32", "F32", "F32").num_primitive_operations == 1
    with pytest.raises(ValueError, match="At least one of atol"):
        lax.Tolerance()
    assert lax.Tolerance(atol=1e-3).atol == 1e-3
    assert [m.name for m in lax.AccuracyMode] == ["HIGHEST", "DEFAULT"]
    assert lax.dtype(1.0) == np.float64 and lax.dtype(np.int8(1)) == np.int8
    assert float(lax.stage(2.0)) == 2.0
    assert lax.dce_sink(jnp.ones(2)) is None
    assert isinstance(lax.after_all(lax.create_token()), lax.Token)
    assert float(lax.platform_dependent(0.5, cpu=jnp.sin, default=jnp.cos)) == \
        float(jnp.sin(0.5))
    assert float(lax.platform_dependent(0.5, default=jnp.cos)) == float(jnp.cos(0.5))
    twice = lax.composite(lambda v: v * 2, name="my.twice")
    assert float(twice(3.0)) == 6.0

"""Batching rules of control flow (``lax/control_flow_batching.py``), ``jit`` and the
custom-derivative primitives (``lax/call_batching.py``) and the PRNG
(``lax/keys_batching.py``).

Table-driven: ``vmap(f)`` with ``in_axes`` mixes equals a Python loop over the batch
(exactly), eagerly and under ``jit``; compositions with ``grad`` and ``jit``;
per-example gradients of a tiny MLP; and ``make_jaxpr(vmap(f))`` text and random
values against JAX 0.10.2 (``tests/data/vmap_control.json``, recorded by
``tools/record_vmap_control.py``).
"""
import json
import pathlib

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
import transpile.random  # noqa: F401
from transpile import lax

import vmap_control_cases

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "vmap_control.json")
                  .read_text())["cases"]
RECORDED = vmap_control_cases.cases(jax, np)


def _leaves(x):
    return [np.asarray(v) for v in jax.tree_util.tree_leaves(x)]


def loop(f, args, in_axes):
    """``f`` on each example in turn, every output stacked along axis 0."""
    axes = list(in_axes) if isinstance(in_axes, (tuple, list)) else [in_axes] * len(args)
    size = next(np.shape(a)[ax] for a, ax in zip(args, axes) if ax is not None)
    outs = [f(*[jnp.asarray(a if ax is None else np.take(np.asarray(a), b, axis=ax))
                for a, ax in zip(args, axes)]) for b in range(size)]
    return [np.stack(col) for col in zip(*[_leaves(o) for o in outs])]


def assert_same(got, want, exact=True):
    got = _leaves(got)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        if exact:
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------------------
# vmap against a loop

x = (np.arange(6, dtype=np.float32).reshape(3, 2) - 2.5) / 2
xt = np.ascontiguousarray(x.T)


def _cond(p, v):
    return lax.cond(p > 0, lambda v: jnp.sin(v) * 2.0, lambda v: v + 1.0, v)


def _cond_closure(p, v, w):
    return lax.cond(p > 0, lambda v: v * w, lambda v: v - w, v)


def _switch(k, v):
    return lax.switch(k, [lambda v: v * 2.0, jnp.cos, lambda v: -v], v)


def _while(n, v):
    return lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 2.0), (0, v))


def _while_limit(v, lim):
    return lax.while_loop(lambda c: jnp.sum(c) < lim, lambda c: c * 2.0 + 0.5, v)


def _fori(v, k):
    return lax.fori_loop(0, 3, lambda j, c: c * k + j, v)


def _scan(c, xs):
    return lax.scan(lambda c, u: (c * u + 1.0, c + u), c, xs)


def _scan_const(w, c, xs):
    return lax.scan(lambda c, u: (c + w * u, jnp.sum(c) * u), c, xs, reverse=True)


def _nested(p, v):
    return lax.fori_loop(0, 2, lambda j, c: lax.cond(p > j, lambda c: c + 1.0,
                                                      lambda c: c * 3.0, c), v)


p3 = np.array([1.0, -1.0, 2.0], np.float32)
n3 = np.array([1, 3, 0], np.int32)
k3 = np.array([0, 2, 1], np.int32)
LOOP_CASES = {
    "cond_pred_batched": (_cond, (0, 0), [p3, x]),
    "cond_pred_only": (_cond, (0, None), [p3, x[0]]),
    "cond_pred_unbatched": (_cond, (None, 1), [np.float32(-1.0), xt]),
    "cond_closure_mix": (_cond_closure, (None, 0, 1), [np.float32(1.0), x, xt]),
    "cond_closure_batched_pred": (_cond_closure, (0, None, 0), [p3, x[0], x]),
    "switch_index_batched": (_switch, (0, 0), [k3, x]),
    "switch_index_unbatched": (_switch, (None, 1), [np.int32(1), xt]),
    "while_pred_batched": (_while, (0, 0), [n3, x[:, 0]]),
    "while_pred_batched_x_unbatched": (_while, (0, None), [n3, np.float32(1.5)]),
    "while_pred_unbatched": (_while, (None, 0), [np.int32(2), x]),
    "while_pred_from_carry": (_while_limit, (0, None), [np.abs(x) + 0.1, np.float32(10.0)]),
    "while_pred_from_limit": (_while_limit, (None, 0),
                              [np.array([1.0, 2.0], np.float32),
                               np.array([5.0, 20.0, 1.0], np.float32)]),
    "fori_carry": (_fori, (0, None), [x, np.float32(2.0)]),
    "fori_const": (_fori, (None, 0), [x[0], p3]),
    "scan_xs_axis1": (_scan, (None, 1), [np.float32(1.0), np.ones((4, 3), np.float32)]),
    "scan_carry": (_scan, (0, None), [np.arange(3, dtype=np.float32),
                                      np.arange(4, dtype=np.float32)]),
    "scan_both": (_scan, (0, 0), [np.arange(3, dtype=np.float32),
                                  np.arange(12, dtype=np.float32).reshape(3, 4)]),
    "scan_const_batched": (_scan_const, (0, None, None),
                           [p3, np.zeros(2, np.float32), np.ones((4, 2), np.float32)]),
    "nested_fori_cond": (_nested, (0, 0), [p3, x]),
}


@pytest.mark.parametrize("name", sorted(LOOP_CASES))
def test_vmap_matches_loop(name):
    f, in_axes, args = LOOP_CASES[name]
    assert_same(jax.vmap(f, in_axes=in_axes)(*args), loop(f, args, in_axes))


@pytest.mark.parametrize("name", sorted(LOOP_CASES))
def test_jit_vmap_matches_loop(name):
    f, in_axes, args = LOOP_CASES[name]
    assert_same(jax.jit(jax.vmap(f, in_axes=in_axes))(*args), loop(f, args, in_axes))


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_recorded_cases_match_loop(name):
    f, args, in_axes = RECORDED[name]
    if name.startswith("random"):  # keys are not looped over with np.take
        pytest.skip("values checked against JAX below")
    assert_same(jax.vmap(f, in_axes=in_axes)(*args), loop(f, args, in_axes))
    assert_same(jax.jit(jax.vmap(f, in_axes=in_axes))(*args), loop(f, args, in_axes))


# ---------------------------------------------------------------------------------------
# Against JAX 0.10.2

@pytest.mark.parametrize("name", sorted(RECORDED))
def test_jaxpr_text_matches_jax(name):
    f, args, in_axes = RECORDED[name]
    assert str(jax.make_jaxpr(jax.vmap(f, in_axes=in_axes))(*args)) == DATA[name]["jaxpr"]


@pytest.mark.parametrize("name", vmap_control_cases.RECORD_VALUES)
@pytest.mark.parametrize("jitted", [False, True])
def test_random_values_match_jax(name, jitted):
    f, args, in_axes = RECORDED[name]
    g = jax.vmap(f, in_axes=in_axes)
    got = np.asarray((jax.jit(g) if jitted else g)(*args))
    want = np.array(DATA[name]["value"], DATA[name]["dtype"])
    np.testing.assert_array_equal(got, want)


def test_random_batch_of_keys_is_batch_of_draws():
    keys = jax.random.split(jax.random.key(7), 4)
    got = np.asarray(jax.vmap(lambda k: jax.random.normal(k, (3,)))(keys))
    want = np.stack([np.asarray(jax.random.normal(keys[b], (3,))) for b in range(4)])
    np.testing.assert_array_equal(got, want)
    data = jax.random.key_data(keys)
    got = jax.vmap(lambda d: jax.random.key_data(jax.random.split(jax.random.wrap_key_data(d))),
                   in_axes=1)(np.ascontiguousarray(np.asarray(data).T))
    want = np.stack([np.asarray(jax.random.key_data(jax.random.split(keys[b])))
                     for b in range(4)])
    np.testing.assert_array_equal(np.asarray(got), want)


# ---------------------------------------------------------------------------------------
# Compositions with grad and jit

def _loss_cond(v, p):
    return jnp.sum(lax.cond(p > 0, lambda v: jnp.sin(v) * v, lambda v: v * v, v))


def _loss_scan(v, p):
    c, ys = lax.scan(lambda c, u: (c * u + p, jnp.sin(c)), v[0], v)
    return c + jnp.sum(ys)


def _loss_fori(v, p):
    return jnp.sum(lax.fori_loop(0, 3, lambda j, c: jnp.sin(c) * p, v))


GRAD_CASES = {"cond": _loss_cond, "scan": _loss_scan, "fori": _loss_fori}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
@pytest.mark.parametrize("compose", ["vmap_grad", "jit_vmap_grad", "vmap_jit", "grad_vmap"])
def test_compositions(name, compose):
    f = GRAD_CASES[name]
    args, in_axes = [x, p3], (0, 0)
    if compose == "vmap_grad":
        got, want = jax.vmap(jax.grad(f), in_axes)(*args), loop(jax.grad(f), args, in_axes)
    elif compose == "jit_vmap_grad":
        got = jax.jit(jax.vmap(jax.grad(f), in_axes))(*args)
        want = loop(jax.jit(jax.grad(f)), args, in_axes)
    elif compose == "vmap_jit":
        got, want = jax.vmap(jax.jit(f), in_axes)(*args), loop(jax.jit(f), args, in_axes)
    else:
        got = jax.grad(lambda v, q: jnp.sum(jax.vmap(f, in_axes)(v, q)))(*args)
        want = [np.stack([np.asarray(jax.grad(f)(x[b], p3[b])) for b in range(3)])]
    assert_same(got, want, exact=compose != "jit_vmap_grad")


def _log1pexp():
    @jax.custom_jvp
    def f(v):
        return jnp.log1p(jnp.exp(v))

    @f.defjvp
    def f_jvp(primals, tangents):
        return f(primals[0]), tangents[0] / (1.0 + jnp.exp(-primals[0]))
    return f


def _double_bwd_sin():
    @jax.custom_vjp
    def g(v):
        return jnp.sin(v)
    g.defvjp(lambda v: (jnp.sin(v), jnp.cos(v)), lambda c, ct: (ct * c * 2.0,))
    return g


CUSTOM = {"custom_jvp": _log1pexp(), "custom_vjp": _double_bwd_sin(),
          "checkpoint": jax.checkpoint(lambda v: jnp.sin(v) * 2.0)}


@pytest.mark.parametrize("name", sorted(CUSTOM))
@pytest.mark.parametrize("compose", ["vmap", "vmap_grad", "grad_vmap", "jit_vmap"])
def test_custom_derivatives_under_vmap(name, compose):
    f = CUSTOM[name]
    total = lambda v: jnp.sum(f(v))  # noqa: E731
    if compose == "vmap":
        got, want = jax.vmap(f)(x), loop(f, [x], 0)
    elif compose == "vmap_grad":
        got, want = jax.vmap(jax.grad(total))(x), loop(jax.grad(total), [x], 0)
    elif compose == "grad_vmap":
        got = jax.grad(lambda v: jnp.sum(jax.vmap(f)(v)))(x)
        want = loop(jax.grad(total), [x], 0)
    else:
        got, want = jax.jit(jax.vmap(f))(x), loop(jax.jit(f), [x], 0)
    assert_same(got, want)


def test_per_example_gradients_of_mlp():
    rng = np.random.RandomState(0)
    params = {"w1": rng.randn(3, 4).astype(np.float32), "b1": rng.randn(4).astype(np.float32),
              "w2": rng.randn(4, 1).astype(np.float32)}
    xs, ys = rng.randn(5, 3).astype(np.float32), rng.randn(5, 1).astype(np.float32)

    def loss(p, u, y):
        h = jnp.tanh(u @ p["w1"] + p["b1"])
        return jnp.sum((h @ p["w2"] - y) ** 2)
    per_example = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))
    want = loop(lambda u, y: jax.grad(loss)(params, u, y), [xs, ys], (0, 0))
    # Matrix products of a batch sum in another order than one example's: close, not
    # bit-equal.
    assert_same(per_example(params, xs, ys), want, exact=False)
    assert_same(jax.jit(per_example)(params, xs, ys), want, exact=False)


def test_jit_inside_vmap_keeps_name_and_shares_body():
    g = jax.jit(lambda u, v: jnp.sin(u) + v)
    text = str(jax.make_jaxpr(jax.vmap(lambda u, v: g(u, v) * g(u, v), in_axes=(0, None)))(
        x, x[0]))
    assert text.count("name=<lambda>") == 2
    assert text.startswith("let ")  # one batched body, printed once


def test_jvp_through_batched_predicate_while():
    def w(k, v):
        return lax.while_loop(lambda c: c[0] < k, lambda c: (c[0] + 1, jnp.sin(c[1]) * 2.0),
                               (0, v))[1]
    v = np.array([0.5, 1.0, 1.5], np.float32)
    ones = np.ones(3, np.float32)
    want = loop(lambda k, u: jax.jvp(lambda t: w(k, t), (u,), (np.float32(1.0),)), [n3, v],
                (0, 0))
    assert_same(jax.jvp(lambda u: jax.vmap(w)(n3, u), (v,), (ones,)), want)
    assert_same(jax.vmap(lambda k, u: jax.jvp(lambda t: w(k, t), (u,), (np.float32(1.0),)))(
        n3, v), want)
    assert_same(jax.jit(lambda u: jax.jvp(lambda t: jax.vmap(w)(n3, t), (u,), (ones,)))(v),
                want)


@pytest.mark.parametrize("name", ["cond_pred_batched", "while_pred_batched", "scan_both"])
def test_nested_vmap(name):
    f, in_axes, args = LOOP_CASES[name]
    outer = [np.stack([a, a[::-1]]) if ax is not None else a for a, ax in zip(args, in_axes)]
    out_axes = tuple(0 if ax is not None else None for ax in in_axes)
    inner = jax.vmap(f, in_axes=in_axes)
    got = jax.vmap(inner, in_axes=out_axes)(*outer)
    want = loop(inner, outer, out_axes)
    assert_same(got, want)
    assert_same(jax.jit(jax.vmap(inner, in_axes=out_axes))(*outer), want)

"""Differentiation rules of the structural, slicing, layout, reduction, dot, sort and
indexing primitives (``lax/*_ad.py``).

Three tables:

* ``NUMERIC``: functions of float64 arrays. ``jvp`` is checked against central finite
  differences at a random point along a random direction, and ``vjp`` through the
  transpose identity ``<vjp(ct), t> == <ct, jvp(t)>`` (which also checks it against the
  finite differences).
* ``ZERO``: primitives whose tangents are zero (integer or key outputs, stop_gradient).
* the ``make_jaxpr(grad(f))`` texts recorded from JAX 0.10.2 by
  ``tools/record_ad_structural.py`` for ``tests/ad_structural_cases.py``.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.interpreters.ad import float0

import ad_structural_cases

DATA = json.loads((Path(__file__).parent / "data" / "ad_structural.json").read_text())

GDN = lax.GatherDimensionNumbers
SDN = lax.ScatterDimensionNumbers
_IDX = np.array([[0], [2], [3]], np.int32)
_DUP = np.array([[0], [2], [2]], np.int32)
_SCATTER_DN = SDN(update_window_dims=(1,), inserted_window_dims=(0,),
                  scatter_dims_to_operand_dims=(0,))
_GATHER_DN = GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))


def _sort2(x, y):
    a, b = lax.sort((x, y), dimension=1, num_keys=1)
    return a * 2.0 + b


# name -> (function of float64 arrays, their shapes)
NUMERIC = {
    "broadcast_in_dim": (lambda x: lax.broadcast_in_dim(x, (2, 3, 4), (0, 2)), [(2, 4)]),
    "broadcast_unit": (lambda x: lax.broadcast_in_dim(x, (3, 4), (0, 1)), [(1, 4)]),
    "reshape": (lambda x: lax.reshape(x, (4, 3)), [(3, 4)]),
    "reshape_dims": (lambda x: lax.reshape(x, (6, 2), (1, 0)), [(3, 4)]),
    "squeeze": (lambda x: lax.squeeze(x, (0, 2)), [(1, 3, 1)]),
    "expand_dims": (lambda x: lax.expand_dims(x, (0, 2)), [(3, 2)]),
    "transpose": (lambda x: lax.transpose(x, (2, 0, 1)), [(2, 3, 4)]),
    "rev": (lambda x: lax.rev(x, (1,)), [(2, 3)]),
    "slice": (lambda x: lax.slice(x, (1, 0), (3, 4)), [(4, 4)]),
    "slice_strided": (lambda x: lax.slice(x, (0, 1), (5, 4), (2, 2)), [(5, 4)]),
    "pad": (lambda x, v: lax.pad(x, v, ((1, 2, 1), (0, -1, 0))), [(3, 3), ()]),
    "pad_negative": (lambda x: lax.pad(x, 0.0, ((-1, 1, 0),)), [(4,)]),
    "concatenate": (lambda x, y: lax.concatenate([x, y, x], 1), [(2, 3), (2, 1)]),
    "copy": (lambda x: lax.copy_p.bind(x), [(3,)]),
    "stack": (lambda x, y: lax.stack([x, y], 1), [(2, 3), (2, 3)]),
    "split": (lambda x: lax.split(x, (1, 3), 1)[1] * 2.0, [(2, 4)]),
    "split_both": (lambda x: lax.concatenate(lax.split(x, (2, 2), 0)[::-1], 0), [(4, 2)]),
    "tile": (lambda x: lax.tile(x, (2, 3)), [(2, 2)]),
    "reduce_sum": (lambda x: lax.reduce_sum(x, (0, 2)), [(2, 3, 4)]),
    "reduce_max": (lambda x: lax.reduce_max(x, (1,)), [(3, 4)]),
    "reduce_min": (lambda x: lax.reduce_min(x, (0, 1)), [(3, 4)]),
    "reduce_prod": (lambda x: lax.reduce_prod(x, (1,)), [(2, 5)]),
    "reduce_prod_all": (lambda x: lax.reduce_prod(x, (0, 1)), [(2, 3)]),
    "cumsum": (lambda x: lax.cumsum(x, 1), [(2, 4)]),
    "cumsum_reverse": (lambda x: lax.cumsum(x, 0, reverse=True), [(5,)]),
    "cumprod": (lambda x: lax.cumprod(x, 0), [(5, 2)]),
    "cummax": (lambda x: lax.cummax(x, 1, reverse=True), [(2, 5)]),
    "cummin": (lambda x: lax.cummin(x, 0), [(6,)]),
    "dot_general": (lambda x, y: lax.dot_general(x, y, (((2,), (1,)), ((0,), (0,)))),
                    [(2, 3, 4), (2, 4, 5)]),
    "dot_general_swapped": (lambda x, y: lax.dot_general(x, y, (((0,), (2,)), ((), ()))),
                            [(3, 2), (4, 1, 3)]),
    "sort": (lambda x: lax.sort(x, dimension=0), [(5, 2)]),
    "sort_multi": (_sort2, [(2, 4), (2, 4)]),
    "top_k": (lambda x: lax.top_k(x, 2)[0], [(3, 5)]),
    "gather": (lambda x: lax.gather(x, _IDX, _GATHER_DN, (1, 3)), [(4, 3)]),
    "gather_dup": (lambda x: lax.gather(x, _DUP, _GATHER_DN, (1, 3)), [(4, 3)]),
    "scatter_add": (lambda x, u: lax.scatter_add(x, _DUP, u, _SCATTER_DN), [(4, 3), (3, 3)]),
    "scatter_sub": (lambda x, u: lax.scatter_sub(x, _IDX, u, _SCATTER_DN), [(4, 3), (3, 3)]),
    "scatter_mul": (lambda x, u: lax.scatter_mul(x, _IDX, u, _SCATTER_DN,
                                                 unique_indices=True), [(4, 3), (3, 3)]),
    "scatter_max": (lambda x, u: lax.scatter_max(x, _IDX, u, _SCATTER_DN), [(4, 3), (3, 3)]),
    "scatter_min": (lambda x, u: lax.scatter_min(x, _DUP, u, _SCATTER_DN), [(4, 3), (3, 3)]),
    "scatter_unique": (lambda x, u: lax.scatter(x, _IDX, u, _SCATTER_DN, unique_indices=True),
                       [(4, 3), (3, 3)]),
    "scatter_collide": (lambda x, u: lax.scatter(x, _DUP, u, _SCATTER_DN), [(4, 3), (3, 3)]),
    "dynamic_slice": (lambda x: lax.dynamic_slice(x, (jnp.int32(1), jnp.int32(2)), (2, 2)),
                      [(4, 5)]),
    "dynamic_update_slice": (lambda x, u: lax.dynamic_update_slice(
        x, u, (jnp.int32(2), jnp.int32(1))), [(4, 5), (2, 3)]),
    "numpy_mix": (lambda x: jnp.sum(jnp.cumsum(x[1:, ::-1].T @ x[:2], axis=0) ** 2),
                  [(3, 3)]),
}


def _point(shapes, seed):
    rng = np.random.default_rng(seed)
    # well separated values: max/sort/scatter-max ties do not flip under the step
    xs = []
    for s in shapes:
        n = int(np.prod(s, dtype=np.int64))
        xs.append((rng.permutation(n) + 1.0 + rng.uniform(0, 0.3, n)).reshape(s) / n)
    return xs


def _flat_out(y):
    return [np.asarray(v, np.float64) for v in jax.tree_util.tree_leaves(y)]


@pytest.mark.parametrize("name", list(NUMERIC))
def test_jvp_matches_finite_differences(name):
    fn, shapes = NUMERIC[name]
    with jax.enable_x64():
        xs = _point(shapes, 0)
        ts = _point(shapes, 1)
        args = [jnp.asarray(x) for x in xs]
        tans = [jnp.asarray(t) for t in ts]
        _, t_out = jax.jvp(fn, args, tans)
        eps = 1e-6
        plus = fn(*[jnp.asarray(x + eps * t) for x, t in zip(xs, ts, strict=True)])
        minus = fn(*[jnp.asarray(x - eps * t) for x, t in zip(xs, ts, strict=True)])
        for got, p, m in zip(_flat_out(t_out), _flat_out(plus), _flat_out(minus),
                             strict=True):
            np.testing.assert_allclose(got, (p - m) / (2 * eps), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name", list(NUMERIC))
def test_vjp_is_transpose_of_jvp(name):
    fn, shapes = NUMERIC[name]
    with jax.enable_x64():
        args = [jnp.asarray(x) for x in _point(shapes, 0)]
        tans = [jnp.asarray(t) for t in _point(shapes, 1)]
        out, t_out = jax.jvp(fn, args, tans)
        out_shape = np.shape(out)
        ct = jnp.asarray(np.random.default_rng(2).normal(size=out_shape))
        _, pullback = jax.vjp(fn, *args)
        cts_in = pullback(ct)
        lhs = sum(float(np.vdot(np.asarray(c), np.asarray(t)))
                  for c, t in zip(cts_in, tans, strict=True))
        rhs = float(np.vdot(np.asarray(ct), np.asarray(t_out)))
        np.testing.assert_allclose(lhs, rhs, rtol=1e-10, atol=1e-12)


# name -> (function, argument); the output must carry a zero (float0) tangent
ZERO = {
    "iota_plus": (lambda x: x + lax.iota(np.float64, 3), None),
    "argmax": (lambda x: lax.argmax(x, 0, np.int32), np.float64),
    "argmin": (lambda x: lax.argmin(x, 0, np.int32), np.float64),
    "reduce_or": (lambda x: lax.reduce_or(x > 0.5, (0,)), np.float64),
    "reduce_and": (lambda x: lax.reduce_and(x > 0.5, (0,)), np.float64),
    "reduce_xor": (lambda x: lax.reduce_xor(x > 0.5, (0,)), np.float64),
    "bitcast": (lambda x: lax.bitcast_convert_type(x, np.int64), np.float64),
    "stop_gradient": (lambda x: lax.stop_gradient(x) * 3.0, np.float64),
    "top_k_indices": (lambda x: lax.top_k(x, 2)[1], np.float64),
    "random_bits": (lambda x: jax.random.bits(jax.random.key(0), (3,)), np.float64),
    "random_split": (lambda x: jax.random.key_data(jax.random.split(jax.random.key(1))),
                     np.float64),
    "random_fold_in": (lambda x: jax.random.key_data(
        jax.random.fold_in(jax.random.PRNGKey(1), 3)), np.float64),
}


@pytest.mark.parametrize("name", list(ZERO))
def test_zero_tangents(name):
    fn, _ = ZERO[name]
    with jax.enable_x64():
        x = jnp.asarray(np.array([0.25, 0.75, 0.5]))
        out, t = jax.jvp(fn, (x,), (jnp.ones(3),))
        t = np.asarray(t)
        if np.asarray(out).dtype.kind == "f":
            expected = np.zeros(np.shape(out)) if name != "iota_plus" else np.ones(3)
            np.testing.assert_array_equal(t, expected)
        else:
            assert t.dtype == float0
            assert t.shape == np.shape(out)


def test_stop_gradient_grad_is_zero():
    g = jax.grad(lambda x: lax.stop_gradient(x) * x)(3.0)
    assert float(g) == 3.0


@pytest.mark.parametrize("name", list(DATA["cases"]))
def test_grad_jaxpr_matches_jax(name):
    cases = ad_structural_cases.programs(jax, jnp, lax, np)
    fn, args = cases[name]
    expected = DATA["cases"][name]
    with jax.enable_x64():
        assert str(jax.make_jaxpr(jax.grad(fn))(*args())) == expected["jaxpr"]


# Primitives of these families without a JVP rule, and why.
# JAX 0.10.2 defines no derivative for these either (differentiating them raises there)
_NO_JVP: dict = {"hessenberg": "no JVP in JAX", "householder_product": "no JVP in JAX",
                 "schur": "no JVP in JAX"}
_LINEAR = ["broadcast_in_dim", "reshape", "squeeze", "transpose", "rev", "slice", "pad",
           "concatenate", "copy", "stack", "split", "tile", "reduce_sum", "cumsum",
           "dot_general", "gather", "scatter", "scatter-add", "scatter-sub", "scatter-mul",
           "dynamic_slice", "dynamic_update_slice"]


def _family_primitives():
    import importlib

    from transpile import core
    names = ["lax.structural", "lax.slicing", "lax.layout", "lax.reduction", "lax.contraction",
             "lax.sorting", "lax.dynamic_slicing", "lax.indexing", "lax.linalg", "lax.prng",
             "random.keys"]
    prims = {}
    for name in names:
        for v in vars(importlib.import_module(f"transpile.{name}")).values():
            if isinstance(v, core.Primitive):
                prims[v.name] = v
    assert len(prims) > 40
    return prims


def test_every_primitive_of_these_families_has_rules():
    from transpile.interpreters import ad
    prims = _family_primitives()
    missing = sorted(n for n, p in prims.items() if p not in ad.jvp_rules
                     and n not in _NO_JVP)
    assert not missing, f"no JVP rule: {missing}"
    no_t = sorted(n for n in _LINEAR if prims[n] not in ad.transpose_rules)
    assert not no_t, f"no transpose rule: {no_t}"

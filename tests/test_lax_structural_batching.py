"""Batching rules of the structural, layout, reduction, dot, sort and linalg primitives
(``lax/structural_batching.py``, ``lax/reduction_batching.py``) and of ``select_n`` and
``clamp`` (``lax/elementwise_batching.py``).

Table-driven over ``tests/vmap_structural_cases.py``: ``vmap(f)`` equals a Python loop
over the batch stacking ``f``'s results (exactly: the same kernels run), eagerly and
under ``jit``; ``make_jaxpr(vmap(f))`` prints JAX 0.10.2's text
(``tests/data/vmap_structural.json``, recorded by ``tools/record_vmap_structural.py``).
"""
import json
import pathlib

import numpy as np
import pytest

import transpile as jax
from transpile import lax

import vmap_structural_cases

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "vmap_structural.json")
                  .read_text())["cases"]


def _cases():
    with jax.enable_x64(True):
        return vmap_structural_cases.cases(lax, np)


CASES = _cases()


def _per_arg(spec, n):
    return list(spec) if isinstance(spec, (tuple, list)) else [spec] * n


def _loop(f, args, in_axes, out_axes):
    """``f`` on each example in turn, results stacked along ``out_axes``."""
    axes = _per_arg(in_axes, len(args))
    size = next(np.shape(a)[ax] for a, ax in zip(args, axes) if ax is not None)
    outs = [f(*[a if ax is None else np.take(a, i, ax) for a, ax in zip(args, axes)])
            for i in range(size)]
    single = not isinstance(outs[0], tuple)
    per_out = [[o] if single else list(o) for o in outs]
    oaxes = _per_arg(out_axes, len(per_out[0]))
    stacked = [np.stack([np.asarray(o[j]) for o in per_out], axis=ax)
               for j, ax in enumerate(oaxes)]
    return stacked


def _results(out):
    return [np.asarray(o) for o in (out if isinstance(out, (tuple, list)) else [out])]


def _check(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager_matches_loop(name):
    f, args, in_axes, out_axes = CASES[name]
    with jax.enable_x64(True):
        got = _results(jax.vmap(f, in_axes=in_axes, out_axes=out_axes)(*args))
        _check(got, _loop(f, args, in_axes, out_axes))


@pytest.mark.parametrize("name", sorted(CASES))
def test_jit_matches_loop(name):
    f, args, in_axes, out_axes = CASES[name]
    with jax.enable_x64(True):
        got = _results(jax.jit(jax.vmap(f, in_axes=in_axes, out_axes=out_axes))(*args))
        _check(got, _loop(jax.jit(f), args, in_axes, out_axes))


@pytest.mark.parametrize("name", sorted(CASES))
def test_jaxpr_text_matches_jax(name):
    f, args, in_axes, out_axes = CASES[name]
    with jax.enable_x64(True):
        text = str(jax.make_jaxpr(jax.vmap(f, in_axes=in_axes, out_axes=out_axes))(*args))
    assert text == DATA[name]["jaxpr"]


def test_every_case_recorded():
    assert sorted(CASES) == sorted(DATA)


def test_every_family_primitive_has_a_rule():
    """Each primitive of these families has a batching rule, iota excepted (it has no
    operand, so it is never batched)."""
    import importlib
    from transpile.core import Primitive
    from transpile.interpreters.batching import primitive_batchers
    exempt = {"iota"}
    for mod in ("structural", "slicing", "layout", "reduction", "contraction", "sorting",
                "linalg"):
        m = importlib.import_module(f"transpile.lax.{mod}")
        for n in dir(m):
            p = getattr(m, n)
            if n.endswith("_p") and isinstance(p, Primitive) and p.name not in exempt:
                assert p in primitive_batchers, p.name


def test_nested_vmap_of_dot_is_one_dot_general():
    x = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    y = np.arange(8.0, dtype=np.float32).reshape(4, 2)
    f = jax.vmap(jax.vmap(lambda a, b: lax.dot(a, b), in_axes=(0, None)), in_axes=(0, None))
    jaxpr = jax.make_jaxpr(f)(x, y)
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["dot_general"]
    np.testing.assert_array_equal(np.asarray(f(x, y)), x @ y)

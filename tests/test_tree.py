"""``transpile.tree`` (``jax.tree``) against JAX 0.10.2's recorded answers, and pytree
containers (OrderedDict, defaultdict, registered dataclasses) through ``jit``, ``grad``
and ``vmap``."""
from __future__ import annotations

import collections
import functools
import dataclasses

import numpy as np
import pytest

try:
    import api_cases
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import api_cases, jaxpr_cases

import transpile
import transpile as jax
import transpile.numpy as jnp

RECORDED = jaxpr_cases.load_data("api.json")["tree"]
# The classes are made and registered once per module (registration is global).
_namespace = functools.cache(lambda: api_cases.tree_namespace(transpile))
TREE_EXPRS = [e for e in api_cases.TREE_EXPRS if e.startswith("tree.")]


@pytest.mark.parametrize("expr", TREE_EXPRS)
def test_tree_matches_jax(expr):
    assert api_cases.evaluate(expr, _namespace()) == RECORDED[expr]


def test_names_are_tree_util_functions():
    assert jax.tree.map is jax.tree_util.tree_map
    assert jax.tree.flatten is jax.tree_util.tree_flatten
    assert sorted(n for n in jax.tree.__all__) == [
        "all", "broadcast", "flatten", "flatten_with_path", "leaves", "leaves_with_path",
        "map", "map_with_path", "reduce", "reduce_associative", "static", "structure",
        "transpose", "unflatten"]


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Params:
    w: object
    b: object
    scale: float = jax.tree.static(default=2.0)


def _loss(p):
    return jnp.sum(p["od"]["w"] * p["dc"].w + p["dc"].b) * p["dc"].scale \
        + p["dd"]["z"]


def _params():
    od = collections.OrderedDict([("w", jnp.arange(3.0)), ("v", jnp.ones(2))])
    dd = collections.defaultdict(list, {"z": jnp.array(1.5)})
    return {"od": od, "dc": Params(jnp.array([1.0, 2.0, 3.0]), jnp.array(0.5)), "dd": dd}


def test_containers_through_jit_grad_vmap():
    p = _params()
    want = (0 * 1 + 1 * 2 + 2 * 3 + 3 * 0.5) * 2.0 + 1.5
    assert float(_loss(p)) == want and float(jax.jit(_loss)(p)) == want
    g = jax.jit(jax.grad(_loss))(p)
    assert isinstance(g["od"], collections.OrderedDict) and list(g["od"]) == ["w", "v"]
    np.testing.assert_array_equal(g["od"]["w"], [2.0, 4.0, 6.0])
    np.testing.assert_array_equal(g["od"]["v"], [0.0, 0.0])
    assert isinstance(g["dc"], Params) and g["dc"].scale == 2.0
    np.testing.assert_array_equal(g["dc"].w, [0.0, 2.0, 4.0])
    assert float(g["dc"].b) == 6.0
    assert isinstance(g["dd"], collections.defaultdict) and float(g["dd"]["z"]) == 1.0
    # vmap over an OrderedDict of batched leaves, out to a dataclass
    batch = collections.OrderedDict([("b", jnp.arange(6.0).reshape(2, 3)),
                                     ("a", jnp.ones((2, 3)))])
    out = jax.vmap(lambda d: Params(d["b"] + d["a"], d["b"].sum()))(batch)
    assert isinstance(out, Params) and out.w.shape == (2, 3)
    np.testing.assert_array_equal(out.b, [3.0, 12.0])
    # the static field is part of the jit key: another value retraces
    p2 = _params()
    p2["dc"] = Params(p2["dc"].w, p2["dc"].b, 3.0)
    assert float(jax.jit(_loss)(p2)) == (0 + 2 + 6 + 1.5) * 3.0 + 1.5

"""Pytree flattening, rebuilding and printing, against JAX 0.10.2's observed treedefs."""
import collections
import functools

import pytest

import transpile
from transpile import tree_util as tu

P = collections.namedtuple("P", "x y")

# (tree, expected leaves, str(treedef)) recorded from JAX 0.10.2.
CASES = [
    ((1, 2), [1, 2], "PyTreeDef((*, *))"),
    ({"a": 1, "b": None}, [1], "PyTreeDef({'a': *, 'b': None})"),
    (None, [], "PyTreeDef(None)"),
    ((), [], "PyTreeDef(())"),
    ([1, (2, 3)], [1, 2, 3], "PyTreeDef([*, (*, *)])"),
    ([1, (2, 3), {"b": 4, "a": 5}], [1, 2, 3, 5, 4], "PyTreeDef([*, (*, *), {'a': *, 'b': *}])"),
    (P(1, 2), [1, 2], "PyTreeDef(CustomNode(namedtuple[P], [*, *]))"),
    ((7,), [7], "PyTreeDef((*,))"),
]


@pytest.mark.parametrize("tree,leaves,text", CASES)
def test_flatten_roundtrip(tree, leaves, text):
    got_leaves, td = tu.tree_flatten(tree)
    assert got_leaves == leaves
    assert str(td) == text
    assert tu.tree_unflatten(td, got_leaves) == tree


def test_unflatten_wrong_count():
    td = tu.tree_structure((1, 2))
    with pytest.raises(ValueError, match="Too few leaves for PyTreeDef; expected 2, got 1"):
        tu.tree_unflatten(td, [1])


def test_tree_map_and_multiple_trees():
    assert tu.tree_map(lambda a, b: a + b, {"x": 1, "y": (2, 3)}, {"x": 10, "y": (20, 30)}) \
        == {"x": 11, "y": (22, 33)}
    with pytest.raises(ValueError):
        tu.tree_map(lambda a, b: a, (1, 2), [1, 2])


def test_register_pytree_node_and_is_leaf():
    class Box:
        def __init__(self, v, tag):
            self.v, self.tag = v, tag

    tu.register_pytree_node(Box, lambda b: ((b.v,), b.tag), lambda tag, kids: Box(kids[0], tag))
    leaves, td = tu.tree_flatten([Box(3, "t"), 4])
    assert leaves == [3, 4]
    rebuilt = tu.tree_unflatten(td, [5, 6])
    assert rebuilt[0].v == 5 and rebuilt[0].tag == "t" and rebuilt[1] == 6
    with pytest.raises(ValueError, match="Duplicate"):
        tu.register_pytree_node(Box, lambda b: ((), None), lambda a, k: None)
    assert tu.tree_leaves([(1, 2), 3], is_leaf=lambda x: isinstance(x, tuple)) == [(1, 2), 3]


def test_paths():
    pairs, _ = tu.tree_flatten_with_path({"a": [1, (2,)], "b": P(3, 4)})
    assert [tu.keystr(p) for p, _ in pairs] == ["['a'][0]", "['a'][1][0]", "['b'].x", "['b'].y"]


# ---------------------------------------------------------------------------------------
# The full jax.tree_util surface against JAX 0.10.2's recorded answers
# (tests/api_cases.py, tools/record_api_data.py -> tests/data/api.json).

try:
    import api_cases
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import api_cases, jaxpr_cases

RECORDED_TREE = jaxpr_cases.load_data("api.json")["tree"]
# The classes are made and registered once per module (registration is global).
_namespace = functools.cache(lambda: api_cases.tree_namespace(transpile))
TU_EXPRS = [e for e in api_cases.TREE_EXPRS if not e.startswith("tree.")]


@pytest.mark.parametrize("expr", TU_EXPRS)
def test_tree_util_matches_jax(expr):
    assert api_cases.evaluate(expr, _namespace()) == \
        RECORDED_TREE[expr]


def test_register_with_keys_class_and_node_class():
    @tu.register_pytree_with_keys_class
    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b

        def tree_flatten_with_keys(self):
            return ((tu.GetAttrKey("a"), self.a), (tu.GetAttrKey("b"), self.b)), "pair"

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)

    pairs, td = tu.tree_flatten_with_path(Pair(1, [2]))
    assert [tu.keystr(p) for p, _ in pairs] == [".a", ".b[0]"]
    assert str(td) == "PyTreeDef(CustomNode(Pair[pair], [*, [*]]))"
    rebuilt = tu.tree_unflatten(td, [5, 6])
    assert (rebuilt.a, rebuilt.b) == (5, [6])


def test_deep_trees_do_not_recurse():
    # 3000 levels: flatten, unflatten, compare, hash, print, map and paths are iterative.
    deep = 0
    for i in range(3000):
        deep = [deep, {"k": i}] if i % 2 else (deep,)
    leaves, td = tu.tree_flatten(deep)
    assert len(leaves) == 1 + 1500 and td.num_leaves == len(leaves)
    rebuilt = tu.tree_unflatten(td, leaves)  # (== on the lists themselves would recurse)
    assert tu.tree_structure(rebuilt) == td and tu.tree_leaves(rebuilt) == leaves
    assert td == tu.tree_structure(deep) and hash(td) == hash(tu.tree_structure(deep))
    assert str(td).startswith("PyTreeDef([([([") and str(td).endswith("{'k': *}])")
    doubled = tu.tree_map(lambda x: 2 * x, deep)
    assert tu.tree_leaves(doubled)[-1] == 2 * 2999
    assert len(tu.tree_flatten_with_path(deep)[0][0][0]) == 3000
    summed = tu.tree_map(lambda a, b: a + b, deep, deep)
    assert tu.tree_leaves(summed) == tu.tree_leaves(doubled)


def test_treedef_children_and_compose():
    td = tu.tree_structure({"a": (1, 2), "b": None})
    kids = td.children
    assert [str(k) for k in kids] == ["PyTreeDef((*, *))", "PyTreeDef(None)"]
    assert tu.PyTreeDef(td.kind, td.node_data, kids) == td
    assert str(tu.tree_structure([0, 0]).compose(tu.tree_structure((0, 0)))) == \
        "PyTreeDef([(*, *), (*, *)])"

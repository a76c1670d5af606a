"""Pytree flattening, rebuilding and printing, against JAX 0.10.2's observed treedefs."""
import collections

import pytest

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

"""Pytrees: nested tuples, lists, dicts, None, namedtuples and registered classes.

A pytree is flattened into a list of leaves and a ``PyTreeDef`` that can rebuild it.
Dict keys are sorted, ``None`` is a node with no children, as in JAX.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable, Hashable

__all__ = ["PyTreeDef", "tree_flatten", "tree_unflatten", "tree_map", "tree_leaves",
           "tree_structure", "register_pytree_node", "register_pytree_node_class",
           "treedef_children", "all_leaves", "Partial", "tree_flatten_with_path",
           "keystr", "argument_paths"]


@dataclass(frozen=True)
class _NodeType:
    name: str
    to_iter: Callable  # obj -> (children, aux)
    from_iter: Callable  # (aux, children) -> obj


_registry: dict[type, _NodeType] = {}


def register_pytree_node(nodetype: type, flatten_func: Callable, unflatten_func: Callable,
                         flatten_with_keys_func: Callable | None = None) -> None:
    """Register ``nodetype`` as a pytree node.

    Parameters
    ----------
    nodetype : type
        The class to register.
    flatten_func : callable
        ``obj -> (children, aux_data)``; ``aux_data`` must be hashable.
    unflatten_func : callable
        ``(aux_data, children) -> obj``.
    flatten_with_keys_func : callable, optional
        Accepted for API compatibility and ignored.
    """
    if nodetype in _registry:
        raise ValueError(f"Duplicate custom PyTreeDef type registration for {nodetype}.")
    _registry[nodetype] = _NodeType(nodetype.__name__, flatten_func, unflatten_func)


def register_pytree_node_class(cls):
    """Class decorator: register ``cls`` using its ``tree_flatten``/``tree_unflatten``."""
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def _dict_flatten(d):
    keys = sorted(d)
    return [d[k] for k in keys], tuple(keys)


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


@dataclass(frozen=True)
class PyTreeDef:
    """The structure of a pytree; ``kind`` is ``'leaf'``, ``'none'``, ``'tuple'``,
    ``'list'``, ``'dict'``, ``'namedtuple'`` or ``'custom'``."""

    kind: str
    node_data: Hashable = None
    children: tuple = ()

    @property
    def num_leaves(self) -> int:
        if self.kind == "leaf":
            return 1
        return sum(c.num_leaves for c in self.children)

    @property
    def num_nodes(self) -> int:
        return 1 + sum(c.num_nodes for c in self.children)

    def unflatten(self, leaves):
        """Rebuild the tree from ``leaves``."""
        return tree_unflatten(self, leaves)

    def _str(self) -> str:
        if self.kind == "leaf":
            return "*"
        if self.kind == "none":
            return "None"
        kids = [c._str() for c in self.children]
        if self.kind == "tuple":
            return "(" + ", ".join(kids) + ("," if len(kids) == 1 else "") + ")"
        if self.kind == "list":
            return "[" + ", ".join(kids) + "]"
        if self.kind == "dict":
            return "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(self.node_data, kids,
                                                                 strict=True)) + "}"
        if self.kind == "namedtuple":
            return f"CustomNode(namedtuple[{self.node_data[0].__name__}], [{', '.join(kids)}])"
        cls, _aux = self.node_data
        return f"CustomNode({cls.__name__}[{_aux!r}], [{', '.join(kids)}])"

    def __str__(self) -> str:
        return f"PyTreeDef({self._str()})"

    __repr__ = __str__


_LEAF = PyTreeDef("leaf")
_NONE = PyTreeDef("none")


def _flatten(x, leaves: list, is_leaf) -> PyTreeDef:
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        return _LEAF
    if x is None:
        return _NONE
    t = type(x)
    if t in _registry:
        children, aux = _registry[t].to_iter(x)
        return PyTreeDef("custom", (t, aux),
                         tuple(_flatten(c, leaves, is_leaf) for c in children))
    if t is tuple:
        return PyTreeDef("tuple", None, tuple(_flatten(c, leaves, is_leaf) for c in x))
    if t is list:
        return PyTreeDef("list", None, tuple(_flatten(c, leaves, is_leaf) for c in x))
    if t is dict:
        children, keys = _dict_flatten(x)
        return PyTreeDef("dict", keys, tuple(_flatten(c, leaves, is_leaf) for c in children))
    if _is_namedtuple(x):
        return PyTreeDef("namedtuple", (t, t._fields),
                         tuple(_flatten(c, leaves, is_leaf) for c in x))
    leaves.append(x)
    return _LEAF


def tree_flatten(tree, is_leaf: Callable | None = None):
    """Flatten ``tree`` into ``(leaves, treedef)``.

    Parameters
    ----------
    tree : pytree
    is_leaf : callable, optional
        A predicate; subtrees for which it returns True are kept whole as leaves.

    Returns
    -------
    leaves : list
    treedef : PyTreeDef
    """
    leaves: list = []
    treedef = _flatten(tree, leaves, is_leaf)
    return leaves, treedef


def _unflatten(td: PyTreeDef, it):
    if td.kind == "leaf":
        return next(it)
    if td.kind == "none":
        return None
    kids = [_unflatten(c, it) for c in td.children]
    if td.kind == "tuple":
        return tuple(kids)
    if td.kind == "list":
        return kids
    if td.kind == "dict":
        return dict(zip(td.node_data, kids, strict=True))
    if td.kind == "namedtuple":
        return td.node_data[0](*kids)
    cls, aux = td.node_data
    return _registry[cls].from_iter(aux, kids)


def tree_unflatten(treedef: PyTreeDef, leaves):
    """Rebuild a pytree of structure ``treedef`` from ``leaves``."""
    leaves = list(leaves)
    n = treedef.num_leaves
    if len(leaves) != n:
        word = "few" if len(leaves) < n else "many"
        raise ValueError(f"Too {word} leaves for PyTreeDef; expected {n}, got {len(leaves)}")
    return _unflatten(treedef, iter(leaves))


def tree_leaves(tree, is_leaf: Callable | None = None) -> list:
    """The leaves of ``tree``, in flattening order."""
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf: Callable | None = None) -> PyTreeDef:
    """The ``PyTreeDef`` of ``tree``."""
    return tree_flatten(tree, is_leaf)[1]


def treedef_children(treedef: PyTreeDef) -> list:
    """The treedefs of the immediate children of ``treedef``."""
    return list(treedef.children)


def all_leaves(iterable) -> bool:
    """True if every element of ``iterable`` is a leaf."""
    return all(tree_structure(x).kind == "leaf" for x in iterable)


def tree_map(f: Callable, tree, *rest, is_leaf: Callable | None = None):
    """Apply ``f`` leafwise to ``tree`` and the trees in ``rest`` (same structure).

    Parameters
    ----------
    f : callable
        Takes one leaf from each tree.
    tree : pytree
    *rest : pytrees with the structure of ``tree``
    is_leaf : callable, optional

    Returns
    -------
    pytree
    """
    leaves, treedef = tree_flatten(tree, is_leaf)
    others = []
    for r in rest:
        r_leaves, r_def = tree_flatten(r, is_leaf)
        if r_def != treedef:
            raise ValueError(f"Custom node type mismatch; expected {treedef}, got {r_def}.")
        others.append(r_leaves)
    return tree_unflatten(treedef, [f(*xs) for xs in zip(leaves, *others, strict=True)])


def _paths(td: PyTreeDef, prefix: tuple, out: list):
    if td.kind == "leaf":
        out.append(prefix)
        return
    if td.kind == "dict":
        keys = td.node_data
    elif td.kind == "namedtuple":
        keys = td.node_data[1]
    else:
        keys = range(len(td.children))
    for k, c in zip(keys, td.children, strict=True):
        _paths(c, prefix + ((td.kind, k),), out)


def tree_flatten_with_path(tree, is_leaf: Callable | None = None):
    """Like ``tree_flatten`` but each leaf comes with its key path."""
    leaves, td = tree_flatten(tree, is_leaf)
    paths: list = []
    _paths(td, (), paths)
    return list(zip(paths, leaves, strict=True)), td


def keystr(path) -> str:
    """Render a key path as JAX does: ``[0]['a'].x``."""
    out = []
    for kind, k in path:
        if kind == "namedtuple":
            out.append(f".{k}")
        elif kind == "dict":
            out.append(f"[{k!r}]")
        else:
            out.append(f"[{k}]")
    return "".join(out)


class Partial:
    """A ``functools.partial`` that is a pytree (its bound arguments are leaves)."""

    def __init__(self, func, *args, **kwargs):
        self.func, self.args, self.keywords = func, args, kwargs

    def __call__(self, *args, **kwargs):
        return self.func(*self.args, *args, **{**self.keywords, **kwargs})


register_pytree_node(
    Partial,
    lambda p: ((p.args, p.keywords), p.func),
    lambda func, kids: Partial(func, *kids[0], **kids[1]),
)


def _describe_node(td: PyTreeDef, leaf: str) -> str:
    if td.kind == "leaf":
        return leaf
    if td.kind == "none":
        return "None"
    if td.kind in ("tuple", "list"):
        return f"a {td.kind} of length {len(td.children)}"
    if td.kind == "dict":
        return f"a dict with keys {list(td.node_data)}"
    cls = td.node_data[0]
    return f"a {cls!r}" if isinstance(cls, type) else f"a {td.kind}"


def _describe_children(td: PyTreeDef, cls) -> str:
    n = len(td.children)
    return f"a {cls!r} with {n} {'children' if n > 1 else 'child'}"


def _describe_metadata(td: PyTreeDef, cls) -> str:
    # A dict's metadata is its sorted keys; a custom node's is its auxiliary data.
    meta = td.node_data if td.kind == "dict" else td.node_data[1]
    return f"a {cls!r} with pytree metadata {meta}"


def _node_type(td: PyTreeDef):
    if td.kind in ("tuple", "list", "dict", "none"):
        return {"tuple": tuple, "list": list, "dict": dict, "none": type(None)}[td.kind]
    if td.kind in ("custom", "namedtuple"):
        return td.node_data[0]
    return None


def structure_difference(a: PyTreeDef, b: PyTreeDef, leaf: str = "a pytree leaf"):
    """The first place two tree structures differ, for error messages.

    Parameters
    ----------
    a, b : PyTreeDef
    leaf : str
        How to describe a leaf.

    Returns
    -------
    (path, a_desc, b_desc, reason) or None
        ``path`` is a key string (``[1]['a']``); ``reason`` completes "so ...", e.g.
        ``their Python types differ``.
    """
    def walk(x: PyTreeDef, y: PyTreeDef, path: tuple):
        if x == y:
            return None
        tx, ty = _node_type(x), _node_type(y)
        if x.kind != y.kind or tx is not ty:
            dx = leaf if x.kind == "leaf" else f"a {tx!r}"
            dy = leaf if y.kind == "leaf" else f"a {ty!r}"
            return keystr(path), dx, dy, "their Python types differ"
        if len(x.children) != len(y.children):
            if x.kind in ("tuple", "list"):
                return (keystr(path), _describe_node(x, leaf), _describe_node(y, leaf),
                        "the lengths do not match")
            # JAX's wording for dicts (and other nodes): counts, and for dicts the keys
            # in only one of them.
            why = "the numbers of children do not match"
            if x.kind == "dict":
                why += (", with the symmetric difference of key sets: {"
                        + " ".join(repr(k) for k in set(x.node_data) ^ set(y.node_data))
                        + "}")
            return (keystr(path), _describe_children(x, tx), _describe_children(y, ty), why)
        if x.node_data != y.node_data:
            return (keystr(path), _describe_metadata(x, tx), _describe_metadata(y, ty),
                    "the pytree node metadata does not match")
        if x.kind == "dict":
            keys = x.node_data
        elif x.kind == "namedtuple":
            keys = x.node_data[1]
        else:
            keys = range(len(x.children))
        for k, cx, cy in zip(keys, x.children, y.children, strict=True):
            got = walk(cx, cy, path + ((x.kind, k),))
            if got is not None:
                return got
        return None

    return walk(a, b, ())


def argument_paths(fun, args, kwargs) -> list[str]:
    """Argument paths (``x``, ``x[0]``, ``y['a']``) of the flat leaves of (args, kwargs).

    Parameters
    ----------
    fun : callable
        Whose signature names the positional arguments.
    args : tuple
    kwargs : dict

    Returns
    -------
    list of str
        One path per leaf, in ``tree_flatten`` order.
    """
    pairs, _ = tree_flatten_with_path((tuple(args), dict(kwargs)))
    try:
        sig = inspect.signature(fun)
        bound = sig.bind(*args, **kwargs)
        positional = [n for n in bound.arguments
                      if sig.parameters[n].kind in (inspect.Parameter.POSITIONAL_ONLY,
                                                    inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        positional = []
    out = []
    for path, _leaf in pairs:
        (_, which), (kind, key), *rest = path
        if which == 0:
            name = positional[key] if key < len(positional) else f"args[{key}]"
        else:
            name = key
        out.append(name + keystr(rest))
    return out

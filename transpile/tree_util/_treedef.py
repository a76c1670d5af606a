"""The pytree core: key entries, the node registry, ``PyTreeDef``, flatten and unflatten.

A ``PyTreeDef`` is stored flat, as JAX's C++ one is: a preorder tuple of nodes
``(kind, node_data, arity, num_leaves, num_nodes)``. Flattening, rebuilding, printing,
hashing and comparing walk that tuple with explicit stacks, so a tree a few thousand
levels deep never reaches Python's recursion limit.

Kinds: ``'leaf'``, ``'none'``, ``'tuple'``, ``'list'``, ``'dict'`` (data: the sorted keys),
``'namedtuple'`` (data: ``(cls, fields)``) and ``'custom'`` (data: ``(cls, aux)``, for
every registered class, ``OrderedDict`` and ``defaultdict`` among them).
"""
from __future__ import annotations

import collections
import difflib
import textwrap
from dataclasses import dataclass
from typing import Any, Callable, Hashable, TypeVar

__all__ = ["DictKey", "SequenceKey", "GetAttrKey", "FlattenedIndexKey", "KeyEntry",
           "KeyPath", "PyTreeDef", "register_pytree_node", "register_pytree_with_keys",
           "tree_flatten", "tree_flatten_with_path", "tree_unflatten", "keystr",
           "default_registry"]


# ---------------------------------------------------------------------------------------
# key entries: one step of a key path

@dataclass(frozen=True)
class DictKey:
    """The key of a dict entry (``['a']``)."""
    key: Hashable

    def __str__(self):
        return f"[{self.key!r}]"


@dataclass(frozen=True)
class SequenceKey:
    """The index of a tuple or list element (``[0]``)."""
    idx: int

    def __str__(self):
        return f"[{self.idx!r}]"


@dataclass(frozen=True)
class GetAttrKey:
    """An attribute: a namedtuple field or a dataclass field (``.x``)."""
    name: str

    def __str__(self):
        return f".{self.name}"


@dataclass(frozen=True)
class FlattenedIndexKey:
    """The position of a child of a node registered without keys (``[<flat index 0>]``)."""
    key: int

    def __str__(self):
        return f"[<flat index {self.key}>]"


KeyEntry = TypeVar("KeyEntry", bound=Any)
KeyPath = tuple[KeyEntry, ...]


def _simple_key(k) -> str:
    if isinstance(k, DictKey):
        return str(k.key)
    if isinstance(k, SequenceKey):
        return str(k.idx)
    if isinstance(k, GetAttrKey):
        return k.name
    if isinstance(k, FlattenedIndexKey):
        return str(k.key)
    return str(k)


def keystr(keys, *, simple: bool = False, separator: str = "") -> str:
    """Render a key path: ``['a'][0].x`` by default.

    Parameters
    ----------
    keys : tuple of key entries
    simple : bool
        Write each key bare (``a``, ``0``, ``x``) instead of in its bracket form.
    separator : str
        Put between the keys.
    """
    return separator.join(_simple_key(k) if simple else str(k) for k in keys)


# ---------------------------------------------------------------------------------------
# registry

@dataclass(frozen=True)
class _NodeType:
    name: str
    to_iter: Callable  # obj -> (children, aux)
    from_iter: Callable  # (aux, children) -> obj
    to_iter_with_keys: Callable | None = None  # obj -> ([(key, child)], aux)


_registry: dict[type, _NodeType] = {}
_BUILTIN_NODES = (tuple, list, dict, type(None))


def _check_new(nodetype):
    if nodetype in _registry or nodetype in _BUILTIN_NODES:
        raise ValueError(f"Duplicate custom PyTreeDef type registration for {nodetype}.")


def register_pytree_node(nodetype: type, flatten_func: Callable, unflatten_func: Callable,
                         flatten_with_keys_func: Callable | None = None) -> None:
    """Register ``nodetype`` as a pytree node.

    Parameters
    ----------
    nodetype : type
        The class to register (exactly; subclasses are leaves unless registered).
    flatten_func : callable
        ``obj -> (children, aux_data)``; ``aux_data`` must be hashable.
    unflatten_func : callable
        ``(aux_data, children) -> obj``.
    flatten_with_keys_func : callable, optional
        ``obj -> ([(key, child), ...], aux_data)``; without it the children's keys are
        ``FlattenedIndexKey(i)``.

    Raises
    ------
    ValueError
        When ``nodetype`` is registered already.
    """
    _check_new(nodetype)
    _registry[nodetype] = _NodeType(nodetype.__name__, flatten_func, unflatten_func,
                                    flatten_with_keys_func)


def register_pytree_with_keys(nodetype: type, flatten_with_keys: Callable,
                              unflatten_func: Callable,
                              flatten_func: Callable | None = None) -> None:
    """Register ``nodetype`` with a flatten function that names its children's keys.

    Parameters
    ----------
    nodetype : type
    flatten_with_keys : callable
        ``obj -> ([(key, child), ...], aux_data)``.
    unflatten_func : callable
        ``(aux_data, children) -> obj``.
    flatten_func : callable, optional
        ``obj -> (children, aux_data)``, a faster path when keys are not needed;
        derived from ``flatten_with_keys`` when omitted.
    """
    if flatten_func is None:
        def flatten_func(x):
            pairs, aux = flatten_with_keys(x)
            return [c for _, c in pairs], aux
    register_pytree_node(nodetype, flatten_func, unflatten_func, flatten_with_keys)


def _ordered_dict_keys(d):
    return [(DictKey(k), v) for k, v in d.items()], tuple(d)


def _default_dict_keys(d):
    keys = sorted(d)
    return [(DictKey(k), d[k]) for k in keys], (d.default_factory, tuple(keys))


register_pytree_with_keys(
    collections.OrderedDict, _ordered_dict_keys,
    lambda keys, kids: collections.OrderedDict(zip(keys, kids, strict=True)),
    lambda d: (list(d.values()), tuple(d)))
register_pytree_with_keys(
    collections.defaultdict, _default_dict_keys,
    lambda aux, kids: collections.defaultdict(aux[0], zip(aux[1], kids, strict=True)))


class _Registry:
    """``default_registry``: the node types this module flattens (builtins + registered)."""

    def __contains__(self, typ) -> bool:
        return typ in _BUILTIN_NODES or typ in _registry

    def __repr__(self):
        return "<transpile.tree_util default registry>"


default_registry = _Registry()


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _split(x, with_keys: bool):
    """``(kind, data, children, keys)`` of a node (keys None unless asked), or None for a
    leaf."""
    if x is None:
        return "none", None, (), ()
    t = type(x)
    if t is tuple or t is list:
        return (t.__name__, None, x,
                [SequenceKey(i) for i in range(len(x))] if with_keys else None)
    if t is dict:
        keys = tuple(sorted(x))
        return ("dict", keys, [x[k] for k in keys],
                [DictKey(k) for k in keys] if with_keys else None)
    node = _registry.get(t)
    if node is not None:
        if with_keys and node.to_iter_with_keys is not None:
            pairs, aux = node.to_iter_with_keys(x)
            pairs = list(pairs)
            return "custom", (t, aux), [c for _, c in pairs], [k for k, _ in pairs]
        children, aux = node.to_iter(x)
        children = list(children)
        return ("custom", (t, aux), children,
                [FlattenedIndexKey(i) for i in range(len(children))] if with_keys else None)
    if _is_namedtuple(x):
        return ("namedtuple", (t, t._fields), x,
                [GetAttrKey(f) for f in t._fields] if with_keys else None)
    return None


def _node_type(kind: str, data):
    """The Python type a node of ``kind`` stands for."""
    if kind in ("custom", "namedtuple"):
        return data[0]
    return {"tuple": tuple, "list": list, "dict": dict, "none": type(None)}.get(kind)


# ---------------------------------------------------------------------------------------
# PyTreeDef

_LEAF_NODE = ("leaf", None, 0, 1, 1)


def _sized(raw) -> tuple:
    """Preorder ``(kind, data, arity)`` entries -> nodes with subtree leaf/node counts."""
    out = [None] * len(raw)
    counts: list = []
    for i in range(len(raw) - 1, -1, -1):
        kind, data, arity = raw[i]
        if kind == "leaf":
            out[i] = _LEAF_NODE
            counts.append((1, 1))
            continue
        n_leaves, n_nodes = 0, 1
        for _ in range(arity):
            a, b = counts.pop()
            n_leaves += a
            n_nodes += b
        counts.append((n_leaves, n_nodes))
        out[i] = (kind, data, arity, n_leaves, n_nodes)
    return tuple(out)


def _format_node(kind: str, data, kids: list) -> str:
    if kind == "leaf":
        return "*"
    if kind == "none":
        return "None"
    if kind == "tuple":
        return "(" + ", ".join(kids) + ("," if len(kids) == 1 else "") + ")"
    if kind == "list":
        return "[" + ", ".join(kids) + "]"
    if kind == "dict":
        return "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(data, kids, strict=True)) + "}"
    if kind == "namedtuple":
        return f"CustomNode(namedtuple[{data[0].__name__}], [{', '.join(kids)}])"
    cls, aux = data
    return f"CustomNode({cls.__name__}[{aux}], [{', '.join(kids)}])"


class PyTreeDef:
    """The structure of a pytree, without its leaves.

    ``PyTreeDef(kind, node_data, children)`` builds one node over child treedefs;
    ``kind``, ``node_data``, ``children``, ``num_leaves`` and ``num_nodes`` describe
    the root.
    """

    __slots__ = ("_nodes",)

    def __init__(self, kind: str, node_data: Hashable = None, children=()):
        nodes = [(kind, node_data, len(children))]
        for c in children:
            nodes.extend(n[:3] for n in c._nodes)
        self._nodes = _sized(nodes)

    @classmethod
    def _from_nodes(cls, nodes: tuple) -> "PyTreeDef":
        self = object.__new__(cls)
        self._nodes = nodes
        return self

    @property
    def kind(self) -> str:
        return self._nodes[0][0]

    @property
    def node_data(self):
        return self._nodes[0][1]

    @property
    def num_leaves(self) -> int:
        return self._nodes[0][3]

    @property
    def num_nodes(self) -> int:
        return self._nodes[0][4]

    @property
    def children(self) -> tuple:
        """The treedefs of the root's children."""
        out, i = [], 1
        for _ in range(self._nodes[0][2]):
            n = self._nodes[i][4]
            out.append(PyTreeDef._from_nodes(self._nodes[i:i + n]))
            i += n
        return tuple(out)

    def unflatten(self, leaves):
        """Rebuild the tree from ``leaves``."""
        return tree_unflatten(self, leaves)

    def flatten_up_to(self, xs) -> list:
        """The subtrees of ``xs`` at this treedef's leaves (``xs`` must have this
        structure down to them)."""
        return flatten_up_to(self, xs, "tree")

    def __eq__(self, other):
        return isinstance(other, PyTreeDef) and self._nodes == other._nodes

    def __hash__(self):
        return hash(self._nodes)

    def __str__(self) -> str:
        parts: list = []
        for kind, data, arity, _, _ in reversed(self._nodes):
            kids = [parts.pop() for _ in range(arity)]
            parts.append(_format_node(kind, data, kids))
        return f"PyTreeDef({parts[0]})"

    __repr__ = __str__


_LEAF = PyTreeDef("leaf")


# ---------------------------------------------------------------------------------------
# flatten / unflatten

def _flatten(tree, is_leaf, with_path: bool, leaf_takes_path: bool = False):
    leaves: list = []
    paths: list = []
    raw: list = []
    stack = [(tree, ())]
    while stack:
        x, path = stack.pop()
        if is_leaf is not None and (is_leaf(path, x) if leaf_takes_path else is_leaf(x)):
            split = None
        else:
            split = _split(x, with_path)
        if split is None:
            raw.append(("leaf", None, 0))
            leaves.append(x)
            if with_path:
                paths.append(path)
            continue
        kind, data, children, keys = split
        raw.append((kind, data, len(children)))
        if with_path:
            for k, c in zip(reversed(keys), reversed(children), strict=True):
                stack.append((c, path + (k,)))
        else:
            stack.extend((c, ()) for c in reversed(children))
    return leaves, paths, PyTreeDef._from_nodes(_sized(raw))


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
    leaves, _, treedef = _flatten(tree, is_leaf, False)
    return leaves, treedef


def tree_flatten_with_path(tree, is_leaf: Callable | None = None,
                           is_leaf_takes_path: bool = False):
    """Like ``tree_flatten``, each leaf paired with its key path.

    Returns
    -------
    pairs : list of (key path, leaf)
    treedef : PyTreeDef
    """
    leaves, paths, treedef = _flatten(tree, is_leaf, True, is_leaf_takes_path)
    return list(zip(paths, leaves, strict=True)), treedef


def _build(kind: str, data, kids: list):
    if kind == "none":
        return None
    if kind == "tuple":
        return tuple(kids)
    if kind == "list":
        return kids
    if kind == "dict":
        return dict(zip(data, kids, strict=True))
    if kind == "namedtuple":
        return data[0](*kids)
    cls, aux = data
    return _registry[cls].from_iter(aux, kids)


def tree_unflatten(treedef: PyTreeDef, leaves):
    """Rebuild a pytree of structure ``treedef`` from ``leaves``.

    Raises
    ------
    ValueError
        When the number of leaves is not ``treedef.num_leaves``.
    """
    leaves = list(leaves)
    n = treedef.num_leaves
    if len(leaves) > n:
        raise ValueError(f"Too many leaves for PyTreeDef; expected {n}.")
    if len(leaves) < n:
        raise ValueError(f"Too few leaves for PyTreeDef; expected {n}, got {len(leaves)}")
    values: list = []
    at = n
    for kind, data, arity, _, _ in reversed(treedef._nodes):
        if kind == "leaf":
            at -= 1
            values.append(leaves[at])
            continue
        values.append(_build(kind, data, [values.pop() for _ in range(arity)]))
    return values[0]


# ---------------------------------------------------------------------------------------
# flatten_up_to: a prefix treedef against a fuller tree, with JAX's structure errors

def _prefix_error(name: str, path: tuple, kind: str, data, arity: int, x) -> ValueError:
    """JAX's "pytree structure error" for the first place where ``x`` does not have the
    node ``(kind, data, arity)`` of the prefix."""
    where = f"    {name}{keystr(path)}\n"
    ptype, xtype = _node_type(kind, data), type(x)
    split = _split(x, True) if ptype is xtype else None
    if split is None or (kind == "namedtuple") != (split[0] == "namedtuple"):
        return ValueError(
            "pytree structure error: different types at key path\n" + where +
            f"At that key path, the prefix pytree {name} has a subtree of type\n"
            f"    {ptype}\nbut at the same key path the full pytree has a subtree of "
            f"different type\n    {xtype}.")
    _, xdata, xkids, xkeys = split
    if kind in ("tuple", "list"):
        return ValueError(
            f"pytree structure error: different lengths of {kind} at key path\n" + where +
            f"At that key path, the prefix pytree {name} has a subtree of type {kind} of "
            f"length {arity}, but the full pytree has a subtree of the same type but of "
            f"length {len(xkids)}.")
    if arity != len(xkids):
        pkeys = _prefix_keys(kind, data, arity)
        try:
            diff = " ".join(_simple_key(k) for k in set(pkeys) ^ set(xkeys))
            diff = f"so the symmetric difference on key sets is\n    {diff}"
        except TypeError:
            diff = ""
        return ValueError(
            "pytree structure error: different numbers of pytree children at key path\n"
            + where + f"At that key path, the prefix pytree {name} has a subtree of type\n"
            f"    {ptype}\nwith {arity} child keys\n"
            f"    {' '.join(_simple_key(k) for k in pkeys)}\n"
            f"but at the same key path the full pytree has a subtree of the same type but "
            f"with {len(xkids)} child keys\n"
            f"    {' '.join(_simple_key(k) for k in xkeys)}\n" + diff)
    pmeta = data if kind == "dict" else data[1] if kind != "none" else None
    xmeta = xdata if kind == "dict" else xdata[1] if kind != "none" else None
    ndiff = textwrap.indent("\n".join(difflib.ndiff(str(pmeta).splitlines(),
                                                    str(xmeta).splitlines())), "    ")
    return ValueError(
        "pytree structure error: different pytree metadata at key path\n" + where +
        f"At that key path, the prefix pytree {name} has a subtree of type\n    {ptype}\n"
        f"with metadata\n    {pmeta}\nbut at the same key path the full pytree has a "
        f"subtree of the same type but with metadata\n    {xmeta}\n"
        f"so the diff in the metadata at these pytree nodes is\n{ndiff}")


def _prefix_keys(kind, data, arity):
    if kind == "dict":
        return [DictKey(k) for k in data]
    if kind == "namedtuple":
        return [GetAttrKey(f) for f in data[1]]
    if kind == "custom" and data[0] in (collections.OrderedDict,):
        return [DictKey(k) for k in data[1]]
    if kind == "custom" and data[0] is collections.defaultdict:
        return [DictKey(k) for k in data[1][1]]
    return [FlattenedIndexKey(i) for i in range(arity)]


def flatten_up_to(treedef: PyTreeDef, xs, name: str) -> list:
    """The subtrees of ``xs`` found at the leaves of ``treedef``.

    Parameters
    ----------
    treedef : PyTreeDef
        A prefix of ``xs``'s structure.
    xs : pytree
    name : str
        How error messages name ``xs`` (``tree_map tree``).

    Raises
    ------
    ValueError
        JAX's "pytree structure error" naming the key path where they differ.
    """
    out: list = []
    stack = [(xs, ())]
    for kind, data, arity, _, _ in treedef._nodes:
        x, path = stack.pop()
        if kind == "leaf":
            out.append(x)
            continue
        split = _split(x, True) if _node_type(kind, data) is type(x) else None
        if split is None or split[0] != kind or len(split[2]) != arity or \
                (kind != "none" and split[1] != data):
            raise _prefix_error(name, path, kind, data, arity, x)
        _, _, kids, keys = split
        for k, c in zip(reversed(keys), reversed(kids), strict=True):
            stack.append((c, path + (k,)))
    return out

"""The pytree functions built on the core: mapping, reducing, transposing, broadcasting,
one-level flattening and the class registrations (classes, dataclasses, static types)."""
from __future__ import annotations

import dataclasses
import functools
from typing import Any, Callable

from ._treedef import (_BUILTIN_NODES, _LEAF, GetAttrKey, PyTreeDef, _check_new, _registry,
                       _sized, _split, flatten_up_to, register_pytree_node,
                       register_pytree_with_keys, tree_flatten, tree_flatten_with_path,
                       tree_unflatten)

__all__ = ["tree_map", "tree_leaves", "tree_structure", "treedef_children", "all_leaves",
           "tree_map_with_path", "tree_leaves_with_path", "tree_reduce",
           "tree_reduce_associative", "tree_all", "tree_transpose", "tree_broadcast",
           "flatten_one_level", "flatten_one_level_with_keys", "is_tree_node",
           "treedef_is_leaf", "treedef_tuple", "register_pytree_node_class",
           "register_pytree_with_keys_class", "register_dataclass", "register_static",
           "Partial"]


class _Unspecified:
    def __repr__(self):
        return "<unspecified>"


_UNSPECIFIED = _Unspecified()


def tree_leaves(tree, is_leaf: Callable | None = None) -> list:
    """The leaves of ``tree``, in flattening order."""
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf: Callable | None = None) -> PyTreeDef:
    """The ``PyTreeDef`` of ``tree``."""
    return tree_flatten(tree, is_leaf)[1]


def treedef_children(treedef: PyTreeDef) -> list:
    """The treedefs of the immediate children of ``treedef``."""
    return list(treedef.children)


def treedef_is_leaf(treedef: PyTreeDef) -> bool:
    """True when ``treedef`` is a single node: a leaf, ``None`` or an empty container."""
    return treedef.num_nodes == 1


def treedef_tuple(treedefs) -> PyTreeDef:
    """The treedef of a tuple whose children have the structures ``treedefs``."""
    return PyTreeDef("tuple", None, tuple(treedefs))


def all_leaves(iterable, is_leaf: Callable | None = None) -> bool:
    """True if every element of ``iterable`` is a leaf (``None`` is not)."""
    return all(tree_structure(x, is_leaf) == _LEAF for x in iterable)


def is_tree_node(typ: type) -> bool:
    """True when values of type ``typ`` are pytree nodes (builtins, namedtuples and
    registered classes), not leaves."""
    return (typ in _BUILTIN_NODES or typ in _registry
            or (isinstance(typ, type) and issubclass(typ, tuple) and hasattr(typ, "_fields")))


def tree_map(f: Callable, tree, *rest, is_leaf: Callable | None = None):
    """Apply ``f`` leafwise to ``tree`` and the trees in ``rest``.

    Parameters
    ----------
    f : callable
        Takes one leaf of ``tree`` and the matching subtree of each of ``rest``.
    tree : pytree
    *rest : pytrees
        Each has ``tree``'s structure, or a fuller one: ``tree`` must be a prefix.
    is_leaf : callable, optional

    Returns
    -------
    pytree
        ``tree``'s structure.

    Raises
    ------
    ValueError
        When a tree of ``rest`` does not have ``tree``'s structure (JAX's "pytree
        structure error" naming the key path).
    """
    leaves, treedef = tree_flatten(tree, is_leaf)
    others = [flatten_up_to(treedef, r, "tree_map tree") for r in rest]
    return tree_unflatten(treedef, [f(*xs) for xs in zip(leaves, *others, strict=True)])


def tree_leaves_with_path(tree, is_leaf: Callable | None = None,
                          is_leaf_takes_path: bool = False) -> list:
    """The ``(key path, leaf)`` pairs of ``tree``."""
    return tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


def tree_map_with_path(f: Callable, tree, *rest, is_leaf: Callable | None = None,
                       is_leaf_takes_path: bool = False):
    """Like ``tree_map``, with each leaf's key path as ``f``'s first argument."""
    pairs, treedef = tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    others = [flatten_up_to(treedef, r, "tree_map_with_path tree") for r in rest]
    return tree_unflatten(treedef, [f(p, x, *xs) for (p, x), *xs in
                                    zip(pairs, *others, strict=True)])


def tree_reduce(function: Callable, tree, initializer: Any = _UNSPECIFIED,
                is_leaf: Callable | None = None):
    """``functools.reduce(function, leaves[, initializer])`` over the leaves of ``tree``."""
    leaves = tree_leaves(tree, is_leaf)
    if initializer is _UNSPECIFIED:
        return functools.reduce(function, leaves)
    return functools.reduce(function, leaves, initializer)


def _halving_reduce(xs: list, op: Callable):
    # Balanced: the first half's result combined with the second half's, as JAX nests it.
    if len(xs) == 1:
        return xs[0]
    mid = len(xs) // 2
    return op(_halving_reduce(xs[:mid], op), _halving_reduce(xs[mid:], op))


def tree_reduce_associative(operation: Callable, tree, *, identity: Any = _UNSPECIFIED,
                            is_leaf: Callable | None = None):
    """Combine the leaves of ``tree`` with an associative ``operation`` as a balanced
    tree of applications.

    Raises
    ------
    TypeError
        For a tree without leaves and no ``identity``.
    """
    leaves = tree_leaves(tree, is_leaf)
    if not leaves:
        if identity is _UNSPECIFIED:
            raise TypeError("Must specify identity for parallel reduction of empty "
                            "sequence.")
        return identity
    return _halving_reduce(leaves, operation)


def tree_all(tree, *, is_leaf: Callable | None = None) -> bool:
    """True when every leaf of ``tree`` is truthy."""
    return all(tree_leaves(tree, is_leaf))


def tree_transpose(outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None,
                   pytree_to_transpose):
    """Turn an outer-of-inner tree into an inner-of-outer one.

    Parameters
    ----------
    outer_treedef, inner_treedef : PyTreeDef
        ``inner_treedef`` None: the structure of the first outer leaf's subtree.
    pytree_to_transpose : pytree
        ``outer_treedef`` composed with ``inner_treedef``.

    Raises
    ------
    TypeError
        When the leaf counts do not multiply out.
    """
    flat, treedef = tree_flatten(pytree_to_transpose)
    if inner_treedef is None:
        inner_treedef = tree_structure(
            flatten_up_to(outer_treedef, pytree_to_transpose, "tree")[0])
    n_in, n_out = inner_treedef.num_leaves, outer_treedef.num_leaves
    if treedef.num_leaves != n_in * n_out:
        raise TypeError(f"Mismatch\n{treedef}\n != \n{outer_treedef.compose(inner_treedef)}")
    rows = [flat[i * n_in:(i + 1) * n_in] for i in range(n_out)]
    return tree_unflatten(inner_treedef,
                          [tree_unflatten(outer_treedef, col) for col in zip(*rows)])


def _compose(outer: PyTreeDef, inner: PyTreeDef) -> PyTreeDef:
    raw = []
    for node in outer._nodes:
        raw.extend(n[:3] for n in (inner._nodes if node[0] == "leaf" else (node,)))
    return PyTreeDef._from_nodes(_sized(raw))


PyTreeDef.compose = _compose


def tree_broadcast(prefix_tree, full_tree, is_leaf: Callable | None = None):
    """Repeat each leaf of ``prefix_tree`` over the subtree of ``full_tree`` it
    covers; the result has ``full_tree``'s structure."""
    leaves, prefix_def = tree_flatten(prefix_tree, is_leaf)
    subtrees = flatten_up_to(prefix_def, full_tree, "broadcast_prefix prefix_tree")
    out = []
    for leaf, sub in zip(leaves, subtrees, strict=True):
        out.extend([leaf] * tree_structure(sub).num_leaves)
    return tree_unflatten(tree_structure(full_tree), out)


def _one_level(tree, with_keys: bool):
    split = _split(tree, with_keys)
    if split is None:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    kind, data, children, keys = split
    meta = data if kind in ("dict", "none") else data[0] if kind == "namedtuple" else \
        None if kind in ("tuple", "list") else data[1]
    if with_keys:
        return tuple(zip(keys, children, strict=True)), meta
    return tuple(children), meta


def flatten_one_level(tree):
    """The children of the node ``tree`` and its metadata.

    Raises
    ------
    ValueError
        When ``tree`` is a leaf.
    """
    return _one_level(tree, False)


def flatten_one_level_with_keys(tree):
    """Like ``flatten_one_level``, each child paired with its key."""
    return _one_level(tree, True)


def register_pytree_node_class(cls):
    """Class decorator: register ``cls`` with its ``tree_flatten`` method and
    ``tree_unflatten`` classmethod."""
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def register_pytree_with_keys_class(cls):
    """Class decorator: register ``cls`` with its ``tree_flatten_with_keys`` method
    (and ``tree_flatten`` if it has one) and ``tree_unflatten`` classmethod."""
    flat = getattr(cls, "tree_flatten", None)
    register_pytree_with_keys(cls, lambda x: x.tree_flatten_with_keys(), cls.tree_unflatten,
                              None if flat is None else (lambda x: x.tree_flatten()))
    return cls


def _dataclass_fields(nodetype, data_fields, meta_fields, drop_fields):
    if data_fields is None or meta_fields is None:
        if (data_fields is None) != (meta_fields is None):
            raise TypeError("register_dataclass: data_fields and meta_fields must both be "
                            f"specified when either is specified. Got {data_fields=} "
                            f"{meta_fields=}.")
        if not dataclasses.is_dataclass(nodetype):
            raise TypeError("register_dataclass: data_fields and meta_fields are required "
                            f"when nodetype is not a dataclass. Got {nodetype=}.")
        fields = dataclasses.fields(nodetype)
        data_fields = [f.name for f in fields if not f.metadata.get("static", False)]
        meta_fields = [f.name for f in fields if f.metadata.get("static", False)]
    data_fields, meta_fields = tuple(data_fields), tuple(meta_fields)
    if dataclasses.is_dataclass(nodetype):
        init = {f.name for f in dataclasses.fields(nodetype) if f.init} - set(drop_fields)
        named = {*meta_fields, *data_fields}
        if named != init:
            msg = ("data_fields and meta_fields must include all dataclass fields with "
                   "``init=True`` and only them.")
            if init - named:
                msg += (f" Missing fields: {init - named}. Add them to drop_fields to "
                        "suppress this error.")
            if named - init:
                msg += f" Unexpected fields: {named - init}."
            raise ValueError(msg)
    if set(data_fields) & set(meta_fields):
        raise ValueError("data_fields and meta_fields must not overlap. Overlapping "
                         f"fields: {set(data_fields) & set(meta_fields)}.")
    return data_fields, meta_fields


def register_dataclass(nodetype, data_fields=None, meta_fields=None, drop_fields=()):
    """Register a dataclass (or any class built from keyword arguments) as a pytree node.

    Parameters
    ----------
    nodetype : type
    data_fields : sequence of str, optional
        Attributes that are children (pytrees). With ``meta_fields`` omitted too, a
        dataclass's fields are split by ``metadata={'static': True}``.
    meta_fields : sequence of str, optional
        Attributes kept in the treedef (hashable, static under ``jit``).
    drop_fields : sequence of str
        Dataclass ``init`` fields left out of both.

    Returns
    -------
    type
        ``nodetype``, so this works as a decorator.

    Raises
    ------
    TypeError, ValueError
        For missing, unexpected or overlapping field lists, or a second registration.
    """
    data_fields, meta_fields = _dataclass_fields(nodetype, data_fields, meta_fields,
                                                 drop_fields)
    try:
        _check_new(nodetype)
    except ValueError:
        raise ValueError(f"Duplicate custom dataclass PyTreeDef type registration for "
                         f"{nodetype}.") from None

    def flatten_with_keys(x):
        return ([(GetAttrKey(n), getattr(x, n)) for n in data_fields],
                tuple(getattr(x, n) for n in meta_fields))

    def unflatten(meta, data):
        return nodetype(**dict(zip(meta_fields, meta)), **dict(zip(data_fields, data)))

    register_pytree_with_keys(
        nodetype, flatten_with_keys, unflatten,
        lambda x: ([getattr(x, n) for n in data_fields],
                   tuple(getattr(x, n) for n in meta_fields)))
    return nodetype


def register_static(cls):
    """Register ``cls`` as a node without children: its (hashable) instances live in
    the treedef, so ``jit`` treats them as static. Returns ``cls``."""
    register_pytree_node(cls, lambda x: ((), x), lambda x, _: x)
    return cls


def static(**kwargs):
    """A ``dataclasses.field`` marked ``static`` for ``register_dataclass``
    (``jax.tree.static``)."""
    metadata = {"static": True, **(kwargs.pop("metadata", None) or {})}
    return dataclasses.field(metadata=metadata, **kwargs)


class Partial(functools.partial):
    """A ``functools.partial`` that is a pytree: its bound arguments are leaves, the
    function is static."""

    def __new__(cls, func, *args, **kw):
        if isinstance(func, functools.partial):
            # Flatten nested partials so the wrapped function is what the treedef holds.
            out = super().__new__(cls, func.func, *func.args, *args,
                                  **{**func.keywords, **kw})
            return out
        return super().__new__(cls, func, *args, **kw)


register_pytree_node(
    Partial,
    lambda p: ((p.args, p.keywords), p.func),
    lambda func, kids: Partial(func, *kids[0], **kids[1]),
)


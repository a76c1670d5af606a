"""Pytree descriptions for error messages: where two structures first differ, and the
argument paths (``x``, ``x[0]``, ``y['a']``) of a call's flat leaves."""
from __future__ import annotations

import inspect

from ._treedef import (PyTreeDef, SequenceKey, _node_type, _prefix_keys, keystr,
                       tree_flatten_with_path)

__all__ = ["structure_difference", "argument_paths"]


def _child_keys(td: PyTreeDef) -> list:
    if td.kind in ("tuple", "list"):
        return [SequenceKey(i) for i in range(len(td.children))]
    return _prefix_keys(td.kind, td.node_data, len(td.children))


def _describe_node(td: PyTreeDef, leaf: str) -> str:
    if td.kind == "leaf":
        return leaf
    if td.kind == "none":
        return "None"
    if td.kind in ("tuple", "list"):
        return f"a {td.kind} of length {len(td.children)}"
    if td.kind == "dict":
        return f"a dict with keys {list(td.node_data)}"
    return f"a {td.node_data[0]!r}"


def _describe_children(td: PyTreeDef, cls) -> str:
    n = len(td.children)
    return f"a {cls!r} with {n} {'children' if n > 1 else 'child'}"


def _describe_metadata(td: PyTreeDef, cls) -> str:
    # A dict's metadata is its sorted keys; a custom node's is its auxiliary data.
    meta = td.node_data if td.kind == "dict" else td.node_data[1]
    return f"a {cls!r} with pytree metadata {meta}"


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
    stack = [(a, b, ())]
    while stack:
        x, y, path = stack.pop()
        if x == y:
            continue
        tx, ty = _node_type(x.kind, x.node_data), _node_type(y.kind, y.node_data)
        if x.kind != y.kind or tx is not ty:
            dx = leaf if x.kind == "leaf" else f"a {tx!r}"
            dy = leaf if y.kind == "leaf" else f"a {ty!r}"
            return keystr(path), dx, dy, "their Python types differ"
        xs, ys = x.children, y.children
        if len(xs) != len(ys):
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
        keys = _child_keys(x)
        for k, cx, cy in reversed(list(zip(keys, xs, ys, strict=True))):
            stack.append((cx, cy, path + (k,)))
    return None


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
        which, key, *rest = path
        if which.idx == 0:
            name = positional[key.idx] if key.idx < len(positional) else f"args[{key.idx}]"
        else:
            name = key.key
        out.append(name + keystr(rest))
    return out


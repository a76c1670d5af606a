"""Pytrees (``jax.tree_util``): nested tuples, lists, dicts, None, namedtuples,
``OrderedDict``, ``defaultdict`` and registered classes.

A pytree is flattened into a list of leaves and a ``PyTreeDef`` that can rebuild it;
dict keys are sorted, ``None`` is a node with no children, as in JAX. ``_treedef``
holds the core (keys, registry, flatten/unflatten), ``_api`` the functions built on it,
``_diagnostics`` the structure descriptions error messages use.
"""
from __future__ import annotations

from ._api import (Partial, all_leaves, flatten_one_level,  # noqa: F401
                   flatten_one_level_with_keys, is_tree_node, register_dataclass,
                   register_pytree_node_class, register_pytree_with_keys_class,
                   register_static, static, tree_all, tree_broadcast, tree_leaves,
                   tree_leaves_with_path, tree_map, tree_map_with_path, tree_reduce,
                   tree_reduce_associative, tree_structure, tree_transpose,
                   treedef_children, treedef_is_leaf, treedef_tuple)
from ._diagnostics import argument_paths, structure_difference  # noqa: F401
from ._treedef import _registry  # noqa: F401  (call_keys: is a namedtuple class registered?)
from ._treedef import (DictKey, FlattenedIndexKey, GetAttrKey, KeyEntry,  # noqa: F401
                       KeyPath, PyTreeDef, SequenceKey, default_registry, flatten_up_to,
                       keystr, register_pytree_node, register_pytree_with_keys,
                       tree_flatten, tree_flatten_with_path, tree_unflatten)

__all__ = ["DictKey", "FlattenedIndexKey", "GetAttrKey", "KeyEntry", "KeyPath", "Partial",
           "PyTreeDef", "SequenceKey", "all_leaves", "default_registry", "flatten_one_level",
           "flatten_one_level_with_keys", "is_tree_node", "keystr", "register_dataclass",
           "register_pytree_node", "register_pytree_node_class",
           "register_pytree_with_keys", "register_pytree_with_keys_class",
           "register_static", "tree_all", "tree_broadcast", "tree_flatten",
           "tree_flatten_with_path", "tree_leaves", "tree_leaves_with_path", "tree_map",
           "tree_map_with_path", "tree_reduce", "tree_reduce_associative", "tree_structure",
           "tree_transpose", "tree_unflatten", "treedef_children", "treedef_is_leaf",
           "treedef_tuple"]

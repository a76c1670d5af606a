"""``jax.tree``: the pytree functions under short names (``transpile.tree.map`` is
``tree_util.tree_map``, ...)."""
from __future__ import annotations

from .tree_util import static  # noqa: F401
from .tree_util import tree_all as all  # noqa: F401,A004
from .tree_util import tree_broadcast as broadcast  # noqa: F401
from .tree_util import tree_flatten as flatten  # noqa: F401
from .tree_util import tree_flatten_with_path as flatten_with_path  # noqa: F401
from .tree_util import tree_leaves as leaves  # noqa: F401
from .tree_util import tree_leaves_with_path as leaves_with_path  # noqa: F401
from .tree_util import tree_map as map  # noqa: F401,A004
from .tree_util import tree_map_with_path as map_with_path  # noqa: F401
from .tree_util import tree_reduce as reduce  # noqa: F401
from .tree_util import tree_reduce_associative as reduce_associative  # noqa: F401
from .tree_util import tree_structure as structure  # noqa: F401
from .tree_util import tree_transpose as transpose  # noqa: F401
from .tree_util import tree_unflatten as unflatten  # noqa: F401

__all__ = ["all", "broadcast", "flatten", "flatten_with_path", "leaves", "leaves_with_path",
           "map", "map_with_path", "reduce", "reduce_associative", "static", "structure",
           "transpose", "unflatten"]

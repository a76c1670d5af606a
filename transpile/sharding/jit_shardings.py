"""``jit(..., in_shardings=, out_shardings=)`` and the shardings of a jitted call's
results.

The compiled program is the same whatever the shardings (every CPU device reads the
one host buffer), so shardings only decide what the results carry:

* ``in_shardings`` (a prefix of the positional arguments) place uncommitted arguments
  and must equal the sharding of committed ones (JAX's error otherwise);
* ``out_shardings`` (a prefix of the results; ``None`` leaves: no constraint) give the
  results' shardings; where none is given, ``propagate.jaxpr_out_shardings`` derives
  them from the arguments' through the traced jaxpr.
"""
from __future__ import annotations

import inspect

from .. import tree_util
from ..array import Array
from ..tree_util._treedef import flatten_up_to
from .mesh import get_mesh
from .named import NamedSharding, Sharding
from .partition_spec import PartitionSpec
from .propagate import attach, check_devices, jaxpr_out_shardings

__all__ = ["check_spec_tree", "call", "place"]


def _is_spec(s) -> bool:
    return s is None or isinstance(s, (Sharding, PartitionSpec))


def check_spec_tree(shardings, what: str) -> None:
    """Refuse at ``jit`` time a leaf that is no sharding (JAX's TypeError)."""
    for leaf in tree_util.tree_leaves(shardings, is_leaf=_is_spec):
        if not _is_spec(leaf):
            raise TypeError(f"{what} leaf specifications are expected to be PartitionSpec "
                            f"instances or None, but got {leaf}")


def _resolve(s, what: str):
    if isinstance(s, PartitionSpec):
        mesh = get_mesh()
        if mesh.empty:
            raise RuntimeError(
                f"jit requires a non-empty mesh in context if you are passing "
                f"`PartitionSpec`s to {what}. You can define a context mesh via "
                f"`jax.set_mesh(mesh)`. Alternatively, provide `Sharding`s to {what} and "
                "then the mesh context manager is not required.")
        return NamedSharding(mesh, s)
    return s


def _per_arg(in_shardings, args) -> list:
    if _is_spec(in_shardings):
        return [in_shardings] * len(args)
    if isinstance(in_shardings, (tuple, list)) and len(in_shardings) != len(args):
        raise ValueError(
            "pjit in_shardings specification must be a tree prefix of the positional "
            "arguments tuple. In particular, pjit in_shardings must either be a Sharding, "
            "a PartitionSpec, or a tuple of length equal to the number of positional "
            "arguments. But pjit in_shardings is the wrong length: got a tuple or list of "
            f"length {len(in_shardings)} for an args tuple of length {len(args)}.")
    return list(in_shardings)


def _type_text(x) -> str:
    return f"{x.dtype.name}[{','.join(str(d) for d in x.shape)}]"


def _arg_names(fun, args, kwargs) -> dict:
    """Each array leaf's argument name (id -> str), for error messages only."""
    try:
        params = list(inspect.signature(fun).parameters)
    except (TypeError, ValueError):
        params = []
    names: dict = {}
    groups = [(a, params[i] if i < len(params) else f"args[{i}]")
              for i, a in enumerate(args)] + [(v, k) for k, v in kwargs.items()]
    for arg, name in groups:
        for leaf in tree_util.tree_leaves(arg):
            names[id(leaf)] = name
    return names


def _placements(in_shardings, args) -> dict:
    """Each positional array leaf's sharding under ``in_shardings`` (id -> sharding)."""
    shardings: dict = {}
    for arg, target in zip(args, _per_arg(in_shardings, args)):
        for t, sub in zip(tree_util.tree_leaves(target, is_leaf=_is_spec) or [None],
                          _subtrees(target, arg)):
            for leaf in tree_util.tree_leaves(sub):
                shardings[id(leaf)] = _leaf_sharding(leaf, _resolve(t, "in_shardings"))
    return shardings


def _subtrees(target, arg) -> list:
    if _is_spec(target):
        return [arg]
    treedef = tree_util.tree_structure(target, is_leaf=_is_spec)
    return flatten_up_to(treedef, arg, "pjit in_shardings")


def _leaf_sharding(leaf, target):
    own = getattr(leaf, "_sharding", None) if isinstance(leaf, Array) else None
    if target is None:
        return own
    if own is not None and own != target and not (
            isinstance(own, Sharding) and own.is_equivalent_to(target, leaf.ndim)):
        raise ValueError(
            "Sharding passed to jit does not match the sharding on the respective arg. "
            f"Got jit sharding: {target},\narg sharding: {own} for arg type: "
            f"{_type_text(leaf)}")
    if isinstance(target, NamedSharding):
        target.check_compatible_aval(getattr(leaf, "shape", ()))
    return target


def call(wrapped, run, in_shardings, out_shardings, args, kwargs):
    """``run(*args, **kwargs)`` (the jitted call) with its results placed.

    Parameters
    ----------
    wrapped : JitWrapped
        For the traced jaxpr (``wrapped.trace``) and the function's name.
    in_shardings, out_shardings
        As given to ``jit`` (None: not given).
    """
    sig, ins = _inputs(wrapped, in_shardings, args, kwargs)
    return _placed(wrapped, run(*args, **kwargs), sig, ins, out_shardings, args, kwargs)


def place(wrapped, out, in_shardings, out_shardings, args, kwargs):
    """The results ``out`` of a call already made, placed as ``call`` places them."""
    sig, ins = _inputs(wrapped, in_shardings, args, kwargs)
    return _placed(wrapped, out, sig, ins, out_shardings, args, kwargs)


def _inputs(wrapped, in_shardings, args, kwargs):
    """The call's signature and its inputs' shardings, devices checked."""
    fun = wrapped._fun
    sig = wrapped._signature(args, kwargs)
    leaves = sig[1]  # the jaxpr's inputs, statics left out
    if in_shardings is None:
        ins = [getattr(x, "_sharding", None) if isinstance(x, Array) else None
               for x in leaves]
    else:
        by_id = _placements(in_shardings, args)
        ins = [by_id.get(id(x), getattr(x, "_sharding", None)) for x in leaves]
    committed = [s for s in ins if s is not None]
    if any(s != committed[0] for s in committed[1:]):  # names only for the error
        names = _arg_names(fun, args, kwargs)
        check_devices(ins, [names.get(id(x), "?") for x in leaves],
                      [_type_text(x) if hasattr(x, "dtype") else "" for x in leaves],
                      getattr(fun, "__qualname__", getattr(fun, "__name__", "fun")))
    return sig, ins


def _placed(wrapped, out, sig, ins, out_shardings, args, kwargs):
    # The walk over the jaxpr depends only on the signature and the inputs' shardings:
    # kept per wrapped function, so a repeated call pays a dict lookup, not a walk.
    memo = wrapped.__dict__.setdefault("_out_sharding_memo", {})
    mkey = (sig[0], tuple(ins))
    derived = memo.get(mkey)
    if derived is None:
        derived = [_as_compiled(d) for d in
                   jaxpr_out_shardings(wrapped.trace(*args, **kwargs).jaxpr.jaxpr, ins)]
        memo[mkey] = derived
    out_leaves, tree = tree_util.tree_flatten(out)
    if out_shardings is not None:
        given = _given(out_shardings, out, tree)
        for g, x in zip(given, out_leaves):
            if isinstance(g, NamedSharding):
                g.check_compatible_aval(x.shape)
        derived = [d if g is None else g for d, g in zip(derived, given, strict=True)]
    return tree_util.tree_unflatten(tree, attach(out_leaves, derived))


def _as_compiled(s):
    """A jitted result's sharding as JAX reports it from the compiled program: a
    replicated one is ``P()``, whatever spec of Nones the jaxpr's rules led to
    (eagerly, ``vmap`` of a replicated shard_map result keeps ``P(None,)``)."""
    if isinstance(s, NamedSharding) and len(s.spec) and all(e is None for e in s.spec):
        return NamedSharding(s.mesh, PartitionSpec(), memory_kind=s.memory_kind)
    return s


def _given(out_shardings, out, tree) -> list:
    if _is_spec(out_shardings):
        return [_resolve(out_shardings, "out_shardings")] * tree.num_leaves
    prefix = tree_util.tree_structure(out_shardings, is_leaf=_is_spec)
    specs = tree_util.tree_leaves(out_shardings, is_leaf=_is_spec)
    try:
        subs = flatten_up_to(prefix, out, "pjit out_shardings")
    except ValueError as e:
        raise ValueError(f"Mismatch details (1 found):\n{e}") from None
    given = []
    for s, sub in zip(specs, subs):
        given += [_resolve(s, "out_shardings")] * len(tree_util.tree_leaves(sub))
    return given

"""``jax.checkpoint_policies``: which intermediate values ``checkpoint(policy=...)`` may
keep for the backward pass instead of recomputing them.

A policy is ``policy(primitive, *avals, **params) -> bool`` (True: saveable). transpile
keeps every residual whatever the policy (see ``checkpoint``), so a policy changes only
the ``remat2`` equation's ``policy`` parameter; these are JAX's names and meanings, for
code written against them.
"""
from __future__ import annotations

__all__ = ["everything_saveable", "nothing_saveable", "dots_saveable", "checkpoint_dots",
           "dots_with_no_batch_dims_saveable", "checkpoint_dots_with_no_batch_dims",
           "save_only_these_names", "save_any_names_but_these",
           "save_anything_except_these_names", "save_from_both_policies",
           "save_and_offload_only_these_names", "offload_dot_with_no_batch_dims"]


def everything_saveable(*_, **__) -> bool:
    """Save every value (no recomputation)."""
    return True


def nothing_saveable(*_, **__) -> bool:
    """Save nothing: recompute everything."""
    return False


def dots_saveable(prim, *_, **__) -> bool:
    """Save the results of matrix products (``dot_general``)."""
    return getattr(prim, "name", prim) == "dot_general"


checkpoint_dots = dots_saveable


def dots_with_no_batch_dims_saveable(prim, *_, **params) -> bool:
    """Save the results of ``dot_general`` equations without batch dimensions."""
    if getattr(prim, "name", prim) != "dot_general":
        return False
    (_, _), (lhs_batch, rhs_batch) = params["dimension_numbers"]
    return not lhs_batch and not rhs_batch


checkpoint_dots_with_no_batch_dims = dots_with_no_batch_dims_saveable


def _name_of(prim, params):
    return params.get("name") if getattr(prim, "name", prim) == "name" else None


def save_only_these_names(*names_which_can_be_saved):
    """A policy saving the values named (``checkpoint_name``) in ``names``."""
    names = set(names_which_can_be_saved)

    def policy(prim, *_, **params):
        return _name_of(prim, params) in names
    return policy


def save_any_names_but_these(*names_not_to_save):
    """A policy saving every named value except those in ``names``."""
    names = set(names_not_to_save)

    def policy(prim, *_, **params):
        name = _name_of(prim, params)
        return name is not None and name not in names
    return policy


def save_anything_except_these_names(*names_not_to_save):
    """A policy saving every value except the named ones in ``names``."""
    names = set(names_not_to_save)

    def policy(prim, *_, **params):
        return _name_of(prim, params) not in names
    return policy


def save_from_both_policies(policy_1, policy_2):
    """A policy saving what either policy saves."""
    def policy(prim, *args, **params):
        return policy_1(prim, *args, **params) or policy_2(prim, *args, **params)
    return policy


def save_and_offload_only_these_names(*, names_which_can_be_saved,
                                      names_which_can_be_offloaded, offload_src,
                                      offload_dst):
    """A policy saving some named values and offloading others (on the host here,
    offloading is saving)."""
    names = set(names_which_can_be_saved) | set(names_which_can_be_offloaded)

    def policy(prim, *_, **params):
        return _name_of(prim, params) in names
    return policy


def offload_dot_with_no_batch_dims(offload_src, offload_dst):
    """A policy offloading unbatched ``dot_general`` results (saving them, here)."""
    return dots_with_no_batch_dims_saveable

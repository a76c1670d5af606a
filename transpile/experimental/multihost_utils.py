"""``jax.experimental.multihost_utils``: values across the processes of a run
(``transpile.distributed``), on the host.

An array laid out over every process's devices holds, in each process, only that
process's blocks; ``process_allgather`` assembles the whole of it in every process. With
one process each function is the one-process case (a gather adds an axis of one).
"""
from __future__ import annotations

import numpy as np

from .. import tree_util
from ..array import Array
from ..devices import process_index
from ..lax.process_collectives import process_allgather as _allgather

__all__ = ["process_allgather", "broadcast_one_to_all", "sync_global_devices",
           "assert_equal"]


def _gathered(x) -> np.ndarray:
    """Every process's ``x`` stacked on a new leading axis, in process order."""
    return np.asarray(_allgather(np.asarray(x)))


def _global_value(x: Array) -> np.ndarray:
    """The whole of an array whose blocks live in several processes: each block taken
    from a process that holds it."""
    buf = x._value
    every = _gathered(buf)
    out = np.empty_like(buf)
    for device, index in x._sharding.devices_indices_map(buf.shape).items():
        out[index] = every[device.process_index][index]
    return out


def process_allgather(in_tree, tiled: bool = False):
    """Gather each leaf of ``in_tree`` from every process, as NumPy arrays.

    Parameters
    ----------
    in_tree : pytree of arrays
        An array laid out over several processes' devices gives its whole value; any
        other leaf is this process's value, and the result stacks every process's.
    tiled : bool
        Concatenate the processes' values along their first axis instead of stacking
        them on a new one.
    """
    def one(x):
        s = getattr(x, "_sharding", None) if isinstance(x, Array) else None
        if s is not None and not s.is_fully_addressable:
            return _global_value(x)
        every = _gathered(x)
        return np.concatenate(list(every), axis=0) if tiled and every.ndim > 1 else every
    return tree_util.tree_map(one, in_tree)


def broadcast_one_to_all(in_tree, is_source: bool | None = None):
    """Every leaf of ``in_tree`` as the source process (default: process 0) has it.

    Raises
    ------
    ValueError
        When no process, or more than one, is the source.
    """
    if is_source is None:
        is_source = process_index() == 0
    sources = np.flatnonzero(_gathered(np.array(bool(is_source))))
    if len(sources) != 1:
        raise ValueError(f"broadcast_one_to_all needs exactly one source process, got "
                         f"{len(sources)}")
    return tree_util.tree_map(lambda x: _gathered(x)[sources[0]], in_tree)


def sync_global_devices(name: str) -> None:
    """Wait until every process reaches this call with the same ``name``.

    Raises
    ------
    AssertionError
        When the processes name different points.
    """
    tag = np.frombuffer(name.encode("utf-8")[:64].ljust(64, b"\0"), np.uint8)
    every = _gathered(tag)
    if not (every == every[0]).all():
        raise AssertionError(f"sync_global_devices name mismatch ('{name}')")


def assert_equal(in_tree, fail_message: str = "") -> None:
    """Check that every process holds the same ``in_tree``.

    Raises
    ------
    AssertionError
        ``fail_message`` when some leaf differs between processes.
    """
    for leaf in tree_util.tree_leaves(in_tree):
        every = _gathered(leaf)
        if not all(np.array_equal(every[0], e, equal_nan=every.dtype.kind in "fc")
                   for e in every[1:]):
            raise AssertionError(fail_message)

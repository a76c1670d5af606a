"""A bounded pool of large host buffers, so that kernels write into memory whose pages
are already mapped.

Allocating a fresh 64 MB output on every call costs a page fault per 4 KiB page (the
first write to each page), which for a memory-bound kernel costs more than the kernel.
Blocks of at least ``MIN_BYTES`` come from here; an ``Array`` holding one gives it back
when it dies, provided nothing else still references its memory (a NumPy view, an
``np.asarray`` result): then the block is simply left to the garbage collector. The
pool keeps at most ``MAX_PER_SIZE`` idle blocks per size and ``MAX_BYTES`` in all.
"""
from __future__ import annotations

import math
import sys

import numpy as np

__all__ = ["take", "give", "empty", "empty_aligned", "aligned", "MIN_BYTES", "stats"]

MIN_BYTES = 1 << 18
MAX_PER_SIZE = 4
MAX_BYTES = 1 << 30

_idle: dict = {}      # nbytes -> list of uint8 blocks
_idle_bytes = [0]
_stats = {"hits": 0, "misses": 0, "returned": 0, "dropped": 0}
_ALIGN = 64


def take(nbytes: int) -> np.ndarray:
    """A uint8 block of ``nbytes`` that owns its memory (reused when one is idle)."""
    blocks = _idle.get(nbytes)
    if blocks:
        _stats["hits"] += 1
        _idle_bytes[0] -= nbytes
        return blocks.pop()
    _stats["misses"] += 1
    return np.empty(nbytes, np.uint8)


def aligned(block: np.ndarray, nbytes: int) -> np.ndarray:
    """The 64-byte aligned ``nbytes`` inside ``block`` (which has 64 spare bytes)."""
    off = (-block.ctypes.data) % _ALIGN
    return block[off:off + nbytes]


def give(block: np.ndarray) -> None:
    """Return ``block`` for reuse (dropped if the pool is full)."""
    n = block.nbytes
    blocks = _idle.setdefault(n, [])
    if len(blocks) >= MAX_PER_SIZE or _idle_bytes[0] + n > MAX_BYTES:
        _stats["dropped"] += 1
        return
    _stats["returned"] += 1
    _idle_bytes[0] += n
    blocks.append(block)


def empty(shape, dtype) -> tuple:
    """``(array, block)``: an uninitialised array, and the pool block under it or None.

    A pooled array starts on a 64-byte boundary (its block has 64 spare bytes): results
    are often the next call's operands, and the matmul's vector loops lose a quarter of
    their speed on rows that straddle cache lines (NumPy's buffers are 16-byte aligned).
    """
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize   # (np.prod costs ~4 us a call)
    if nbytes < MIN_BYTES:
        return np.empty(shape, dtype), None
    block = take(nbytes + _ALIGN)
    return aligned(block, nbytes).view(dtype).reshape(shape), block


def empty_aligned(shape, dtype) -> np.ndarray:
    """An uninitialised C-contiguous array that starts on a 64-byte boundary (not pooled).

    For arrays that live long and are read by compiled kernels: ``transpile.numpy.array``
    copies into one, as a device transfer would.
    """
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    block = np.empty(nbytes + _ALIGN, np.uint8)
    return aligned(block, nbytes).view(dtype).reshape(shape)


def release_if_unshared(value: np.ndarray, block: np.ndarray, refs_value: int,
                        refs_block: int) -> None:
    """Give ``block`` back when ``value`` and ``block`` have no references beyond the
    expected ones (the dying owner's), so no live view can see the reused memory."""
    if sys.getrefcount(value) <= refs_value and sys.getrefcount(block) <= refs_block:
        give(block)


def stats() -> dict:
    """Counters: pool hits and misses, blocks returned and dropped, idle bytes."""
    return dict(_stats, idle_bytes=_idle_bytes[0])

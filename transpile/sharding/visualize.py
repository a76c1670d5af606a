"""``jax.debug.visualize_array_sharding``: which device holds which block, as text.

JAX draws the table with ``rich``; transpile prints the same layout with box-drawing
characters and no dependency: one cell per block of the (at most 2-D) array, rows along
dimension 0 and columns along dimension 1, each naming the devices holding the block
(``CPU 0,1`` for two replicas). Cell sizes follow the blocks' sizes, scaled to
about half of ``max_width`` characters (at least ``min_width`` per cell and room for
its label) and three lines per row of blocks.
"""
from __future__ import annotations

from .. import core
from ..array import Array
from .named import Sharding
from .shards import sharding_of

__all__ = ["visualize_sharding", "visualize_array_sharding", "inspect_array_sharding"]


def _starts(index, shape) -> tuple:
    return tuple(s.indices(n)[0] for s, n in zip(index, shape))


def _grid(shape, sharding) -> tuple[tuple, dict]:
    """The array's extent as rows x columns (a vector is one row) and the devices of
    each block, keyed by the block's (row, column) start."""
    indices = sharding.devices_indices_map(tuple(shape))
    cells: dict = {}
    for d in sorted(indices, key=lambda d: d.id):
        st = _starts(indices[d], shape)
        key = (0, st[0]) if len(shape) == 1 else (st + (0, 0))[:2]
        cells.setdefault(key, []).append(d)
    extent = (1, shape[0]) if len(shape) == 1 else (tuple(shape) + (1, 1))[:2]
    return extent, cells


def _label(devices) -> str:
    kind = devices[0].platform.upper()
    return f"{kind} {','.join(str(d.id) for d in devices)}"


def _sizes(starts, extent, budget, least) -> list:
    ends = starts[1:] + [extent]
    return [max(least, round(budget * (e - s) / max(extent, 1))) for s, e in zip(starts, ends)]


def visualize_sharding(shape, sharding, *, use_color: bool = False, scale: float = 1.0,
                       min_width: int = 9, max_width: int = 80, color_map=None) -> None:
    """Print a table of which device holds each block of an array of
    ``shape`` placed with ``sharding``.

    Raises
    ------
    ValueError
        For arrays of more than two dimensions (as JAX).
    """
    if len(shape) > 2:
        raise ValueError(f"visualize_sharding only works for shapes with 1 or 2 dimensions. "
                         f"Got shape={tuple(shape)}")
    if not isinstance(sharding, Sharding):
        raise TypeError(f"visualize_sharding: expected a Sharding, got {sharding!r}")
    extent, cells = _grid(tuple(shape), sharding)
    rows = sorted({r for r, _ in cells})
    cols = sorted({c for _, c in cells})
    labels = {k: _label(v) for k, v in cells.items()}
    least = max(min_width, max(len(t) for t in labels.values()) + 2)
    widths = _sizes(cols, extent[1], int(max_width * scale) // 2, least)
    heights = _sizes(rows, extent[0], 3 * len(rows), 1)
    lines = ["┌" + "┬".join("─" * w for w in widths) + "┐"]
    for ri, r in enumerate(rows):
        h = max(heights[ri], 1)
        for k in range(h):
            text = [labels.get((r, c), "") if k == h // 2 else "" for c in cols]
            lines.append("│" + "│".join(t.center(w) for t, w in zip(text, widths)) + "│")
        if ri < len(rows) - 1:
            lines.append("├" + "┼".join("─" * w for w in widths) + "┤")
    lines.append("└" + "┴".join("─" * w for w in widths) + "┘")
    print("\n".join(lines))


def inspect_array_sharding(value, *, callback) -> None:
    """Call ``callback(sharding)`` for each array leaf of ``value``
    (``jax.debug.inspect_array_sharding``).

    Raises
    ------
    NotImplementedError
        On a traced value: transpile knows a traced value's sharding only once the
        jitted call has run (its results carry it).
    """
    leaves = value if isinstance(value, (list, tuple)) else [value]
    for x in leaves:
        if isinstance(x, core.Tracer):
            raise NotImplementedError("inspect_array_sharding: a traced value's sharding "
                                      "is known only on the jitted call's results; "
                                      "inspect them instead")
        callback(sharding_of(x) if isinstance(x, Array) else x.sharding)


def visualize_array_sharding(arr, **kwargs) -> None:
    """Print the table of ``visualize_sharding`` for the array ``arr``."""
    inspect_array_sharding(arr, callback=lambda s: visualize_sharding(arr.shape, s,
                                                                        **kwargs))

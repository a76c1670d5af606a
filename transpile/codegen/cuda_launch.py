"""Launch fields of the CUDA kernel templates beyond loops, reductions and matmul.

Each entry maps a kernel template name (``templates/cuda/<name>``) to a function of the
``KernelPlan`` returning ``dict(cuda=<fields the template reads as k.cuda>,
scratch_exprs=<C expressions of device scratch bytes>)``; ``emit_cuda.kernel_view``
consults it for templates that have a CUDA version.

Grid sizes depend on the shapes alone (``_grid``, which ``emit_cuda`` uses too), never on the device.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["LAUNCH"]

#: Unsigned C types moving elements of 1, 2, 4 and 8 bytes.
_UNITS = {1: "uint8_t", 2: "uint16_t", 4: "uint32_t", 8: "uint64_t"}


#: Threads per block (``TP_BLOCK`` in ``runtime/tp_cuda.h``).
BLOCK = 256
#: Blocks of a grid-stride loop at most: enough to fill an H100 (132 SMs x 2048
#: threads) several times over.
MAX_GRID = 8192


def _grid(n: int, per_thread: int = 1, cap: int = MAX_GRID) -> int:
    blocks = -(-max(int(n), 1) // (BLOCK * per_thread))
    return max(1, min(blocks, cap))


def _size(extents) -> int:
    return int(np.prod([int(e) for e in extents], dtype=np.int64))


def _copy_unit(k) -> tuple:
    """``(C type, units per output element)`` moving the pieces of a joining kernel.

    The output's element type, unless a piece is another type's bytes (a bitcast between
    widths, a key view): then the narrowest width among them, so that every access is
    aligned for its buffer's own type."""
    out = k.writes[0]
    item = out.aval.dtype.itemsize
    srcs = {b.name: b for b in k.reads}
    sizes = {item}
    for p in k.fields.pieces:
        b = srcs.get(p["src"])
        sizes.add(b.aval.dtype.itemsize if b is not None else 1)  # a literal: bytes
    unit = math.gcd(*sizes)
    if unit == item and all(srcs[p["src"]].ctype == out.ctype
                            for p in k.fields.pieces if p["src"] in srcs):
        return out.ctype, 1
    return _UNITS[unit], item // unit


def _pieces(k, src_key: str) -> dict:
    """One copy per piece, in units: ``n`` units in rows of ``row``; row ``o`` of the
    piece sits at ``o * stride + offset`` in the joined buffer."""
    f = k.fields
    unit, scale = _copy_unit(k) if src_key == "src" else (f.ctype, 1)
    pieces = []
    for p in f.pieces:
        row = p["mid"] * p["inner"] * scale
        pieces.append(dict(p, n=p["outer"] * row, row=row,
                           stride=f.total_mid * p["inner"] * scale,
                           at=p["offset"] * p["inner"] * scale))
    size = max([p["n"] for p in pieces], default=0)
    return dict(cuda=dict(unit=unit, pieces=pieces, grid=_grid(size)), scratch_exprs=[])


def _concatenate(k) -> dict:
    return _pieces(k, "src")


def _split(k) -> dict:
    return _pieces(k, "dst")


def _lines(k) -> dict:
    """One thread per (outer, inner) line of a scan or an arg-reduction."""
    f = k.fields
    lines = f.outer * f.inner if f.n else 0
    if getattr(f, "line_read", None):  # bfloat16 scans: each line's floats and scratch
        per = 2 * f.n + 64
        return dict(cuda=dict(lines=lines, grid=_grid(lines), line_floats=per),
                    scratch_exprs=[f"(int64_t){lines * per} * (int64_t)sizeof(float)"])
    return dict(cuda=dict(lines=lines, grid=_grid(lines)), scratch_exprs=[])


def _threefry(k) -> dict:
    return dict(cuda=dict(grid=_grid(k.fields.size)), scratch_exprs=[])


def _element(name: str, offset: str) -> str:
    """Element ``tp_e`` of a run starting at ``name + offset``."""
    return f"{name}[tp_e]" if offset == "0" else f"{name}[{offset} + tp_e]"


def _run(run):
    """A window's contiguous run (``kernel_plans.WindowRun``, or None): its length and
    the element ``tp_e`` of its destination and source, so that threads share it."""
    if run is None:
        return None
    return dict(n=run.n, dst=_element("dst", run.dst_offset),
                src=_element("src", run.src_offset))


def _gather(k) -> dict:
    """Threads over the batch loops; where no window is filled (no guard), over the
    window's loops and its contiguous run too: every output element is then one
    thread's."""
    f = k.fields
    loops, run = list(f.batch), None
    if not f.guard:
        run = _run(f.run)
        loops += list(f.window) + ([("tp_e", run["n"])] if run else [])
    size = 0 if f.empty else _size(extent for _, extent in loops)
    return dict(cuda=dict(size=size, grid=_grid(size), loops=loops, run=run),
                scratch_exprs=[])


def _scatter(k) -> dict:
    """The operand's copy into the output is a parallel kernel (when the C copies a
    whole buffer); the updates run on one thread in the C's order, except a lone window
    (no batch loops: ``dynamic_update_slice``), whose elements are distinct and are
    shared out among threads."""
    f = k.fields
    out = k.writes[0]
    copy, init_serial = None, bool(f.init)
    if f.copy_src is not None:
        init_serial = False
        if f.copy_src != out.name:  # else updated in place: nothing to copy
            copy = dict(src=f.copy_src, dst=out.name, size=int(out.aval.size),
                        grid=_grid(out.aval.size))
    # One thread when the output starts from anything but a copy (a literal operand).
    serial = f.empty or f.batch or init_serial
    run = None if serial else _run(f.run)
    loops = list(f.window) + ([("tp_e", run["n"])] if run else [])
    window = 0 if serial else _size(e for _, e in loops)
    return dict(cuda=dict(init_copy=copy, init_serial=init_serial, window=window,
                          grid=_grid(window), loops=loops, run=run), scratch_exprs=[])


LAUNCH: dict = {
    "kernel_concatenate.j2": _concatenate,
    "kernel_split.j2": _split,
    "kernel_cumulative.j2": _lines,
    "kernel_argreduce.j2": _lines,
    "kernel_threefry.j2": _threefry,
    "kernel_gather.j2": _gather,
    "kernel_scatter.j2": _scatter,
}

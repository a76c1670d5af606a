"""Kernels of the dynamic-indexing primitives: ``gather``, the scatters and
``dynamic_update_slice`` (``dynamic_slice`` fuses into loops instead: ``body.py``).

Each kernel walks the windows that the primitive moves: an outer nest of *batch* loops
over index vectors (none for ``dynamic_update_slice``, whose starts are scalars), then an
inner nest of *window* loops over the elements of one window. Every loop carries one
element stride per buffer it moves through, so that an element's offset is a sum of
``loop variable * stride`` terms, and adjacent loops whose strides compose merge into one
(a row gather becomes one loop of ``memcpy`` s). Starts are read at run time and clamped
into ``[0, dim - window]`` (or checked against it, where a mode fills or drops
out-of-bounds windows) before any address is formed, so that no index value can move an
access outside a buffer.

Scatters and ``dynamic_update_slice`` copy the operand into the output, then update the
output: the copy is skipped when the output pointer *is* the operand's (an in-place
update), so the operand parameter is declared without ``restrict``. Updates run in order
of the flattened scatter index, which makes duplicate indices deterministic; the combine
expression of ``scatter-add`` and the others is the elementwise emitter's, so a scatter
rounds, wraps and orders NaN exactly as ``add``/``mul``/``min``/``max`` do.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import core, dtypes
from ..ir import ClosedJaxpr, Literal, _alpha
from ..lax import _indexing_common as common
from ..lax import elementwise as ew
from ..lax import indexing
from ..passes import optimize
from . import emit_c
from .body import BodyBuilder, _stmt_lines
from .index import row_major_strides
from .kernel_plans import GatherPlan, KernelParam, ScatterPlan, WindowRun
from .program import PARALLEL_MIN_ELEMENTS, FusedOperand

__all__ = ["RULES", "FUSED_INDICES", "INDICES", "indexing_kernel"]


#: The elementwise primitive each scatter combines with (None: replace, or apply the
#: ``update_jaxpr`` when there is one).
COMBINE = {indexing.scatter_p: None, indexing.scatter_add_p: ew.add_p,
           indexing.scatter_sub_p: ew.sub_p, indexing.scatter_mul_p: ew.mul_p,
           indexing.scatter_min_p: ew.min_p, indexing.scatter_max_p: ew.max_p}


# ---------------------------------------------------------------------------------------
# Loop nests with one stride per buffer

_ROLES = ("iv", "src", "dst")  # index vectors, the window's source, its destination


@dataclass
class _Loop:
    extent: int
    strides: dict  # role -> element stride (0: the role does not move)

    def __post_init__(self):
        self.strides = {r: self.strides.get(r, 0) for r in _ROLES}


def _coalesce(loops: list) -> list:
    """Drop unit loops; merge a loop into the one outside it when every buffer's outer
    stride is its inner stride times the inner extent (one contiguous run)."""
    out: list = []
    for lp in loops:
        if lp.extent == 1:
            continue
        if out and all(out[-1].strides[r] == lp.strides[r] * lp.extent for r in _ROLES):
            out[-1] = _Loop(out[-1].extent * lp.extent, lp.strides)
            continue
        out.append(lp)
    return out


def _nest(loops: list, prefix: str) -> tuple:
    """Coalesced loops as ``(names, loops)``: ``g0, g1`` or ``w0``."""
    loops = _coalesce(loops)
    return [f"{prefix}{i}" for i in range(len(loops))], loops


def _offset(names, loops, role: str) -> str:
    """``role``'s element offset in a nest: ``g0 * 5 + g1``."""
    terms = []
    for v, lp in zip(names, loops, strict=True):
        s = lp.strides[role]
        if s:
            terms.append(v if s == 1 else f"{v} * {s}")
    return " + ".join(terms) if terms else "0"


def _plus(*terms) -> str:
    terms = [t for t in terms if t != "0"]
    return " + ".join(terms) if terms else "0"


def _at(pointer: str, offset: str) -> str:
    return pointer if offset == "0" else f"{pointer} + {offset}"


def _load(dtype, expr: str) -> str:
    return emit_c.load_expr(dtype, expr)


def _store(dtype, expr: str) -> str:
    return emit_c.store_expr(dtype, expr)


def _storage_literal(value, dtype) -> str:
    """``value`` as a constant of ``dtype``'s storage type (16-bit floats: their bits)."""
    dtype = np.dtype(dtype)
    if dtypes.half_name(dtype) and dtype.itemsize == 1:  # the small floats' byte
        return f"(uint8_t)0x{int(np.asarray(value).astype(dtype).view(np.uint8)):02x}"
    if dtypes.half_name(dtype):
        bits = int(np.asarray(value).astype(dtype).view(np.uint16))
        return f"(uint16_t)0x{bits:04x}"
    return emit_c.literal(value, dtype)


def _window(loops: list, move=None) -> tuple:
    """The window nest: ``(loops, lines, run)``, loops and lines for the template's
    ``nest`` macro.

    ``move(dst_offset, src_offset)`` is the statement for one element; without it the
    window is copied, a ``memcpy`` per contiguous innermost run (gcc inlines the short
    ones: the sizes are constants), and ``run`` describes that run (else None)."""
    names, loops = _nest(loops, "w")
    run = None
    if move is None and loops and loops[-1].strides["dst"] == 1 and \
            loops[-1].strides["src"] == 1:
        inner = loops.pop()
        names.pop()
        run = WindowRun(inner.extent, _offset(names, loops, "dst"),
                        _offset(names, loops, "src"))
        line = (f"memcpy({_at('dst', run.dst_offset)}, "
                f"{_at('src', run.src_offset)}, sizeof(*dst) * {run.n});")
    else:
        move = move or (lambda d, s: f"dst[{d}] = src[{s}];")
        line = move(_offset(names, loops, "dst"), _offset(names, loops, "src"))
    lines = [line] if isinstance(line, str) else line
    return list(zip(names, [lp.extent for lp in loops], strict=True)), lines, run


# ---------------------------------------------------------------------------------------
# Starts

def _start(value, dtype, hi: int) -> tuple:
    """``(clamped, in_bounds)`` C expressions for a start read as ``value`` (C text, or
    an int for a literal) of a window whose last valid start is ``hi``."""
    if isinstance(value, int):
        return str(min(max(value, 0), hi)), ("1" if 0 <= value <= hi else "0")
    clamped = "0" if hi == 0 else emit_c.clamp_start(value, dtype, hi)
    return clamped, emit_c.start_in_bounds(value, dtype, hi)


def _start_lines(values, dtypes_, dims, operand_shape, window) -> tuple:
    """Lines declaring ``s<d>`` (clamped) for each operand dim ``d`` that ``values``
    index, the conjunction of their in-bounds tests, and the starts' offset terms."""
    strides = row_major_strides(operand_shape)
    lines, conds, terms = [], [], []
    for v, dt, d in zip(values, dtypes_, dims, strict=True):
        clamped, ok = _start(v, dt, operand_shape[d] - window[d])
        lines.append(f"const int64_t s{d} = {clamped};")
        conds.append(ok)
        terms.append(f"s{d}" if strides[d] == 1 else f"s{d} * {strides[d]}")
    conds = [c for c in conds if c != "1"]
    return lines, ("0" if "0" in conds else " && ".join(conds)), _plus(*terms)


def _batch_starts(ind, names, loops, dims, operand_shape, window, checked) -> tuple:
    """``_start_lines`` for starts read from this batch's index vector ``iv``, with the
    line pointing ``iv`` into the indices first (when any start reads it); the
    condition only where the mode ``checked`` the bounds (else None).

    Fused indices (a ``FusedOperand``: ``x[i]``'s wrapping of negative ``i``) are
    computed here instead, one statement per fused equation, from the buffers they
    read: no index array is stored between the two."""
    iv = _offset(names, loops, "iv")
    if isinstance(ind, FusedOperand):
        bb = BodyBuilder(ind.producer, ind.buffers, ind.names)
        reads = [bb.value(ind.var, bb.index(ind.aval.shape, flat=_plus(iv, str(k))))
                 for k in range(ind.aval.shape[-1])]
        head = _stmt_lines(bb.stmts)
    else:
        reads = [f"iv[{k}]" for k in range(ind.aval.shape[-1])]
        head = []
    lines, cond, base = _start_lines(reads, [ind.aval.dtype] * len(reads), dims,
                                     operand_shape, window)
    cond = cond if checked and cond else None
    if not head and any("iv[" in t for t in lines + [cond or ""]):
        head = [f"const {ind.ctype} *iv = {_at(ind.name, iv)};"]
    return head + lines, cond, base


# ---------------------------------------------------------------------------------------
# Parameters

def _expand(entries):
    """``entries`` with a fused operand replaced by the buffers its equations read."""
    for b, writable, restrict in entries:
        if isinstance(b, FusedOperand):
            yield from ((leaf, False, True) for leaf in b.leaves())
        else:
            yield b, writable, restrict


def _param_list(entries) -> list:
    """C parameters for ``(buffer, writable, restrict)`` entries, once per buffer (a
    buffer passed twice keeps ``restrict`` only if every use allows it)."""
    seen: dict = {}
    for b, writable, restrict in _expand(entries):
        if isinstance(b, Literal):
            continue
        w, r, _ = seen.get(b.name, (False, True, b))
        seen[b.name] = (w or writable, r and restrict, b)
    return [KernelParam(b.name, b.ctype, writable=w, restrict=r) for w, r, b in seen.values()]


def _copy_lines(x, out) -> list:
    """Initialise the output to the operand; skipped when they are one buffer (the
    planner may update in place), which is why the operand is not ``restrict``."""
    if isinstance(x, Literal):
        return [f"{out.name}[0] = {_storage_literal(x.val, out.aval.dtype)};"]
    if out.nbytes == 0:
        return []
    return [f"if ({out.name} != {x.name}) memcpy({out.name}, {x.name}, {out.nbytes});"]


def _copy_src(x, out):
    """The buffer ``_copy_lines`` copies the output from (None: a literal, or nothing)."""
    return None if isinstance(x, Literal) or out.nbytes == 0 else x.name


def _scalar(b):
    """A scalar operand: an int for a literal, else its buffer's element."""
    return int(b.val) if isinstance(b, Literal) else f"{b.name}[0]"


def _compute_aval(dtype):
    return core.ShapedArray((), np.dtype(dtype))


def _combine_move(prim, dtype, update_literal, update_jaxpr=None, update_consts=()):
    """The statement combining one update element into ``dst`` with ``prim``'s emitter
    (``None``: replace, or ``update_jaxpr(old, update)`` when given), reading ``src`` or
    the literal ``update_literal``."""
    dtype = np.dtype(dtype)
    if prim is None and update_jaxpr is not None:
        return _apply_move(update_jaxpr, update_consts, dtype, update_literal)
    if prim is None and update_literal is None:
        return None  # a plain copy
    if prim is None:
        value = _storage_literal(update_literal, dtype)
        return lambda d, s: f"dst[{d}] = {value};"
    aval = _compute_aval(dtype)

    def move(d, s):
        upd = emit_c.literal(update_literal, dtype) if update_literal is not None else \
            _load(dtype, f"src[{s}]")
        expr = emit_c.emit(prim, [_load(dtype, f"dst[{d}]"), upd], [aval, aval], aval, {})
        return f"dst[{d}] = {_store(dtype, _unround(expr, dtype))};"
    return move


def _apply_move(jaxpr, consts, dtype, update_literal):
    """Statements computing ``jaxpr(old, update)`` (a scalar jaxpr: ``.at[].apply``) as
    a fused loop body computes, with the old value and the update as its operands."""
    closed = optimize(ClosedJaxpr(jaxpr, list(consts)))
    j = closed.jaxpr
    names = {}
    for v in list(j.constvars) + list(j.invars) + [o for e in j.eqns for o in e.outvars]:
        names.setdefault(v, f"u{_alpha(len(names))}")
    producer = {o: e for e in j.eqns for o in e.outvars}

    def move(d, s):
        bb = BodyBuilder(producer, {}, names)
        idx = bb.index((), ())
        upd = emit_c.literal(update_literal, dtype) if update_literal is not None else \
            _load(dtype, f"src[{s}]")
        seeds = [_load(dtype, f"dst[{d}]"), upd]
        for v, c in zip(j.constvars, closed.consts, strict=True):
            if np.ndim(c):
                raise NotImplementedError("scatter update_jaxpr with array constants")
            seeds.append(emit_c.literal(np.asarray(c), v.aval.dtype))
        for v, expr in zip(list(j.invars) + list(j.constvars), seeds, strict=True):
            bb.memo[(v, idx.key())] = expr
        out = j.outvars[0]
        value = bb.value(out, idx)
        if np.dtype(out.aval.dtype) != dtype:
            value = emit_c._convert_expr(value, np.dtype(out.aval.dtype), dtype)
        return _stmt_lines(bb.stmts) + [f"dst[{d}] = {_store(dtype, value)};"]
    return move


def _unround(expr: str, dtype) -> str:
    """``tp_f16_round(e)`` -> ``e``: the store that follows rounds to the 16-bit float
    itself (likewise bfloat16)."""
    h = dtypes.half_name(dtype)
    head = f"tp_{h}_round("
    if h is None or not expr.startswith(head):
        return expr
    depth = 0
    for i, c in enumerate(expr):
        depth += (c == "(") - (c == ")")
        if depth == 0 and c == ")":
            return expr[len(head):-1] if i == len(expr) - 1 else expr
    return expr


# ---------------------------------------------------------------------------------------
# The kernels

def _gather(e, x, ind, out) -> tuple:
    p = e.params
    dn, sizes = p["dimension_numbers"], tuple(p["slice_sizes"])
    xs, os_ = x.aval.shape, out.aval.shape
    xstr, ostr = row_major_strides(xs), row_major_strides(os_)
    istr = row_major_strides(ind.aval.shape)
    batch_out = [d for d in range(len(os_)) if d not in dn.offset_dims]
    batch = []
    for j, n in enumerate(ind.aval.shape[:-1]):
        st = {"iv": istr[j], "dst": ostr[batch_out[j]]}
        for od, idim in zip(dn.operand_batching_dims, dn.start_indices_batching_dims,
                            strict=True):
            if idim == j:  # the window's position along a batching dim is the batch's
                st["src"] = xstr[od]
        batch.append(_Loop(n, st))
    win_dims = [d for d in range(len(xs)) if d not in dn.collapsed_slice_dims
                and d not in dn.operand_batching_dims]
    window = [_Loop(sizes[d], {"dst": ostr[od], "src": xstr[d]})
              for od, d in zip(dn.offset_dims, win_dims, strict=True)]
    names, loops = _nest(batch, "g")
    start_lines, cond, base = _batch_starts(
        ind, names, loops, dn.start_index_map, xs, sizes,
        checked=p["mode"] == indexing.GatherScatterMode.FILL_OR_DROP)
    fill_loops, fill_lines, _ = _window([_Loop(lp.extent, {"dst": lp.strides["dst"]})
                                      for lp in window],
                                     lambda d, s: f"dst[{d}] = {_fill(out.aval.dtype, p)};")
    window_loops, window_lines, run = _window(window)
    offset = _plus(base, _offset(names, loops, "src"))
    # One element per index vector, many of them: block the batch loop (see BLOCK).
    block = BLOCK if (len(loops) == 1 and loops[0].extent > BLOCK and not window_loops
                      and run is None and cond is None) else 0
    return "kernel_gather.j2", GatherPlan(
        params=_param_list([(x, False, True), (ind, False, True), (out, True, True)]),
        empty=out.aval.size == 0, ctype=out.ctype,
        batch=list(zip(names, [lp.extent for lp in loops], strict=True)),
        parallel=out.aval.size >= PARALLEL_MIN_ELEMENTS and len(loops) > 0,
        prologue=start_lines,
        src=_at(x.name, offset), dst=_at(out.name, _offset(names, loops, "dst")),
        window=window_loops, move=window_lines, run=run, guard=cond,
        fill_window=fill_loops, fill_move=fill_lines, size=out.aval.size, block=block,
        offset_type="int32_t" if x.aval.size <= np.iinfo(np.int32).max else "int64_t",
        offset=offset, block_src=f"{x.name} + tp_at[tp_j]")


#: Index vectors per block of a gather moving one element per index vector (``x[i]``):
#: the block's clamped source offsets are computed first, by a loop the compiler
#: vectorises, into a stack array that stays in L1; the loop of loads after it then holds
#: only a load, a load and a store per element, so that the out-of-order core keeps more
#: of its cache misses in flight than with the index arithmetic in between (1M random
#: float32 from 1M: 1.8 ms -> 1.25 ms on one core).
BLOCK = 1024


def _fill(dtype, params) -> str:
    """The fill value of out-of-bounds windows, converted as the NumPy rule converts."""
    value = params["fill_value"]
    value = common.default_fill_value(dtype) if value is None else \
        ew.convert_values(np.asarray(value), np.dtype(dtype))
    return _storage_literal(value, dtype)


def _scatter(e, x, ind, upd, out) -> tuple:
    dn = e.params["dimension_numbers"]
    xs = out.aval.shape
    us = upd.aval.shape
    xstr, ustr = row_major_strides(xs), row_major_strides(us)
    istr = row_major_strides(ind.aval.shape)
    scatter_dims = [d for d in range(len(us)) if d not in dn.update_window_dims]
    batch = []
    for j, ud in enumerate(scatter_dims):
        st = {"iv": istr[j], "src": ustr[ud]}
        for od, idim in zip(dn.operand_batching_dims, dn.scatter_indices_batching_dims,
                            strict=True):
            if idim == j:
                st["dst"] = xstr[od]
        batch.append(_Loop(us[ud], st))
    win_dims = [d for d in range(len(xs)) if d not in dn.inserted_window_dims
                and d not in dn.operand_batching_dims]
    wsize = [1] * len(xs)
    window = []
    for ud, d in zip(dn.update_window_dims, win_dims, strict=True):
        wsize[d] = us[ud]
        window.append(_Loop(us[ud], {"dst": xstr[d], "src": ustr[ud]}))
    names, loops = _nest(batch, "g")
    start_lines, cond, base = _batch_starts(
        ind, names, loops, dn.scatter_dims_to_operand_dims, xs, wsize,
        checked=e.params["mode"] != indexing.GatherScatterMode.CLIP)
    literal = upd.val if isinstance(upd, Literal) else None
    combine = COMBINE[e.primitive]
    # The combining scatters carry their combiner as update_jaxpr too; the prim rules.
    window_loops, window_lines, run = _window(window, _combine_move(
        combine, out.aval.dtype, literal,
        e.params["update_jaxpr"] if combine is None else None, e.params["update_consts"]))
    return "kernel_scatter.j2", ScatterPlan(
        params=_param_list([(x, False, False), (ind, False, True), (upd, False, True),
                            (out, True, True)]),
        init=_copy_lines(x, out), copy_src=_copy_src(x, out), ctype=out.ctype,
        # An operand too small for one window (only an empty one) takes no update.
        empty=upd.aval.size == 0 or any(w > n for w, n in zip(wsize, xs, strict=True)),
        batch=list(zip(names, [lp.extent for lp in loops], strict=True)),
        prologue=start_lines, guard=cond,
        dst=_at(out.name, _plus(base, _offset(names, loops, "dst"))),
        src=None if literal is not None or not any("src" in ln for ln in window_lines)
        else _at(upd.name, _offset(names, loops, "src")),
        window=window_loops, move=window_lines, run=run)


def _dynamic_update_slice(e, x, upd, *starts, out) -> tuple:
    xs, us = out.aval.shape, upd.aval.shape
    xstr, ustr = row_major_strides(xs), row_major_strides(us)
    start_lines, _, base = _start_lines([_scalar(s) for s in starts],
                                        [s.aval.dtype for s in starts], range(len(xs)),
                                        xs, us)
    literal = upd.val if isinstance(upd, Literal) else None
    window = [_Loop(n, {"dst": xstr[d], "src": ustr[d]}) for d, n in enumerate(us)]
    window_loops, window_lines, run = _window(window, _combine_move(None, out.aval.dtype,
                                                                    literal))
    return "kernel_scatter.j2", ScatterPlan(
        params=_param_list([(x, False, False), (upd, False, True)]
                           + [(s, False, True) for s in starts] + [(out, True, True)]),
        init=_copy_lines(x, out), copy_src=_copy_src(x, out), ctype=out.ctype,
        empty=upd.aval.size == 0, batch=[], prologue=start_lines, guard=None,
        dst=_at(out.name, base), src=None if literal is not None else upd.name,
        window=window_loops, move=window_lines, run=run)


def indexing_kernel(e, ins, outs) -> tuple:
    """``(template, fields)`` of the kernel computing ``e`` (a gather, scatter or
    dynamic_update_slice) from operand buffers or literals ``ins`` into ``outs``."""
    p = e.primitive
    if e.params.get("mode") == indexing.GatherScatterMode.ONE_HOT:
        raise NotImplementedError(f"transpile cannot compile {p.name} in ONE_HOT mode")
    if p is indexing.gather_p:
        return _gather(e, *ins, outs[0])
    if p is indexing.dynamic_update_slice_p:
        return _dynamic_update_slice(e, *ins, out=outs[0])
    return _scatter(e, *ins, outs[0])


#: The primitives this module compiles.
RULES = frozenset(COMBINE) | {indexing.gather_p, indexing.dynamic_update_slice_p}
#: Those whose index operand (at position ``INDICES``) the kernel may compute from its
#: fused producers, per index vector (``_batch_starts``). Not the scatters: their
#: update loop runs on one thread, and wrapping each index there made a 1M-update
#: segment sum slower (0.64 ms -> 0.96 ms; 0.77 ms blocked as gathers are) than a
#: parallel, vectorised loop storing the wrapped indices first.
FUSED_INDICES = frozenset({indexing.gather_p})
INDICES = 1

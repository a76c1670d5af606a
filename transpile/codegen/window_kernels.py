"""Kernels of the windowed reductions (``lax/windowed.py``): pooling in one pass.

``kernel_window.j2`` runs one loop over independent work items ``g`` (in parallel:
OpenMP threads, or CUDA threads in a grid-stride loop) around a body made here:

* ``reduce_window_sum``/``max``/``min`` and ``select_and_gather_add``: one item per
  output element; its window is visited in row-major order, positions that fall in
  padding or between dilated elements skipped (they hold the identity), so a result is
  the same whatever the number of threads;
* ``select_and_scatter_add`` (max pooling's gradient): one item per slab of the
  dimensions the windows do not span (batch, channels: window 1, stride 1, no padding);
  within it the windows run in row-major order, each adding its cotangent at its
  selected element, so overlapping windows add in a fixed order: deterministic.

The C kernels take a row form where the last axis has a few outputs at least
(``_row_body``, ``_scatter_rows``): an item owns a run of outputs along the last axis,
the window taps are the outer loops and the run the innermost one, which gcc vectorises
(``#pragma omp simd``); each output still meets its taps in the same order, so the
results are bit for bit those of the forms above, which CUDA keeps (one output per
thread) and the C kernels keep where the row form does not apply.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import dtypes
from ..lax import elementwise as ew
from ..lax import windowed as win
from ..lax import reduce_generic as rg
from . import emit_c
from .cuda_launch import LAUNCH, _grid
from .index import row_major_strides
from .kernel_plans import CumulativePlan, KernelFields
from .kernels import _acc, _kernel_plan, _params, _read, _split, _store
from ..ir import Literal
from .lowering import ELEMENTWISE, KERNEL, Lowering, lowering_of, register
from .program import PARALLEL_MIN_ELEMENTS

__all__ = ["WindowPlan"]


@dataclass(kw_only=True)
class WindowPlan(KernelFields):
    """``kernel_window.j2``: ``outer`` independent items, each running ``body`` (C
    statement lines reading the item index ``g``)."""
    outer: int
    parallel: bool
    body: list
    #: element visits in all (what the thread count is judged by)
    work: int = 0
    #: the C kernel's items and body where a row kernel applies (``_row_body``: runs of
    #: outputs in a vector loop); CUDA keeps one output per thread
    row_items: int = 0
    row_body: list | None = None


def _coords(prefix: str, index: str, shape) -> list:
    """Lines declaring ``prefix<d>``, the coordinates of flat ``index`` in ``shape``."""
    lines, rest = [], index
    for d in reversed(range(len(shape))):
        if d == 0:
            lines.append(f"const int64_t {prefix}{d} = {rest};")
        else:
            lines.append(f"const int64_t {prefix}{d} = {rest} % {shape[d]};")
            lines.append(f"const int64_t {prefix}r{d} = {rest} / {shape[d]};")
            rest = f"{prefix}r{d}"
    return lines


def _window_walk(dims, in_shape, params, visit: list) -> list:
    """A loop nest over the window of output position ``o<d>`` (for ``d`` in ``dims``),
    running ``visit`` with ``at`` the operand offset of each position inside it."""
    strides = row_major_strides(in_shape)
    lines, depth = [], 0
    terms = []
    for d in dims:
        w, s = params["window_dimensions"][d], params["window_strides"][d]
        lo = params["padding"][d][0]
        bd = params.get("base_dilation", (1,) * len(in_shape))[d]
        wd = params.get("window_dilation", (1,) * len(in_shape))[d]
        ind = "    " * depth
        lines.append(f"{ind}for (int64_t k{d} = 0; k{d} < {w}; k{d}++) {{")
        lines.append(f"{ind}    const int64_t p{d} = o{d} * {s} + k{d} * {wd} - {lo};")
        if bd == 1:
            lines.append(f"{ind}    if (p{d} < 0 || p{d} >= {in_shape[d]}) continue;")
            terms.append(f"p{d} * {strides[d]}")
        else:
            lines.append(f"{ind}    if (p{d} < 0 || p{d} % {bd} != 0 || "
                         f"p{d} / {bd} >= {in_shape[d]}) continue;")
            terms.append(f"(p{d} / {bd}) * {strides[d]}")
        depth += 1
    ind = "    " * depth
    lines.append(f"{ind}const int64_t at = {' + '.join(terms) or '0'};")
    lines += [ind + v for v in visit]
    for d in reversed(range(depth)):
        lines.append("    " * d + "}")
    return lines


#: Outputs one row item of the row kernels holds at once (its accumulators live on the
#: stack: 256 doubles are 2 KiB); a longer last axis is cut into blocks of this many.
ROW_BLOCK = 256
#: Fewest outputs along the last axis for which the row kernel is chosen: below this the
#: per-tap bookkeeping costs more than the vector loop gains.
ROW_MIN_COLUMNS = 4


def _row_layout(out_shape, params):
    """``(columns, block, blocks)`` of the row kernel, or ``None`` where the one output
    per item kernel is kept: a scalar or short last axis, or base dilation along it (the
    outputs a tap reaches would not be a run)."""
    if not out_shape or out_shape[-1] < ROW_MIN_COLUMNS:
        return None
    if params.get("base_dilation", (1,) * len(out_shape))[-1] != 1:
        return None
    cols = int(out_shape[-1])
    block = min(cols, ROW_BLOCK)
    return cols, block, -(-cols // block)


def _tap_run(last: int, w: int, tap: str, s: int, n: int, what: str) -> list:
    """The opening of a row kernel's loop over the last axis's ``w`` taps, each tap
    ``t = tap`` visiting the run of ``what`` (outputs, windows) ``j`` of the block whose
    input index ``(c0 + j) * s + t`` lies in ``[0, n)``, as a vectorised loop; the
    caller adds the loop's body and closes both braces."""
    return [f"for (int64_t k{last} = 0; k{last} < {w}; k{last}++) {{",
            f"    const int64_t t = {tap};",
            f"    /* the {what} c whose tap c * {s} + t lies in [0, {n}) */",
            f"    const int64_t c_lo = t >= 0 ? 0 : ({s - 1} - t) / {s};",
            f"    const int64_t c_hi = t >= {n} ? 0 : ({n + s - 1} - t) / {s};",
            "    const int64_t j_lo = c_lo > c0 ? c_lo - c0 : 0;",
            "    const int64_t j_hi = c_hi - c0 < nc ? c_hi - c0 : nc;",
            "    #pragma omp simd",
            "    for (int64_t j = j_lo; j < j_hi; j++) {",
            f"        const int64_t at_j = at + (c0 + j) * {s} + t;"]


def _row_body(out_shape, in_shape, params, accs, visit, stores):
    """``(items, body)`` of a row kernel: each item owns a run of outputs along the last
    axis with one accumulator array each (``accs``: C type, name, initial value).  The
    window taps are the outer loops, in the one output per item kernel's row-major
    order, and the run of outputs is the innermost loop (``#pragma omp simd``): each
    output still combines its taps in the same order, skipping the same padding, so its
    result is bit for bit that kernel's, but gcc vectorises across outputs.

    ``visit`` are the innermost statements (output ``c0 + j``, its tap's operand offset
    ``at_j``, its accumulators ``<name>[j]``); ``stores`` write output ``c0 + j`` at
    flat index ``oi``."""
    cols, block, blocks = _row_layout(out_shape, params)
    nd = len(out_shape)
    last = nd - 1
    rows = int(np.prod(out_shape[:-1], dtype=np.int64))
    n = in_shape[last]
    w, s = params["window_dimensions"][last], params["window_strides"][last]
    lo = params["padding"][last][0]
    wd = params.get("window_dilation", (1,) * nd)[last]
    body = []
    if blocks == 1:
        body += [f"const int64_t r = g, c0 = 0, nc = {cols};"]
    else:
        body += [f"const int64_t r = g / {blocks}, c0 = (g % {blocks}) * {block};",
                 f"const int64_t nc = {cols} - c0 < {block} ? {cols} - c0 : {block};"]
    body += _coords("o", "r", out_shape[:-1])
    for ct, name, init in accs:
        body += [f"{ct} {name}[{block}];",
                 f"for (int64_t j = 0; j < nc; j++) {name}[j] = {init};"]
    tap = _tap_run(last, w, f"k{last} * {wd} - {lo}", s, n, "outputs")
    tap += ["        " + v for v in visit] + ["    }", "}"]
    body += _window_walk(range(last), in_shape, params, tap)
    body += ["#pragma omp simd", "for (int64_t j = 0; j < nc; j++) {",
             f"    const int64_t oi = r * {cols} + c0 + j;"]
    body += ["    " + ln for ln in stores] + ["}"]
    return rows * blocks, body


def _fixed_offset(dims, strides) -> str:
    return " + ".join(f"o{d} * {strides[d]}" for d in dims) or "0"


def _reduce_body(e, ins, outs, rows: bool):
    """``(items, body)`` of ``reduce_window_sum``/``max``/``min``: one output per item,
    or with ``rows`` the row kernel's (``None`` where it does not apply)."""
    x, o = ins[0], outs[0]
    dt = x.aval.dtype
    op = e.primitive.name[len("reduce_window_"):]
    acc_t, init, combine, _ = _acc(op, dt)
    out_shape = o.aval.shape
    if rows:
        return _row_layout(out_shape, e.params) and _row_body(
            out_shape, x.aval.shape, e.params, [(acc_t, "acc", init)],
            [f"acc[j] = {combine.format(a='acc[j]', v=_read(x, 'at_j'))};"],
            [f"{o.name}[oi] = {_store(dt, f'({emit_c.ctype(dt)})acc[j]')};"])
    body = _coords("o", "g", out_shape) if out_shape else []
    body.append(f"{acc_t} acc = {init};")
    body += _window_walk(range(len(out_shape)), x.aval.shape, e.params,
                         [f"acc = {combine.format(a='acc', v=_read(x, 'at'))};"])
    body.append(f"{o.name}[g] = {_store(dt, f'({emit_c.ctype(dt)})acc')};")
    return o.aval.size, body


def _keep(select_prim) -> str:
    return ">=" if select_prim is ew.ge_p else "<="


def _gather_body(e, ins, outs, rows: bool):
    if rows:
        return None
    t, x, o = ins[0], ins[1], outs[0]
    ct, vt = emit_c.ctype(x.aval.dtype), emit_c.ctype(t.aval.dtype)
    keep = _keep(e.params["select_prim"])
    out_shape = o.aval.shape
    body = _coords("o", "g", out_shape) if out_shape else []
    body += [f"{ct} best = 0;", f"{vt} tv = 0;", "int have = 0;"]
    visit = [f"const {ct} v = {_read(x, 'at')};",
             f"if (!have || !(best {keep} v)) {{ best = v; tv = {_read(t, 'at')}; "
             "have = 1; }"]
    body += _window_walk(range(len(out_shape)), x.aval.shape, e.params, visit)
    body.append(f"{o.name}[g] = {_store(t.aval.dtype, 'tv')};")
    return o.aval.size, body


def _scatter_body(e, ins, outs):
    """(items, body): items are the slabs of the dimensions no window spans."""
    src, x, o = ins[0], ins[1], outs[0]
    p = e.params
    shape, src_shape = x.aval.shape, src.aval.shape
    free = [d for d in range(len(shape)) if p["window_dimensions"][d] == 1 and
            p["window_strides"][d] == 1 and tuple(p["padding"][d]) == (0, 0)]
    spanned = [d for d in range(len(shape)) if d not in free]
    xs, ss = row_major_strides(shape), row_major_strides(src_shape)
    items = int(np.prod([shape[d] for d in free], dtype=np.int64))
    body = _coords("f", "g", [shape[d] for d in free]) if free else []
    base_x = " + ".join(f"f{i} * {xs[d]}" for i, d in enumerate(free)) or "0"
    base_s = " + ".join(f"f{i} * {ss[d]}" for i, d in enumerate(free)) or "0"
    body += [f"const int64_t bx = {base_x};", f"const int64_t bs = {base_s};"]
    dt = src.aval.dtype
    zero = _store(dt, f"({emit_c.ctype(dt)})0")
    slab = [shape[d] for d in spanned]
    n_slab = int(np.prod(slab, dtype=np.int64))
    body.append(f"for (int64_t z = 0; z < {n_slab}; z++) {{")
    body += ["    " + ln for ln in _coords("z", "z", slab)]
    off = " + ".join(f"z{i} * {xs[d]}" for i, d in enumerate(spanned)) or "0"
    body += [f"    {o.name}[bx + {off}] = {zero};", "}"]
    n_src = int(np.prod([src_shape[d] for d in spanned], dtype=np.int64))
    ct = emit_c.ctype(x.aval.dtype)
    keep = _keep(p["select_prim"])
    visit = [f"const {ct} v = {_read(x, 'bx + at')};",
             f"if (sel < 0 || !(best {keep} v)) {{ best = v; sel = at; }}"]
    # o<d> for the spanned dimensions; the free ones contribute through bx
    loop = [f"for (int64_t w = 0; w < {n_src}; w++) {{"]
    inner = _coords("q", "w", [src_shape[d] for d in spanned])
    inner += [f"const int64_t o{d} = q{i};" for i, d in enumerate(spanned)]
    inner += [f"{ct} best = 0;", "int64_t sel = -1;"]
    inner += _window_walk(spanned, shape, p, visit)
    s_off = " + ".join(f"o{d} * {ss[d]}" for d in spanned) or "0"
    add = (f"({emit_c.ctype(dt)})({_read(o, 'bx + sel')} + "
           f"{_read(src, f'bs + {s_off}')})")
    inner.append(f"if (sel >= 0) {o.name}[bx + sel] = {_store(dt, add)};")
    loop += ["    " + ln for ln in inner] + ["}"]
    return items, body + loop


def _scatter_rows(e, ins, outs):
    """``(items, body)`` of ``select_and_scatter_add`` as a row kernel, or ``None``.

    An item is a slab of the free dimensions before the last one (and, where the last
    dimension is free too, a block of it).  Its windows run in the item kernel's
    row-major order, a row of them at a time: the selections of a row of windows in a
    vector loop (window taps outside, as in ``_row_body``), then their additions one
    after another, so each window selects and adds as before, in the same order.  Where
    windows span the last dimension it is not cut in blocks (neighbouring windows may
    select the same element)."""
    src, x, o = ins[0], ins[1], outs[0]
    p = e.params
    shape, src_shape = x.aval.shape, src.aval.shape
    nd = len(shape)
    if nd == 0 or dtypes.is_complex(x.aval.dtype):
        return None
    last = nd - 1
    free = [d for d in range(nd) if p["window_dimensions"][d] == 1 and
            p["window_strides"][d] == 1 and tuple(p["padding"][d]) == (0, 0)]
    cols = int(src_shape[last])
    if cols < ROW_MIN_COLUMNS or (last not in free and cols > ROW_BLOCK):
        return None
    block = min(cols, ROW_BLOCK)
    blocks = -(-cols // block)
    outer_free = [d for d in free if d != last]
    rows = [d for d in range(last) if d not in free]
    xs, ss = row_major_strides(shape), row_major_strides(src_shape)
    body = []
    if blocks == 1:
        body.append(f"const int64_t r = g, c0 = 0, nc = {cols};")
    else:
        body += [f"const int64_t r = g / {blocks}, c0 = (g % {blocks}) * {block};",
                 f"const int64_t nc = {cols} - c0 < {block} ? {cols} - c0 : {block};"]
    body += _coords("f", "r", [shape[d] for d in outer_free]) if outer_free else []
    body.append("const int64_t bx = " + (" + ".join(
        f"f{i} * {xs[d]}" for i, d in enumerate(outer_free)) or "0") + ";")
    body.append("const int64_t bs = " + (" + ".join(
        f"f{i} * {ss[d]}" for i, d in enumerate(outer_free)) or "0") + ";")
    dt, ct = src.aval.dtype, emit_c.ctype(x.aval.dtype)
    zero = _store(dt, f"({emit_c.ctype(dt)})0")
    n_rows = int(np.prod([shape[d] for d in rows], dtype=np.int64))
    ocols = shape[last] if last not in free else "nc"
    zoff = " + ".join(f"z{i} * {xs[d]}" for i, d in enumerate(rows)) or "0"
    body.append(f"for (int64_t z = 0; z < {n_rows}; z++) {{")
    body += ["    " + ln for ln in _coords("z", "z", [shape[d] for d in rows])] if rows else []
    body += [f"    for (int64_t j = 0; j < {ocols}; j++) "
             f"{o.name}[bx + {zoff} + c0 + j] = {zero};", "}"]
    n_src = int(np.prod([src_shape[d] for d in rows], dtype=np.int64))
    w, s = p["window_dimensions"][last], p["window_strides"][last]
    lo, n = p["padding"][last][0], shape[last]
    take = f"sel[j] < 0 | !(best[j] {_keep(p['select_prim'])} v)"
    tap = _tap_run(last, w, f"k{last} - {lo}", s, n, "windows") + [
           f"        const {ct} v = {_read(x, 'bx + at_j')};",
           f"        const int take = {take};",
           "        best[j] = take ? v : best[j];",
           "        sel[j] = take ? at_j : sel[j];",
           "    }", "}"]
    s_off = " + ".join(f"o{d} * {ss[d]}" for d in rows)
    s_off = f"bs + {s_off + ' + ' if s_off else ''}c0 + j"
    add = (f"({emit_c.ctype(dt)})({_read(o, 'bx + sel[j]')} + {_read(src, s_off)})")
    loop = [f"{ct} best[{block}];", f"int64_t sel[{block}];",
            f"for (int64_t w = 0; w < {n_src}; w++) {{"]
    inner = _coords("q", "w", [src_shape[d] for d in rows]) if rows else []
    inner += [f"const int64_t o{d} = q{i};" for i, d in enumerate(rows)]
    inner += ["for (int64_t j = 0; j < nc; j++) { best[j] = 0; sel[j] = -1; }"]
    inner += _window_walk(rows, shape, p, tap)
    inner += ["/* the additions in window order: selections may coincide */",
              "for (int64_t j = 0; j < nc; j++)",
              f"    if (sel[j] >= 0) {o.name}[bx + sel[j]] = {_store(dt, add)};"]
    loop += ["    " + ln for ln in inner] + ["}"]
    items = int(np.prod([shape[d] for d in outer_free], dtype=np.int64)) * blocks
    return items, body + loop


def _scalar_jaxpr(jaxpr, consts, args: list, tag: str) -> tuple:
    """C lines computing ``jaxpr`` (scalar elementwise equations only) on the C
    expressions ``args``; returns ``(lines, result expressions)``."""
    env = {}
    for v, c in zip(jaxpr.constvars, consts, strict=True):
        env[v] = emit_c.literal(np.asarray(c), v.aval.dtype)
    for v, a in zip(jaxpr.invars, args, strict=True):
        env[v] = a

    def read(a):
        return emit_c.literal(a.val, a.aval.dtype) if isinstance(a, Literal) else env[a]

    lines = []
    for i, eq in enumerate(jaxpr.eqns):
        low = lowering_of(eq.primitive)
        if low is None or low.kind != ELEMENTWISE or eq.primitive.multiple_results:
            raise NotImplementedError(
                f"transpile cannot compile a reduction whose computation uses "
                f"{eq.primitive.name!r} to C yet")
        expr = low.emit([read(a) for a in eq.invars], [a.aval for a in eq.invars],
                        eq.outvars[0].aval, **eq.params)
        name = f"{tag}{i}"
        lines.append(f"const {emit_c.ctype(eq.outvars[0].aval.dtype)} {name} = {expr};")
        env[eq.outvars[0]] = name
    return lines, [read(a) for a in jaxpr.outvars]


def _generic_body(e, ins, outs, jaxpr, consts, params, rows: bool):
    """A window reduction with the monoid ``jaxpr``: accumulators start at the init
    operands and take each window element in row-major order."""
    n = len(outs)
    xs, inits = ins[:n], ins[n:]
    out_shape = outs[0].aval.shape
    if rows and _row_layout(out_shape, params) is None:
        return None
    firsts = [(emit_c.ctype(x.aval.dtype),
               emit_c.literal(init.val, x.aval.dtype) if hasattr(init, "val")
               else _read(init, "0")) for x, init in zip(xs, inits, strict=True)]
    acc = [f"acc{i}[j]" if rows else f"acc{i}" for i in range(n)]
    lines, res = _scalar_jaxpr(jaxpr, consts, acc + [f"x{i}" for i in range(n)], "t")
    at = "at_j" if rows else "at"
    visit = [f"const {emit_c.ctype(x.aval.dtype)} x{i} = {_read(x, at)};"
             for i, x in enumerate(xs)] + lines
    visit += [f"{a} = {r};" for a, r in zip(acc, res, strict=True)]
    if rows:
        return _row_body(out_shape, xs[0].aval.shape, params,
                         [(ct, f"acc{i}", first) for i, (ct, first) in enumerate(firsts)],
                         visit, [f"{o.name}[oi] = {_store(o.aval.dtype, a)};"
                                 for o, a in zip(outs, acc, strict=True)])
    body = _coords("o", "g", out_shape) if out_shape else []
    body += [f"{ct} acc{i} = {first};" for i, (ct, first) in enumerate(firsts)]
    body += _window_walk(range(len(out_shape)), xs[0].aval.shape, params, visit)
    body += [f"{o.name}[g] = {_store(o.aval.dtype, f'acc{i}')};"
             for i, o in enumerate(outs)]
    return outs[0].aval.size, body


def _generic(e, ins, outs, rows: bool):
    if e.primitive is win.reduce_window_p:
        return _generic_body(e, ins, outs, e.params["jaxpr"], e.params["consts"],
                             e.params, rows)
    # ``reduce``: a window spanning the reduced dimensions (the output's order is the
    # window output's, with ones at those dimensions)
    shape = ins[0].aval.shape
    dims = e.params["dimensions"]
    nd = len(shape)
    params = dict(window_dimensions=tuple(shape[d] if d in dims else 1 for d in range(nd)),
                  window_strides=(1,) * nd, padding=((0, 0),) * nd)
    win_out = tuple(1 if d in dims else shape[d] for d in range(nd))
    fake = [_Shaped(o, win_out) for o in outs]
    closed = e.params["jaxpr"]
    return _generic_body(e, ins, fake, closed.jaxpr, closed.consts, params, rows)


class _Shaped:
    """A buffer seen with another shape of the same size."""

    def __init__(self, buf, shape):
        self.name, self.buf = buf.name, buf
        self.aval = buf.aval.update(shape=shape)


def _window(kname, e, ins, outs, reads, common):
    if e.primitive is win.select_and_scatter_add_p:
        outer, body = _scatter_body(e, ins, outs)
        work = outs[0].aval.size * int(np.prod(e.params["window_dimensions"],
                                                  dtype=np.int64))
        row = _scatter_rows(e, ins, outs)
    else:
        build = (_generic if e.primitive in (win.reduce_window_p, rg.reduce_p) else
                 _gather_body if e.primitive is win.select_and_gather_add_p else
                 _reduce_body)
        outer, body = build(e, ins, outs, False)
        row = build(e, ins, outs, True)
        size = outs[0].aval.size
        work = size * max(1, ins[0].aval.size // max(size, 1))
    fields = WindowPlan(params=_params(reads, outs), outer=int(outer), body=body,
                        row_items=int(row[0]) if row else 0,
                        row_body=row[1] if row else None,
                        parallel=(row[0] if row else outer) > 1 and
                        work >= PARALLEL_MIN_ELEMENTS,
                        work=int(work))
    return _kernel_plan(template="kernel_window.j2", fields=fields, **common)


def _window_launch(k) -> dict:
    """One CUDA thread per item (an output element, or a slab of the scatter)."""
    return dict(cuda=dict(size=k.fields.outer, grid=_grid(k.fields.outer)),
                scratch_exprs=[])


def _cumlogsumexp(kname, e, ins, outs, reads, common):
    """The cumulative kernel with ``logaddexp`` as its step (in float for 16-bit
    floats, as the cumulative sum)."""
    x, o = ins[0], outs[0]
    dt = x.aval.dtype
    outer, n, inner = _split(x.aval.shape, e.params["axis"])
    acc_t = "double" if dt == np.float64 else "float"
    f = "" if dt == np.float64 else "f"
    v = f"({acc_t}){_read(x, 'at')}"
    # equal arguments (infinities included) give x + log 2; otherwise the larger plus
    # log1p of the smaller's ratio (NaN propagates through the difference)
    step = (f"(acc == {v} ? acc + ({acc_t})0.6931471805599453 : "
            f"((acc > {v} ? acc : {v}) + log1p{f}(exp{f}(-fabs{f}(acc - {v})))))")
    fields = CumulativePlan(params=_params(reads, outs), outer=outer, n=n, inner=inner,
                            reverse=e.params["reverse"], acc_type=acc_t,
                            init=f"({acc_t})(-INFINITY)", step=step,
                            store=f"{o.name}[at] = {_store(dt, f'({emit_c.ctype(dt)})acc')};")
    return _kernel_plan(template="kernel_cumulative.j2", fields=fields, **common)


register((win.reduce_window_sum_p, win.reduce_window_max_p, win.reduce_window_min_p,
          win.reduce_window_p, rg.reduce_p, win.select_and_gather_add_p,
          win.select_and_scatter_add_p),
         Lowering(KERNEL, build=_window))
register(rg.cumlogsumexp_p, Lowering(KERNEL, build=_cumlogsumexp))
LAUNCH["kernel_window.j2"] = _window_launch

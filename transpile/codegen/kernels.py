"""Kernel plans for each kind of kernel: fused loops, fused reductions, and the
primitives that get kernels of their own (dot_general, cumulative ops, sort,
concatenate, stack, split, byte-copying bitcasts, argmax/argmin, threefry2x32, and
top_k and cholesky from ``linalg_kernels.py``).

Each builder returns a ``plan.KernelPlan`` whose ``fields`` are exactly what its
template under ``templates/c/`` reads: C declarations and expressions computed here,
loops and pragmas laid out there.
"""
from __future__ import annotations

import dataclasses
import re

import numpy as np

from .. import core, dtypes
from ..lax import _float8
from ..lax import contraction as dot_mod
from ..lax import keys, layout, prng, slicing
from ..lax import reduction as red
from ..lax import sorting as sort_mod
from . import conv_plan  # noqa: F401  (registers conv_general_dilated's kernel)
from . import fft_plan  # noqa: F401  (registers fft's kernel)
from . import mpi_kernels  # noqa: F401  (registers the process collectives' kernels)
from . import eig_kernels, emit_c, indexing_kernels, linalg_kernels, rng_kernels
from .body import BodyBuilder, _stmt_lines, eqn_comment
from .dot_plan import dot_fields
from .index import row_major_strides
from .kernel_plans import (ArgReducePlan, CumulativePlan, DotPlan, JoinPlan, KernelParam,
                           LoopPlan, ReducePlan, Scratch, SortPlan, SplitPlan,
                           ThreefryPlan)
from .lowering import KERNEL, RANDOM_SOURCE, REDUCTION, Lowering, lowering_of, register
from .program import PARALLEL_MIN_ELEMENTS, FusedOperand, KernelPlan
from .sort_plan import sort_fields

__all__ = ["loop_kernel", "reduce_kernel", "opaque_kernel"]



def _kernel_plan(**kw):
    return KernelPlan(**kw)


def _param(b, const: bool) -> KernelParam:
    return KernelParam(b.name, b.ctype, writable=not const)


def _params(reads: dict, writes: list) -> list:
    out = [_param(b, True) for name, b in sorted(reads.items())
           if name not in {w.name for w in writes}]
    out += [_param(w, False) for w in writes]
    return out


def _store(dtype, value: str) -> str:
    """``value`` (compute type) converted to the storage type."""
    return emit_c.store_expr(dtype, value)


# ---------------------------------------------------------------------------------------
# Fused loops

def loop_kernel(kname, root, producer, buffers, names, comment, par_min) -> "KernelPlan":
    """One loop nest over the root's shape computing the fused equations."""
    out = root.outvars[0]
    shape = out.aval.shape
    size = out.aval.size
    flat = True
    for attempt in (0, 1):
        bb = BodyBuilder(producer, buffers, names)
        if flat:
            idx = bb.index(shape, flat="idx")
            loops = [("idx", size)]
        else:
            dims = tuple(f"i{d}" for d in range(len(shape)))
            idx = bb.index(shape, dims=dims)
            loops = list(zip(dims, shape, strict=True))
        value = bb.value(out, idx)
        if flat and bb.decomposed and len(shape) > 1:
            flat = False
            continue
        break
    ob = buffers[out]
    target = f"{ob.name}[{idx.get_flat() if shape else '0'}]"
    store = f"{target} = {_store(out.aval.dtype, value)};"
    parallel = size >= par_min and loops[0][1] > 1
    fields = LoopPlan(params=_params(bb.reads, [ob]), loops=loops, parallel=parallel,
                      collapse=max(len(loops) - 1, 1), body=_stmt_lines(bb.stmts) + [store])
    template = "kernel_loop.j2"
    if loops == [("idx", size)] and size >= 2 * SAMPLER_BLOCK:
        stages = _sampler_stages(bb.stmts, store)
        if stages is not None:
            template = "kernel_loop_blocked.j2"
            fields = dataclasses.replace(fields, **stages, block=SAMPLER_BLOCK, size=size,
                                         blocks=-(-size // SAMPLER_BLOCK))
    return _kernel_plan(
        name=kname, template=template, comment=comment, reads=list(bb.reads.values()),
        writes=[ob], fields=fields)


#: Elements per block of a sampler loop split in two stages (``_sampler_stages``).
SAMPLER_BLOCK = 1024
#: Costs of functions costly enough that a sampler computes them in a loop of their own.
_HEAVY = frozenset({core.Cost.TRANSCENDENTAL, core.Cost.DIVIDE})
_SCALAR_READ = re.compile(r"^\w+\[0\]$")


def _stmt_primitive(comment) -> str | None:
    """``erf_inv`` from the statement comment ``l = erf_inv k``."""
    if not comment or " = " not in comment:
        return None
    return comment.split(" = ", 1)[1].split(" ", 1)[0].split("[", 1)[0]


def _sampler_stages(stmts, store: str) -> dict | None:
    """A sampler's loop body (threefry bits, then a costly transform such as erf_inv)
    cut in two stages run one after the other over blocks of ``SAMPLER_BLOCK`` elements,
    the values crossing the cut kept in small arrays on the stack.

    One loop holding both the cipher and the transform needs more vector registers than
    there are, and spills; two smaller loops over a block that stays in L1 ran 20-25%
    faster (``benchmarks/bench_random.py``). None when the body is not such a sampler."""
    prims = [core.primitives.get(_stmt_primitive(c)) for c, _, _, _ in stmts]
    src = next((i for i, p in enumerate(prims)
                if p is not None and lowering_of(p).kind == RANDOM_SOURCE), None)
    if src is None:
        return None
    cut = next((i for i in range(src + 1, len(stmts))
                if prims[i] is not None and prims[i].cost in _HEAVY), None)
    if cut is None:
        return None
    first, second = stmts[:cut], stmts[cut:]
    later = [e for _, _, _, e in second] + [store]
    crossing, again = [], []
    for c, ctype, name, expr in first:
        pat = re.compile(rf"\b{re.escape(name)}\b")
        if any(pat.search(t) for t in later):
            (again if _SCALAR_READ.match(expr) else crossing).append((c, ctype, name, expr))
    if not crossing:
        return None
    saves = [f"tp_blk_{name}[tp_j] = {name};" for _, _, name, _ in crossing]
    loads = [f"const {ctype} {name} = tp_blk_{name}[tp_j];" for _, ctype, name, _ in crossing]
    return dict(stage1=_stmt_lines(first) + saves,
                stage2=loads + _stmt_lines(again) + _stmt_lines(second) + [store],
                arrays=[(ctype, f"tp_blk_{name}") for _, ctype, name, _ in crossing])


# ---------------------------------------------------------------------------------------
# Fused reductions

def _acc(op: str, dtype):
    """Accumulator C type, initial value and combine expression (``{a}``, ``{v}``)."""
    dt = np.dtype(dtype)
    ct = emit_c.ctype(dt)
    sfx = emit_c._sfx(dt)
    if dtypes.is_complex(dt):
        return _complex_acc(op, dt, ct, sfx)
    if op in ("sum", "prod"):
        sym = "+" if op == "sum" else "*"
        if dtypes.is_small_float(dt):  # every step rounded, in order: no SIMD reduction
            init = ("NAN" if _float8.nan_identity(dt) else "0.0f") if op == "sum" else "1.0f"
            step = f"tp_scan16_step_{dtypes.half_name(dt)}"  # runtime/tp_scan16.h
            return "float", init, f"{step}({{a}}, {{v}}, {int(op == 'prod')})", None
        if dtypes.is_float(dt):
            acc = "float" if dtypes.half_name(dt) else "double"
            return acc, ("0.0" if op == "sum" else "1.0"), f"{{a}} {sym} ({acc}){{v}}", sym
        return "uint64_t", ("0" if op == "sum" else "1"), f"{{a}} {sym} (uint64_t){{v}}", sym
    if op in ("max", "min"):
        if dtypes.is_float(dt):
            init = "(-INFINITY)" if op == "max" else "INFINITY"
            if dt == np.float64:
                init = f"(double){init}"
            return ct, init, f"tp_{op}_{sfx}({{a}}, {{v}})", None
        if dt == np.bool_:
            return ct, ("0" if op == "max" else "1"), \
                ("({a} | {v})" if op == "max" else "({a} & {v})"), None
        info = dtypes.iinfo(dt)
        init = emit_c.literal(info.min if op == "max" else info.max, dt)
        cmp = ">" if op == "max" else "<"
        return ct, init, f"({{v}} {cmp} {{a}} ? {{v}} : {{a}})", None
    sym = {"and": "&", "or": "|", "xor": "^"}[op]
    init = "1" if (op == "and" and dt == np.bool_) else \
        (f"({ct})~({ct})0" if op == "and" else "0")
    return ct, init, f"({ct})({{a}} {sym} {{v}})", None


def _complex_acc(op: str, dt, ct: str, sfx: str):
    """Complex accumulators: sums in the operand's type, products by the textbook
    product, max/min in the lexicographic order (``runtime/tp_complex.h``)."""
    if op == "sum":
        return ct, emit_c.literal(0, dt), "({a} + {v})", None
    if op == "prod":
        return ct, emit_c.literal(1, dt), f"tp_cmul_{sfx}({{a}}, {{v}})", None
    if op in ("max", "min"):
        lowest = -np.inf if op == "max" else np.inf
        return ct, emit_c.literal(complex(lowest, lowest), dt), \
            f"tp_c{op}_{sfx}({{a}}, {{v}})", None
    raise NotImplementedError(f"no complex {op} reduction")


def _minmax_fields(op, dtype, value) -> dict:
    """The vectorised fold of a float32/float64 max/min (``minmax_fold.j2``): a plain
    comparison step, NaN-blind, with the NaNs counted beside it, and the condition on its
    result (zero or subnormal) under which the elements are folded again in order. The
    NaN- and sign-aware step (``tp_max``) does not vectorise: softmax's row maximum took
    five times its row sum."""
    dt = np.dtype(dtype)
    if op not in ("max", "min") or dt not in (np.float32, np.float64):
        return {}
    tiny = emit_c.literal(np.finfo(dt).tiny, dt)
    cmp = ">" if op == "max" else "<"
    return dict(minmax=op, minmax_step=[
        f"const {emit_c.ctype(dt)} tp_m = {value};",
        f"acc = tp_m {cmp} acc ? tp_m : acc;",
        "nan_n |= tp_m != tp_m;"], minmax_redo=f"(acc < {tiny} && acc > -{tiny})")


#: Bytes of the accumulator types that are not the operand's own.
_ACC_BYTES = {"double": 8, "uint64_t": 8, "float": 4}
#: Rows of a column reduction's chunk at least, and chunks at most.
COL_CHUNK_ROWS = 64
COL_CHUNKS_MAX = 16


def _row_chunks(rows: int) -> tuple:
    """``(chunks, rows per chunk)`` of a parallel column reduction (``(0, 0)``: one
    pass down each block of columns). Walking a block of columns down the rows reads
    1 KiB per row at the row stride, which the prefetchers follow badly (sum over axis 0
    of 4096^2 float32 ran at a third of the row sum's speed); chunks of whole rows read
    memory in order. Fixed by the size alone, so the bits do not depend on the threads."""
    chunk = max(COL_CHUNK_ROWS, -(-rows // COL_CHUNKS_MAX))
    n = -(-rows // chunk)
    return (n, chunk) if n > 1 else (0, 0)


def reduce_kernel(kname, root, producer, buffers, names, comment, par_min) -> "KernelPlan":
    """A reduction whose operand is computed by the fused equations in the loop."""
    op = lowering_of(root.primitive).reduction
    x = root.invars[0]
    out = root.outvars[0]
    axes = tuple(sorted(root.params["axes"]))
    shape = x.aval.shape
    kept = [d for d in range(len(shape)) if d not in axes]
    acc_t, init, combine, simd_op = _acc(op, x.aval.dtype)
    bb = BodyBuilder(producer, buffers, names)
    ob = buffers[out]
    n_out = out.aval.size
    red_size = int(np.prod([shape[d] for d in axes], dtype=np.int64))
    lead = axes == tuple(range(len(axes)))
    # small-float sums fold each output's elements in order (XLA's), one row at a time
    rows_only = dtypes.is_small_float(x.aval.dtype) and op in ("sum", "prod")
    if n_out == 1 and not rows_only:
        mode = "full"
        idx = bb.index(shape, flat="idx")
        inner = [("idx", None)]
        outer = []
    elif lead and not rows_only:
        # Reduced dimensions lead: walk rows in order, accumulating a block of columns
        # at once (contiguous, vectorised); each output still sums its column in order.
        mode = "cols"
        idx = bb.index(shape, flat=f"rix * {n_out} + c_b + c_j")
        inner = [("c_j", None)]
        outer = [("rix", red_size)]
    else:
        mode = "rows"
        outer = [("oix", n_out)]
        if axes == tuple(range(len(kept), len(shape))):
            idx = bb.index(shape, flat=f"oix * {red_size} + rix")
            inner = [("rix", red_size)]
        else:
            odims = bb.index(out.aval.shape, flat="oix").get_dims()
            rdims = [f"r{i}" for i in range(len(axes))]
            dims = [None] * len(shape)
            for d, e in zip(kept, odims, strict=True):
                dims[d] = e
            for d, e in zip(axes, rdims, strict=True):
                dims[d] = e
            idx = bb.index(shape, dims=tuple(dims))
            inner = [(r, shape[d]) for r, d in zip(rdims, axes, strict=True)]
    value = bb.value(x, idx)
    lines = _stmt_lines(bb.stmts)
    total = x.aval.size
    # Fixed chunks, whatever the thread count: the partial sums and their order depend on
    # the size alone, so results are identical with 1 or 16 threads.
    chunk = max(1 << 14, -(-total // 4096))
    acc = "acc_v[c_j]" if mode == "cols" else "acc"
    # float32/float64 max/min: the vectorised fold of whole rows, or of each chunk
    minmax = _minmax_fields(op, x.aval.dtype, value) if (
        mode == "full" or (mode == "rows" and len(inner) == 1)) else {}
    chunks = _row_chunks(red_size) if mode == "cols" and total >= par_min else (0, 0)
    fields = ReducePlan(
        params=_params(bb.reads, [ob]), mode=mode, acc_type=acc_t, init=init,
        n_out=n_out, red_size=red_size,
        step=combine.format(a=acc, v=value), merge=combine.format(a="acc", v="part[c_i]"),
        merge_with=combine.format(a="acc", v="tp_other"),
        body=lines, simd_op=simd_op if len(inner) == 1 else None,
        store=f"{ob.name}[{ {'full': '0', 'rows': 'oix', 'cols': 'c_b + c_j'}[mode]}] = "
              f"{_store(out.aval.dtype, f'({emit_c.ctype(out.aval.dtype)}){acc}')};",
        total=total, chunk=chunk, nchunks=max(-(-total // chunk), 1), outer=outer,
        inner=inner, parallel=total >= par_min, ordered=rows_only, **minmax,
        row_chunks=chunks[0], row_chunk=chunks[1],
        part_step=combine.format(a="acc", v=value),
        part_merge=combine.format(a="acc", v=f"part_all[c_g * {n_out} + c_j]"),
        part_store=f"{ob.name}[c_j] = "
                   f"{_store(out.aval.dtype, f'({emit_c.ctype(out.aval.dtype)})acc')};",
        scratch=[Scratch(chunks[0] * n_out * _ACC_BYTES.get(acc_t, x.aval.dtype.itemsize))]
        if chunks[0] else [])
    return _kernel_plan(name=kname, template="kernel_reduce.j2", comment=comment,
                        reads=list(bb.reads.values()), writes=[ob], fields=fields)


# ---------------------------------------------------------------------------------------
# Kernels of their own

def _split(shape, axis):
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    inner = int(np.prod(shape[axis + 1:], dtype=np.int64))
    return outer, int(shape[axis]), inner


def _read(b, offset: str) -> str:
    return emit_c.load_expr(b.aval.dtype, f"{b.name}[{offset}]")


#: Primitives whose output holds the operand's bytes in a new type: a byte-copying
#: bitcast, and the views between key data (uint32[..., 2]) and keys (one uint64_t each).
_BYTE_COPIES = frozenset({layout.bitcast_convert_type_p,
                          keys.random_wrap_p,
                          keys.random_unwrap_p})


def _joining_fields(e, ins, o) -> dict:
    """Pieces copied into the output ``o`` (a buffer) at offsets along one of its axes:
    ``concatenate``'s operands; ``stack``'s, each a slab of size 1 on the new axis; a
    bitcast's one operand, whose bytes are the output's (row-major layouts agree)."""
    p = e.primitive
    if p in _BYTE_COPIES:
        dim, out_shape = 0, (o.aval.size,)
        operands = [((o.aval.size,), ins[0])]
    else:
        dim = e.params["dimension"] if p is slicing.concatenate_p else e.params["axis"]
        out_shape = o.aval.shape
        operands = [(a.aval.shape if p is slicing.concatenate_p else
                     a.aval.shape[:dim] + (1,) + a.aval.shape[dim:], b)
                    for a, b in zip(e.invars, ins, strict=True)]
    pieces, decls, off = [], [], 0
    for shape, b in operands:
        outer, mid, inner = _split(shape, dim)
        if outer * mid * inner:
            src = getattr(b, "name", None)
            if src is None:  # a literal (a scalar): read from a local array of one
                src = f"lit{len(decls)}"
                dt = b.aval.dtype
                decls.append(f"const {emit_c.stype(dt)} {src}[1] = "
                             f"{{{_store(dt, emit_c.literal(b.val, dt))}}};")
            pieces.append(dict(src=src, outer=outer, mid=mid, inner=inner, offset=off))
        off += mid
    return dict(pieces=pieces, decls=decls, total_mid=out_shape[dim], out=o.name,
                ctype=o.ctype)


def _threefry_fields(e, ins, outs) -> dict:
    """One flat loop over the output computing both words of each element.

    An operand of the output's shape is read at ``idx``; a scalar (rank 0, or every
    dimension broadcast) is read once before the loop, so the loop body is the cipher
    alone and vectorises; one broadcast along some dimensions only (JAX's rule allows
    size-1 dimensions) has its offset computed from ``idx``."""
    shape = e.outvars[0].aval.shape
    size = e.outvars[0].aval.size
    out_strides = row_major_strides(shape)
    decls, index_lines, operands = [], [], []
    for i, (a, b) in enumerate(zip(e.invars, ins, strict=True)):
        local = f"op{i}"
        if hasattr(b, "val"):  # a literal: always a scalar
            decls.append(f"const uint32_t {local} = {emit_c.literal(b.val, a.aval.dtype)};")
            operands.append(local)
        elif a.aval.shape == shape:
            operands.append(f"{b.name}[idx]")
        else:
            terms = []
            if a.aval.shape:
                for dim, (n, os_, s) in enumerate(zip(
                        shape, out_strides, row_major_strides(a.aval.shape), strict=True)):
                    if a.aval.shape[dim] != 1:
                        terms.append(f"(idx / {os_}) % {n} * {s}")
            if terms:
                index_lines.append(f"const int64_t at{i} = {' + '.join(terms)};")
                operands.append(f"{b.name}[at{i}]")
            else:
                decls.append(f"const uint32_t {local} = {b.name}[0];")
                operands.append(local)
    return dict(size=size, decls=decls, index_lines=index_lines, operands=operands,
                y0=outs[0].name, y1=outs[1].name, parallel=size >= PARALLEL_MIN_ELEMENTS)


def opaque_kernel(kname, e, buffers, names, producer=None, comment=None) -> "KernelPlan":
    """The kernel of its own of ``e``, made by its primitive's builder in the lowering
    table (``lowering.LOWERINGS``). An operand made by an equation of ``producer`` (the
    fused equations of ``Lowering.fused_operands``) arrives as a ``FusedOperand``."""
    p = e.primitive
    low = lowering_of(p)
    if low is None or low.build is None:
        raise NotImplementedError(f"transpile cannot compile primitive {p.name!r} to C yet")
    producer = producer or {}
    ins = [a if hasattr(a, "val") else FusedOperand(a, producer, buffers, names)
           if a in producer else buffers[a] for a in e.invars]
    outs = [buffers[o] for o in e.outvars]
    reads = {}
    for b in ins:
        for leaf in b.leaves() if isinstance(b, FusedOperand) else [b]:
            if hasattr(leaf, "kind"):
                reads[leaf.name] = leaf
    common = dict(name=kname, comment=comment or eqn_comment(e, names),
                  reads=list(reads.values()), writes=outs)
    return low.build(kname, e, ins, outs, reads, common)


def _dot(kname, e, ins, outs, reads, common):
    fields = DotPlan(**dot_fields(e, ins, outs[0]), params=_params(reads, outs))
    return _kernel_plan(template="kernel_dot.j2", fields=fields, **common)


def _cumulative(kname, e, ins, outs, reads, common):
    op = e.primitive.name[3:]
    x, o = ins[0], outs[0]
    outer, n, inner = _split(x.aval.shape, e.params["axis"])
    dt = x.aval.dtype
    if op in ("sum", "prod") and not dtypes.is_complex(dt):
        acc_t = "double" if dt == np.float64 else ("float" if dtypes.is_float(dt)
                                                    else "uint64_t")
        init = ("0" if op == "sum" else "1")
        update = f"acc {'+' if op == 'sum' else '*'} ({acc_t}){_read(x, 'at')}"
    else:
        acc_t, init, combine, _ = _acc(op, dt)
        update = combine.format(a="acc", v=_read(x, "at"))
        if dt == np.float16 and op in ("max", "min"):
            # a windowed max/min in XLA: float16's positive quiet NaN, as its elementwise
            update = f"tp_quiet_nan_f32({update})"
    fields = CumulativePlan(params=_params(reads, outs), outer=outer, n=n, inner=inner,
                  reverse=e.params["reverse"], acc_type=acc_t, init=init, step=update,
                  store=f"{o.name}[at] = "
                        f"{_store(dt, f'({emit_c.ctype(dt)})acc')};")
    if op in ("sum", "prod") and (dt == dtypes.bfloat16 or dtypes.is_small_float(dt)):
        fields.line_fn = f"tp_scan16_{dtypes.half_name(dt)}"  # XLA's blocked scan
        fields.line_read = _read(x, "at")
        fields.line_write = f"{o.name}[at] = {_store(dt, 'tp_line[s]')};"
        fields.line_prod = op == "prod"
    return _kernel_plan(template="kernel_cumulative.j2", fields=fields, **common)


def _argreduce(kname, e, ins, outs, reads, common):
    x, o = ins[0], outs[0]
    outer, n, inner = _split(x.aval.shape, e.params["axes"][0])
    better = ">" if e.primitive is red.argmax_p else "<"
    v = "v"
    if dtypes.is_float(x.aval.dtype):
        # The first NaN wins; otherwise strictly better replaces (ties keep the first).
        cond = f"(!(best != best) && ({v} != {v} || {v} {better} best))"
    else:
        cond = f"{v} {better} best"
    fields = ArgReducePlan(params=_params(reads, outs), outer=outer, n=n, inner=inner,
                  ctype=emit_c.ctype(x.aval.dtype), read=_read(x, "(base + k * inner_n)"),
                  cond=cond, out=o.name, index_type=emit_c.stype(o.aval.dtype))
    return _kernel_plan(template="kernel_argreduce.j2", fields=fields, **common)


def _joining(kname, e, ins, outs, reads, common):
    fields = JoinPlan(**_joining_fields(e, ins, outs[0]), params=_params(reads, outs))
    return _kernel_plan(template="kernel_concatenate.j2", fields=fields, **common)


def _split_kernel(kname, e, ins, outs, reads, common):
    x, axis = ins[0], e.params["axis"]
    pieces, off = [], 0
    for o in outs:
        outer, mid, inner = _split(o.aval.shape, axis)
        if o.aval.size:
            pieces.append(dict(dst=o.name, outer=outer, mid=mid, inner=inner,
                               offset=off))
        off += mid
    fields = SplitPlan(params=_params(reads, outs), pieces=pieces, src=x.name,
                       total_mid=x.aval.shape[axis], ctype=x.ctype)
    return _kernel_plan(template="kernel_split.j2", fields=fields, **common)


def _sort(kname, e, ins, outs, reads, common):
    fields = SortPlan(**sort_fields(kname, e, ins, outs), params=_params(reads, outs))
    return _kernel_plan(template="kernel_sort.j2", fields=fields, **common)


def _threefry(kname, e, ins, outs, reads, common):
    fields = ThreefryPlan(**_threefry_fields(e, ins, outs), params=_params(reads, outs))
    return _kernel_plan(template="kernel_threefry.j2", fields=fields, **common)


def _table_kernel(rules: dict):
    """The builder of a kernel made by ``rules[primitive](eqn, ins, outs)``, which gives
    its template and fields (``linalg_kernels``, ``rng_kernels``)."""
    def build(kname, e, ins, outs, reads, common):
        template, fields = rules[e.primitive](e, ins, outs)
        fields.params = _params(reads, outs)
        return _kernel_plan(template=template, fields=fields, **common)
    return build


_linalg = _table_kernel(linalg_kernels.RULES)


def _indexing(kname, e, ins, outs, reads, common):
    template, fields = indexing_kernels.indexing_kernel(e, ins, outs)  # has its params
    return _kernel_plan(template=template, fields=fields, **common)


for _p, _kind in ((red.reduce_sum_p, "sum"), (red.reduce_prod_p, "prod"),
                  (red.reduce_max_p, "max"), (red.reduce_min_p, "min"),
                  (red.reduce_and_p, "and"), (red.reduce_or_p, "or"),
                  (red.reduce_xor_p, "xor")):
    register(_p, Lowering(REDUCTION, reduction=_kind))
register(dot_mod.dot_general_p, Lowering(KERNEL, build=_dot))
register((red.cumsum_p, red.cumprod_p, red.cummax_p, red.cummin_p),
         Lowering(KERNEL, build=_cumulative))
register((red.argmax_p, red.argmin_p), Lowering(KERNEL, build=_argreduce))
register((slicing.concatenate_p, layout.stack_p), Lowering(KERNEL, build=_joining))
# Byte copies: bitcast_convert_type's entry is elementwise where it fuses (emit_c.py).
register(_BYTE_COPIES, Lowering(KERNEL, build=_joining))
register(layout.split_p, Lowering(KERNEL, build=_split_kernel))
register(sort_mod.sort_p, Lowering(KERNEL, build=_sort))
register(prng.threefry2x32_p, Lowering(KERNEL, build=_threefry))
register(frozenset(linalg_kernels.RULES), Lowering(KERNEL, build=_linalg))
register(frozenset(rng_kernels.RULES), Lowering(KERNEL, build=_table_kernel(rng_kernels.RULES)))
register(frozenset(eig_kernels.RULES), Lowering(KERNEL, build=_linalg))
register(indexing_kernels.RULES - indexing_kernels.FUSED_INDICES,
         Lowering(KERNEL, build=_indexing))
register(indexing_kernels.FUSED_INDICES,
         Lowering(KERNEL, build=_indexing, fused_operands=(indexing_kernels.INDICES,)))

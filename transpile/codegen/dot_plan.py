"""How a ``dot_general`` maps onto batched matrix products.

The output is ``[batch..., lhs free..., rhs free...]`` (row-major), so each batch is a
row-major ``M x N`` block. Each operand is read in place with two strides (rows and
columns of its ``M x K`` or ``K x N`` view) when its free dimensions and its contracting
dimensions each merge into one strided run; otherwise the kernel first copies it into
that layout in the workspace. float32/float64 products go to the blocked kernel of
``runtime/tp_matmul.h``; other dtypes use a plain loop accumulating as the NumPy rule
does (floats in at least float32, integers in wrapping uint64).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..lax import contraction as dot_mod
from . import emit_c
from .index import row_major_strides
from .kernel_plans import Scratch

__all__ = ["dot_fields", "gemm_layout"]


def _merge(dims, shape, strides):
    """The stride of ``dims`` traversed as one row-major run, or None if they do not
    form one (size-1 dimensions are free to sit anywhere)."""
    dims = [d for d in dims if shape[d] != 1]
    if not dims:
        return 1
    for a, b in zip(dims, dims[1:]):
        if strides[a] != strides[b] * shape[b]:
            return None
    return strides[dims[-1]]


def _view(aval, shape, batch, rows, cols):
    """(row stride, col stride, batch dims and strides, copy plan or None)."""
    strides = row_major_strides(shape)
    rs, cs = _merge(rows, shape, strides), _merge(cols, shape, strides)
    bstrides = [strides[d] for d in batch]
    if rs is not None and cs is not None:
        return dict(rs=rs, cs=cs, batch_strides=bstrides, copy_plan=None)
    # Copy to [batch, rows, cols] row-major; the copy loop walks the destination.
    order = list(batch) + list(rows) + list(cols)
    dst_shape = [shape[d] for d in order]
    n_rows = int(np.prod([shape[d] for d in rows], dtype=np.int64))
    n_cols = int(np.prod([shape[d] for d in cols], dtype=np.int64))
    n_batch = int(np.prod([shape[d] for d in batch], dtype=np.int64))
    copy = dict(shape=dst_shape, order=order, src_strides=[strides[d] for d in order],
                dst_strides=list(row_major_strides(dst_shape)), size=int(np.prod(dst_shape)),
                terms=list(zip(row_major_strides(dst_shape), [strides[d] for d in order])),
                nbytes=(int(np.prod(dst_shape)) * aval.dtype.itemsize + 63) // 64 * 64)
    return dict(rs=n_cols, cs=1, batch_strides=None, batch_block=n_rows * n_cols, copy_plan=copy,
                n_batch=n_batch)


def gemm_layout(params, lhs, rhs, out) -> dict:
    """How ``dot_general[params]`` of avals ``lhs``, ``rhs`` into ``out`` is computed:
    ``M``, ``N``, ``K``, ``B`` (batches), ``batch_shape``, each operand's view ``a``/``b``
    (``_view``), ``batch_terms`` (per side, ``(divisor, stride, size)`` of each batch
    dimension: the offset of batch ``bi``), and ``gemm`` (whether ``tp_gemm`` computes
    it). ``first_call`` makes the same calls from NumPy."""
    (lc, rc), (lb, rb) = params["dimension_numbers"]
    lfree = [d for d in range(lhs.ndim) if d not in lb and d not in lc]
    rfree = [d for d in range(rhs.ndim) if d not in rb and d not in rc]
    ls, rs_ = lhs.shape, rhs.shape
    batch_shape = [ls[d] for d in lb]
    a = _view(lhs, ls, lb, lfree, lc)
    b = _view(rhs, rs_, rb, rc, rfree)
    out_dt = np.dtype(out.dtype)
    return dict(
        M=int(np.prod([ls[d] for d in lfree], dtype=np.int64)),
        N=int(np.prod([rs_[d] for d in rfree], dtype=np.int64)),
        K=int(np.prod([ls[d] for d in lc], dtype=np.int64)),
        B=int(np.prod(batch_shape, dtype=np.int64)), batch_shape=batch_shape, a=a, b=b,
        batch_terms={side: [] if v["copy_plan"] else
                     list(zip(row_major_strides(batch_shape), v["batch_strides"], batch_shape))
                     for side, v in (("a", a), ("b", b))},
        gemm=(lhs.dtype == rhs.dtype == out_dt and
              out_dt in (np.dtype(np.float32), np.dtype(np.float64))))


def dot_fields(e, ins, out) -> dict:
    """Template fields of a dot_general kernel."""
    lhs, rhs = ins
    lay = gemm_layout(e.params, lhs.aval, rhs.aval, out.aval)
    M, N, K, B, batch_shape = (lay[k] for k in ("M", "N", "K", "B", "batch_shape"))
    a, b, gemm = lay["a"], lay["b"], lay["gemm"]
    out_dt = np.dtype(out.aval.dtype)
    op_dt = dot_mod._result_dtype(np.dtype(lhs.aval.dtype), np.dtype(rhs.aval.dtype))
    compute = dot_mod._compute_dtype(op_dt, out_dt)
    sfx = "f32" if out_dt == np.float32 else "f64"
    copies_bytes = sum(v["copy_plan"]["nbytes"] for v in (a, b) if v["copy_plan"])
    fields = dict(
        M=M, N=N, K=K, B=B, batch_shape=batch_shape, batch_terms=lay["batch_terms"],
        out_type=out.ctype,
        a=a, b=b, lhs=lhs.name, rhs=rhs.name, out=out.name,
        lhs_type=lhs.ctype, rhs_type=rhs.ctype, gemm=gemm, sfx=sfx,
        copies_bytes=copies_bytes,
        scratch=[Scratch(copies_bytes, (sfx, M, N, K) if gemm else None)],
        acc_type=("uint64_t" if not (dtypes.is_float(compute) or dtypes.is_complex(compute))
                  else emit_c.ctype(compute)),
        read_a=_reader(lhs, "pa", "ia"), read_b=_reader(rhs, "pb", "ib"),
        store=_store_expr(out_dt, compute, op_dt))
    return fields


def _reader(buf, ptr, off) -> str:
    return emit_c.load_expr(buf.aval.dtype, f"{ptr}[{off}]")


def _store_expr(out_dt, compute, op_dt) -> str:
    if dtypes.is_complex(compute):
        return f"({emit_c.ctype(out_dt)})acc"
    if not dtypes.is_float(compute):
        if out_dt == np.bool_:
            return "(uint8_t)(acc != 0)"
        return emit_c.store_expr(out_dt, f"({emit_c.ctype(out_dt)})acc")
    v = "acc"
    if dtypes.is_float(op_dt) and not dtypes.is_float(out_dt) and op_dt != compute:
        v = f"({emit_c.ctype(op_dt)})acc"
        if dtypes.half_name(op_dt):
            v = f"tp_{dtypes.half_name(op_dt)}_round({v})"
    src = compute if not (dtypes.is_float(op_dt) and not dtypes.is_float(out_dt)) else op_dt
    conv = emit_c._convert_expr(v, np.dtype(src), out_dt)
    h = dtypes.half_name(out_dt)
    return f"tp_f32_to_{h}({conv})" if h else conv

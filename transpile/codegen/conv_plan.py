"""The kernel of ``conv_general_dilated`` (``lax/convolution.py``): template fields of
``kernel_conv.j2`` and its CUDA version, and its entry in the lowering table.

Every operand is read in place through its strides in canonical order (batch, feature,
spatial...), so NHWC and NCHW alike need no transposing copy. Two paths, picked by cost:

* direct loops (every configuration, every dtype): per (batch, output feature), in
  parallel, each output position sums kernel position by kernel position over the input
  features of its group, skipping taps that fall in padding or between dilated inputs;
* im2col + GEMM (float32/float64, no batch groups, the output's spatial axes one strided
  run and its feature axis or that run contiguous, enough work): per image and feature
  group, the patches of every output position are gathered into the workspace as a
  ``positions x (taps * features)`` matrix and multiplied by the repacked kernel with the
  blocked matmul of ``runtime/tp_matmul.h`` (threaded and deterministic).

The loop groups the planner fuses into the kernel (``conv_epilogue.py``) run on each
block of output as soon as it is computed: per (image, group, chunk) after its GEMM,
per (image, feature) after its direct loops.

The CUDA template runs one thread per output element with the direct loop's order, so it
computes the direct path's bits.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import dtypes
from ..lax import contraction as dot_mod
from ..lax import convolution as conv_mod
from . import cuda_launch, emit_c
from .dot_plan import _reader, _store_expr
from .index import row_major_strides
from .kernel_plans import KernelFields, KernelParam, Scratch
from .lowering import KERNEL, Lowering, register
from .program import KernelPlan

__all__ = ["ConvPlan", "conv_fields"]

#: Multiply-adds from which the im2col + GEMM path pays for its copies.
GEMM_MIN_FLOPS = 1 << 16
#: Multiply-adds from which the direct loops run in parallel.
PARALLEL_MIN_FLOPS = 1 << 18
#: Bytes of one chunk of patches (a thread's, kept in its L2 cache).
PATCH_CHUNK_BYTES = 1 << 19
#: Window width from which im2col copies feature by feature (``ConvPlan.chan_major``).
CHAN_MAJOR_MIN_WIDTH = 8
#: Threads of the GEMM path at most (each has its patch buffer in the workspace).
MAX_TEAM = 16


@dataclass(kw_only=True)
class ConvPlan(KernelFields):
    """``kernel_conv.j2``: shapes in canonical order, strides of each operand."""
    nsp: int
    NB: int            # output batch
    O: int             # output features
    OG: int            # output features per group
    CG: int            # input features per group
    out_space: list
    window: list
    strides: list
    pad_lo: list
    lhs_dil: list
    rhs_dil: list
    in_max: list       # the last dilated input position per spatial axis
    xs: list           # lhs strides: batch, feature, spatial...
    ws: list           # rhs strides: out feature, in feature, spatial...
    os: list           # out strides: batch, feature, spatial...
    batch_group_offset: int   # lhs batch offset of group g, per g (0 without batch groups)
    feature_group_offset: int  # lhs element offset of group g's features, per g
    lhs: str
    rhs: str
    out: str
    lhs_type: str
    rhs_type: str
    out_type: str
    acc_type: str
    read_x: str
    read_w: str
    store: str
    parallel: bool
    gemm: bool = False
    groups: int = 1
    M: int = 0          # output positions per image
    Kc: int = 0         # taps x input features per group
    sfx: str = ""
    patch_bytes: int = 0
    nhwc: bool = True   # the output feature axis is contiguous (else the positions are)
    m_stride: int = 1   # the stride of the merged output positions
    MC: int = 0         # output positions per chunk
    chunks: int = 0
    w_bytes: int = 0    # the repacked kernel
    gemm_shape: list = None   # (M, N, K) of one chunk's product
    team: int = 1
    units: int = 1
    chan_major: bool = False  # patch columns feature by feature (input features strided)
    #: Body lines of the fused consumers run on each block of output (``conv_epilogue``)
    epilogue: list = None
    #: The stride of the output positions traversed as one run, None if they are not one
    epilogue_m_stride: int = None
    #: The epilogue loops over features inside positions (contiguous features)
    epilogue_o_inner: bool = False


@dataclass(frozen=True)
class ConvScratch(Scratch):
    """The GEMM path's workspace: the repacked kernel, then per thread (up to ``team``)
    a chunk of patches and the matmul's packing workspace."""
    w_bytes: int = 0
    patch_bytes: int = 0
    team: int = 1
    gemm_shape: tuple = ()

    def c_expr(self) -> str:
        sfx, m, n, k = self.gemm_shape
        return (f"((int64_t){self.w_bytes} + (int64_t){self.team} * ((int64_t)"
                f"{self.patch_bytes} + (tp_gemm_workspace_bytes_{sfx}({m}, {n}, {k}) + 63) "
                "/ 64 * 64))")


def _spatial_run(shape, strides, dims):
    """The stride of ``dims`` traversed as one row-major run, or None."""
    dims = [d for d in dims if shape[d] != 1]
    if not dims:
        return 1
    for a, b in zip(dims, dims[1:]):
        if strides[a] != strides[b] * shape[b]:
            return None
    return strides[dims[-1]]


def conv_fields(e, ins, out) -> ConvPlan:
    """Template fields of the conv kernel of equation ``e``."""
    lhs, rhs = ins
    p = e.params
    dn = p["dimension_numbers"]
    ls, rs_, os_ = lhs.aval.shape, rhs.aval.shape, out.aval.shape
    lst, rst, ost = (row_major_strides(s) for s in (ls, rs_, os_))
    nsp = len(ls) - 2
    fgc, bgc = p["feature_group_count"], p["batch_group_count"]
    groups = max(fgc, bgc)
    O = int(os_[dn.out_spec[1]])
    NB = int(os_[dn.out_spec[0]])
    CG = int(rs_[dn.rhs_spec[1]])
    in_space = [int(ls[d]) for d in dn.lhs_spec[2:]]
    window = [int(rs_[d]) for d in dn.rhs_spec[2:]]
    out_space = [int(os_[d]) for d in dn.out_spec[2:]]
    out_dt = np.dtype(out.aval.dtype)
    op_dt = np.dtype(lhs.aval.dtype)
    compute = dot_mod._compute_dtype(op_dt, out_dt)
    acc_type = "uint64_t" if not dtypes.is_float(compute) else emit_c.ctype(compute)
    flops = int(np.prod([NB, O, CG] + out_space + window, dtype=np.int64))
    fields = ConvPlan(
        nsp=nsp, NB=NB, O=O, OG=O // groups, CG=CG, out_space=out_space, window=window,
        strides=list(p["window_strides"]), pad_lo=[lo for lo, _ in p["padding"]],
        lhs_dil=list(p["lhs_dilation"]), rhs_dil=list(p["rhs_dilation"]),
        in_max=[(n - 1) * d for n, d in zip(in_space, p["lhs_dilation"], strict=True)],
        xs=[lst[d] for d in dn.lhs_spec], ws=[rst[d] for d in dn.rhs_spec],
        os=[ost[d] for d in dn.out_spec],
        batch_group_offset=NB * lst[dn.lhs_spec[0]] if bgc > 1 else 0,
        feature_group_offset=CG * lst[dn.lhs_spec[1]] if fgc > 1 else 0,
        lhs=lhs.name, rhs=rhs.name, out=out.name, lhs_type=lhs.ctype, rhs_type=rhs.ctype,
        out_type=out.ctype, acc_type=acc_type, read_x=_reader(lhs, "xb", "xo"),
        read_w=_reader(rhs, "wb", "wo"), store=_store_expr(out_dt, compute, op_dt),
        parallel=flops >= PARALLEL_MIN_FLOPS and NB * O > 1)
    m_stride = _spatial_run(os_, ost, dn.out_spec[2:])
    c_stride = ost[dn.out_spec[1]]
    M = int(np.prod(out_space, dtype=np.int64))
    gemm = (out_dt == op_dt and out_dt in (np.dtype(np.float32), np.dtype(np.float64))
            and bgc == 1 and m_stride is not None and (c_stride == 1 or m_stride == 1)
            and flops >= GEMM_MIN_FLOPS and M > 0 and O > 0 and NB > 0)
    if gemm:
        Kc = CG * int(np.prod(window, dtype=np.int64))
        og = O // groups
        item = out_dt.itemsize
        # Chunks of output positions whose patches fill about PATCH_CHUNK_BYTES.
        MC = max(8, min(M, PATCH_CHUNK_BYTES // max(Kc * item, 1)))
        chunks = -(-M // MC)
        patch_bytes = (MC * Kc * item + 63) // 64 * 64
        w_bytes = (groups * Kc * og * item + 63) // 64 * 64
        nhwc = c_stride == 1
        sfx = "f32" if out_dt == np.float32 else "f64"
        shape = (MC, og, Kc) if nhwc else (og, MC, Kc)
        fields.gemm, fields.groups, fields.M, fields.Kc, fields.sfx = True, groups, M, Kc, sfx
        fields.patch_bytes, fields.nhwc, fields.m_stride = patch_bytes, nhwc, m_stride
        fields.MC, fields.chunks, fields.w_bytes = MC, chunks, w_bytes
        # Wide windows over rows of adjacent inputs whose features are not adjacent (a
        # weight gradient's: the images are the features): the patch columns go feature
        # by feature, so each feature's window is read along its rows instead of one
        # strided element per feature and tap. (With 3x3 windows the tap-major copy,
        # a run of features per tap, measured faster.)
        fields.chan_major = (CG > 1 and fields.xs[1] != 1 and fields.xs[-1] == 1
                             and window[-1] >= CHAN_MAJOR_MIN_WIDTH
                             and fields.rhs_dil[-1] == 1 and fields.lhs_dil[-1] == 1)
        fields.gemm_shape, fields.team = list(shape), MAX_TEAM
        fields.units = max(1, min(NB * groups * chunks, flops // PARALLEL_MIN_FLOPS))
        fields.scratch = [ConvScratch(w_bytes + MAX_TEAM * patch_bytes, None, w_bytes,
                                      patch_bytes, MAX_TEAM, (sfx, *shape))]
    return fields


def _conv(kname, e, ins, outs, reads, common):
    fields = conv_fields(e, ins, outs[0])
    params = [KernelParam(b.name, b.ctype) for name, b in sorted(reads.items())]
    fields.params = params + [KernelParam(outs[0].name, outs[0].ctype, writable=True)]
    return KernelPlan(template="kernel_conv.j2", fields=fields, **common)


def _cuda_launch(k) -> dict:
    f = k.fields
    size = int(np.prod([f.NB, f.O] + f.out_space, dtype=np.int64))
    return dict(cuda=dict(size=size, grid=cuda_launch._grid(size)), scratch_exprs=[])


register(conv_mod.conv_general_dilated_p, Lowering(KERNEL, build=_conv))
cuda_launch.LAUNCH["kernel_conv.j2"] = _cuda_launch

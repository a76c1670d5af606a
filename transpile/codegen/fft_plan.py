"""The kernel of ``fft`` (``lax/fft.py``): template fields of ``kernel_fft.j2`` and its
CUDA version, and its entry in the lowering table.

The C kernel runs ``runtime/tp_fft.h``: a plan per transformed length (Stockham radix
8/4/2/3/5 stages on split re/im blocks of 8 lines or adjacent columns, four-step for long
single lines, Bluestein otherwise), one axis after another, the blocks of each axis in
parallel; several axes of a batch of small arrays run array by array (``batched``,
``runtime/tp_fft_batch.h``: arrays handed to threads one at a time, two axes fused per
array through a per-thread scratch array). RFFT
transforms the last axis first (real lines of even length through a complex transform
of half the length and a post-pass), then the other axes; IRFFT the other axes first
(into a complex buffer), then the last one from its Hermitian half. The CUDA
kernel sums the DFT directly, one thread per output element.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..lax.fft import FftType, fft_p
from .kernel_plans import KernelFields, KernelParam
from .lowering import KERNEL, Lowering, register
from .program import KernelPlan

__all__ = ["FftPlan", "fft_fields"]


@dataclass(kw_only=True)
class FftPlan(KernelFields):
    """``kernel_fft.j2``: ``kind`` c2c, r2c or c2r; ``axes`` the complex passes
    (``plan``: index into ``lengths``, ``inner``: the values after the axis, ``scale``);
    ``total`` complex values of the array they run on; ``lines`` of the last axis."""
    kind: str
    empty: bool
    sfx: str
    real_type: str
    lengths: list
    axes: list
    total: int
    lines: int
    last: int
    inverse: int
    scale: str
    src: str
    dst: str
    # the CUDA kernel's view: output shape of the transformed axes, input's too
    out_minor: list
    in_minor: list
    batch: int
    fft_type: int
    # c2c over several axes of a batch of small arrays: one array at a time, all axes
    size: int
    batched: bool


#: Complex values of one array up to which a batch of multi-axis transforms runs array
#: by array (all axes while the array stays in a core's L2) rather than axis by axis.
BATCHED_MAX_SIZE = 1 << 17


def _inners(shape, k):
    """The values after each of the last ``k`` axes of ``shape``."""
    nd = len(shape)
    return [int(np.prod(shape[d + 1:], dtype=np.int64)) for d in range(nd - k, nd)]


def fft_fields(e, ins, out) -> FftPlan:
    """Template fields of the fft kernel of equation ``e``."""
    x = ins[0]
    typ = e.params["fft_type"]
    lengths = [int(n) for n in e.params["fft_lengths"]]
    k = len(lengths)
    xs, os_ = tuple(x.aval.shape), tuple(out.aval.shape)
    cplx = os_ if typ != FftType.IRFFT else xs  # the complex array
    total = int(np.prod(cplx, dtype=np.int64))
    real = np.dtype(x.aval.dtype).itemsize if typ == FftType.RFFT \
        else np.dtype(x.aval.dtype).itemsize // 2
    sfx, real_type = ("f32", "float") if real == 4 else ("f64", "double")
    inverse = int(typ in (FftType.IFFT, FftType.IRFFT))
    scale = repr(1.0 / float(np.prod(lengths))) if inverse and k else "1.0"
    inners = _inners(cplx, k)
    kind = {FftType.RFFT: "r2c", FftType.IRFFT: "c2r"}.get(typ, "c2c")
    passes = range(k) if kind == "c2c" else range(k - 1)
    axes = [dict(plan=i, inner=inners[i],
                 scale=scale if kind == "c2c" and i == k - 1 else "1.0") for i in passes]
    lines = int(np.prod(os_[:-1] if kind == "r2c" or kind == "c2r" else (), dtype=np.int64))
    empty = x.aval.size == 0 or out.aval.size == 0
    batch = int(np.prod(os_[:len(os_) - k], dtype=np.int64))
    size = int(np.prod(cplx[len(cplx) - k:], dtype=np.int64))
    return FftPlan(kind=kind, empty=empty, sfx=sfx,
                   real_type=real_type, lengths=lengths, axes=axes, total=total,
                   lines=lines, last=k - 1, inverse=inverse, scale=scale, src=x.name,
                   dst=out.name, out_minor=list(os_[len(os_) - k:]),
                   in_minor=list(xs[len(xs) - k:]),
                   batch=batch, fft_type=int(typ), size=size,
                   batched=kind == "c2c" and k >= 2 and batch >= 2
                   and size <= BATCHED_MAX_SIZE)


def _fft(kname, e, ins, outs, reads, common):
    fields = fft_fields(e, ins, outs[0])
    params = [KernelParam(b.name, b.ctype) for name, b in sorted(reads.items())]
    fields.params = params + [KernelParam(outs[0].name, outs[0].ctype, writable=True)]
    return KernelPlan(template="kernel_fft.j2", fields=fields, **common)


register(fft_p, Lowering(KERNEL, build=_fft))

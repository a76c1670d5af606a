"""How a ``sort`` kernel orders each slice: a generated comparison over the key
operands, and a stable merge sort of positions (``runtime/tp_sort.h``)."""
from __future__ import annotations

import numpy as np

from .. import dtypes
from . import emit_c
from .kernel_plans import Scratch

__all__ = ["sort_fields"]


def sort_fields(kname, e, ins, outs) -> dict:
    """Template fields of a sort kernel: slices, keys and the comparison's C body."""
    dim = e.params["dimension"]
    shape = ins[0].aval.shape
    outer = int(np.prod(shape[:dim], dtype=np.int64))
    n = int(shape[dim])
    inner = int(np.prod(shape[dim + 1:], dtype=np.int64))
    keys = []
    for i, b in enumerate(ins[:e.params["num_keys"]]):
        dt = b.aval.dtype
        if dtypes.is_complex(dt):
            # lexicographic: the real parts, then the imaginary parts, as float keys
            part = dtypes.real_dtype(dt)
            for n_, fn in enumerate(("crealf", "cimagf") if dt == np.complex64
                                    else ("creal", "cimag")):
                read = f"{fn}({{p}}[{{o}}])"
                keys.append(dict(field=f"k{i}", ctype=b.ctype, compute=emit_c.ctype(part),
                                 is_float=True, declare=n_ == 0,
                                 read_a=read.format(p=f"c->k{i}", o="i * c->stride"),
                                 read_b=read.format(p=f"c->k{i}", o="j * c->stride"),
                                 src=b.name))
            continue
        read = emit_c.load_expr(dt, "{p}[{o}]")
        keys.append(dict(field=f"k{i}", ctype=b.ctype, compute=emit_c.ctype(dt), declare=True,
                         is_float=dtypes.is_float(dt),
                         read_a=read.format(p=f"c->k{i}", o="i * c->stride"),
                         read_b=read.format(p=f"c->k{i}", o="j * c->stride"),
                         src=b.name))
    moves = [dict(src=b.name, dst=o.name) for b, o in zip(ins, outs, strict=True)]
    return dict(outer=outer, n=n, inner=inner, sort_keys=keys, moves=moves,
                scratch=[Scratch(2 * max(n, 1) * 8)])

"""Row-fused kernels: a reduction over trailing axes with the loops before and after it
that work on the same rows (softmax, layernorm, logsumexp, normalising by a row
statistic), run as one parallel loop over the rows.

Planned separately, ``e = exp(x - max(x)); e / sum(e)`` is four kernels, each a pass
over memory: the row maximum, ``e`` (stored), its row sums, the quotient. Row-fused, a
thread takes a row, computes its maximum, then ``e`` into a row-sized local array, its
sum, and the quotient: ``x`` is read from memory once, the rest stays in L1, and no
kernel reads back a value another stored (``e`` is never stored at all). Each row's
reductions run on one thread in a fixed order, so the bits do not depend on the thread
count.

``row_runs`` picks the runs of fusion groups (``plan._groups``) to fuse; ``row_kernel``
builds one run's kernel, or returns None when some phase reads a value made earlier in
the run at another row (then the run's groups get kernels of their own).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from . import emit_c
from .body import BodyBuilder, _stmt_lines, eqn_comment
from .index import Index, row_major_strides
from .kernel_plans import RowPhase, RowPlan
from .kernels import _acc, _kernel_plan, _minmax_fields, _params, _store
from .lowering import RANDOM_SOURCE, lowering_of

__all__ = ["row_runs", "row_locals", "row_kernel", "ROW_ARRAY_BYTES"]

#: Groups one row-fused kernel takes at most, and their equations: gcc's time on a
#: function grows faster than its length, so a long chain of row steps is cut. The
#: 150-step row-mean chain (tests/test_compile_scale.py) took gcc 1.21 s as 300 kernels,
#: 0.85 s cut every 8 groups (38 kernels), 0.96 s every 16, 1.19 s every 32.
MAX_ROW_PHASES = 8
MAX_ROW_EQNS = 256
#: Bytes of row-sized local arrays one row-fused kernel keeps on each thread's stack: the
#: row of every temporary made and used up inside the kernel (more rows stay in memory).
ROW_ARRAY_BYTES = 32 * 1024


def _prod(xs) -> int:
    return int(np.prod(xs, dtype=np.int64))


def _reduce_rows(e):
    """``(rows, row size, leading dims)`` of a reduction over trailing axes, else None."""
    shape = e.invars[0].aval.shape
    axes = tuple(sorted(e.params["axes"]))
    k = len(shape) - len(axes)
    if not axes or k < 1 or axes != tuple(range(k, len(shape))):
        return None
    n, r = _prod(shape[:k]), _prod(shape[k:])
    return (n, r, k) if n > 1 and r > 1 else None


def _split_at(shape, n) -> int | None:
    """The k with ``prod(shape[:k]) == n`` (the first), else None."""
    for k in range(len(shape) + 1):
        if _prod(shape[:k]) == n:
            return k
    return None


def _loop_width(g, eqns, n, r) -> int | None:
    """The elements per row a loop group's root covers with rows ``(n, r)``: ``r``,
    or 1 (a row statistic); None if it does not split into those rows."""
    if any(lowering_of(eqns[k].primitive).kind == RANDOM_SOURCE for k in g["members"]):
        return None  # samplers have a kernel of their own (kernels._sampler_stages)
    shape = eqns[g["root"]].outvars[0].aval.shape
    size = _prod(shape)
    if size == n * r and _split_at(shape, n) is not None:
        return r
    return 1 if size == n else None


def row_runs(groups, eqns) -> dict:
    """First group index -> ``(end, rows, row size)`` of each run to fuse: consecutive
    loop and reduction groups over the same rows holding at least one reduction over
    trailing axes and at least two groups."""
    runs, gi, taken_to = {}, 0, 0
    while gi < len(groups):
        g = groups[gi]
        geo = _reduce_rows(eqns[g["root"]]) if g["kind"] == "reduce" else None
        if geo is None:
            gi += 1
            continue
        n, r, _ = geo

        def fits(h):
            if h["kind"] == "reduce":
                got = _reduce_rows(eqns[h["root"]])
                return got is not None and got[:2] == (n, r)
            return h["kind"] == "loop" and _loop_width(h, eqns, n, r) is not None
        start = gi
        while start > taken_to and fits(groups[start - 1]):
            start -= 1
        end = gi + 1
        while end < len(groups) and fits(groups[end]):
            end += 1
        _cut(groups, start, end, n, r, runs)
        taken_to = gi = end
    return runs


def row_locals(run, eqns, dead) -> set:
    """The values of ``run`` (``(groups, n, r)``) its kernel keeps in locals instead of
    buffers, of those ``dead`` after it: row statistics, and whole rows up to
    ``ROW_ARRAY_BYTES`` in all, in the order they are made."""
    groups, n, r = run
    budget, got = ROW_ARRAY_BYTES, set()
    for g in groups:
        out = eqns[g["root"]].outvars[0]
        if out not in dead:
            continue
        if g["kind"] == "reduce" or out.aval.size == n:
            got.add(out)
        elif r * out.aval.dtype.itemsize <= budget:
            budget -= r * out.aval.dtype.itemsize
            got.add(out)
    return got


def _cut(groups, start, end, n, r, runs) -> None:
    """Record ``groups[start:end]`` in ``runs`` as pieces of at most ``MAX_ROW_PHASES``
    groups and ``MAX_ROW_EQNS`` equations, each with a reduction and two groups."""
    while start < end:
        stop, eqns = start, 0
        while stop < end and stop - start < MAX_ROW_PHASES and (
                stop == start or eqns + len(groups[stop]["members"]) <= MAX_ROW_EQNS):
            eqns += len(groups[stop]["members"])
            stop += 1
        if stop - start >= 2 and any(g["kind"] == "reduce" for g in groups[start:stop]):
            runs[start] = (stop, n, r)
        start = stop


def _dims(shape, k, outer: str, inner: str) -> tuple:
    """Per-dimension expressions of ``shape`` whose first ``k`` dimensions are the row
    ``outer`` and the rest the position ``inner`` in the row."""
    def split(dims, var):
        if len(dims) == 1:
            return (var,)
        out = []
        for d, (m, s) in enumerate(zip(dims, row_major_strides(dims), strict=True)):
            e = var if s == 1 else f"{var} / {s}"
            out.append("0" if m == 1 else (e if d == 0 else f"({e}) % {m}"))
        return tuple(out)
    return (split(shape[:k], outer) if k else ()) + (split(shape[k:], inner)
                                                     if k < len(shape) else ())


def _phase_index(bb, shape, n, r, width, inner):
    """The index of the phase's element (row ``oix``, position ``inner`` in it), and
    the offsets a row statistic is read at from it."""
    if width == 1:
        return bb.index(shape, flat="oix"), {"oix"}
    k = _split_at(shape, n)
    dims = _dims(shape, k, "oix", inner)
    # a statistic read through a broadcast composes its offset from the row's dims
    lead = Index(tuple(shape[:k]), dims[:k]).get_flat()
    return bb.index(shape, dims=dims, flat=f"oix * {r} + {inner}"), {"oix", lead}


def row_kernel(kname, run, eqns, buffers, names, local, par_min):
    """The row-fused kernel of ``run`` (fusion groups over rows of ``n`` x ``r``), or
    None when a phase reads a value made in the run at another row.

    Parameters
    ----------
    run : tuple
        ``(groups, n, r)``: the groups in order, the rows and the row size.
    local : set
        Values made in the run kept in locals instead of their buffers (``row_locals``).
    """
    groups, n, r = run
    made: dict = {}        # pointer name -> width of the values made so far in the run
    arrays: dict = {}      # pointer name -> local array name
    # Row statistics are locals too: gcc does not vectorise a loop that reads one back
    # from the buffer it was just stored to (the row loop would run 6x slower).
    scalars: dict = {}     # pointer name -> local of the row's value
    phases, reads, writes, comments = [], {}, [], []
    for g in groups:
        root = eqns[g["root"]]
        members = sorted(g["members"])
        producer = {eqns[k].outvars[0]: eqns[k] for k in members}
        bb = BodyBuilder(producer, buffers, names)
        out = root.outvars[0]
        ob = buffers[out]
        is_reduce = g["kind"] == "reduce"
        inner = "rix" if is_reduce else "c_j"
        if is_reduce:
            x = root.invars[0]
            width, shape = r, x.aval.shape
        else:
            width, shape = (r if out.aval.size == n * r else 1), out.aval.shape
        idx, stat_at = _phase_index(bb, shape, n, r, width, inner)
        flat = f"oix * {r} + {inner}"
        for name, arr in arrays.items():
            bb.redirect[name] = ({flat}, f"{arr}[{inner}]")
        for name, sc in scalars.items():
            bb.redirect[name] = (stat_at, sc)
        value = bb.value(x if is_reduce else out, idx)
        for name, offs in bb.offsets.items():
            w = made.get(name)
            if w is not None and not offs <= ({flat} if w == r else stat_at):
                return None
            if w is not None and w == r and width != r:
                return None
        for name, b in bb.reads.items():
            reads[name] = b
        lines = _stmt_lines(bb.stmts)
        comment = "; ".join(eqn_comment(eqns[k], names) for k in members)
        comments.append(comment)
        if is_reduce:
            op = lowering_of(root.primitive).reduction
            acc_t, init, combine, simd_op = _acc(op, x.aval.dtype)
            phases.append(RowPhase(
                kind="reduce", width=r, comment=comment, body=lines, acc_type=acc_t,
                init=init, step=combine.format(a="acc", v=value), simd_op=simd_op,
                store=_stat_store(ob, out, local, scalars,
                                  _store(out.aval.dtype, f"({emit_c.ctype(out.aval.dtype)})acc")),
                **_minmax_fields(op, x.aval.dtype, value)))
        else:
            if width == r and out in local:
                arrays[ob.name] = f"{ob.name}_row"
                target = f"{arrays[ob.name]}[c_j]"
            elif width == 1:
                target = None
            else:
                target = f"{ob.name}[{flat}]"
            stored = _store(out.aval.dtype, value)
            phases.append(RowPhase(kind="loop", width=width, comment=comment, body=lines + [
                f"{target} = {stored};" if target else
                _stat_store(ob, out, local, scalars, stored)]))
        if ob.name not in arrays and not (ob.name in scalars and out in local):
            writes.append(ob)
        made[ob.name] = 1 if is_reduce else width
    row_arrays = [(buffers[v].ctype, arrays[buffers[v].name]) for v in _made(groups, eqns)
                  if buffers[v].name in arrays]
    reads = {k: v for k, v in reads.items() if k not in arrays and k not in scalars}
    fields = RowPlan(params=_params(reads, writes), rows=n, row_size=r, total=n * r,
                     parallel=n * r >= par_min, phases=phases, row_arrays=row_arrays,
                     row_scalars=[(buffers[v].ctype, scalars[buffers[v].name])
                                  for v in _made(groups, eqns) if buffers[v].name in scalars])
    return _kernel_plan(name=kname, template="kernel_rows.j2",
                        comment=" | ".join(comments), reads=list(reads.values()),
                        writes=writes, fields=fields)


def _made(groups, eqns) -> list:
    return [eqns[g["root"]].outvars[0] for g in groups]


def _stat_store(ob, out, local, scalars, value: str) -> str:
    """A row statistic kept in a local (``scalars``), and stored unless ``local``."""
    sc = scalars[ob.name] = f"{ob.name}_s"
    if out in local:
        return f"{sc} = {value};"
    return f"{sc} = {value}; {ob.name}[oix] = {sc};"

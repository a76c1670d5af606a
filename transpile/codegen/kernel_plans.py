"""Typed kernel plans: what each kernel template family reads, one dataclass per family.

A ``plan.KernelPlan`` carries one of these as ``fields``; its template reads the
attributes (``f.loops``, ``f.pieces``...). Statements and expressions of the generated
code are C text made by the builders (``kernels.py``, ``dot_plan.py``,
``indexing_kernels.py``...); everything later stages compute with (parameters, scratch
sizes, a window's contiguous run, an update's initial copy) is structured data, never C
text parsed back.
"""
from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["KernelParam", "Scratch", "WindowRun", "KernelFields", "LoopPlan", "ReducePlan",
           "RowPhase", "RowPlan",
           "DotPlan", "CumulativePlan", "ArgReducePlan", "JoinPlan", "SplitPlan",
           "SortPlan", "ThreefryPlan", "GatherPlan", "ScatterPlan", "TopKPlan", "LuPlan", "QrPlan", "EighPlan", "SvdPlan",
           "TridiagonalSolvePlan",
           "CholeskyPlan", "TriangularSolvePlan"]


@dataclass(frozen=True)
class KernelParam:
    """One buffer parameter of a kernel function."""
    name: str
    ctype: str
    writable: bool = False
    #: False where the buffer may alias another parameter (an update in place)
    restrict: bool = True

    def declaration(self) -> str:
        """The parameter as written in the kernel's C definition."""
        return (f"{'' if self.writable else 'const '}{self.ctype} "
                f"*{'restrict ' if self.restrict else ''}{self.name}")


@dataclass(frozen=True)
class Scratch:
    """Workspace bytes a kernel needs for itself (kernels run one after another and
    share one scratch area)."""
    nbytes: int
    #: ``(suffix, M, N, K)``: plus the CPU matmul's packing workspace for that product
    gemm: tuple | None = None

    def c_expr(self) -> str:
        """The byte count as a C expression of the workspace-size function."""
        if self.gemm is None:
            return f"(int64_t){self.nbytes}"
        sfx, m, n, k = self.gemm
        return f"(int64_t){self.nbytes} + (int64_t)tp_gemm_workspace_bytes_{sfx}({m}, {n}, {k})"


@dataclass(frozen=True)
class WindowRun:
    """A window's innermost contiguous run, copied as one ``memcpy`` of ``n`` elements
    from ``src + src_offset`` to ``dst + dst_offset`` (offsets are C index expressions
    of the enclosing loop variables, ``"0"`` for none)."""
    n: int
    dst_offset: str
    src_offset: str


@dataclass(kw_only=True)
class KernelFields:
    """What every kernel has: its buffer parameters and its own scratch needs."""
    params: list = field(default_factory=list)   # KernelParam
    scratch: list = field(default_factory=list)  # Scratch


@dataclass(kw_only=True)
class LoopPlan(KernelFields):
    """``kernel_loop.j2`` (and ``kernel_loop_blocked.j2`` with the stage fields)."""
    loops: list        # (loop variable, extent)
    parallel: bool
    collapse: int
    body: list         # C statement lines
    stage1: list | None = None
    stage2: list | None = None
    arrays: list | None = None   # (C type, name) of the per-block arrays
    block: int = 0
    size: int = 0
    blocks: int = 0


@dataclass(kw_only=True)
class ReducePlan(KernelFields):
    """``kernel_reduce.j2``."""
    mode: str          # "full", "rows" or "cols"
    acc_type: str
    init: str
    n_out: int
    red_size: int
    step: str
    merge: str
    merge_with: str
    body: list
    simd_op: str | None
    store: str
    total: int
    chunk: int
    nchunks: int
    outer: list
    inner: list
    parallel: bool
    minmax: str = ""       # "max"/"min": float32/64 rows or chunks folded vectorised
    minmax_step: list = field(default_factory=list)  # that fold's step lines
    minmax_redo: str = ""  # its result needs the in-order fold (zero or subnormal)
    # "cols" over many rows: fixed chunks of ``row_chunk`` rows, each reduced over whole
    # rows (contiguous) into its own partial row in the scratch, combined in order
    row_chunks: int = 0
    row_chunk: int = 0
    part_step: str = ""    # step into acc (a partial loaded from part[c_j])
    part_merge: str = ""   # acc combined with part_all[g * n_out + c_j]
    part_store: str = ""   # acc stored as output c_j
    ordered: bool = False  # each output folds its elements in order (small-float sums)


@dataclass(kw_only=True)
class RowPhase:
    """One step of a row-fused kernel (``RowPlan``), run for each row in turn."""
    kind: str          # "reduce": a reduction over the row; "loop": elementwise work
    width: int         # elements of the row the phase visits (the row size, or 1)
    comment: str
    body: list         # C statement lines (a loop's store last)
    acc_type: str = ""
    init: str = ""
    step: str = ""
    simd_op: str | None = None
    store: str = ""
    minmax: str = ""       # as ReducePlan's
    minmax_step: list = field(default_factory=list)
    minmax_redo: str = ""


@dataclass(kw_only=True)
class RowPlan(KernelFields):
    """``kernel_rows.j2``: reductions over trailing axes and the elementwise work before
    and after them, run row by row in one loop over the rows."""
    rows: int
    row_size: int
    total: int
    parallel: bool
    phases: list       # RowPhase
    row_arrays: list   # (C type, name) of the row-sized locals replacing temporaries
    row_scalars: list  # (C type, name) of the locals holding the row's statistics
    rows_per_claim: int = 16  # rows a thread claims at a time (dynamic schedule)


@dataclass(kw_only=True)
class DotPlan(KernelFields):
    """``kernel_dot.j2``."""
    M: int
    N: int
    K: int
    B: int
    batch_shape: list
    batch_terms: dict
    out_type: str
    a: dict
    b: dict
    lhs: str
    rhs: str
    out: str
    lhs_type: str
    rhs_type: str
    gemm: bool
    sfx: str
    copies_bytes: int
    acc_type: str
    read_a: str
    read_b: str
    store: str


@dataclass(kw_only=True)
class CumulativePlan(KernelFields):
    """``kernel_cumulative.j2``."""
    outer: int
    n: int
    inner: int
    reverse: bool
    acc_type: str
    init: str
    step: str
    store: str
    #: bfloat16/float8/float4 sum/prod: each line scanned by ``line_fn`` (XLA's blocked
    #: order, ``runtime/tp_scan16.h``), with these reads and writes of one element at
    #: ``at``
    line_fn: str | None = None
    line_read: str | None = None
    line_write: str | None = None
    line_prod: bool = False


@dataclass(kw_only=True)
class ArgReducePlan(KernelFields):
    """``kernel_argreduce.j2``."""
    outer: int
    n: int
    inner: int
    ctype: str
    read: str
    cond: str
    out: str
    index_type: str


@dataclass(kw_only=True)
class JoinPlan(KernelFields):
    """``kernel_concatenate.j2``: concatenate, stack and byte copies."""
    pieces: list       # dict(src, outer, mid, inner, offset)
    decls: list
    total_mid: int
    out: str
    ctype: str


@dataclass(kw_only=True)
class SplitPlan(KernelFields):
    """``kernel_split.j2``."""
    pieces: list       # dict(dst, outer, mid, inner, offset)
    src: str
    total_mid: int
    ctype: str


@dataclass(kw_only=True)
class SortPlan(KernelFields):
    """``kernel_sort.j2``."""
    outer: int
    n: int
    inner: int
    sort_keys: list
    moves: list


@dataclass(kw_only=True)
class ThreefryPlan(KernelFields):
    """``kernel_threefry.j2``."""
    size: int
    decls: list
    index_lines: list
    operands: list
    y0: str
    y1: str
    parallel: bool


@dataclass(kw_only=True)
class GatherPlan(KernelFields):
    """``kernel_gather.j2``."""
    empty: bool
    ctype: str
    batch: list
    parallel: bool
    prologue: list
    src: str
    dst: str
    window: list
    move: list
    run: WindowRun | None
    guard: str | None
    fill_window: list
    fill_move: list
    #: elements of the output (a parallel loop's team size follows it)
    size: int = 0
    #: C only: index vectors per block of a blocked batch loop (0: not blocked), whose
    #: source offsets ``offset`` (C, of the batch loop's variable) a first loop stores
    #: as ``offset_type`` in ``tp_at``, read by the copies through ``block_src``
    block: int = 0
    offset_type: str = "int64_t"
    offset: str = "0"
    block_src: str = ""


@dataclass(kw_only=True)
class ScatterPlan(KernelFields):
    """``kernel_scatter.j2``: the scatters and ``dynamic_update_slice``."""
    init: list
    #: the operand buffer the output starts as a copy of (None: a literal operand)
    copy_src: str | None
    ctype: str
    empty: bool
    batch: list
    prologue: list
    guard: str | None
    dst: str
    src: str | None
    window: list
    move: list
    run: WindowRun | None


@dataclass(kw_only=True)
class TopKPlan(KernelFields):
    """``kernel_top_k.j2``."""
    outer: int
    n: int
    n_alloc: int
    inner: int
    k: int
    src: str
    out_values: str
    out_indices: str
    key: str


@dataclass(kw_only=True)
class CholeskyPlan(KernelFields):
    """``kernel_cholesky.j2``."""
    batch: int
    n: int
    src: str
    dst: str
    fn: str
    parallel: bool


@dataclass(kw_only=True)
class LuPlan(KernelFields):
    """``kernel_lu.j2``."""
    batch: int
    m: int
    n: int
    k: int
    src: str
    dst: str
    pivots: str
    permutation: str
    fn: str
    parallel: bool


@dataclass(kw_only=True)
class QrPlan(KernelFields):
    """``kernel_qr.j2``: ``work`` elements of scratch per matrix (one per matrix of the
    batch when ``parallel``)."""
    batch: int
    m: int
    n: int
    full: int
    q_size: int
    r_size: int
    work: int
    ctype: str
    src: str
    q: str
    r: str
    fn: str
    parallel: bool
    #: the permutation's output (column pivoting), or "" (none)
    perm: str = ""


@dataclass(kw_only=True)
class EighPlan(KernelFields):
    """``kernel_eigh.j2``: ``work`` elements of scratch per matrix (one per matrix of
    the batch when ``parallel``)."""
    batch: int
    n: int
    lower: int
    sort: int
    work: int
    ctype: str
    src: str
    v: str
    w: str
    fn: str
    parallel: bool


@dataclass(kw_only=True)
class SvdPlan(KernelFields):
    """``kernel_svd.j2``: ``work`` bytes of scratch per matrix (one per matrix of the
    batch when ``parallel``); ``u`` and ``vt`` empty without ``compute_uv``."""
    batch: int
    m: int
    n: int
    k: int
    full: int
    u_size: int
    vt_size: int
    work: int
    src: str
    s: str
    u: str
    vt: str
    fn: str
    parallel: bool


@dataclass(kw_only=True)
class TridiagonalSolvePlan(KernelFields):
    """``kernel_tridiagonal_solve.j2`` (systems one after another; ``m`` elements of
    scratch)."""
    batch: int
    m: int
    k: int
    ctype: str
    dl: str
    d: str
    du: str
    src: str
    dst: str
    fn: str


@dataclass(kw_only=True)
class TriangularSolvePlan(KernelFields):
    """``kernel_triangular_solve.j2``."""
    batch: int
    m: int
    n: int
    a: str
    src: str
    dst: str
    a_stride: int
    fn: str
    flags: str
    parallel: bool

"""A prebuilt library of elementwise kernels, so that eager calls of the common float
transcendental functions, and the first calls of jitted functions that use them, run
compiled from (nearly) the first call of a process.

``dispatch`` compiles one kernel per eager signature, on a worker thread, and answers
with the primitive's NumPy rule until it is ready. For XLA's own expansions (exp, tanh,
logistic, log, log1p, erf_inv) the NumPy rule repeats every float32 operation with an
emulated fused multiply-add and costs 0.1-0.3 ms even for a handful of elements. This
module holds one library with a contiguous loop per (primitive, dtype) of ``KERNELS``,
each written with the C expression the code generator writes for that equation
(``emit_c.emit``), so its bits are those of the compiled programs, under FTZ/DAZ as
every kernel runs, on the adaptive team of ``runtime/tp_parallel.h`` from 65,536
elements (one thread below that, and while the machine is busy). Eager dispatch uses the
ones whose NumPy rules give the same bits (``PRIMITIVES``); ``first_call`` uses them all,
for the functions (sin, expm1, the float64 ones...) whose NumPy rules differ from the
compiled code in the last bit.

It is compiled once per machine into the disk cache (``backend.build.build``: the
cache's ownership checks and checksums hold) and loaded on the eager worker thread on
first use (or from disk by ``load(compile_missing=False)``), so no call waits for it; until it
is there, or without a compiler, the NumPy rules answer.
"""
from __future__ import annotations

import logging
import threading

import numpy as np

from .backend.build import CompileError, CompilerNotFoundError, build
from .codegen import emit_c
from .core import ShapedArray
from .lax import elementwise as ew
from .lax import reduction, reduction_ftz
from .lax._xla_math import libm_twin
from .memory import pool

__all__ = ["KERNELS", "PRIMITIVES", "RULE_TWINS", "SUM", "GEMM", "kernel_for", "gemm_for",
           "has_rule_twin", "load", "loaded", "request", "reset"]

_logger = logging.getLogger("transpile")
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_UNARY = {
    _F32: "exp tanh logistic log log1p erf_inv sin cos tan exp2 expm1 asin acos atan sinh "
          "cosh asinh acosh atanh erf rsqrt cbrt",
    _F64: "exp tanh logistic log log1p sin cos tan exp2 expm1 atan sinh cosh erf",
}


def _expression(primitive, dtype) -> str:
    aval = ShapedArray((), dtype)
    return emit_c.emit(primitive, ["x[i]"], [aval], aval, {})


#: (primitive, dtype) -> the C function's name (its element: ``_expression``, read when
#: the source is made, once the code generator's emitters are registered)
KERNELS = {(getattr(ew, n + "_p"), dt): f"tp_eager_{n}_{emit_c._sfx(dt)}"
           for dt, names in _UNARY.items() for n in names.split()}
#: The float32 kernels eager dispatch runs: XLA's expansions, whose NumPy rules give the
#: same bits slowly (the others' rules differ from the kernels in the last bit).
PRIMITIVES = frozenset([ew.exp_p, ew.tanh_p, ew.logistic_p, ew.log_p, ew.log1p_p,
                        ew.erf_inv_p])
#: float32 functions whose NumPy rule is the float64 C library function rounded once
#: (and flushed as the primitive flushes): the library holds that computation too, for
#: eager dispatch (its compiled kernels use faster polynomials with other last bits).
#: primitive -> (C function, the NumPy float64 function the rule calls)
RULE_TWINS = {ew.sin_p: ("sin", np.sin), ew.cos_p: ("cos", np.cos), ew.tan_p: ("tan", np.tan),
              ew.asin_p: ("asin", np.arcsin), ew.acos_p: ("acos", np.arccos),
              ew.atan_p: ("atan", np.arctan), ew.sinh_p: ("sinh", np.sinh),
              ew.cosh_p: ("cosh", np.cosh), ew.asinh_p: ("asinh", np.arcsinh)}
_RULE_BASE = 2000   # the twins' numbers in the entry point's switch
#: the reduction the library also holds (a float32 sum over every axis)
SUM = reduction.reduce_sum_p
#: dtype -> the number of the library's ``tp_gemm`` call (runtime/tp_matmul.h: the
#: code of every compiled float32/float64 ``dot_general``)
GEMM = {_F32: 1000, _F64: 1001}
#: dtype -> the number of the library's scan for values near the subnormal range (the
#: check of ``reduction_ftz.flushes``, one pass in C instead of NumPy temporaries)
NEAR = {_F32: 3000, _F64: 3001}

#: Full float32 sums: NumPy's pairwise summation in float (the NumPy rule is ``np.sum``
#: of the float32 operand: a run of fewer than 8 in order, up to 128
#: in 8 interleaved partial sums combined as ((0+1)+(2+3))+((4+5)+(6+7)) then the
#: rest in order, longer runs halved at a multiple of 8), so the bits are the rule's. One
#: thread: vectorised, it sums 1M floats in ~70 us, where a team's start and barrier
#: would cost more on a busy machine than they save.
_SUM_SOURCE = """
/* *hit collects, in the same pass, whether some nonzero |x| is below 2^-103: a subnormal
 * operand, or partial sums that may be subnormal, which the rule flushes
 * (lax/reduction_ftz.py) and this sum does not */
#define TP_EAGER_NEAR_(b) ((uint32_t)(((b) & 0x7fffffffu) - 1u) < 0x0C000000u - 1u)

static float tp_eager_pairwise_(const float *x, int64_t n, uint32_t *hit)
{
    if (n < 8) {
        float res = 0.f;
        for (int64_t i = 0; i < n; i++) {
            uint32_t b;
            memcpy(&b, x + i, sizeof b);
            *hit |= TP_EAGER_NEAR_(b);
            res += x[i];
        }
        return res;
    }
    if (n <= 128) {
        float r[8];
        uint32_t h = 0;
        int64_t i;
        for (int j = 0; j < 8; j++)
            r[j] = x[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += x[i + j];
#pragma omp simd reduction(|:h)
        for (int64_t k = 0; k < n; k++) {
            uint32_t b;
            memcpy(&b, x + k, sizeof b);
            h |= TP_EAGER_NEAR_(b);
        }
        *hit |= h;
        float res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += x[i];
        return res;
    }
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    return tp_eager_pairwise_(x, n2, hit) + tp_eager_pairwise_(x + n2, n - n2, hit);
}

/* The sum, or 3 (the rule decides) where a value is near the subnormal range. */
static int tp_eager_sum_f32(const float *x, int64_t n, float *y)
{
    uint32_t hit = 0;
    if (n >= 2 * TP_PAR_MIN_ELEMS) {
        /* the pairwise sum's first split, its two halves on the adaptive team: the
         * same additions in the same order */
        const int64_t n2 = n / 2 - (n / 2) % 8;
        float part[2];
        uint32_t hits[2] = {0, 0};
#pragma omp parallel num_threads(tp_par_team(n / TP_PAR_MIN_ELEMS))
        {
#pragma omp for schedule(static) nowait
            for (int h = 0; h < 2; h++)
                part[h] = h ? tp_eager_pairwise_(x + n2, n - n2, &hits[1])
                            : tp_eager_pairwise_(x, n2, &hits[0]);
            tp_par_arrive();
        }
        *y = 0.f + (part[0] + part[1]);
        hit = hits[0] | hits[1];
    } else {
        *y = 0.f + tp_eager_pairwise_(x, n, &hit);
    }
    return hit ? 3 : 0;
}

/* For the NumPy rules' check (reduction_ftz.flushes): whether some nonzero |x| is below
 * ``bound`` (the bits of a positive float), in one pass and no temporaries. */
static int32_t tp_eager_near_f32(const float *x, int64_t n, uint32_t bound)
{
    uint32_t hit = 0;
#pragma omp simd reduction(|:hit)
    for (int64_t i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, x + i, sizeof b);
        hit |= (uint32_t)((b & 0x7fffffffu) - 1u) < bound - 1u;
    }
    return hit != 0;
}

static int32_t tp_eager_near_f64(const double *x, int64_t n, uint64_t bound)
{
    uint64_t hit = 0;
#pragma omp simd reduction(|:hit)
    for (int64_t i = 0; i < n; i++) {
        uint64_t b;
        memcpy(&b, x + i, sizeof b);
        hit |= (uint64_t)((b & UINT64_C(0x7fffffffffffffff)) - 1u) < bound - 1u;
    }
    return hit != 0;
}
"""

#: The library's one entry point, in the shape of every jitted function's (so that
#: loading it needs no C parsing: ``backend.ffi_module``): ``call`` points to int64s,
#: the kernel's number (0: the float32 sum, whose result goes to ``y[0]``; then
#: ``KERNELS`` in order; ``GEMM``: a matrix product) and the element count (a product:
#: M, N, K and the strides of A and B; ``x`` is A, ``y`` C and the last pointer B).
_ENTRY = "tp_eager"
_CDEF = f"int {_ENTRY}(void *, void *, void *, void *);\nint64_t {_ENTRY}_workspace_size(void);\n"


def _source() -> tuple[str, str]:
    fns, cases = [_SUM_SOURCE], []
    for i, ((prim, dt), fname) in enumerate(KERNELS.items(), 1):
        ct, expr = emit_c.ctype(dt), _expression(prim, dt)
        fns.append(f"""static void {fname}(const {ct} *x, {ct} *y, int64_t n)
{{
    if (n < 2 * TP_PAR_MIN_ELEMS) {{  /* one thread: not even a region's entry (~1 us) */
        #pragma omp simd
        for (int64_t i = 0; i < n; i++)
            y[i] = {expr};
        return;
    }}
#pragma omp parallel num_threads(tp_par_team(n / TP_PAR_MIN_ELEMS))
    {{
    const unsigned tp_csr_t = tp_ftz_begin();
#pragma omp for simd schedule(static) nowait
    for (int64_t i = 0; i < n; i++)
        y[i] = {expr};
    tp_ftz_end(tp_csr_t);
    tp_par_arrive();
    }}
}}""")
        cases.append(f"    case {i}: {fname}((const {ct} *)x, ({ct} *)y, n); break;")
    plain = []   # twins of rules that keep subnormals: outside FTZ/DAZ
    for i, (prim, (c_fn, _)) in enumerate(RULE_TWINS.items()):
        fns.append(f"""static void tp_eager_rule_{c_fn}_f32(const float *x, float *y, int64_t n)
{{
    for (int64_t i = 0; i < n; i++)
        y[i] = (float){c_fn}((double)x[i]);
}}""")
        call = (f"    case {_RULE_BASE + i}: "
                f"tp_eager_rule_{c_fn}_f32((const float *)x, (float *)y, n); break;")
        (plain if _F32 in prim.unflushed_dtypes else cases).append(call)
    for dt, number in GEMM.items():
        sfx, ct = emit_c._sfx(dt), emit_c.ctype(dt)
        cases.append(f"""    case {number}: {{
        const int64_t M = c[1], N = c[2], K = c[3];
        const int64_t bytes = tp_gemm_workspace_bytes_{sfx}(M, N, K);
        void *ws = bytes ? malloc((size_t)bytes) : NULL;
        if (bytes && !ws) {{ tp_ftz_end(csr); return 2; }}
        tp_gemm_{sfx}(M, N, K, (const {ct} *)x, c[4], c[5], (const {ct} *)b, c[6], c[7],
                      ({ct} *)y, N, ws);
        free(ws);
        break;
    }}""")
    fns.append(f"""int {_ENTRY}(void *call, void *x, void *y, void *b)
{{
    const int64_t *c = (const int64_t *)call;
    const int64_t n = c[1];
    switch (c[0]) {{  /* the evaluator's sum and these rules keep subnormals: no FTZ/DAZ */
    case 0: return tp_eager_sum_f32((const float *)x, n, (float *)y);
    case {NEAR[_F32]}: *(int32_t *)y = tp_eager_near_f32((const float *)x, n, (uint32_t)c[2]); return 0;
    case {NEAR[_F64]}: *(int32_t *)y = tp_eager_near_f64((const double *)x, n, (uint64_t)c[2]); return 0;
{chr(10).join(p.replace("break;", "return 0;") for p in plain)}
    default: break;
    }}
    const unsigned csr = tp_ftz_begin();
    switch (c[0]) {{
{chr(10).join(cases)}
    default: tp_ftz_end(csr); return 1;
    }}
    tp_ftz_end(csr);
    return 0;
}}

int64_t {_ENTRY}_workspace_size(void)
{{
    return 0;
}}""")
    head = ('#include <math.h>\n#include <stdint.h>\n#include <stdlib.h>\n#include <string.h>\n'
            '#include "transpile_macros.h"\n#include "tp_codegen.h"\n#include "tp_math_lib.h"\n'
            '#include "tp_matmul.h"\n')
    return head + "\n\n".join(fns) + "\n", _CDEF


_lock = threading.Lock()
_state: dict = {}   # "lib": the Library once loaded; "failed": True without a compiler
_requested: list = []


def request() -> bool:
    """True the first time it is called (until ``reset``): the caller then arranges for
    ``load`` to run (dispatch queues it on its worker thread)."""
    with _lock:
        if _requested:
            return False
        _requested.append(True)
        return True


def load(compile_missing: bool = True) -> None:
    """Build or load the library (blocking; dispatch calls it on its worker thread).
    ``compile_missing=False``: only load it when a previous process has built it."""
    with _lock:
        if _state:
            return
        source, cdef = _source()
        try:
            lib = build(source, cdef, name="eager_kernels", signature="x[n] -> y[n]",
                        compile_missing=compile_missing)
        except (CompilerNotFoundError, CompileError):
            _logger.debug("eager kernel library unavailable", exc_info=True)
            _state["failed"] = True
            return
        if lib is not None:
            _state["lib"] = lib
            for dt in NEAR:
                reduction_ftz.SCANS[dt] = _near_for(lib, dt)


def loaded() -> bool:
    """Whether ``load`` has run (with or without success)."""
    return bool(_state)


def reset() -> None:
    """Forget the loaded library (tests)."""
    with _lock:
        _state.clear()
        _requested.clear()
        reduction_ftz.SCANS.clear()


#: kernel -> its number in the entry point's switch
_NUMBERS = {k: i for i, k in enumerate(KERNELS, 1)}
_RULE_NUMBERS = {p: _RULE_BASE + i for i, p in enumerate(RULE_TWINS)}
_TWIN_OK: dict = {}


def has_rule_twin(primitive) -> bool:
    """Whether eager ``primitive`` on float32 can run the library's twin of its NumPy
    rule: NumPy's float64 function must be the C library's here (``libm_twin``'s probe,
    on first use), since the twin calls the C library."""
    ok = _TWIN_OK.get(primitive)
    if ok is None:
        entry = RULE_TWINS.get(primitive)
        ok = _TWIN_OK[primitive] = entry is not None and libm_twin(entry[1]) is entry[1]
    return ok


def kernel_for(primitive, dtype=_F32, rule: bool = False):
    """``fn(x) -> y`` running ``primitive`` on a C-contiguous array of ``dtype`` through
    the prebuilt library (``reduce_sum``: a float32 sum over every axis), or None when
    it has no kernel for it or is not loaded. ``rule``: the NumPy rule's bits (a
    ``RULE_TWINS`` kernel where there is one), not the compiled code's."""
    lib = _state.get("lib")
    dt = np.dtype(dtype)
    number = 0 if primitive is SUM and dt == _F32 else _NUMBERS.get((primitive, dt))
    if rule and dt == _F32 and has_rule_twin(primitive):
        number = _RULE_NUMBERS[primitive]
    if lib is None or number is None:
        return None
    entry, ffi = getattr(lib.lib, _ENTRY), lib.ffi
    from_buffer = ffi.from_buffer

    if number == 0:
        def total(x: np.ndarray, pooled: bool = False):
            y = np.zeros(1, _F32)
            if entry(from_buffer(np.array([0, x.size], np.int64)), from_buffer(x),
                     from_buffer(y), ffi.NULL) == 3:   # values near the subnormal range
                y = SUM.impl(x, axes=tuple(range(x.ndim)))
            y = y.reshape(())
            return (y, None) if pooled else y
        total.library = lib   # keeps the library open while the kernel is cached
        return total

    def run(x: np.ndarray, pooled: bool = False):
        """``y``, or with ``pooled`` ``(y, its pool block or None)``: a large result in
        memory whose pages are mapped already (a fresh 4 MB costs ~250 us of faults)."""
        if pooled and x.size * dt.itemsize >= pool.MIN_BYTES:
            y, block = pool.empty(x.shape, dt)
        else:   # (pool.empty's size arithmetic costs a small call more than its kernel)
            y, block = np.empty(x.shape, dt), None
        entry(from_buffer(np.array([number, x.size], np.int64)), from_buffer(x),
              from_buffer(y), ffi.NULL)
        return (y, block) if pooled else y
    run.library = lib
    return run


def _near_for(lib, dt):
    """``scan(x, bound)`` of ``reduction_ftz.SCANS`` through ``lib``'s ``NEAR`` kernel."""
    entry, ffi = getattr(lib.lib, _ENTRY), lib.ffi
    number, uint = NEAR[dt], np.dtype(f"u{dt.itemsize}")

    def scan(x: np.ndarray, bound) -> bool:
        out = np.zeros(1, np.int32)
        bits = int(np.asarray(bound, dt).view(uint))
        entry(ffi.from_buffer(np.array([number, x.size, bits], np.int64)),
              ffi.from_buffer(x), ffi.from_buffer(out), ffi.NULL)
        return bool(out[0])
    scan.library = lib
    return scan


def gemm_for(dtype):
    """``fn(M, N, K, a, off_a, rsa, csa, b, off_b, rsb, csb, c, off_c)``: ``tp_gemm`` of
    ``dtype`` on the 1-D C-contiguous arrays ``a``, ``b`` into ``c`` from those element
    offsets, as a compiled ``dot_general`` calls it; None when not loaded."""
    lib = _state.get("lib")
    dt = np.dtype(dtype)
    number = GEMM.get(dt)
    if lib is None or number is None:
        return None
    entry, ffi = getattr(lib.lib, _ENTRY), lib.ffi
    ptr = f"{emit_c.ctype(dt)} *"

    def gemm(M, N, K, a, off_a, rsa, csa, b, off_b, rsb, csb, c, off_c):
        call = np.array([number, M, N, K, rsa, csa, rsb, csb], np.int64)
        if entry(ffi.from_buffer(call), ffi.cast(ptr, ffi.from_buffer(a)) + off_a,
                 ffi.cast(ptr, ffi.from_buffer(c)) + off_c,
                 ffi.cast(ptr, ffi.from_buffer(b)) + off_b):
            raise MemoryError("no memory for a matrix product's workspace")
    gemm.library = lib
    return gemm

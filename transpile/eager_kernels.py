"""A prebuilt library of eager elementwise kernels, so that eager calls of the common
float32 transcendental functions run compiled from (nearly) the first call of a process.

``dispatch`` compiles one kernel per eager signature, on a worker thread, and answers
with the primitive's NumPy rule until it is ready. For XLA's own expansions (exp, tanh,
logistic, log, log1p, erf_inv) the NumPy rule repeats every float32 operation with an
emulated fused multiply-add and costs 0.1-0.3 ms even for a handful of elements. This
module holds one library with a contiguous loop per such (primitive, float32) pair,
built from the same C expressions the code generator writes (``emit_c.math_function``,
so the bits are those of the compiled programs and of the NumPy rules), under FTZ/DAZ as
every kernel runs; one thread (a large signature gets its own multithreaded kernel from
``dispatch`` as before). It is compiled once per machine into the disk cache
(``backend.build.build``: the cache's ownership checks and checksums hold) and loaded on
the eager worker thread on first use, so no eager call waits for it; until it is there,
or without a compiler, the NumPy rules answer.
"""
from __future__ import annotations

import logging
import threading

import numpy as np

from .backend.build import CompileError, CompilerNotFoundError, build
from .codegen import emit_c
from .lax import elementwise as ew
from .lax import reduction

__all__ = ["PRIMITIVES", "SUM", "kernel_for", "load", "loaded", "request", "reset"]

_logger = logging.getLogger("transpile")
_F32 = np.dtype(np.float32)

#: primitive -> the C expression of one element (``x`` the operand), float32
PRIMITIVES = {p: (n, emit_c.math_function(n, _F32, "x[i]")) for p, n in (
    (ew.exp_p, "exp"), (ew.tanh_p, "tanh"), (ew.logistic_p, "logistic"), (ew.log_p, "log"),
    (ew.log1p_p, "log1p"), (ew.erf_inv_p, "erf_inv"))}
#: the reduction the library also holds (a float32 sum over every axis)
SUM = reduction.reduce_sum_p
# tanh returns a subnormal operand itself, as its emitter writes it
PRIMITIVES[ew.tanh_p] = ("tanh", f"tp_keep_subnormal_f32(x[i], {PRIMITIVES[ew.tanh_p][1]})")

#: Full float32 sums: NumPy's pairwise summation in float (the NumPy rule is ``np.sum``
#: of the float32 operand: a run of fewer than 8 in order, up to 128
#: in 8 interleaved partial sums combined as ((0+1)+(2+3))+((4+5)+(6+7)) then the
#: rest in order, longer runs halved at a multiple of 8), so the bits are the rule's. One
#: thread: vectorised, it sums 1M floats in ~70 us, where a team's start and barrier
#: would cost more on a busy machine than they save.
_SUM_SOURCE = """
static float tp_eager_pairwise_(const float *x, int64_t n)
{
    if (n < 8) {
        float res = 0.f;
        for (int64_t i = 0; i < n; i++)
            res += x[i];
        return res;
    }
    if (n <= 128) {
        float r[8];
        int64_t i;
        for (int j = 0; j < 8; j++)
            r[j] = x[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += x[i + j];
        float res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += x[i];
        return res;
    }
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    return tp_eager_pairwise_(x, n2) + tp_eager_pairwise_(x + n2, n - n2);
}

float tp_eager_sum_f32(const float *x, int64_t n)
{
    return 0.f + tp_eager_pairwise_(x, n);
}
"""


def _source() -> tuple[str, str]:
    fns, decls = [_SUM_SOURCE], ["float tp_eager_sum_f32(const float *x, int64_t n);"]
    for name, expr in PRIMITIVES.values():
        sig = f"void tp_eager_{name}_f32(const float *x, float *y, int64_t n)"
        decls.append(sig + ";")
        fns.append(f"""{sig}
{{
    const unsigned csr = tp_ftz_begin();
    #pragma omp simd
    for (int64_t i = 0; i < n; i++)
        y[i] = {expr};
    tp_ftz_end(csr);
}}""")
    head = ('#include <math.h>\n#include <stdint.h>\n#include <string.h>\n'
            '#include "transpile_macros.h"\n#include "tp_codegen.h"\n#include "tp_math_lib.h"\n')
    return head + "\n\n".join(fns) + "\n", "\n".join(decls)


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


def load() -> None:
    """Build or load the library (blocking; dispatch calls it on its worker thread)."""
    with _lock:
        if _state:
            return
        source, cdef = _source()
        try:
            _state["lib"] = build(source, cdef, name="eager_kernels",
                                  signature="f32[n] -> f32[n]")
        except (CompilerNotFoundError, CompileError):
            _logger.debug("eager kernel library unavailable", exc_info=True)
            _state["failed"] = True


def loaded() -> bool:
    """Whether ``load`` has run (with or without success)."""
    return bool(_state)


def reset() -> None:
    """Forget the loaded library (tests)."""
    with _lock:
        _state.clear()
        _requested.clear()


def kernel_for(primitive):
    """``fn(x) -> y`` running ``primitive`` on a C-contiguous float32 array through the
    prebuilt library (``reduce_sum``: over every axis), or None when it has no kernel
    for it or is not loaded."""
    lib = _state.get("lib")
    if lib is not None and primitive is SUM:
        c_sum, ffi = lib.lib.tp_eager_sum_f32, lib.ffi

        def total(x: np.ndarray) -> np.ndarray:
            return np.array(c_sum(ffi.cast("const float *", ffi.from_buffer(x)), x.size),
                            _F32)
        total.library = lib
        return total
    entry = PRIMITIVES.get(primitive)
    if lib is None or entry is None:
        return None
    c_fn = getattr(lib.lib, f"tp_eager_{entry[0]}_f32")
    ffi = lib.ffi

    def run(x: np.ndarray) -> np.ndarray:
        y = np.empty(x.shape, _F32)
        c_fn(ffi.cast("const float *", ffi.from_buffer(x)),
             ffi.cast("float *", ffi.from_buffer(y)), x.size)
        return y
    run.library = lib   # keeps the library open while the kernel is cached
    return run

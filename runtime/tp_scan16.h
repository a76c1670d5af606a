/* Sums and products of the narrow floats (bfloat16, float8, float4) as XLA:CPU computes
 * them: each step in float (float16 for the small floats, float32 for bfloat16 and
 * float8_e8m0fnu), its result rounded to the narrow type.
 *
 * cumsum/cumprod: JAX lowers a cumulative sum to a reduce-window whose window spans the
 * axis; XLA's ReduceWindowRewriter splits a line longer than 16 into blocks of 16 (the
 * line padded at its end with the initial value): each block is scanned, its totals are
 * scanned the same way (recursively), and each block's elements are combined with the
 * scan of the blocks before it (after it, for a reverse scan). A window's elements are
 * folded in index order from the initial value, so a reverse scan's output j is
 * ((init + x[j]) + x[j+1]) + ... up to its block's end, not a running sum from the
 * right. tp_scan16_<fmt> does this on one line of float values (each exactly of the
 * format), in place; scratch holds n / 15 + 16 floats. The C kernel allocates one line
 * and its scratch; a CUDA thread takes its slice of the kernel's scratch.
 *
 * Reductions fold in order with tp_scan16_step_<fmt> (kernels.py's accumulator); XLA's
 * windows of 32 for long reduced dimensions are a rewrite of the jaxpr
 * (codegen/small_floats.py). Included at the end of tp_ops.h, after the float16
 * conversions. */
#ifndef TP_SCAN16_H
#define TP_SCAN16_H

#include <stdint.h>
#include "transpile_macros.h"
#include "tp_bf16.h"
#include "tp_float8.h"

/* Recursive, so not force-inlined under nvcc; plain static inline in C (no warning when
 * unused). */
#if defined(__CUDACC__)
#define TP_SCAN16_FN static __device__
#else
#define TP_SCAN16_FN static inline
#endif

#define TP_SCAN16_DEFINE(fmt, ROUND)                                                       \
    TP_INLINE float tp_scan16_step_##fmt(float acc, float v, int prod)                     \
    {                                                                                      \
        return ROUND(prod ? acc * v : acc + v);                                            \
    }                                                                                      \
    /* Each output folded directly over its window (a line of at most 16). */              \
    TP_INLINE void tp_scan16_direct_##fmt(float *x, int64_t n, int prod, int reverse,      \
                                          float init)                                      \
    {                                                                                      \
        if (!reverse) {                                                                    \
            float acc = init;                                                              \
            for (int64_t j = 0; j < n; j++) x[j] = acc = tp_scan16_step_##fmt(acc, x[j], prod); \
            return;                                                                        \
        }                                                                                  \
        for (int64_t j = 0; j < n; j++) { /* x[j] is read last by output j: in place */    \
            float acc = init;                                                              \
            for (int64_t k = j; k < n; k++) acc = tp_scan16_step_##fmt(acc, x[k], prod);   \
            x[j] = acc;                                                                    \
        }                                                                                  \
    }                                                                                      \
    TP_SCAN16_FN void tp_scan16_##fmt(float *x, int64_t n, int prod, int reverse,          \
                                      float *scratch)                                      \
    {                                                                                      \
        const float init = prod ? 1.0f : TP_SCAN16_ZERO_##fmt;                             \
        if (n <= 16) {                                                                     \
            tp_scan16_direct_##fmt(x, n, prod, reverse, init);                             \
            return;                                                                        \
        }                                                                                  \
        const int64_t m = (n + 15) / 16;                                                   \
        float *t = scratch;                                                                \
        for (int64_t b = 0; b < m; b++) {                                                  \
            int64_t len = n - 16 * b < 16 ? n - 16 * b : 16;                               \
            tp_scan16_direct_##fmt(x + 16 * b, len, prod, reverse, init);                  \
            t[b] = reverse ? x[16 * b] : x[16 * b + len - 1];                              \
        }                                                                                  \
        tp_scan16_##fmt(t, m, prod, reverse, scratch + m);                                 \
        for (int64_t b = 0; b < m; b++) {                                                  \
            float e = reverse ? (b + 1 < m ? t[b + 1] : init) : (b > 0 ? t[b - 1] : init); \
            int64_t len = n - 16 * b < 16 ? n - 16 * b : 16;                               \
            for (int64_t j = 0; j < len; j++)                                              \
                x[16 * b + j] = tp_scan16_step_##fmt(x[16 * b + j], e, prod);              \
        }                                                                                  \
    }

/* The sum's initial value: zero, except float8_e8m0fnu, which has none (JAX's 0
 * converts to its NaN). */
#define TP_SCAN16_ZERO_bf16 0.0f
#define TP_SCAN16_ZERO_f8e4m3fn 0.0f
#define TP_SCAN16_ZERO_f8e5m2 0.0f
#define TP_SCAN16_ZERO_f8e4m3b11fnuz 0.0f
#define TP_SCAN16_ZERO_f8e4m3fnuz 0.0f
#define TP_SCAN16_ZERO_f8e5m2fnuz 0.0f
#define TP_SCAN16_ZERO_f8e3m4 0.0f
#define TP_SCAN16_ZERO_f8e4m3 0.0f
#define TP_SCAN16_ZERO_f8e8m0fnu NAN
#define TP_SCAN16_ZERO_f4e2m1fn 0.0f

TP_INLINE float tp_scan16_round_bf16(float x) { return tp_bf16_to_f32(tp_f32_to_bf16(x)); }
TP_SCAN16_DEFINE(bf16, tp_scan16_round_bf16)

/* The small floats' steps are float16 operations (exact in float, then rounded: float's
 * 24 bits make the double rounding harmless) converted to the format. */
#define TP_SCAN16_SMALL(fmt)                                                               \
    TP_INLINE float tp_scan16_round_##fmt(float x)                                         \
    {                                                                                      \
        return tp_##fmt##_round_h(tp_f16_to_f32(tp_f32_to_f16(x)));                        \
    }                                                                                      \
    TP_SCAN16_DEFINE(fmt, tp_scan16_round_##fmt)

TP_SCAN16_SMALL(f8e4m3fn)
TP_SCAN16_SMALL(f8e5m2)
TP_SCAN16_SMALL(f8e4m3b11fnuz)
TP_SCAN16_SMALL(f8e4m3fnuz)
TP_SCAN16_SMALL(f8e5m2fnuz)
TP_SCAN16_SMALL(f8e3m4)
TP_SCAN16_SMALL(f8e4m3)
TP_SCAN16_SMALL(f4e2m1fn)
TP_SCAN16_DEFINE(f8e8m0fnu, tp_f8e8m0fnu_round)  /* float32, its range */

#endif /* TP_SCAN16_H */

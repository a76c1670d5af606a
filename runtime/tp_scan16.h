/* bfloat16 cumsum/cumprod as XLA:CPU computes them. JAX lowers a cumulative sum to a
 * reduce-window whose window spans the axis; XLA's ReduceWindowRewriter splits a line
 * longer than 16 into blocks of 16 (the line padded at its end with the initial value):
 * each block is scanned, its totals are scanned the same way (recursively), and each
 * block's elements are combined with the scan of the blocks before it (after it, for a
 * reverse scan). Every step is a float32 operation rounded to bfloat16. A window's
 * elements are folded in index order from the initial value, so a reverse scan's
 * output j is ((init + x[j]) + x[j+1]) + ... up to its block's end, not a running sum
 * from the right. tp_scan16_bf16 does this on one line of float values (each exactly a
 * bfloat16), in place; scratch holds n / 15 + 16 floats. The C kernel allocates one
 * line and its scratch; a CUDA thread takes its slice of the kernel's scratch. */
#ifndef TP_SCAN16_H
#define TP_SCAN16_H

#include <stdint.h>
#include "transpile_macros.h"
#include "tp_bf16.h"

/* Recursive, so not force-inlined under nvcc; plain static inline in C (no warning when
 * unused). */
#if defined(__CUDACC__)
#define TP_SCAN16_FN static __device__
#else
#define TP_SCAN16_FN static inline
#endif

TP_INLINE float tp_scan16_step(float acc, float v, int prod)
{
    return tp_bf16_to_f32(tp_f32_to_bf16(prod ? acc * v : acc + v));
}

/* Each output folded directly over its window (a line of at most 16). */
TP_INLINE void tp_scan16_direct(float *x, int64_t n, int prod, int reverse)
{
    const float init = prod ? 1.0f : 0.0f;
    if (!reverse) {
        float acc = init;
        for (int64_t j = 0; j < n; j++) x[j] = acc = tp_scan16_step(acc, x[j], prod);
        return;
    }
    for (int64_t j = 0; j < n; j++) {  /* x[j] is read last by output j: in place */
        float acc = init;
        for (int64_t k = j; k < n; k++) acc = tp_scan16_step(acc, x[k], prod);
        x[j] = acc;
    }
}

TP_SCAN16_FN void tp_scan16_bf16(float *x, int64_t n, int prod, int reverse, float *scratch)
{
    if (n <= 16) {
        tp_scan16_direct(x, n, prod, reverse);
        return;
    }
    const float init = prod ? 1.0f : 0.0f;
    const int64_t m = (n + 15) / 16;
    float *t = scratch;
    for (int64_t b = 0; b < m; b++) {
        int64_t len = n - 16 * b < 16 ? n - 16 * b : 16;
        tp_scan16_direct(x + 16 * b, len, prod, reverse);
        t[b] = reverse ? x[16 * b] : x[16 * b + len - 1];
    }
    tp_scan16_bf16(t, m, prod, reverse, scratch + m);
    for (int64_t b = 0; b < m; b++) {
        float e = reverse ? (b + 1 < m ? t[b + 1] : init) : (b > 0 ? t[b - 1] : init);
        int64_t len = n - 16 * b < 16 ? n - 16 * b : 16;
        for (int64_t j = 0; j < len; j++) x[16 * b + j] = tp_scan16_step(x[16 * b + j], e, prod);
    }
}

#endif /* TP_SCAN16_H */

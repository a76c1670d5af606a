/* bfloat16: stored as its 16 bits (uint16_t), computed in float, as XLA:CPU computes it
 * (every operation in float32, its result rounded back to bfloat16). The conversions
 * are XLA's bit-level ones: bfloat16 -> float32 appends 16 zero bits (subnormals kept),
 * float32 -> bfloat16 rounds to nearest even and turns every NaN into the quiet NaN
 * 0x7fc0 of its sign; float64 goes through float32 (rounding twice, as XLA does).
 * Included by tp_ops.h; the rounding helpers of generated code are in tp_codegen.h. */
#ifndef TP_BF16_H
#define TP_BF16_H

#include <stdint.h>
#include <string.h>
#include "transpile_macros.h"

TP_INLINE float tp_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

TP_INLINE double tp_bf16_to_f64(uint16_t h) { return (double)tp_bf16_to_f32(h); }

TP_INLINE uint16_t tp_f32_to_bf16(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;  /* carries reach inf */
    uint32_t quiet = ((u >> 16) & 0x8000u) | 0x7fc0u;
    return (uint16_t)((u & 0x7fffffffu) > 0x7f800000u ? quiet : rounded);
}

TP_INLINE uint16_t tp_f64_to_bf16(double x) { return tp_f32_to_bf16((float)x); }


#endif /* TP_BF16_H */

/* What generated kernels call beyond C operators: every helper name an emitter in
 * transpile/codegen/emit_c.py writes is defined here or in the headers included here
 * (tp_ops.h: XLA's scalar semantics; tp_math.h: vectorisable transcendentals). This file
 * adds only the glue the emitters need on top of them. */
#ifndef TP_CODEGEN_H
#define TP_CODEGEN_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "transpile_macros.h"
#include "tp_ops.h"
#include "tp_math.h"
#include "tp_xla_math.h"
#include "tp_special.h"
#include "tp_parallel.h"
#include "tp_complex.h"

/* float16 values are computed in float: a result rounds to float16 and back. */
TP_INLINE float tp_f16_round(float x) { return tp_f16_to_f32(tp_f32_to_f16(x)); }
TP_INLINE float tp_f64_to_f16_round(double x) { return tp_f16_to_f32(tp_f64_to_f16(x)); }
/* ... and bfloat16's (tp_bf16.h). */
TP_INLINE float tp_bf16_round(float x) { return tp_bf16_to_f32(tp_f32_to_bf16(x)); }
TP_INLINE float tp_f64_to_bf16_round(double x) { return tp_bf16_to_f32(tp_f64_to_bf16(x)); }

/* a if it is a NaN, else r (a op b): the first operand's NaN, as x86 gives it. */
TP_INLINE float tp_first_nan_f32(float a, float r) { return a != a ? a : r; }
/* Any NaN as the positive quiet NaN (float16's max/min). */
TP_INLINE float tp_quiet_nan_f32(float x) { return x != x ? NAN : x; }

/* XLA reads a subnormal operand as zero (DAZ) except where a function returns a tiny
 * argument unchanged (sin, tan, atan, expm1, tanh) or flushes only one operand (rem's
 * divisor). fabs and copysign are bit operations, which DAZ leaves alone. */
#define TPC_FLUSH(sfx, T, MIN, FABS, COPYSIGN) \
    TP_INLINE T tp_flush_##sfx(T x) { return FABS(x) < MIN ? COPYSIGN((T)0, x) : x; } \
    TP_INLINE T tp_keep_subnormal_##sfx(T x, T r) { return tpi_sel_##sfx(FABS(x) < MIN, x, r); }
TPC_FLUSH(f32, float, FLT_MIN, fabsf, copysignf)
TPC_FLUSH(f64, double, DBL_MIN, fabs, copysign)

/* nextafter of float16 and bfloat16 (computed in float) as XLA expands it: the step on
 * the 16-bit pattern, not flushed; x == y in float (DAZ reads bfloat16's subnormals as
 * zero); a NaN operand gives the positive quiet NaN of the type. */
#define TPC_NEXTAFTER16(sfx, NAN_BITS) \
    TP_INLINE float tp_nextafter_##sfx(float x, float y) \
    { \
        uint16_t u = tp_f32_to_##sfx(x), v = tp_f32_to_##sfx(y); \
        uint16_t mu = u & 0x7fffu, mv = v & 0x7fffu, r; \
        if (mu == 0) r = mv == 0 ? v : (uint16_t)((v & 0x8000u) | 1u); \
        else r = (uint16_t)(mu > mv || (u & 0x8000u) != (v & 0x8000u) ? u - 1u : u + 1u); \
        if (x == y) r = v; \
        if (x != x || y != y) r = NAN_BITS; \
        return tp_##sfx##_to_f32(r); \
    }
TPC_NEXTAFTER16(f16, 0x7e00u)
TPC_NEXTAFTER16(bf16, 0x7fc0u)

/* bitcast_convert_type of a float: its bits as the unsigned integer of its width and
 * back (a memcpy between locals: a register move, which gcc vectorises). */
TP_INLINE uint32_t tp_bits_of_f32(float x) { uint32_t u; memcpy(&u, &x, sizeof u); return u; }
TP_INLINE float tp_f32_of_bits(uint32_t u) { float x; memcpy(&x, &u, sizeof x); return x; }
TP_INLINE uint64_t tp_bits_of_f64(double x) { uint64_t u; memcpy(&u, &x, sizeof u); return u; }
TP_INLINE double tp_f64_of_bits(uint64_t u) { double x; memcpy(&x, &u, sizeof x); return x; }

/* reduce_precision (lax/bits.py): XLA's rounding of the mantissa to m bits (to nearest,
 * ties to even) and clamping of the exponent to e bits, on the bits of a float of format
 * (se, sm); a NaN operand is returned unchanged. */
#define TPC_REDUCE_PRECISION(sfx, T, U, SE, SM) \
    TP_INLINE T tp_reduce_precision_##sfx(T x, int e, int m) \
    { \
        U u = tp_bits_of_##sfx(x); \
        if (m < SM) { \
            U last = (U)1 << (SM - m); \
            u = (u + (((u & last) >> (SM - m)) + ((last >> 1) - 1))) & ~(last - 1); \
        } \
        if (e < SE) { \
            U sign = (U)1 << (SE + SM), emask = (((U)1 << SE) - 1) << SM; \
            U bs = ((U)1 << (SE - 1)) - 1, bn = ((U)1 << (e - 1)) - 1, ex = u & emask; \
            if (ex > ((bs + bn) << SM)) u = (u & sign) | emask; \
            else if (ex <= ((bs - bn) << SM)) u = u & sign; \
        } \
        return x != x ? x : tp_##sfx##_of_bits(u); \
    }
TPC_REDUCE_PRECISION(f32, float, uint32_t, 8, 23)
TPC_REDUCE_PRECISION(f64, double, uint64_t, 11, 52)

/* eq_to, le_to, lt_to (lax/bits.py): floats compared by their bits in total order. */
TP_INLINE int32_t tp_total_key_f32(float x)
{ int32_t b = (int32_t)tp_bits_of_f32(x); return b < 0 ? -(b & INT32_MAX) - 1 : b; }
TP_INLINE int64_t tp_total_key_f64(double x)
{ int64_t b = (int64_t)tp_bits_of_f64(x); return b < 0 ? -(b & INT64_MAX) - 1 : b; }

/* clz, population_count, mulhi (lax/bits.py) on unsigned bits: CUDA's intrinsics on the
 * GPU, gcc's builtins (clz of 0 defined as the width) and 128-bit products on the host. */
#ifdef __CUDACC__
TP_INLINE int tp_clz_u32(uint32_t x) { return __clz((int)x); }
TP_INLINE int tp_clz_u64(uint64_t x) { return __clzll((long long)x); }
TP_INLINE int tp_popcount_u32(uint32_t x) { return __popc(x); }
TP_INLINE int tp_popcount_u64(uint64_t x) { return __popcll((unsigned long long)x); }
TP_INLINE uint64_t tp_mulhi_u64(uint64_t a, uint64_t b)
{ return (uint64_t)__umul64hi((unsigned long long)a, (unsigned long long)b); }
TP_INLINE int64_t tp_mulhi_i64(int64_t a, int64_t b)
{ return (int64_t)__mul64hi((long long)a, (long long)b); }
#else
TP_INLINE int tp_clz_u32(uint32_t x) { return x == 0 ? 32 : __builtin_clz(x); }
TP_INLINE int tp_clz_u64(uint64_t x) { return x == 0 ? 64 : __builtin_clzll(x); }
TP_INLINE int tp_popcount_u32(uint32_t x) { return __builtin_popcount(x); }
TP_INLINE int tp_popcount_u64(uint64_t x) { return __builtin_popcountll(x); }
/* The high words from 32-bit halves: ISO C99 (no __int128, which exported code built
 * with -pedantic refuses); the signed product's high word is the unsigned one less
 * each operand where the other is negative (two's complement, modulo 2^64). */
TP_INLINE uint64_t tp_mulhi_u64(uint64_t a, uint64_t b)
{
    const uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
TP_INLINE int64_t tp_mulhi_i64(int64_t a, int64_t b)
{
    uint64_t hi = tp_mulhi_u64((uint64_t)a, (uint64_t)b);
    hi -= a < 0 ? (uint64_t)b : 0u;
    hi -= b < 0 ? (uint64_t)a : 0u;
    return (int64_t)hi;
}
#endif

/* Dynamic indexing: a start index from run-time data, for a window of the operand whose
 * last valid start is hi (dim - window size, >= 0). Clamped starts keep every access in
 * bounds whatever the index (negative, huge, INT64_MIN); the u64 forms compare without
 * the sign flip a cast to int64_t would make. */
TP_INLINE int64_t tp_clamp_start(int64_t s, int64_t hi) { return s < 0 ? 0 : (s > hi ? hi : s); }
TP_INLINE int64_t tp_clamp_start_u64(uint64_t s, int64_t hi)
{
    return s > (uint64_t)hi ? hi : (int64_t)s;
}
TP_INLINE int tp_start_in_bounds(int64_t s, int64_t hi) { return s >= 0 && s <= hi; }
TP_INLINE int tp_start_in_bounds_u64(uint64_t s, int64_t hi) { return s <= (uint64_t)hi; }

#endif /* TP_CODEGEN_H */

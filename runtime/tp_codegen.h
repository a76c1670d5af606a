/* What generated kernels call beyond C operators: every helper name an emitter in
 * transpile/codegen/emit_c.py writes is defined here or in the headers included here.
 * One include for generated files keeps the emitters and the runtime in step. */
#ifndef TP_CODEGEN_H
#define TP_CODEGEN_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "transpile_macros.h"
#include "tp_ops.h"
#include "tp_math.h"

/* float16 stored as bits, computed in float. */
TP_INLINE float tpc_bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
TP_INLINE uint32_t tpc_f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

#ifndef TP_HAVE_F16
TP_INLINE float tp_f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t em = h & 0x7fffu;
    /* Normal and subnormal halves: scale the bits as a float by 2^112. */
    float mag = tpc_bits_f32(em << 13) * 5.192296858534828e33f;
    if (em >= 0x7c00u) mag = tpc_bits_f32((em << 13) | 0x7f800000u);
    if (em < 0x0400u) mag = (float)em * 5.9604644775390625e-8f;
    return tpc_bits_f32(tpc_f32_bits(mag) | sign);
}

TP_INLINE uint16_t tp_f32_to_f16(float f)
{
    const uint32_t u = tpc_f32_bits(f);
    const uint32_t sign = (u >> 16) & 0x8000u;
    const uint32_t a = u & 0x7fffffffu;
    uint32_t h;
    if (a > 0x7f800000u) {
        h = 0x7e00u | ((a >> 13) & 0x3ffu);
    } else if (a >= 0x477ff000u) {          /* rounds to >= 65520: infinity */
        h = 0x7c00u;
    } else if (a >= 0x38800000u) {          /* normal half */
        const uint32_t m = a + 0xfffu + ((a >> 13) & 1u) - 0x38000000u;
        h = m >> 13;
    } else {                                 /* subnormal half or zero: exact integer rounding */
        const float scaled = tpc_bits_f32(a) * 16777216.0f; /* units of 2^-24 */
        h = (uint32_t)rintf(scaled);
    }
    return (uint16_t)(h | sign);
}
#endif

TP_INLINE float tp_f16_round(float x) { return tp_f16_to_f32(tp_f32_to_f16(x)); }

/* Round a double to float16 once (no double rounding through float). */
TP_INLINE float tp_f64_to_f16_round(double x)
{
    float f = (float)x;
    /* float rounding can land on a half-way point of float16; nudge toward x. */
    const double back = (double)f;
    if (back != x && x == x) {
        uint32_t u = tpc_f32_bits(f);
        if ((u & 0x1fffu) == 0x1000u) {
            u = (back < x) == (f > 0) ? u + 1 : u - 1;
            f = tpc_bits_f32(u);
        }
    }
    return tp_f16_round(f);
}

#define TPC_FLUSH(sfx, T, MIN, FABS, COPYSIGN) \
    TP_INLINE T tp_flush_##sfx(T x) { return FABS(x) < MIN ? COPYSIGN((T)0, x) : x; } \
    TP_INLINE T tp_keep_subnormal_##sfx(T x, T r) { return FABS(x) < MIN ? x : r; }
TPC_FLUSH(f32, float, FLT_MIN, fabsf, copysignf)
TPC_FLUSH(f64, double, DBL_MIN, fabs, copysign)

#define TPC_MINMAX(sfx, T) \
    TP_INLINE T tp_max_##sfx(T a, T b) \
    { return a != a ? a : (b != b ? b : (a == b ? (signbit(a) ? b : a) : (a > b ? a : b))); } \
    TP_INLINE T tp_min_##sfx(T a, T b) \
    { return a != a ? a : (b != b ? b : (a == b ? (signbit(a) ? a : b) : (a < b ? a : b))); } \
    TP_INLINE T tp_sign_##sfx(T a) \
    { return a != a ? a : (a == 0 ? a : (a > 0 ? (T)1 : (T)-1)); }
TPC_MINMAX(f32, float)
TPC_MINMAX(f64, double)

TP_INLINE float tp_nextafter_f16(float x, float y)
{
    uint16_t h = tp_f32_to_f16(x);
    if (x != x || y != y) return x + y;
    if (x == y) return y;
    if (x == 0) h = (uint16_t)((y > 0 ? 0x0000u : 0x8000u) | 1u);
    else if ((x < y) == (x > 0)) h = (uint16_t)(h + 1);
    else h = (uint16_t)(h - 1);
    return tp_f16_to_f32(h);
}

#define TPC_INT(sfx, T, UT, TMIN, TMAX) \
    TP_INLINE T tp_div_##sfx(T a, T b) \
    { return b == 0 ? (T)-1 : ((TMIN != 0 && a == (T)TMIN && b == (T)-1) ? a : (T)(a / b)); } \
    TP_INLINE T tp_rem_##sfx(T a, T b) \
    { return b == 0 ? a : ((TMIN != 0 && a == (T)TMIN && b == (T)-1) ? (T)0 : (T)(a % b)); } \
    TP_INLINE T tp_sign_##sfx(T a) { return (T)((a > 0) - (TMIN != 0 && a < 0)); } \
    TP_INLINE T tp_cvt_f32_##sfx(float x) \
    { return x != x ? (T)0 : (x >= (float)TMAX ? (T)TMAX : (x <= (float)TMIN ? (T)TMIN : (T)x)); } \
    TP_INLINE T tp_cvt_f64_##sfx(double x) \
    { return x != x ? (T)0 : (x >= (double)TMAX ? (T)TMAX : (x <= (double)TMIN ? (T)TMIN : (T)x)); }
TPC_INT(i8, int8_t, uint8_t, INT8_MIN, INT8_MAX)
TPC_INT(i16, int16_t, uint16_t, INT16_MIN, INT16_MAX)
TPC_INT(i32, int32_t, uint32_t, INT32_MIN, INT32_MAX)
TPC_INT(i64, int64_t, uint64_t, INT64_MIN, INT64_MAX)
TPC_INT(u8, uint8_t, uint8_t, 0, UINT8_MAX)
TPC_INT(u16, uint16_t, uint16_t, 0, UINT16_MAX)
TPC_INT(u32, uint32_t, uint32_t, 0, UINT32_MAX)
TPC_INT(u64, uint64_t, uint64_t, 0, UINT64_MAX)

#endif /* TP_CODEGEN_H */

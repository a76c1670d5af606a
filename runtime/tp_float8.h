/* The 8-bit (and 4-bit) floats: stored as one byte (uint8_t), computed in float, as
 * XLA:CPU computes them (each operation in float16 -- float32 for float8_e8m0fnu -- its
 * result converted back). One decoder and one encoder serve every format, driven by its
 * parameters (exponent bits E, mantissa bits M, bias, and the rule for its special
 * values); TP_SMALL_FLOAT instantiates them per format with constants, so each inlines
 * to a few integer operations. They are bit for bit XLA's (and ml_dtypes') conversions:
 * decoding is exact, NaN becomes float's quiet NaN of its sign (positive for the
 * formats without -0); encoding rounds the float32 bits to nearest even (ties away from
 * zero for e8m0fnu), overflow giving the format's infinity, NaN or (float4_e2m1fn) its
 * largest value. transpile/lax/_float8.py is the same algorithm in NumPy.
 *
 * XLA's float16 -> float8_e5m2 conversion turns every NaN into 0x7f, where float32's
 * keeps the sign (0x7e/0xfe): an e5m2 arithmetic result (converted from float16) that
 * is NaN is carried in float as the NaN TP_F8_HALF_NAN, which the encoder maps to 0x7f;
 * any other conversion out of a small float goes through tp_<fmt>_round first, which
 * gives that NaN its canonical float bits again. */
#ifndef TP_FLOAT8_H
#define TP_FLOAT8_H

#include <stdint.h>
#include <string.h>
#include "transpile_macros.h"

enum { TP_F8_IEEE, TP_F8_FN, TP_F8_FNUZ, TP_F8_E8M0, TP_F8_FINITE };

#define TP_F8_HALF_NAN_BITS 0x7fc0f800u

TP_INLINE float tp_f8_bits_to_float(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

TP_INLINE uint32_t tp_f8_float_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

TP_INLINE float tp_f8_decode(uint32_t b, int E, int M, int bias, int rule)
{
    uint32_t sign = rule == TP_F8_E8M0 ? 0u : (b >> (E + M)) & 1u;
    uint32_t exp = (b >> M) & ((1u << E) - 1u), man = b & ((1u << M) - 1u);
    uint32_t top = (1u << E) - 1u;
    int nan = rule == TP_F8_IEEE ? (exp == top && man != 0)
            : rule == TP_F8_FN ? (exp == top && man == (1u << M) - 1u)
            : rule == TP_F8_FNUZ ? (b == (1u << (E + M)))
            : rule == TP_F8_E8M0 ? (b == 0xffu) : 0;
    if (nan)
        return tp_f8_bits_to_float(rule == TP_F8_FNUZ || !sign ? 0x7fc00000u : 0xffc00000u);
    uint32_t u;
    if (rule == TP_F8_IEEE && exp == top) {
        u = 0x7f800000u;
    } else if (exp == 0 && rule != TP_F8_E8M0) {
        if (man == 0) {
            u = 0;
        } else {  /* subnormal: normalise man * 2^(1 - bias - M) into float32 */
            int e = 1 - bias - M;
            while (!(man & (1u << M))) { man <<= 1; e--; }
            u = ((uint32_t)(e + M + 127) << 23) | ((man & ((1u << M) - 1u)) << (23 - M));
        }
    } else if (rule == TP_F8_E8M0 && exp == 0) {
        u = 0x00400000u;  /* 2^-127, a float32 subnormal */
    } else {
        u = ((exp - (uint32_t)bias + 127u) << 23) | (man << (23 - M));
    }
    return tp_f8_bits_to_float(u | (sign << 31));
}

TP_INLINE uint32_t tp_f8_encode(float x, int E, int M, int bias, int rule)
{
    uint32_t u = tp_f8_float_bits(x);
    uint32_t neg = u >> 31, a = u & 0x7fffffffu;
    uint32_t fexp = a >> 23, top = (1u << E) - 1u, sign_bit = 1u << (E + M);
    int shift = 23 - M;
    uint32_t mag;
    if (rule == TP_F8_E8M0 && fexp == 0) {  /* 2^-127 (0) itself or below, else 2^-126 */
        mag = a > 0x400000u;
    } else if (rule == TP_F8_E8M0 || (int)fexp - 127 >= 1 - bias) {
        uint32_t even = rule == TP_F8_E8M0 ? 1u : (a >> shift) & 1u;
        int64_t r = (int64_t)((a + (1u << (shift - 1)) - 1u + even) >> shift);
        r -= (int64_t)(127 - bias) << M;
        mag = r < 0 ? 0u : (uint32_t)r;
    } else {
        uint32_t sig = fexp ? (a & 0x7fffffu) | 0x800000u : a & 0x7fffffu;
        int s = (1 - bias - M) - ((int)(fexp ? fexp : 1u) - 127 - 23);
        mag = s >= 26 ? 0u : (sig + (1u << (s - 1)) - 1u + ((sig >> s) & 1u)) >> s;
    }
    uint32_t max_bits = rule == TP_F8_IEEE ? (top << M) - 1u
                      : rule == TP_F8_FN ? (top << M) | ((1u << M) - 2u)
                      : rule == TP_F8_E8M0 ? 0xfeu : (1u << (E + M)) - 1u;
    uint32_t over = rule == TP_F8_IEEE ? top << M
                  : rule == TP_F8_FN ? (top << M) | ((1u << M) - 1u)
                  : rule == TP_F8_E8M0 ? 0xffu : max_bits;
    int overflow = mag > max_bits || a == 0x7f800000u;
    int is_nan = a > 0x7f800000u;
    if (rule == TP_F8_E8M0)
        return is_nan || neg || a == 0 ? 0xffu : overflow ? over : mag;
    if (rule == TP_F8_FNUZ)
        return is_nan || overflow ? sign_bit : neg && mag ? mag | sign_bit : mag;
    if (is_nan) {
        if (rule == TP_F8_FINITE) return sign_bit;
        if (u == TP_F8_HALF_NAN_BITS) return 0x7fu;  /* only e5m2 makes this NaN */
        uint32_t q = rule == TP_F8_IEEE ? (top << M) | (1u << (M - 1)) : over;
        return q | (neg ? sign_bit : 0u);
    }
    return (overflow ? over : mag) | (neg ? sign_bit : 0u);
}

/* tp_<fmt>_to_f32, tp_f32_to_<fmt>, tp_<fmt>_round (to the format and back) and
 * tp_<fmt>_round_h (the same for a float16 result: XLA's float16 source rule), with
 * their float64 forms. */
#define TP_SMALL_FLOAT(fmt, E, M, BIAS, RULE, HALF_NAN)                                   \
    TP_INLINE float tp_##fmt##_to_f32(uint8_t b) { return tp_f8_decode(b, E, M, BIAS, RULE); } \
    TP_INLINE double tp_##fmt##_to_f64(uint8_t b) { return (double)tp_##fmt##_to_f32(b); }   \
    TP_INLINE uint8_t tp_f32_to_##fmt(float x) { return (uint8_t)tp_f8_encode(x, E, M, BIAS, RULE); } \
    TP_INLINE uint8_t tp_f64_to_##fmt(double x) { return tp_f32_to_##fmt((float)x); }       \
    TP_INLINE float tp_##fmt##_round(float x) { return tp_##fmt##_to_f32(tp_f32_to_##fmt(x)); } \
    TP_INLINE float tp_f64_to_##fmt##_round(double x) { return tp_##fmt##_round((float)x); } \
    TP_INLINE float tp_##fmt##_round_h(float x)                                           \
    {                                                                                      \
        return (HALF_NAN) && x != x ? tp_f8_bits_to_float(TP_F8_HALF_NAN_BITS)             \
                                    : tp_##fmt##_round(x);                                 \
    }

TP_SMALL_FLOAT(f8e4m3fn, 4, 3, 7, TP_F8_FN, 0)
TP_SMALL_FLOAT(f8e5m2, 5, 2, 15, TP_F8_IEEE, 1)
TP_SMALL_FLOAT(f8e4m3b11fnuz, 4, 3, 11, TP_F8_FNUZ, 0)
TP_SMALL_FLOAT(f8e4m3fnuz, 4, 3, 8, TP_F8_FNUZ, 0)
TP_SMALL_FLOAT(f8e5m2fnuz, 5, 2, 16, TP_F8_FNUZ, 0)
TP_SMALL_FLOAT(f8e3m4, 3, 4, 3, TP_F8_IEEE, 0)
TP_SMALL_FLOAT(f8e4m3, 4, 3, 7, TP_F8_IEEE, 0)
TP_SMALL_FLOAT(f8e8m0fnu, 8, 0, 127, TP_F8_E8M0, 0)
TP_SMALL_FLOAT(f4e2m1fn, 2, 1, 1, TP_F8_FINITE, 0)

#endif /* TP_FLOAT8_H */

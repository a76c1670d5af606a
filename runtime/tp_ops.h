/* tp_ops.h: the scalar semantics of lax primitives that C operators do not give.
 *
 * Generated kernels include this header (tp_math.h includes it too). Each helper is the
 * NumPy rule of its primitive in transpile/lax/elementwise.py, bit for bit, for
 * kernels that run with flush-to-zero and denormals-are-zero set (tp_ftz_begin), as
 * XLA:CPU runs them:
 *
 *   tp_ftz_begin / tp_ftz_end   set FTZ|DAZ in MXCSR for the calling thread and restore it
 *                               (no-ops on other targets). Call them in every thread that
 *                               runs kernel code, i.e. inside each OpenMP parallel region.
 *   integers (i8 i16 i32 i64 u8 u16 u32 u64):
 *     tp_add_, tp_sub_, tp_mul_, tp_neg_     wrap around, computed in an unsigned type (the
 *                                            C operators overflow: undefined behaviour)
 *     tp_abs_ (signed)                       INT_MIN stays INT_MIN
 *     tp_div_, tp_rem_                       x / 0 = -1 (all ones unsigned), x % 0 = x,
 *                                            INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0;
 *                                            no trapping division is ever executed
 *     tp_shift_left_, tp_shift_right_logical_, tp_shift_right_arithmetic_
 *                                            amounts < 0 or >= the width give 0 (the sign
 *                                            fill); the arithmetic shift reads unsigned
 *                                            operands as signed
 *     tp_sign_, tp_max_, tp_min_, tp_clamp_, tp_ipow_ (integer_pow, n >= 0; with n a
 *                                            constant, as in kernels, it unrolls)
 *   floats (f32 f64):
 *     tp_max_, tp_min_, tp_clamp_            NaN propagates, -0 < +0
 *     tp_sign_, tp_floor_, tp_ceil_, tp_round_away_ (half away from zero),
 *     tp_round_even_ (half to even), tp_rem_, tp_ipow_ (integer_pow), tp_pow_,
 *     tp_nextafter_, tp_is_finite_, tp_rsqrt_, tp_cbrt_
 *     tp_<f32|f64>_to_<int>                  truncate, saturate, NaN -> 0
 *   tp_select_<dt>(c, a, b)                  c ? a : b for every dtype, as a blend: emit
 *                                            selects with it, not ?:, or gcc 12 leaves the
 *                                            loop scalar (see tp_select_f32)
 *   float16 (stored as uint16_t; its arithmetic is done in float32):
 *     tp_f16_to_f32, tp_f16_to_f64 (exact), tp_f32_to_f16, tp_f64_to_f16 (round to
 *     nearest even, once, overflow to inf, NaN stays a quiet NaN, subnormal halves exact)
 *
 * Whatever a plain C expression gives already (float + - * /, comparisons, bitwise
 * operators, fabs, sqrt, float <-> float and int -> float casts) has no helper; float
 * pow with an integer exponent is tp_pow_f32(x, (float)n), as the rule converts first.
 *
 * Where a rule flushes subnormal operands or results but the hardware would not (a
 * select returns an operand as it is; libm's floor/fmod/pow work on the bits), the
 * helpers flush explicitly, so that they give the rule whether or not FTZ/DAZ are set.
 *
 * Everything is branch-free where the operation allows, so that gcc vectorizes loops
 * that use it: selects between computed floats go through masks (tpi_sel_*) because
 * gcc 12 otherwise sinks the computation into a branch that it then will not
 * if-convert. Only <math.h>, <stdint.h>, <string.h>, <float.h>, <limits.h> and, on x86,
 * <xmmintrin.h> (for compilers other than gcc and clang) are used; the header is C99
 * and -Wall -Wextra -pedantic clean.
 */
#ifndef TP_OPS_H
#define TP_OPS_H

#include "transpile_macros.h"
#include "tp_bf16.h"
#include "tp_float8.h"
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* The x86 control register of FTZ/DAZ; never in CUDA, whose device code has no such
   state (float32 flushing is nvcc's -ftz=true). */
#if (defined(__SSE__) || defined(__x86_64__) || defined(_M_X64)) && !defined(__CUDACC__)
#define TPI_HAVE_MXCSR 1
#if defined(__GNUC__)
/* gcc's and clang's own builtins: <xmmintrin.h> would cost every compile ~9 ms of parsing
   for these two */
#define tpi_getcsr() __builtin_ia32_stmxcsr()
#define tpi_setcsr(v) __builtin_ia32_ldmxcsr(v)
#else
#include <xmmintrin.h>
#define tpi_getcsr() _mm_getcsr()
#define tpi_setcsr(v) _mm_setcsr(v)
#endif
#endif

/* ------------------------------------------------------------------------------------
 * Shared internals (tpi_ prefix), also used by tp_math.h */

/* gcc stops inlining the larger functions (max-inline-insns-single) once a file uses
   several of them, and a call left in a loop keeps it scalar: force inlining. */
#if defined(__GNUC__)
#define TPI_AI __attribute__((always_inline))
#else
#define TPI_AI
#endif

/* fma where it is an instruction, a * b + c (two roundings) where it would be a slow
   library call; code that needs the exact fma calls fma() itself. */
#if defined(FP_FAST_FMAF) || defined(__FP_FAST_FMAF)
#define TPI_FMAF(a, b, c) fmaf((a), (b), (c))
#else
#define TPI_FMAF(a, b, c) ((a) * (b) + (c))
#endif
#if defined(FP_FAST_FMA) || defined(__FP_FAST_FMA)
#define TPI_FMA(a, b, c) fma((a), (b), (c))
#else
#define TPI_FMA(a, b, c) ((a) * (b) + (c))
#endif

TP_INLINE TPI_AI uint32_t tpi_bits_f32(float x) { uint32_t u; memcpy(&u, &x, sizeof u); return u; }
TP_INLINE TPI_AI float tpi_float_f32(uint32_t u) { float x; memcpy(&x, &u, sizeof x); return x; }
TP_INLINE TPI_AI uint64_t tpi_bits_f64(double x) { uint64_t u; memcpy(&u, &x, sizeof u); return u; }
TP_INLINE TPI_AI double tpi_float_f64(uint64_t u) { double x; memcpy(&x, &u, sizeof x); return x; }

/* c ? a : b as a bit blend: gcc 12 sinks the computation of a ternary's operand into a
   branch and then refuses to if-convert it (FP operations may trap without
   -fno-trapping-math), which leaves the loop scalar; the blend becomes vblendv. */
TP_INLINE TPI_AI float tpi_sel_f32(int c, float a, float b)
{
    uint32_t m = (uint32_t)0 - (uint32_t)c;
    return tpi_float_f32((tpi_bits_f32(a) & m) | (tpi_bits_f32(b) & ~m));
}
TP_INLINE TPI_AI double tpi_sel_f64(int c, double a, double b)
{
    uint64_t m = (uint64_t)0 - (uint64_t)c;
    return tpi_float_f64((tpi_bits_f64(a) & m) | (tpi_bits_f64(b) & ~m));
}
TP_INLINE TPI_AI uint32_t tpi_sel_u32(int c, uint32_t a, uint32_t b)
{
    uint32_t m = (uint32_t)0 - (uint32_t)c;
    return (a & m) | (b & ~m);
}
TP_INLINE TPI_AI uint64_t tpi_sel_u64(int c, uint64_t a, uint64_t b)
{
    uint64_t m = (uint64_t)0 - (uint64_t)c;
    return (a & m) | (b & ~m);
}

/* y with the sign bit of both y and x (and), or of either (or): integer operations, which
   keep a NaN's payload and vectorize. */
TP_INLINE TPI_AI float tpi_sign_and_f32(float y, float x)
{
    return tpi_float_f32(tpi_bits_f32(y) & (tpi_bits_f32(x) | 0x7fffffffu));
}
TP_INLINE TPI_AI float tpi_sign_or_f32(float y, float x)
{
    return tpi_float_f32(tpi_bits_f32(y) | (tpi_bits_f32(x) & 0x80000000u));
}
TP_INLINE TPI_AI double tpi_sign_and_f64(double y, double x)
{
    return tpi_float_f64(tpi_bits_f64(y) & (tpi_bits_f64(x) | 0x7fffffffffffffffu));
}
TP_INLINE TPI_AI double tpi_sign_or_f64(double y, double x)
{
    return tpi_float_f64(tpi_bits_f64(y) | (tpi_bits_f64(x) & 0x8000000000000000u));
}

/* A subnormal becomes a zero of its sign, in integer arithmetic (independent of DAZ). */
TP_INLINE TPI_AI float tpi_flush_f32(float x)
{
    uint32_t u = tpi_bits_f32(x);
    return tpi_float_f32(tpi_sel_u32((u & 0x7fffffffu) < 0x00800000u, u & 0x80000000u, u));
}
TP_INLINE TPI_AI double tpi_flush_f64(double x)
{
    uint64_t u = tpi_bits_f64(x);
    int sub = (u & UINT64_C(0x7fffffffffffffff)) < UINT64_C(0x0010000000000000);
    return tpi_float_f64(tpi_sel_u64(sub, u & UINT64_C(0x8000000000000000), u));
}

/* ------------------------------------------------------------------------------------
 * select_n for emitters: c ? a : b as a bit blend. Write selects with these, not with
 * ?:, when an operand involves float arithmetic (or integer division): gcc 12 sinks
 * the operand's computation into a branch and then will not if-convert it (without
 * -fno-trapping-math), so the whole loop stays scalar. */

TP_INLINE TPI_AI float tp_select_f32(int c, float a, float b) { return tpi_sel_f32(c, a, b); }
TP_INLINE TPI_AI double tp_select_f64(int c, double a, double b) { return tpi_sel_f64(c, a, b); }
#define TPI_SELECT_INT(dt, T, U)                                                           \
    TP_INLINE TPI_AI T tp_select_##dt(int c, T a, T b)                                    \
    {                                                                                      \
        U m = (U)((U)0 - (U)(c != 0));                                                     \
        return (T)(U)(((U)a & m) | ((U)b & (U)~m));                                        \
    }
TPI_SELECT_INT(i8, int8_t, uint8_t)
TPI_SELECT_INT(i16, int16_t, uint16_t)
TPI_SELECT_INT(i32, int32_t, uint32_t)
TPI_SELECT_INT(i64, int64_t, uint64_t)
TPI_SELECT_INT(u8, uint8_t, uint8_t)
TPI_SELECT_INT(u16, uint16_t, uint16_t)
TPI_SELECT_INT(u32, uint32_t, uint32_t)
TPI_SELECT_INT(u64, uint64_t, uint64_t)

/* ------------------------------------------------------------------------------------
 * FTZ / DAZ */

TP_INLINE unsigned tp_ftz_begin(void)
{
#ifdef TPI_HAVE_MXCSR
    unsigned saved = tpi_getcsr();
    tpi_setcsr(saved | 0x8040u); /* FTZ (bit 15) | DAZ (bit 6) */
    return saved;
#else
    return 0u;
#endif
}

TP_INLINE void tp_ftz_end(unsigned saved)
{
#ifdef TPI_HAVE_MXCSR
    tpi_setcsr(saved);
#else
    (void)saved;
#endif
}

/* ------------------------------------------------------------------------------------
 * Integers. T the type, U its unsigned type, W the unsigned type the arithmetic is done
 * in (at least unsigned int, so that promotion never makes it signed: uint16 * uint16
 * would overflow int). */

#define TPI_INT_COMMON(dt, T, U, W, BITS)                                               \
    TP_INLINE TPI_AI T tp_add_##dt(T x, T y) { return (T)(U)((W)(U)x + (W)(U)y); }        \
    TP_INLINE TPI_AI T tp_sub_##dt(T x, T y) { return (T)(U)((W)(U)x - (W)(U)y); }        \
    TP_INLINE TPI_AI T tp_mul_##dt(T x, T y) { return (T)(U)((W)(U)x * (W)(U)y); }        \
    TP_INLINE TPI_AI T tp_neg_##dt(T x) { return (T)(U)((W)0 - (W)(U)x); }                \
    TP_INLINE TPI_AI T tp_max_##dt(T x, T y) { return x > y ? x : y; }                    \
    TP_INLINE TPI_AI T tp_min_##dt(T x, T y) { return x < y ? x : y; }                    \
    TP_INLINE TPI_AI T tp_clamp_##dt(T lo, T x, T hi)                                     \
    {                                                                                      \
        return tp_min_##dt(tp_max_##dt(x, lo), hi);                                        \
    }                                                                                      \
    /* a negative amount converts to a huge unsigned one: out of range either way */      \
    TP_INLINE TPI_AI T tp_shift_left_##dt(T x, T y)                                       \
    {                                                                                      \
        int out = (U)y >= (U)(BITS);                                                       \
        unsigned s = out ? 0u : (unsigned)(U)y;                                            \
        return out ? (T)0 : (T)(U)((W)(U)x << s);                                          \
    }                                                                                      \
    TP_INLINE TPI_AI T tp_shift_right_logical_##dt(T x, T y)                              \
    {                                                                                      \
        int out = (U)y >= (U)(BITS);                                                       \
        unsigned s = out ? 0u : (unsigned)(U)y;                                            \
        return out ? (T)0 : (T)(U)((W)(U)x >> s);                                          \
    }                                                                                      \
    /* ((x ^ m) >> s) ^ m with m the sign fill: an arithmetic shift in unsigned terms */   \
    TP_INLINE TPI_AI T tp_shift_right_arithmetic_##dt(T x, T y)                           \
    {                                                                                      \
        int out = (U)y >= (U)(BITS);                                                       \
        unsigned s = out ? (unsigned)((BITS) - 1) : (unsigned)(U)y;                        \
        W sb = (W)1 << ((BITS) - 1);                                                       \
        W e = ((W)(U)x ^ sb) - sb; /* sign-extended to the width of W */                  \
        W m = (W)0 - (W)(((U)x >> ((BITS) - 1)) & 1u);                                     \
        return (T)(U)(((e ^ m) >> s) ^ m);                                                 \
    }                                                                                      \
    /* integer_pow by repeated squaring (n >= 0), wrapping; loops as for floats below */   \
    TP_INLINE TPI_AI T tp_ipow_##dt(T x, int64_t n)                                       \
    {                                                                                      \
        uint64_t m = n < 0 ? 0u : (uint64_t)n;                                             \
        W acc = 1u, base = (W)(U)x;                                                        \
        int k;                                                                             \
        for (k = 0; k < 7; k++) {                                                          \
            if ((m >> k) & 1u)                                                             \
                acc *= base;                                                               \
            base *= base;                                                                  \
        }                                                                                  \
        for (m >>= 7; m; m >>= 1) {                                                        \
            if (m & 1u)                                                                    \
                acc *= base;                                                               \
            base *= base;                                                                  \
        }                                                                                  \
        return (T)(U)acc;                                                                  \
    }

#define TPI_INT_SIGNED(dt, T, U, W, BITS, TMIN)                                            \
    TPI_INT_COMMON(dt, T, U, W, BITS)                                                   \
    TP_INLINE TPI_AI T tp_abs_##dt(T x) { return x < 0 ? tp_neg_##dt(x) : x; }            \
    TP_INLINE TPI_AI T tp_sign_##dt(T x) { return (T)((x > 0) - (x < 0)); }               \
    TP_INLINE TPI_AI T tp_div_##dt(T x, T y)                                              \
    {                                                                                      \
        int zero = y == 0, over = (x == (TMIN)) & (y == -1);                               \
        T safe = (zero | over) ? (T)1 : y;                                                 \
        T q = (T)(x / safe);                                                               \
        return zero ? (T)-1 : (over ? (TMIN) : q);                                         \
    }                                                                                      \
    TP_INLINE TPI_AI T tp_rem_##dt(T x, T y)                                              \
    {                                                                                      \
        int zero = y == 0, over = (x == (TMIN)) & (y == -1);                               \
        T safe = (zero | over) ? (T)1 : y;                                                 \
        T r = (T)(x % safe);                                                               \
        return zero ? x : (over ? (T)0 : r);                                               \
    }

#define TPI_INT_UNSIGNED(dt, T, W, BITS)                                                   \
    TPI_INT_COMMON(dt, T, T, W, BITS)                                                   \
    TP_INLINE TPI_AI T tp_sign_##dt(T x) { return (T)(x != 0); }                          \
    TP_INLINE TPI_AI T tp_div_##dt(T x, T y)                                              \
    {                                                                                      \
        T q = (T)(x / (y == 0 ? (T)1 : y));                                                \
        return y == 0 ? (T)~(T)0 : q;                                                      \
    }                                                                                      \
    TP_INLINE TPI_AI T tp_rem_##dt(T x, T y)                                              \
    {                                                                                      \
        T r = (T)(x % (y == 0 ? (T)1 : y));                                                \
        return y == 0 ? x : r;                                                             \
    }

TPI_INT_SIGNED(i8, int8_t, uint8_t, uint32_t, 8, INT8_MIN)
TPI_INT_SIGNED(i16, int16_t, uint16_t, uint32_t, 16, INT16_MIN)
TPI_INT_SIGNED(i32, int32_t, uint32_t, uint32_t, 32, INT32_MIN)
TPI_INT_SIGNED(i64, int64_t, uint64_t, uint64_t, 64, INT64_MIN)
TPI_INT_UNSIGNED(u8, uint8_t, uint32_t, 8)
TPI_INT_UNSIGNED(u16, uint16_t, uint32_t, 16)
TPI_INT_UNSIGNED(u32, uint32_t, uint32_t, 32)
TPI_INT_UNSIGNED(u64, uint64_t, uint64_t, 64)

/* ------------------------------------------------------------------------------------
 * Floats. dt the name, FT the type, SUF libm's suffix (f or nothing). */

#define TPI_FLOAT_OPS(dt, FT, SUF)                                                         \
    /* operands flushed, then NaN propagates: x's as it is, else y's with the sign bit of \
     * both (max) or either (min), as XLA's; the same sign rule orders -0 < +0 */         \
    TP_INLINE TPI_AI FT tp_max_##dt(FT x, FT y)                                           \
    {                                                                                      \
        x = tpi_flush_##dt(x);                                                             \
        y = tpi_flush_##dt(y);                                                             \
        const FT t = tpi_sign_and_##dt(y, x);  /* y NaN, or x == y (+0 from zeros) */       \
        return x > y || x != x ? x : (x < y ? y : t);                                        \
    }                                                                                      \
    TP_INLINE TPI_AI FT tp_min_##dt(FT x, FT y)                                           \
    {                                                                                      \
        x = tpi_flush_##dt(x);                                                             \
        y = tpi_flush_##dt(y);                                                             \
        const FT t = tpi_sign_or_##dt(y, x);   /* y NaN, or x == y (-0 from zeros) */       \
        return x < y || x != x ? x : (x > y ? y : t);                                        \
    }                                                                                      \
    TP_INLINE TPI_AI FT tp_clamp_##dt(FT lo, FT x, FT hi)                                 \
    {                                                                                      \
        return tp_min_##dt(tp_max_##dt(x, lo), hi);                                        \
    }                                                                                      \
    /* -1, 1, the (flushed) zero itself, or NaN */                                         \
    TP_INLINE TPI_AI FT tp_sign_##dt(FT x)                                                \
    {                                                                                      \
        x = tpi_flush_##dt(x);                                                             \
        return x > 0 ? (FT)1 : (x < 0 ? (FT)-1 : x);                                       \
    }                                                                                      \
    /* from rint, which gcc 12 vectorizes (floor and ceil only with -fno-trapping-math);   \
       flushed first: a libm floor works on the bits and takes -subnormal to -1 */          \
    TP_INLINE TPI_AI FT tp_floor_##dt(FT x)                                               \
    {                                                                                      \
        FT r = rint##SUF(x = tpi_flush_##dt(x));                                           \
        return copysign##SUF(tpi_sel_##dt(r > x, r - 1, r), x); /* floor(-0.3) = -1, .. */ \
    }                                                                                      \
    TP_INLINE TPI_AI FT tp_ceil_##dt(FT x)                                                \
    {                                                                                      \
        FT r = rint##SUF(x = tpi_flush_##dt(x));                                           \
        return copysign##SUF(tpi_sel_##dt(r < x, r + 1, r), x); /* ceil(-0.7) = -0 */     \
    }                                                                                      \
    TP_INLINE TPI_AI FT tp_round_even_##dt(FT x) { return rint##SUF(tpi_flush_##dt(x)); } \
    /* a tie x = n + 1/2 is the one case rint and round differ; x + 1/2 is then exact */   \
    TP_INLINE TPI_AI FT tp_round_away_##dt(FT x)                                          \
    {                                                                                      \
        FT r, h;                                                                           \
        x = tpi_flush_##dt(x);                                                             \
        r = rint##SUF(x);                                                                  \
        h = x + copysign##SUF((FT)0.5, x);                                                 \
        return tpi_sel_##dt(fabs##SUF(x - r) == (FT)0.5, h, r);                            \
    }                                                                                      \
    TP_INLINE TPI_AI int tp_is_finite_##dt(FT x) { return fabs##SUF(x) <= (FT)TPI_MAX_##dt; } \
    /* fmod is exact; XLA flushes the divisor only */                                      \
    TP_INLINE TPI_AI FT tp_rem_##dt(FT x, FT y) { return fmod##SUF(x, tpi_flush_##dt(y)); } \
    /* integer_pow: the operand itself for n = 1, else repeated squaring with every product \
       rounded (and flushed), 1 / x^|n| for n < 0. Seven bits in a counted loop that gcc    \
       unrolls (a constant n then leaves straight-line code), the rest in a general one. */ \
    TP_INLINE TPI_AI FT tp_ipow_##dt(FT x, int64_t n)                                     \
    {                                                                                      \
        uint64_t m = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;                      \
        FT acc = 1, base = tpi_flush_##dt(x);                                              \
        int k, first = 1;                                                                  \
        for (k = 0; k < 7; k++) {                                                          \
            if ((m >> k) & 1u) {                                                           \
                acc = first ? base : tpi_flush_##dt(acc * base);                           \
                first = 0;                                                                 \
            }                                                                              \
            if (m >> (k + 1))                                                              \
                base = tpi_flush_##dt(base * base);                                        \
        }                                                                                  \
        for (m >>= 7; m; m >>= 1) {                                                        \
            if (m & 1u) {                                                                  \
                acc = first ? base : tpi_flush_##dt(acc * base);                           \
                first = 0;                                                                 \
            }                                                                              \
            if (m >> 1)                                                                    \
                base = tpi_flush_##dt(base * base);                                        \
        }                                                                                  \
        acc = tpi_flush_##dt(n < 0 ? (FT)1 / acc : acc);                                   \
        return n == 0 ? (FT)1 : (n == 1 ? x : acc);                                        \
    }                                                                                      \
    /* steps the bits of x toward y (no flushing), but x == y compares flushed values */  \
    TP_INLINE TPI_AI FT tp_nextafter_##dt(FT x, FT y)                                     \
    {                                                                                      \
        TPI_UINT_##dt u = tpi_bits_##dt(x), sgn = u & TPI_SIGN_##dt;                       \
        int up = (y > x) != (sgn != 0); /* away from zero */                               \
        TPI_UINT_##dt stepped = up ? u + 1u : u - 1u;                                      \
        TPI_UINT_##dt tiny = (tpi_bits_##dt(y) & TPI_SIGN_##dt) | 1u;                      \
        FT r = tpi_float_##dt((u & ~TPI_SIGN_##dt) == 0 ? tiny : stepped);                 \
        r = tpi_sel_##dt(tpi_flush_##dt(x) == tpi_flush_##dt(y), y, r);                    \
        return tpi_sel_##dt((x != x) | (y != y), x + y, r);                                \
    }

#define TPI_NEG_f32(x) (tpi_bits_f32(x) >> 31)
#define TPI_NEG_f64(x) (tpi_bits_f64(x) >> 63)
#define TPI_UINT_f32 uint32_t
#define TPI_UINT_f64 uint64_t
#define TPI_SIGN_f32 0x80000000u
#define TPI_SIGN_f64 UINT64_C(0x8000000000000000)
#define TPI_MAX_f32 FLT_MAX
#define TPI_MAX_f64 DBL_MAX

TPI_FLOAT_OPS(f32, float, f)
TPI_FLOAT_OPS(f64, double, )

/* rsqrt and cbrt: computed in double and rounded once, as the rule does for float32 */
TP_INLINE TPI_AI float tp_rsqrt_f32(float x)
{
    return (float)(1.0 / sqrt((double)tpi_flush_f32(x)));
}
TP_INLINE TPI_AI double tp_rsqrt_f64(double x) { return 1.0 / sqrt(tpi_flush_f64(x)); }
/* float32 cbrt as XLA:CPU computes it: the C library's cbrtf under DAZ, which scales a
 * subnormal operand up (to zero, under DAZ) and gives this one value for any of them. */
TP_INLINE TPI_AI float tp_cbrt_f32(float x)
{
    return tpi_sel_f32((tpi_bits_f32(x) & 0x7fffffffu) - 1u < 0x007fffffu,
                       tpi_float_f32(0xa6214518u), (float)cbrt((double)tpi_flush_f32(x)));
}
TP_INLINE TPI_AI double tp_cbrt_f64(double x) { return cbrt(tpi_flush_f64(x)); }

/* float32 -> float64 from the bits: cvtss2sd under DAZ would flush a subnormal, and pow
   must see it (the rule does not flush pow's operands) */
TP_INLINE TPI_AI double tpi_f32_to_f64_exact(float x)
{
    uint32_t u = tpi_bits_f32(x);
    double sub = (double)(int32_t)(u & 0x7fffffu) * 0x1p-149;
    sub = tpi_float_f64(tpi_bits_f64(sub) | ((uint64_t)(u >> 31) << 63));
    return tpi_sel_f64((u & 0x7f800000u) == 0, sub, (double)x);
}

/* pow: operands as they are, the result flushed; float32 in double, rounded once. An
   integer exponent is first converted to the base's type: tp_pow_f32(x, (float)n). */
TP_INLINE TPI_AI float tp_pow_f32(float x, float y)
{
    return tpi_flush_f32((float)pow(tpi_f32_to_f64_exact(x), tpi_f32_to_f64_exact(y)));
}

TP_INLINE TPI_AI double tp_pow_f64(double x, double y)
{
    double r;
#ifdef TPI_HAVE_MXCSR
    /* libm would read a subnormal operand as zero under DAZ: lift FTZ/DAZ for it */
    if ((tpi_bits_f64(x) & UINT64_C(0x7ff0000000000000)) == 0
        || (tpi_bits_f64(y) & UINT64_C(0x7ff0000000000000)) == 0) {
        unsigned saved = tpi_getcsr();
        tpi_setcsr(saved & ~0x8040u);
        r = pow(x, y);
        tpi_setcsr(saved);
    } else {
        r = pow(x, y);
    }
#else
    r = pow(x, y);
#endif
    return tpi_flush_f64(r);
}

/* ------------------------------------------------------------------------------------
 * float -> integer: truncate, saturate, NaN -> 0. (FT)MAX rounds up for 32/64-bit
 * types, so x >= (FT)MAX is exactly "above the range"; x <= (FT)MIN lets through only
 * values that truncate into the range. */

#define TPI_F2I(fdt, FT, idt, T, TMIN, TMAX)                                               \
    TP_INLINE TPI_AI T tp_##fdt##_to_##idt(FT x)                                          \
    {                                                                                      \
        int nan = x != x, hi = x >= (FT)(TMAX), lo = x <= (FT)(TMIN);                      \
        T v = (T)tpi_sel_##fdt(nan | hi | lo, (FT)0, x);                                   \
        return tp_select_##idt(hi, (T)(TMAX), tp_select_##idt(lo, (T)(TMIN), v));          \
    }
#define TPI_F2I_ALL(fdt, FT)                                                               \
    TPI_F2I(fdt, FT, i8, int8_t, INT8_MIN, INT8_MAX)                                       \
    TPI_F2I(fdt, FT, i16, int16_t, INT16_MIN, INT16_MAX)                                   \
    TPI_F2I(fdt, FT, i32, int32_t, INT32_MIN, INT32_MAX)                                   \
    TPI_F2I(fdt, FT, i64, int64_t, INT64_MIN, INT64_MAX)                                   \
    TPI_F2I(fdt, FT, u8, uint8_t, 0, UINT8_MAX)                                            \
    TPI_F2I(fdt, FT, u16, uint16_t, 0, UINT16_MAX)                                         \
    TPI_F2I(fdt, FT, u32, uint32_t, 0, UINT32_MAX)                                         \
    TPI_F2I(fdt, FT, u64, uint64_t, 0, UINT64_MAX)

TPI_F2I_ALL(f32, float)
TPI_F2I_ALL(f64, double)

/* ------------------------------------------------------------------------------------
 * float16 <-> float32/float64, branch-free */

TP_INLINE TPI_AI float tp_f16_to_f32(uint16_t h)
{
    uint32_t em = (uint32_t)h & 0x7fffu;
    uint32_t sign = ((uint32_t)h & 0x8000u) << 16;
    /* normal: rebias the exponent; inf/NaN: exponent all ones, payload kept; subnormal
       (and zero): m * 2^-24, exact in float and computed without a float32 subnormal */
    uint32_t normal = (em << 13) + ((uint32_t)(127 - 15) << 23);
    uint32_t special = (em << 13) | 0x7f800000u;
    float sub = (float)(int32_t)em * 0x1p-24f;
    uint32_t u = tpi_sel_u32(em >= 0x0400u, normal, tpi_bits_f32(sub));
    u = tpi_sel_u32(em >= 0x7c00u, special, u);
    return tpi_float_f32(u | sign);
}

TP_INLINE TPI_AI double tp_f16_to_f64(uint16_t h) { return (double)tp_f16_to_f32(h); }

TP_INLINE TPI_AI uint16_t tp_f32_to_f16(float x)
{
    uint32_t u = tpi_bits_f32(x), a = u & 0x7fffffffu;
    uint32_t sign = (u >> 16) & 0x8000u;
    /* normal halves: drop 13 bits with round-to-nearest-even; a carry out of the mantissa
       moves into the exponent, up to inf, as it should */
    uint32_t normal = (a - ((uint32_t)(127 - 15) << 23) + 0xfffu + ((a >> 13) & 1u)) >> 13;
    /* below 2^-14: |x| + 1/2 rounds |x| to a multiple of 2^-24 (the ulp of 1/2), which
       is then the half's subnormal mantissa */
    uint32_t sub = tpi_bits_f32(tpi_float_f32(a) + 0.5f) - 0x3f000000u;
    uint32_t h = tpi_sel_u32(a < 0x38800000u, sub, normal);
    h = tpi_sel_u32(a >= 0x477ff000u, 0x7c00u, h);                  /* >= 65520: inf */
    h = tpi_sel_u32(a > 0x7f800000u, 0x7e00u | ((a >> 13) & 0x3ffu), h); /* quiet NaN */
    return (uint16_t)(h | sign);
}

/* rounded once from double: float16(float32(x)) would round twice */
TP_INLINE TPI_AI uint16_t tp_f64_to_f16(double x)
{
    uint64_t u = tpi_bits_f64(x), a = u & UINT64_C(0x7fffffffffffffff);
    uint32_t sign = (uint32_t)(u >> 48) & 0x8000u;
    uint64_t normal = (a - ((uint64_t)(1023 - 15) << 52) + ((UINT64_C(1) << 41) - 1u)
                       + ((a >> 42) & 1u)) >> 42;
    /* |x| + 2^28 rounds |x| to a multiple of 2^-24, the ulp of 2^28 */
    uint64_t sub = tpi_bits_f64(tpi_float_f64(a) + 0x1p28) - UINT64_C(0x41b0000000000000);
    uint64_t h = tpi_sel_u64(a < UINT64_C(0x3f10000000000000), sub, normal);
    h = tpi_sel_u64(a >= UINT64_C(0x40effe0000000000), 0x7c00u, h);
    h = tpi_sel_u64(a > UINT64_C(0x7ff0000000000000), 0x7e00u | ((a >> 42) & 0x3ffu), h);
    return (uint16_t)((uint32_t)h | sign);
}

/* atan2 of float32 operands (and of the 16-bit floats, computed in float32) as XLA:CPU
 * computes it: the C library's atan2f (glibc's) with subnormal operands read as zero
 * (DAZ). glibc tests the operands' bits before it computes, so a subnormal operand is
 * nonzero for its case analysis and zero for its arithmetic: atan2(s, 1) = s (x == 1
 * calls atanf, which returns a tiny argument as it is), atan2(s, x) = +-0 or +-pi for
 * other normal x, atan2(s, 0) = +-pi/2, atan2(y, s) = +-pi/2 (or pi - pi/2 folded with
 * pi's low part), and atan2(s, t) = NaN (0/0, its sign flipped for a negative y). Every other pair is the
 * correctly rounded atan2, which glibc's atan2f returns for them (checked bit for bit
 * against XLA in tests/test_bfloat16.py). */
TP_INLINE float tp_atan2_f32(float y, float x)
{
    const uint32_t hx = tpi_bits_f32(x), hy = tpi_bits_f32(y);
    const uint32_t ix = hx & 0x7fffffffu, iy = hy & 0x7fffffffu;
    const int xsub = ix != 0 && ix < 0x00800000u, ysub = iy != 0 && iy < 0x00800000u;
    if ((!xsub && !ysub) || iy == 0 || iy >= 0x7f800000u || ix >= 0x7f800000u)
        return (float)atan2((double)y, (double)x);
    if (hx == 0x3f800000u)
        return y;
    if (ix == 0)
        return (hy >> 31) ? -1.5707963705e+00f : 1.5707963705e+00f;
    const float pi = 3.1415927410e+00f, pi_lo = -8.7422776573e-08f;
    const float z = (xsub && ysub) ? tpi_float_f32(0x7fc00000u)
                    : ysub ? 0.0f : 1.5707963705e+00f;
    switch ((int)((hy >> 31) & 1u) | (int)((hx >> 30) & 2u)) {
    case 0: return z;
    case 1: return -z;
    case 2: return pi - (z - pi_lo);
    default: return (z - pi_lo) - pi;
    }
}

#include "tp_scan16.h"  /* after the float16 conversions it uses */

/* ------------------------------------------------------------------------------------
   The 2-/4-bit integers (int4, uint4, int2, uint2). Stored one per byte as ml_dtypes
   stores them (the value's low bits, upper bits zero); computed as int8_t/uint8_t values,
   every result wrapped back to the width as XLA:CPU does. TP_WRAP_S sign-extends the low
   `bits` bits, TP_WRAP_U keeps them; TP_F_TO_NARROW is XLA's float -> integer conversion
   at the narrow width (toward zero, saturating, NaN -> 0). */
#define TP_WRAP_S(x, bits) \
    ((int8_t)((int8_t)(uint8_t)((uint8_t)(x) << (8 - (bits))) >> (8 - (bits))))
#define TP_WRAP_U(x, bits) ((uint8_t)((uint8_t)(x) & (uint8_t)((1u << (bits)) - 1u)))
#define TP_F_TO_NARROW(x, lo, hi) \
    ((x) != (x) ? 0 : (x) <= (lo) ? (lo) : (x) >= (hi) ? (hi) : (int)(x))

#endif /* TP_OPS_H */

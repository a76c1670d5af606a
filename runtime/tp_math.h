/* tp_math.h: transcendental functions that gcc can vectorize, float32 and float64.
 *
 * Provides, as tp_<fn>_f32(float) and tp_<fn>_f64(double):
 *
 *     exp exp2 expm1 log log1p sin cos tan tanh logistic erf erf_inv sinh cosh atan asinh
 *
 * Any other transcendental (asin, acos, acosh, atanh, atan2) the generated code takes
 * from libm; sqrt, fabs, rint, copysign, fma are instructions; pow, cbrt, rsqrt and
 * the rest of the primitives' scalar semantics are in tp_ops.h (included here).
 *
 * Why: a loop that calls libm stays scalar. These functions are branch-free straight-
 * line code (integer bit manipulation through memcpy, selects as bit blends, no table
 * lookups), so a `#pragma omp simd` loop that calls them is vectorized by gcc 12 under
 * the kernel flags (-O3 -march=native -fno-math-errno -fopenmp, no -ffast-math). The
 * exceptions: sin/cos/tan for float64 call libm beyond |x| = 2^43, and that branch keeps
 * their loops scalar (a branch-free large-argument reduction for double needs a table
 * of 2/pi bits indexed by the exponent and costs more than libm itself).
 *
 * Accuracy: within 2 ulp of the correctly rounded result over the whole domain, most
 * within 1 (tests/test_runtime_math.py measures every function). float32 functions
 * that need it (sin, cos, tan, erf) compute in double and round once. Overflow gives
 * inf and underflow 0 at the thresholds of the correctly rounded function; NaN gives
 * NaN, and infinities and signed zeros behave as NumPy's.
 *
 * Semantics are those of the NumPy rules in transpile/lax/elementwise.py, for kernels
 * that run with FTZ/DAZ set (tp_ftz_begin in tp_ops.h): operands and results flush as
 * the hardware flushes them, and the functions the rule does not flush (sin, tan, atan,
 * expm1, float32 tanh) return a tiny argument itself through a select. Without FTZ/DAZ
 * the functions are correct on subnormal operands and results too. logistic is XLA's
 * expansion 1 / (1 + exp(-x)) with each step rounded, as the rule is.
 *
 * The algorithms are the usual ones, with coefficients fitted for this header (Remez,
 * in mpmath): Cody-Waite reduction with a constant split so that k * C_hi is exact
 * without fma, a minimax polynomial, scaling by 2^k in two steps (so that results near
 * overflow and in the subnormal range are rounded once); the float32 trig functions
 * reduce arguments of any size in-line by a Payne-Hanek product with 196 bits of 2/pi in
 * 28-bit pieces (exact products in double). With hardware fma (FP_FAST_FMA) fma() is
 * used; without it the same code uses a * b + c and keeps the same accuracy bound.
 *
 * Internal helpers are tpi_*; everything is TP_INLINE and forced inline (TPI_AI): gcc
 * stops inlining the larger functions once a file uses several, and a call left in a
 * loop keeps the loop scalar. C99, clean under -Wall -Wextra -pedantic.
 */
#ifndef TP_MATH_H
#define TP_MATH_H

#include "tp_ops.h"

/* x clamped to [lo, hi]; NaN passes through. */
TP_INLINE TPI_AI float tpi_clamp_f32(float x, float lo, float hi)
{
    return tpi_sel_f32(x < lo, lo, tpi_sel_f32(x > hi, hi, x));
}
TP_INLINE TPI_AI double tpi_clamp_f64(double x, double lo, double hi)
{
    return tpi_sel_f64(x < lo, lo, tpi_sel_f64(x > hi, hi, x));
}

/* ---------------------------------------------------------------- exp */

/* exp(x) * 2^adj for adj in [-2, 0]: k = round(x / ln2), r = x - k ln2 (ln2 in two parts,
   k * ln2hi exact), exp(r) by a minimax polynomial, then 2^(k + adj) applied as two
   factors so that each exists and only the last multiplication can round (subnormal
   results) or overflow. x is clamped first so that k stays small; NaN passes through. */
TP_INLINE TPI_AI float tpi_expk_f32(float x, int adj, float *lo)
{
    float xc = tpi_clamp_f32(x, -104.0f, 90.0f);
    float t, k, rh, rl, r, q, p, pl, s1, s2;
    uint32_t kb, k1;
    t = TPI_FMAF(xc, 0x1.715476p+0f, 0x1.8p23f);
    k = t - 0x1.8p23f;
    rh = TPI_FMAF(k, -0x1.62e4p-1f, xc);   /* exact */
    rl = k * -0x1.7f7d1cp-20f;
    r = rh + rl;
    q = TPI_FMAF(TPI_FMAF(TPI_FMAF(TPI_FMAF(0x1.6a243cp-10f, r, 0x1.1239ep-7f), r,
                                   0x1.5558f2p-5f), r, 0x1.555492p-3f), r, 0x1.fffffcp-2f);
    /* 1 + rh + (rl + r^2 q), adding back the rounding error of 1 + rh: one rounding
       of note, so the result is nearly always the correctly rounded one */
    p = 1.0f + rh;
    pl = (((1.0f - p) + rh) + rl) + r * r * q;
    kb = tpi_bits_f32(t) - 0x4b400000u + (uint32_t)(256 + adj);
    k1 = kb >> 1;
    s1 = tpi_float_f32((k1 - 1u) << 23);
    s2 = tpi_float_f32((kb - k1 - 1u) << 23);
    *lo = ((p - (p + pl)) + pl) * s1 * s2;   /* what rounding p + pl dropped */
    return (p + pl) * s1 * s2;
}

TP_INLINE TPI_AI double tpi_expk_f64(double x, int adj, double *lo)
{
    double xc = tpi_clamp_f64(x, -746.0, 711.0);
    double t, k, rh, rl, r, q, p, pl, s1, s2;
    uint64_t kb, k1;
    t = TPI_FMA(xc, 0x1.71547652b82fep+0, 0x1.8p52);
    k = t - 0x1.8p52;
    rh = TPI_FMA(k, -0x1.62e42fefa38p-1, xc);
    rl = k * -0x1.ef35793c7673p-45;
    r = rh + rl;
    q = 0x1.ad7f6b288caf6p-26;
    q = TPI_FMA(q, r, 0x1.28ad70355ad31p-22);
    q = TPI_FMA(q, r, 0x1.71df254f9123fp-19);
    q = TPI_FMA(q, r, 0x1.a0199a0f15081p-16);
    q = TPI_FMA(q, r, 0x1.a01a012a5b332p-13);
    q = TPI_FMA(q, r, 0x1.6c16c18429231p-10);
    q = TPI_FMA(q, r, 0x1.1111111127bd4p-7);
    q = TPI_FMA(q, r, 0x1.555555555088p-5);
    q = TPI_FMA(q, r, 0x1.55555555554fap-3);
    q = TPI_FMA(q, r, 0x1.000000000000ap-1);
    p = 1.0 + rh;
    pl = (((1.0 - p) + rh) + rl) + r * r * q;
    kb = tpi_bits_f64(t) - UINT64_C(0x4338000000000000) + (uint64_t)(2048 + adj);
    k1 = kb >> 1;
    s1 = tpi_float_f64((k1 - 1u) << 52);
    s2 = tpi_float_f64((kb - k1 - 1u) << 52);
    *lo = ((p - (p + pl)) + pl) * s1 * s2;
    return (p + pl) * s1 * s2;
}

TP_INLINE TPI_AI float tp_exp_f32(float x)
{
    float lo;
    return tpi_expk_f32(x, 0, &lo);
}
TP_INLINE TPI_AI double tp_exp_f64(double x)
{
    double lo;
    return tpi_expk_f64(x, 0, &lo);
}

/* ---------------------------------------------------------------- exp2, logistic */

TP_INLINE TPI_AI float tp_exp2_f32(float x)
{
    float xc = tpi_clamp_f32(x, -151.0f, 129.0f);
    float t, r, p;
    uint32_t kb, k1;
    t = xc + 0x1.8p23f;
    r = xc - (t - 0x1.8p23f);   /* exact */
    p = TPI_FMAF(TPI_FMAF(TPI_FMAF(TPI_FMAF(TPI_FMAF(0x1.470b5ep-13f, r, 0x1.5f7278p-10f), r,
                                            0x1.3b270ep-7f), r, 0x1.c6ae72p-5f), r,
                          0x1.ebfbe2p-3f), r, 0x1.62e432p-1f);
    p = TPI_FMAF(p, r, 1.0f);
    kb = tpi_bits_f32(t) - 0x4b400000u + 256u;
    k1 = kb >> 1;
    return p * tpi_float_f32((k1 - 1u) << 23) * tpi_float_f32((kb - k1 - 1u) << 23);
}

TP_INLINE TPI_AI double tp_exp2_f64(double x)
{
    double xc = tpi_clamp_f64(x, -1076.0, 1025.0);
    double t, r, p;
    uint64_t kb, k1;
    t = xc + 0x1.8p52;
    r = xc - (t - 0x1.8p52);
    p = 0x1.c6d98d2902206p-36;
    p = TPI_FMA(p, r, 0x1.ea142251362aep-32);
    p = TPI_FMA(p, r, 0x1.e4cd9d89909d5p-28);
    p = TPI_FMA(p, r, 0x1.b524d0ead6e75p-24);
    p = TPI_FMA(p, r, 0x1.62c0229a634a4p-20);
    p = TPI_FMA(p, r, 0x1.ffcbfc7ac339p-17);
    p = TPI_FMA(p, r, 0x1.430912f85994ap-13);
    p = TPI_FMA(p, r, 0x1.5d87fe78a130ep-10);
    p = TPI_FMA(p, r, 0x1.3b2ab6fba4ea8p-7);
    p = TPI_FMA(p, r, 0x1.c6b08d704a0d6p-5);
    p = TPI_FMA(p, r, 0x1.ebfbdff82c58fp-3);
    p = TPI_FMA(p, r, 0x1.62e42fefa39efp-1);
    p = TPI_FMA(p, r, 1.0);
    kb = tpi_bits_f64(t) - UINT64_C(0x4338000000000000) + 2048u;
    k1 = kb >> 1;
    return p * tpi_float_f64((k1 - 1u) << 52) * tpi_float_f64((kb - k1 - 1u) << 52);
}

/* XLA's expansion, each step rounded: exactly the NumPy rule given a correct exp. */
TP_INLINE TPI_AI float tp_logistic_f32(float x) { return 1.0f / (1.0f + tp_exp_f32(-x)); }
TP_INLINE TPI_AI double tp_logistic_f64(double x) { return 1.0 / (1.0 + tp_exp_f64(-x)); }

/* ---------------------------------------------------------------- log */

/* e ln2 + f + c, for f in [sqrt(1/2) - 1, sqrt(2) - 1] and a small c. e * ln2hi is exact;
   for |e| <= 1 so is e * ln2hi + f, which cancels (log x near sqrt(2)) and goes first;
   for larger |e| the small terms are summed first. */
TP_INLINE TPI_AI float tpi_log_sum_f32(float e, float f, float c)
{
    float hi = e * 0x1.62e4p-1f, lo = TPI_FMAF(e, 0x1.7f7d1cp-20f, c);
    return tpi_sel_f32(fabsf(e) <= 1.0f, (hi + f) + lo, hi + (f + lo));
}
TP_INLINE TPI_AI double tpi_log_sum_f64(double e, double f, double c)
{
    double hi = e * 0x1.62e42fefa38p-1, lo = TPI_FMA(e, 0x1.ef35793c7673p-45, c);
    return tpi_sel_f64(fabs(e) <= 1.0, (hi + f) + lo, hi + (f + lo));
}

TP_INLINE TPI_AI float tp_log_f32(float x)
{
    int sub = x < 0x1p-126f;
    float xs = x * tpi_sel_f32(sub, 0x1p23f, 1.0f);
    uint32_t t = tpi_bits_f32(xs) + 0x40cafb0du;
    float e = (float)(int32_t)(t >> 23) - tpi_sel_f32(sub, 279.0f, 256.0f);
    float f = tpi_float_f32((t & 0x7fffffu) + 0x3f3504f3u) - 1.0f;
    float s = f / (2.0f + f);
    float z = s * s;
    float R = z * TPI_FMAF(TPI_FMAF(0x1.31e0e2p-2f, z, 0x1.995edp-2f), z, 0x1.55557ap-1f);
    float y = tpi_log_sum_f32(e, f, -s * (f - R));
    return tpi_sel_f32((x > 0.0f) & (x < INFINITY), y,
                       x == 0.0f ? -INFINITY : (x < 0.0f ? NAN : x));
}

TP_INLINE TPI_AI double tp_log_f64(double x)
{
    int sub = x < 0x1p-1022;
    double xs = x * tpi_sel_f64(sub, 0x1p54, 1.0);
    uint64_t t = tpi_bits_f64(xs) + UINT64_C(0x40195f619980c433);
    double e = tpi_float_f64(UINT64_C(0x4330000000000000) | (t >> 52)) - 0x1p52
               - tpi_sel_f64(sub, 2102.0, 2048.0);
    double f = tpi_float_f64((t & UINT64_C(0xfffffffffffff)) + UINT64_C(0x3fe6a09e667f3bcd)) - 1.0;
    double s = f / (2.0 + f);
    double z = s * s;
    double R = 0x1.2f02e59c608b9p-3;
    double y;
    R = TPI_FMA(R, z, 0x1.39a1fba84f875p-3);
    R = TPI_FMA(R, z, 0x1.74663c5294d48p-3);
    R = TPI_FMA(R, z, 0x1.c71c521653b18p-3);
    R = TPI_FMA(R, z, 0x1.24924941e0b5cp-2);
    R = TPI_FMA(R, z, 0x1.999999997feeap-2);
    R = TPI_FMA(R, z, 0x1.5555555555592p-1);
    R = z * R;
    y = tpi_log_sum_f64(e, f, -s * (f - R));
    return tpi_sel_f64((x > 0.0) & (x < INFINITY), y,
                       x == 0.0 ? -INFINITY : (x < 0.0 ? NAN : x));
}

/* ---------------------------------------------------------------- sin, cos, tan (f32) */

/* One Payne-Hanek step: adds (x * c mod 4) to S, keeping S in [-1/2, 1/2] and its
   integer part in Q. x has 24 bits and c 28, so x * c is exact; taking the product
   mod 4 and the sum mod 1 are exact too, except once, when S is already about as
   small as the final remainder, so the error stays relative to it. */
#define TPI_PH_STEP(c)                                                \
    p = xd * (c);                                                     \
    S += TPI_FMA(rint(p * 0.25), -4.0, p);                            \
    n = rint(S);                                                      \
    S -= n;                                                           \
    Q += n

/* x mod pi/2 in double: r with |r| <= pi/4 (a hair more), and the quadrant in q.
   |x| < 1.5 * 2^20: Cody-Waite with pi/2 in two parts (the first has 31 bits, so
   k * P1 is exact); beyond: the product with 196 bits of 2/pi, in 28-bit pieces. The
   last two products are below 2^-12 for any float: no reduction needed, and S stays
   within pi/4 + 2^-11 once scaled (the polynomials allow 2^-10). */
TP_INLINE TPI_AI double tpi_rem_pio2_f32(float x, uint32_t *q)
{
    double xd = (double)x;
    double t = TPI_FMA(xd, 0x1.45f306dc9c883p-1, 0x1.8p52);
    double k = t - 0x1.8p52;
    double rf = TPI_FMA(-k, 0x1.0b4611a626331p-34, xd - k * 0x1.921fb544p+0);
    double S = 0.0, Q = 0.0, p, n, rl;
    int big = fabsf(x) > 0x1.8p20f;
    TPI_PH_STEP(0x1.45f306cp-1);
    TPI_PH_STEP(0x1.c9c882ap-29);
    TPI_PH_STEP(0x1.4fe13a8p-59);
    TPI_PH_STEP(0x1.f47d4dp-86);
    TPI_PH_STEP(0x1.bb81b6cp-113);
    S += xd * 0x1.4acc9ep-143;
    S += xd * 0x1.0e4107cp-170;
    rl = S * 0x1.921fb54442d18p+0;
    *q = (uint32_t)tpi_bits_f64(tpi_sel_f64(big, Q + 0x1.8p52, t));
    return tpi_sel_f64(big, rl, rf);
}

/* sin(r) and cos(r) for |r| <= pi/4 in double, good to about 2^-33 relative: enough to
   round to float once. */
TP_INLINE TPI_AI double tpi_sin_poly_f32(double r)
{
    double z = r * r;
    double p = TPI_FMA(TPI_FMA(TPI_FMA(0x1.6ccf5e2ac0732p-19, z, -0x1.a00f7460380a4p-13), z,
                               0x1.1111085d06fc8p-7), z, -0x1.5555554c5f781p-3);
    return TPI_FMA(r * z, p, r);
}
TP_INLINE TPI_AI double tpi_cos_poly_f32(double r)
{
    double z = r * r;
    double p = TPI_FMA(TPI_FMA(TPI_FMA(0x1.9912ff42cd749p-16, z, -0x1.6c07e200a819ep-10), z,
                               0x1.55553c519bf95p-5), z, -0x1.ffffffcb148d4p-2);
    return TPI_FMA(z, p, 1.0);
}

/* Quadrant q: sin(x) = +-sin(r) or +-cos(r); cos(x) is sin in the next quadrant. */
TP_INLINE TPI_AI float tpi_sincos_f32(float x, uint32_t shift)
{
    uint32_t q;
    double r = tpi_rem_pio2_f32(x, &q);
    float y;
    q += shift;
    y = (float)tpi_sel_f64((int)(q & 1u), tpi_cos_poly_f32(r), tpi_sin_poly_f32(r));
    return tpi_float_f32(tpi_bits_f32(y) ^ ((q & 2u) << 30));
}

TP_INLINE TPI_AI float tp_sin_f32(float x)
{
    return tpi_sel_f32(fabsf(x) < 0x1p-12f, x, tpi_sincos_f32(x, 0u));
}

TP_INLINE TPI_AI float tp_cos_f32(float x)
{
    return tpi_sincos_f32(x, 1u);
}

TP_INLINE TPI_AI float tp_tan_f32(float x)
{
    uint32_t q;
    double r = tpi_rem_pio2_f32(x, &q);
    double s = tpi_sin_poly_f32(r), c = tpi_cos_poly_f32(r);
    int odd = (int)(q & 1u);
    float y = (float)(tpi_sel_f64(odd, -c, s) / tpi_sel_f64(odd, s, c));
    return tpi_sel_f32(fabsf(x) < 0x1p-12f, x, y);
}

/* ---------------------------------------------------------------- tanh */

TP_INLINE TPI_AI float tp_tanh_f32(float x)
{
    float ax = fabsf(x), z = x * x;
    float p = TPI_FMAF(TPI_FMAF(TPI_FMAF(TPI_FMAF(-0x1.75e1fap-8f, z, 0x1.5226a6p-6f), z,
                                         -0x1.b83c5cp-5f), z, 0x1.110726p-3f), z, -0x1.555532p-2f);
    float small = TPI_FMAF(x * z, p, x);
    float big = copysignf(1.0f - 2.0f / (tp_exp_f32(2.0f * ax) + 1.0f), x);
    return tpi_sel_f32(ax < 0x1p-12f, x, tpi_sel_f32(ax < 0.625f, small, big));
}

TP_INLINE TPI_AI double tp_tanh_f64(double x)
{
    double ax = fabs(x), z = x * x, p, small, big;
    p = -0x1.0da7299643978p-16;
    p = TPI_FMA(p, z, 0x1.439121fac9c97p-14);
    p = TPI_FMA(p, z, -0x1.df5579d93d4ddp-13);
    p = TPI_FMA(p, z, 0x1.336612e6827edp-11);
    p = TPI_FMA(p, z, -0x1.7d68a32ffe65ep-10);
    p = TPI_FMA(p, z, 0x1.d6cf280edbe7ap-9);
    p = TPI_FMA(p, z, -0x1.226e162bf9a39p-7);
    p = TPI_FMA(p, z, 0x1.664f477adaff4p-6);
    p = TPI_FMA(p, z, -0x1.ba1ba1b5064dep-5);
    p = TPI_FMA(p, z, 0x1.111111110accep-3);
    p = TPI_FMA(p, z, -0x1.55555555554ffp-2);
    small = TPI_FMA(x * z, p, x);
    big = 1.0 - 2.0 / (tp_exp_f64(2.0 * ax) + 1.0);
    return copysign(tpi_sel_f64(ax < 0.625, small, big), x);
}

/* ---------------------------------------------------------------- expm1 */

TP_INLINE TPI_AI float tp_expm1_f32(float x)
{
    float xc = tpi_clamp_f32(x, -18.0f, 89.0f);
    float t, k, rh, rl, r, q, s1, y;
    uint32_t kb, k2;
    t = TPI_FMAF(xc, 0x1.715476p+0f, 0x1.8p23f);
    k = t - 0x1.8p23f;
    rh = TPI_FMAF(k, -0x1.62e4p-1f, xc);   /* exact */
    rl = k * -0x1.7f7d1cp-20f;
    r = rh + rl;
    q = TPI_FMAF(TPI_FMAF(TPI_FMAF(TPI_FMAF(TPI_FMAF(0x1.a032cp-13f, r, 0x1.6d71f4p-10f), r,
                                            0x1.11118ap-7f), r, 0x1.5554b2p-5f), r,
                          0x1.555554p-3f), r, 0x1p-1f);
    /* 2^k = 2^(k - k2) * 2^k2 with k2 = 64 when k > 64, so that s1 = 2^(k - k2) exists;
       expm1(x) = (s1 * (rh + rl + r^2 q) + s1 - 2^-k2) * 2^k2, summed large parts first */
    kb = tpi_bits_f32(t) - 0x4b400000u + 256u;
    k2 = kb > 320u ? 64u : 0u;
    s1 = tpi_float_f32((kb - k2 - 129u) << 23);
    y = TPI_FMAF(s1, rh, s1 - tpi_float_f32((127u - k2) << 23));
    y = TPI_FMAF(s1, TPI_FMAF(r * r, q, rl), y);
    y = y * tpi_float_f32((127u + k2) << 23);
    return tpi_sel_f32(fabsf(x) < 0x1p-25f, x, y);
}

TP_INLINE TPI_AI double tp_expm1_f64(double x)
{
    double xc = tpi_clamp_f64(x, -40.0, 710.0);
    double t, k, rh, rl, r, q, y, s1;
    uint64_t kb, k2;
    t = TPI_FMA(xc, 0x1.71547652b82fep+0, 0x1.8p52);
    k = t - 0x1.8p52;
    rh = TPI_FMA(k, -0x1.62e42fefa38p-1, xc);
    rl = k * -0x1.ef35793c7673p-45;
    r = rh + rl;
    q = 0x1.1ee888218a341p-29;
    q = TPI_FMA(q, r, 0x1.af5e71f10cfa1p-26);
    q = TPI_FMA(q, r, 0x1.27e5362b9374fp-22);
    q = TPI_FMA(q, r, 0x1.71ddf8805d5a9p-19);
    q = TPI_FMA(q, r, 0x1.a01a017bc6e16p-16);
    q = TPI_FMA(q, r, 0x1.a01a01afd3488p-13);
    q = TPI_FMA(q, r, 0x1.6c16c16c1f076p-10);
    q = TPI_FMA(q, r, 0x1.111111110f6dbp-7);
    q = TPI_FMA(q, r, 0x1.555555555553fp-5);
    q = TPI_FMA(q, r, 0x1.5555555555559p-3);
    q = TPI_FMA(q, r, 0x1p-1);
    kb = tpi_bits_f64(t) - UINT64_C(0x4338000000000000) + 2048u;
    k2 = kb > 2560u ? 512u : 0u;
    s1 = tpi_float_f64((kb - k2 - 1025u) << 52);
    y = TPI_FMA(s1, rh, s1 - tpi_float_f64((1023u - k2) << 52));
    y = TPI_FMA(s1, TPI_FMA(r * r, q, rl), y);
    y = y * tpi_float_f64((1023u + k2) << 52);
    return tpi_sel_f64(fabs(x) < 0x1p-54, x, y);
}

/* ---------------------------------------------------------------- log1p */

/* log1p: u = 1 + x rounded, d = 1 + x - u exactly (Fast2Sum, larger operand first), and
   with u = 2^e m: log1p(x) = e ln2 + log1p(m - 1 + d 2^-e). For |x| < 0.29 the argument
   is x itself. */
TP_INLINE TPI_AI float tp_log1p_f32(float x)
{
    float u = 1.0f + x;
    float d = tpi_sel_f32(fabsf(x) > 1.0f, (x - u) + 1.0f, (1.0f - u) + x);
    uint32_t t = tpi_bits_f32(u) + 0x40cafb0du;
    uint32_t eb = t >> 23;
    float e = (float)(int32_t)eb - 256.0f;
    float m1 = tpi_float_f32((t & 0x7fffffu) + 0x3f3504f3u) - 1.0f;
    float dd = d * tpi_float_f32((383u - (eb > 382u ? 382u : eb)) << 23);
    float f = m1 + dd;
    float s = f / (2.0f + f);
    float z = s * s;
    float R = z * TPI_FMAF(TPI_FMAF(0x1.31e0e2p-2f, z, 0x1.995edp-2f), z, 0x1.55557ap-1f);
    float y = tpi_log_sum_f32(e, m1, dd - s * (f - R));
    return tpi_sel_f32((u > 0.0f) & (u < INFINITY), copysignf(y, x),
                       u == 0.0f ? -INFINITY : (u < 0.0f ? NAN : u));
}

TP_INLINE TPI_AI double tp_log1p_f64(double x)
{
    double u = 1.0 + x;
    double d = tpi_sel_f64(fabs(x) > 1.0, (x - u) + 1.0, (1.0 - u) + x);
    uint64_t t = tpi_bits_f64(u) + UINT64_C(0x40195f619980c433);
    uint64_t eb = t >> 52;
    double e = tpi_float_f64(UINT64_C(0x4330000000000000) | eb) - 0x1p52 - 2048.0;
    double m1 = tpi_float_f64((t & UINT64_C(0xfffffffffffff)) + UINT64_C(0x3fe6a09e667f3bcd)) - 1.0;
    double dd = d * tpi_float_f64((3071u - (eb > 3070u ? 3070u : eb)) << 52);
    double f = m1 + dd;
    double s = f / (2.0 + f);
    double z = s * s;
    double R = 0x1.2f02e59c608b9p-3;
    double y;
    R = TPI_FMA(R, z, 0x1.39a1fba84f875p-3);
    R = TPI_FMA(R, z, 0x1.74663c5294d48p-3);
    R = TPI_FMA(R, z, 0x1.c71c521653b18p-3);
    R = TPI_FMA(R, z, 0x1.24924941e0b5cp-2);
    R = TPI_FMA(R, z, 0x1.999999997feeap-2);
    R = TPI_FMA(R, z, 0x1.5555555555592p-1);
    R = z * R;
    y = tpi_log_sum_f64(e, m1, dd - s * (f - R));
    return tpi_sel_f64((u > 0.0) & (u < INFINITY), copysign(y, x),
                       u == 0.0 ? -INFINITY : (u < 0.0 ? NAN : u));
}

/* ---------------------------------------------------------------- sinh, cosh */

/* |x| < 1: odd polynomial; beyond: h - 1/(4h) with h = e^|x| / 2 computed without
   intermediate overflow (sinh is finite a little past where exp overflows). */
TP_INLINE TPI_AI float tp_sinh_f32(float x)
{
    float ax = fabsf(x), z = x * x;
    float p = TPI_FMAF(TPI_FMAF(TPI_FMAF(0x1.7a15b4p-19f, z, 0x1.9ffe92p-13f), z, 0x1.111134p-7f),
                       z, 0x1.555556p-3f);
    float hl, h = tpi_expk_f32(ax, -1, &hl);
    return copysignf(tpi_sel_f32(ax < 1.0f, TPI_FMAF(ax * z, p, ax), h + (hl - 0.25f / h)), x);
}

TP_INLINE TPI_AI double tp_sinh_f64(double x)
{
    double ax = fabs(x), z = x * x, p, h, hl;
    p = 0x1.9a7941079ccbp-49;
    p = TPI_FMA(p, z, 0x1.ae756e98c1d33p-41);
    p = TPI_FMA(p, z, 0x1.61246afa2e4b6p-33);
    p = TPI_FMA(p, z, 0x1.ae6456741b8e4p-26);
    p = TPI_FMA(p, z, 0x1.71de3a5573f79p-19);
    p = TPI_FMA(p, z, 0x1.a01a01a019fc1p-13);
    p = TPI_FMA(p, z, 0x1.1111111111111p-7);
    p = TPI_FMA(p, z, 0x1.5555555555555p-3);
    h = tpi_expk_f64(ax, -1, &hl);
    return copysign(tpi_sel_f64(ax < 1.0, TPI_FMA(ax * z, p, ax), h + (hl - 0.25 / h)), x);
}

TP_INLINE TPI_AI float tp_cosh_f32(float x)
{
    float hl, h = tpi_expk_f32(fabsf(x), -1, &hl);
    return h + (hl + 0.25f / h);
}

TP_INLINE TPI_AI double tp_cosh_f64(double x)
{
    double hl, h = tpi_expk_f64(fabs(x), -1, &hl);
    return h + (hl + 0.25 / h);
}

/* ---------------------------------------------------------------- atan */

/* atan|x| = b + atan(t), |t| <= 7/16, in five intervals split at 7/16, 11/16, 19/16 and
   39/16 with b = 0, atan(1/2), pi/4, atan(3/2), pi/2 and t = |x|, (2|x| - 1)/(2 + |x|),
   (|x| - 1)/(|x| + 1), (|x| - 3/2)/(1 + 3/2 |x|), -1/|x|: the numerators are exact and
   atan(t) never cancels much of b. */
#define TPI_ATAN_REDUCE(T, SEL, ax, t, bhi, blo, c)                                        \
    do {                                                                                   \
        int i1 = ax > (T)0.4375, i2 = ax > (T)0.6875, i3 = ax > (T)1.1875,                 \
            i4 = ax > (T)2.4375;                                                           \
        t = SEL(i4, (T)-1.0, SEL(i3, ax - (T)1.5, SEL(i2, ax - (T)1.0,                     \
                SEL(i1, (T)2.0 * ax - (T)1.0, ax))))                                       \
            / SEL(i4, ax, SEL(i3, TPI_FMA##c(ax, (T)1.5, (T)1.0), SEL(i2, ax + (T)1.0,     \
                  SEL(i1, (T)2.0 + ax, (T)1.0))));                                         \
        bhi = SEL(i4, B4H, SEL(i3, B3H, SEL(i2, B2H, SEL(i1, B1H, (T)0.0))));              \
        blo = SEL(i4, B4L, SEL(i3, B3L, SEL(i2, B2L, SEL(i1, B1L, (T)0.0))));              \
    } while (0)

TP_INLINE TPI_AI float tp_atan_f32(float x)
{
    float ax = fabsf(x), t, z, p, y, bhi, blo;
#define B1H 0x1.dac67p-2f
#define B1L 0x1.586ed4p-28f
#define B2H 0x1.921fb6p-1f
#define B2L -0x1.777a5cp-26f
#define B3H 0x1.f730bep-1f
#define B3L -0x1.afc12cp-26f
#define B4H 0x1.921fb6p+0f
#define B4L -0x1.777a5cp-25f
    TPI_ATAN_REDUCE(float, tpi_sel_f32, ax, t, bhi, blo, F);
#undef B1H
#undef B1L
#undef B2H
#undef B2L
#undef B3H
#undef B3L
#undef B4H
#undef B4L
    z = t * t;
    p = TPI_FMAF(TPI_FMAF(TPI_FMAF(TPI_FMAF(TPI_FMAF(0x1.70ca0ep-5f, z, -0x1.56540cp-4f), z,
                                            0x1.c382fcp-4f), z, -0x1.2475b4p-3f), z,
                          0x1.9998c6p-3f), z, -0x1.555554p-2f);
    y = bhi + (TPI_FMAF(t * z, p, t) + blo);
    return tpi_sel_f32(ax < 0x1p-12f, x, copysignf(y, x));
}

TP_INLINE TPI_AI double tp_atan_f64(double x)
{
    double ax = fabs(x), t, z, p, y, bhi, blo;
#define B1H 0x1.dac670561bb4fp-2
#define B1L 0x1.a2b7f222f65e2p-56
#define B2H 0x1.921fb54442d18p-1
#define B2L 0x1.1a62633145c07p-55
#define B3H 0x1.f730bd281f69bp-1
#define B3L 0x1.007887af0cbbdp-56
#define B4H 0x1.921fb54442d18p+0
#define B4L 0x1.1a62633145c07p-54
    TPI_ATAN_REDUCE(double, tpi_sel_f64, ax, t, bhi, blo, );
#undef B1H
#undef B1L
#undef B2H
#undef B2L
#undef B3H
#undef B3L
#undef B4H
#undef B4L
    z = t * t;
    p = 0x1.c04729fae7956p-7;
    p = TPI_FMA(p, z, -0x1.0557a07783137p-5);
    p = TPI_FMA(p, z, 0x1.6b1786d4d6b26p-5);
    p = TPI_FMA(p, z, -0x1.a9f97dcd74b1cp-5);
    p = TPI_FMA(p, z, 0x1.e132444a97283p-5);
    p = TPI_FMA(p, z, -0x1.11090106f7c42p-4);
    p = TPI_FMA(p, z, 0x1.3b132eea4b6d3p-4);
    p = TPI_FMA(p, z, -0x1.745d11c23b755p-4);
    p = TPI_FMA(p, z, 0x1.c71c71a0f4448p-4);
    p = TPI_FMA(p, z, -0x1.2492492444baep-3);
    p = TPI_FMA(p, z, 0x1.9999999998fb3p-3);
    p = TPI_FMA(p, z, -0x1.5555555555552p-2);
    y = bhi + (TPI_FMA(t * z, p, t) + blo);
    return tpi_sel_f64(ax < 0x1p-27, x, copysign(y, x));
}

/* ---------------------------------------------------------------- asinh */

/* |x| < 1/2: odd polynomial; then log1p(|x| + x^2 / (1 + sqrt(1 + x^2))); from 2^12
   (2^28 for double) on, where sqrt(1 + x^2) = |x| to working precision:
   log1p(|x| - 1) + ln2. */
TP_INLINE TPI_AI float tp_asinh_f32(float x)
{
    float ax = fabsf(x), z = x * x;
    int large = ax >= 0x1p12f;
    float p = TPI_FMAF(TPI_FMAF(TPI_FMAF(TPI_FMAF(TPI_FMAF(0x1.2c6872p-7f, z, -0x1.475a2ap-6f), z,
                                                  0x1.ebbb76p-6f), z, -0x1.6d78c4p-5f), z,
                                0x1.33320ap-4f), z, -0x1.555554p-3f);
    float w = tpi_sel_f32(large, ax - 1.0f, ax + z / (1.0f + sqrtf(1.0f + z)));
    float y = tp_log1p_f32(w) + tpi_sel_f32(large, 0x1.62e43p-1f, 0.0f);
    return copysignf(tpi_sel_f32(ax < 0.5f, TPI_FMAF(ax * z, p, ax), y), x);
}

TP_INLINE TPI_AI double tp_asinh_f64(double x)
{
    double ax = fabs(x), z = x * x, p, w, y;
    int large = ax >= 0x1p28;
    p = 0x1.c262bcb6cc0bep-10;
    p = TPI_FMA(p, z, -0x1.37221f9d335b9p-8);
    p = TPI_FMA(p, z, 0x1.e944103968a29p-8);
    p = TPI_FMA(p, z, -0x1.386a342e0b60fp-7);
    p = TPI_FMA(p, z, 0x1.7941ea53b2d9bp-7);
    p = TPI_FMA(p, z, -0x1.c972eab0c1e66p-7);
    p = TPI_FMA(p, z, 0x1.1c4d2fa1418d1p-6);
    p = TPI_FMA(p, z, -0x1.6e8b8ca5f60d4p-6);
    p = TPI_FMA(p, z, 0x1.f1c71ba9a987bp-6);
    p = TPI_FMA(p, z, -0x1.6db6db6ba63bp-5);
    p = TPI_FMA(p, z, 0x1.3333333330758p-4);
    p = TPI_FMA(p, z, -0x1.5555555555541p-3);
    w = tpi_sel_f64(large, ax - 1.0, ax + z / (1.0 + sqrt(1.0 + z)));
    y = tp_log1p_f64(w) + tpi_sel_f64(large, 0x1.62e42fefa39efp-1, 0.0);
    return copysign(tpi_sel_f64(ax < 0.5, TPI_FMA(ax * z, p, ax), y), x);
}

/* ---------------------------------------------------------------- erf, erf_inv */

/* exp(a) for a in [-17, 0] in double, good to about 2^-34: enough for float results
   computed in double. */
TP_INLINE TPI_AI double tpi_exp_f32acc_f64(double a)
{
    double t = TPI_FMA(a, 0x1.71547652b82fep+0, 0x1.8p52), k = t - 0x1.8p52, r, p;
    r = TPI_FMA(k, -0x1.62e42fefa38p-1, a);
    r = TPI_FMA(k, -0x1.ef35793c7673p-45, r);
    p = 0x1.9f086c22b6767p-13;
    p = TPI_FMA(p, r, 0x1.6d8d0154b65bp-10);
    p = TPI_FMA(p, r, 0x1.111270cd0e547p-7);
    p = TPI_FMA(p, r, 0x1.55548dcae9153p-5);
    p = TPI_FMA(p, r, 0x1.555554432da1ap-3);
    p = TPI_FMA(p, r, 0x1.0000003a20537p-1);
    p = 1.0 + TPI_FMA(r * r, p, r);
    return p * tpi_float_f64((tpi_bits_f64(t) - UINT64_C(0x4338000000000000) + 1023u) << 52);
}

/* Float erf in double, rounded once: |x| < 0.875: x + x P(x^2); beyond:
   1 - exp(-x^2) R(|x|) with R = erfc * exp(x^2) a polynomial on [0.875, 4] (erf rounds
   to 1 from 3.92 on). x^2 is exact in double. */
TP_INLINE TPI_AI float tp_erf_f32(float x)
{
    double xd = (double)x, z = xd * xd, ps, pc, u;
    double ac = tpi_clamp_f64(fabs(xd), 0.0, 4.0);
    ps = -0x1.453ac1205c18dp-11;
    ps = TPI_FMA(ps, z, 0x1.49ca028168b82p-8);
    ps = TPI_FMA(ps, z, -0x1.b6f38b11a1474p-6);
    ps = TPI_FMA(ps, z, 0x1.ce211e74c791bp-4);
    ps = TPI_FMA(ps, z, -0x1.81270b56c7573p-2);
    ps = TPI_FMA(ps, z, 0x1.06eba6d758338p-3);
    u = ac - 0x1.3800000000000p+1;
    pc = 0x1.45e840769350ap-17;
    pc = TPI_FMA(pc, u, 0x1.7d53f5dde547p-16);
    pc = TPI_FMA(pc, u, 0x1.8352b67b90201p-15);
    pc = TPI_FMA(pc, u, -0x1.632d1f7aa3cb8p-14);
    pc = TPI_FMA(pc, u, 0x1.8380a83594a4p-13);
    pc = TPI_FMA(pc, u, -0x1.bcd9345b11586p-11);
    pc = TPI_FMA(pc, u, 0x1.6400f29a04376p-9);
    pc = TPI_FMA(pc, u, -0x1.1afcf2b3a25cdp-7);
    pc = TPI_FMA(pc, u, 0x1.b2306e43ed757p-6);
    pc = TPI_FMA(pc, u, -0x1.3db0ac4a4d57bp-4);
    pc = TPI_FMA(pc, u, 0x1.b97388bf787a9p-3);
    pc = 1.0 - tpi_exp_f32acc_f64(-ac * ac) * pc;
    return (float)tpi_sel_f64(fabs(xd) < 0.875, TPI_FMA(xd, ps, xd), copysign(pc, xd));
}

/* erf(x) = x + x * tpi_erf_q_f64(x^2) for |x| < 0.875 */
TP_INLINE TPI_AI double tpi_erf_q_f64(double z)
{
    double p;
    p = -0x1.dbd2325fa6b14p-31;
    p = TPI_FMA(p, z, 0x1.e517d49dca265p-27);
    p = TPI_FMA(p, z, -0x1.5dca53ff1b72bp-23);
    p = TPI_FMA(p, z, 0x1.b9c055f097b84p-20);
    p = TPI_FMA(p, z, -0x1.f4d00d04d0ae1p-17);
    p = TPI_FMA(p, z, 0x1.f9a30f2f2d28ep-14);
    p = TPI_FMA(p, z, -0x1.c02db35e6961dp-11);
    p = TPI_FMA(p, z, 0x1.565bcd0baea22p-8);
    p = TPI_FMA(p, z, -0x1.b82ce3127abb2p-6);
    p = TPI_FMA(p, z, 0x1.ce2f21a042992p-4);
    p = TPI_FMA(p, z, -0x1.812746b0379e4p-2);
    return TPI_FMA(p, z, 0x1.06eba8214db69p-3);
}

/* exp(a + b) for a in [-37, -0.7], |b| <= 2^-40 |a|: a enters the Cody-Waite reduction
   unrounded, so exp(-x^2) keeps full precision with x^2 = a + b exactly. */
TP_INLINE TPI_AI double tpi_exp_dd_f64(double a, double b)
{
    double t = TPI_FMA(a, 0x1.71547652b82fep+0, 0x1.8p52), k = t - 0x1.8p52;
    double rh = TPI_FMA(k, -0x1.62e42fefa38p-1, a);
    double rl = TPI_FMA(k, -0x1.ef35793c7673p-45, b);
    double r = rh + rl, q, p;
    q = 0x1.ad7f6b288caf6p-26;
    q = TPI_FMA(q, r, 0x1.28ad70355ad31p-22);
    q = TPI_FMA(q, r, 0x1.71df254f9123fp-19);
    q = TPI_FMA(q, r, 0x1.a0199a0f15081p-16);
    q = TPI_FMA(q, r, 0x1.a01a012a5b332p-13);
    q = TPI_FMA(q, r, 0x1.6c16c18429231p-10);
    q = TPI_FMA(q, r, 0x1.1111111127bd4p-7);
    q = TPI_FMA(q, r, 0x1.555555555088p-5);
    q = TPI_FMA(q, r, 0x1.55555555554fap-3);
    q = TPI_FMA(q, r, 0x1.000000000000ap-1);
    p = 1.0 + rh;
    p = p + ((((1.0 - p) + rh) + rl) + r * r * q);
    return p * tpi_float_f64((tpi_bits_f64(t) - UINT64_C(0x4338000000000000) + 1023u) << 52);
}

/* erfc(x) for x in [0.875, 6] (clamped): exp(-x^2) R(x), R = erfc * exp(x^2) a polynomial
   on each of [0.875, 1.75), [1.75, 2.75), [2.75, 4), [4, 6]; relative error < 2^-56 (erf_inv
   needs erfc to full relative precision in its tails). */
#define TPI_SEL4(a, b, c, d) tpi_sel_f64(i3, d, tpi_sel_f64(i2, c, tpi_sel_f64(i1, b, a)))
TP_INLINE TPI_AI double tpi_erfc_f64(double x)
{
    double a = tpi_clamp_f64(x, 0.875, 6.0), u, p, hi;
    int i1 = a >= 1.75, i2 = a >= 2.75, i3 = a >= 4.0;
    u = a - TPI_SEL4(1.3125, 2.25, 3.375, 5.0);
    p = TPI_SEL4(0.0, 0.0, 0.0, 0x1.644503122b6d6p-44);
    p = TPI_FMA(p, u, TPI_SEL4(-0x1.d5ec5429617b5p-24, -0x1.432384cffa6efp-29,
                              -0x1.a4ca3bdb26027p-35, -0x1.1b5246d48e20bp-41));
    p = TPI_FMA(p, u, TPI_SEL4(0x1.a2a36c1491126p-22, 0x1.50f769c298019p-27,
                              0x1.065585152ee35p-32, 0x1.8d5912a2bfc83p-39));
    p = TPI_FMA(p, u, TPI_SEL4(-0x1.528c344dd72e4p-20, -0x1.42a239318e0a8p-25,
                              -0x1.2c89fc64e4459p-30, -0x1.33a43291a118ap-36));
    p = TPI_FMA(p, u, TPI_SEL4(0x1.1b2faa074a70ap-18, 0x1.406c89648023ep-23,
                              0x1.691b8bfb0998bp-28, 0x1.d9e6b2f6e8556p-34));
    p = TPI_FMA(p, u, TPI_SEL4(-0x1.cd858caff68f9p-17, -0x1.37baa6780e915p-21,
                              -0x1.ab8143e21e6c5p-26, -0x1.6703b235a9e6dp-31));
    p = TPI_FMA(p, u, TPI_SEL4(0x1.6c31b1cd7934ap-15, 0x1.27b0e492f5599p-19,
                              0x1.f05e6a05b05e8p-24, 0x1.0cc73512e6936p-28));
    p = TPI_FMA(p, u, TPI_SEL4(-0x1.1624f8a5385a1p-13, -0x1.117a651c1860bp-17,
                              -0x1.1ae03ea4cfd7cp-21, -0x1.8dab87bdc89b6p-26));
    p = TPI_FMA(p, u, TPI_SEL4(0x1.9a25bcae78e51p-12, 0x1.ec7736a707696p-16,
                              0x1.3c3b6aa9fe91dp-19, 0x1.228a78d459503p-23));
    p = TPI_FMA(p, u, TPI_SEL4(-0x1.2309305e023ebp-10, -0x1.aed7ebca4e70bp-14,
                              -0x1.5a61388ed2a25p-17, -0x1.a3193d704e65ep-21));
    p = TPI_FMA(p, u, TPI_SEL4(0x1.8c10e9b626932p-9, 0x1.6d7743d9f1932p-12,
                              0x1.7350e3a7eff15p-15, 0x1.2a41152e07d5fp-18));
    p = TPI_FMA(p, u, TPI_SEL4(-0x1.014991d65df29p-7, -0x1.2bd251bb30653p-10,
                              -0x1.8511846d9f66ep-13, -0x1.a2a81d242e82dp-16));
    p = TPI_FMA(p, u, TPI_SEL4(0x1.3d5e9f54c0f57p-6, 0x1.da595561f1956p-9,
                              0x1.8de5f26a782ffp-11, 0x1.219f2c335349bp-13));
    p = TPI_FMA(p, u, TPI_SEL4(-0x1.711413b59aea6p-5, -0x1.6883f9919a159p-7,
                              -0x1.8c84c13afb9b2p-9, -0x1.8abc19870821ap-11));
    p = TPI_FMA(p, u, TPI_SEL4(0x1.90e47c9992721p-4, 0x1.0615670e25a8ep-5,
                              0x1.804cc157141a5p-7, 0x1.08cf82b79a11cp-8));
    p = TPI_FMA(p, u, TPI_SEL4(-0x1.917d7928e2332p-3, -0x1.6a70d2bb37411p-4,
                              -0x1.696d353f008b5p-5, -0x1.5d843497d4f39p-6));
    p = TPI_FMA(p, u, TPI_SEL4(0x1.6bb376a9390cdp-2, 0x1.d94446d627932p-3,
                              0x1.48f8f10299b71p-3, 0x1.c57239e943d1ap-4));
    hi = a * a;
    return tpi_exp_dd_f64(-hi, -TPI_FMA(a, a, -hi)) * p;
}
#undef TPI_SEL4

TP_INLINE TPI_AI double tp_erf_f64(double x)
{
    double ax = fabs(x);
    return tpi_sel_f64(ax < 0.875, TPI_FMA(x, tpi_erf_q_f64(x * x), x),
                       copysign(1.0 - tpi_erfc_f64(ax), x));
}

/* erf_inv: w = -log(1 - x^2) (from (1 - |x|)(1 + |x|), exact enough near 1), then
   erf_inv(x) / x as a polynomial in w (w < 5; its constant term in two parts, added
   last) or in sqrt(w) - 3 (the tails). */
TP_INLINE TPI_AI float tp_erf_inv_f32(float x)
{
    float ax = fabsf(x), w, s, pc, pt, y;
    w = -tp_log_f32((1.0f - ax) * (1.0f + ax));
    s = sqrtf(w) - 3.0f;
    pc = 0x1.5a4b12p-32f;
    pc = TPI_FMAF(pc, w, -0x1.1dd034p-26f);
    pc = TPI_FMAF(pc, w, 0x1.468206p-22f);
    pc = TPI_FMAF(pc, w, -0x1.4a9bfep-19f);
    pc = TPI_FMAF(pc, w, 0x1.7f05aep-18f);
    pc = TPI_FMAF(pc, w, 0x1.561f0ep-15f);
    pc = TPI_FMAF(pc, w, -0x1.00c1a4p-13f);
    pc = TPI_FMAF(pc, w, -0x1.327818p-9f);
    pc = TPI_FMAF(pc, w, 0x1.7a79dp-7f);
    pc = TPI_FMAF(pc, w, 0x1.db29f2p-3f);
    pt = -0x1.ea36ep-16f;
    pt = TPI_FMAF(pt, s, 0x1.5041bep-13f);
    pt = TPI_FMAF(pt, s, -0x1.2384d8p-12f);
    pt = TPI_FMAF(pt, s, -0x1.f64dbep-14f);
    pt = TPI_FMAF(pt, s, 0x1.82c7e6p-10f);
    pt = TPI_FMAF(pt, s, -0x1.d38fc4p-9f);
    pt = TPI_FMAF(pt, s, 0x1.74be28p-8f);
    pt = TPI_FMAF(pt, s, -0x1.f4e008p-8f);
    pt = TPI_FMAF(pt, s, 0x1.358106p-7f);
    pt = TPI_FMAF(pt, s, 0x1.006dcap+0f);
    pt = TPI_FMAF(pt, s, 0x1.6a9efcp+1f);
    y = tpi_sel_f32(w < 5.0f, TPI_FMAF(ax, 0x1.c5bf8ap-1f, ax * TPI_FMAF(w, pc, -0x1.c96212p-26f)),
                    ax * pt);
    return copysignf(tpi_sel_f32(ax < 1.0f, y, ax == 1.0f ? INFINITY : NAN), x);
}

/* Double: the same start to about 2^-28, then one Halley step on erf(y) = |x| (cubic
   convergence); the residual is formed without cancellation: (y - |x|) + y q(y^2) where
   erf is x + x q (y - |x| is exact), (1 - |x|) - erfc(y) beyond. */
TP_INLINE TPI_AI double tp_erf_inv_f64(double x)
{
    double ax = fabs(x), w, u, s, pc, pt, y, z, f, d;
    w = -tp_log_f64((1.0 - ax) * (1.0 + ax));
    u = w - 2.5;
    s = sqrt(w) - 3.0;
    pc = 0x1.2427a0df97fc8p-33;
    pc = TPI_FMA(pc, u, 0x1.e083ba8a3a2dep-32);
    pc = TPI_FMA(pc, u, -0x1.7ac0deb4b4269p-27);
    pc = TPI_FMA(pc, u, 0x1.1abc0bf7ff556p-26);
    pc = TPI_FMA(pc, u, 0x1.0189464e2c6ffp-21);
    pc = TPI_FMA(pc, u, -0x1.cbd4e5b778c13p-19);
    pc = TPI_FMA(pc, u, -0x1.4f7606cc7d07cp-18);
    pc = TPI_FMA(pc, u, 0x1.c9bb5b0d928fdp-13);
    pc = TPI_FMA(pc, u, -0x1.486399ed74675p-10);
    pc = TPI_FMA(pc, u, -0x1.11c3e0b326d92p-8);
    pc = TPI_FMA(pc, u, 0x1.f91e897305793p-3);
    pc = TPI_FMA(pc, u, 0x1.805c5cff6d7fep+0);
    pt = 0x1.39d1dcaf0d9e8p-26;
    pt = TPI_FMA(pt, s, -0x1.b7d54ce15adb9p-23);
    pt = TPI_FMA(pt, s, 0x1.08b7417e2387bp-22);
    pt = TPI_FMA(pt, s, 0x1.f20783b4f7eb7p-18);
    pt = TPI_FMA(pt, s, -0x1.c29c1305fd18fp-15);
    pt = TPI_FMA(pt, s, 0x1.675c2e23a5c0cp-13);
    pt = TPI_FMA(pt, s, -0x1.009ea4997a3adp-12);
    pt = TPI_FMA(pt, s, -0x1.32de6e76634c5p-13);
    pt = TPI_FMA(pt, s, 0x1.7e8c1dc8c94e6p-10);
    pt = TPI_FMA(pt, s, -0x1.d1928ed4ec8d1p-9);
    pt = TPI_FMA(pt, s, 0x1.74f9971b12157p-8);
    pt = TPI_FMA(pt, s, -0x1.f513effc37872p-8);
    pt = TPI_FMA(pt, s, 0x1.357dffedd24e9p-7);
    pt = TPI_FMA(pt, s, 0x1.006dcc95c02ap+0);
    pt = TPI_FMA(pt, s, 0x1.6a9efbedd58dcp+1);
    y = ax * tpi_sel_f64(w < 5.0, pc, pt);
    z = y * y;
    f = tpi_sel_f64(y < 0.875, (y - ax) + y * tpi_erf_q_f64(z), (1.0 - ax) - tpi_erfc_f64(y));
    d = 0x1.20dd750429b6dp+0 * tp_exp_f64(-z);
    u = f / d;
    y = y - u / TPI_FMA(y, u, 1.0);
    return copysign(tpi_sel_f64(ax < 1.0, y, ax == 1.0 ? INFINITY : NAN), x);
}

/* ---------------------------------------------------------------- sin, cos, tan (f64) */

/* Beyond this |x| the double functions call libm (a correct reduction for any argument);
   the branch keeps gcc from vectorizing loops that use them. */
#define TPI_TRIG_F64_LIMIT 0x1p43

/* x mod pi/2 for |x| < 2^43 as rh + rl (|rh| <= pi/4 a hair more) and the quadrant q.
   With pi/2 = P0 + P1 + P2 + ... (53 bits each): k * P0 is exact inside the fma and so
   is x - k P0; k P1 is split exactly; the sum is kept as two doubles (2Sum), which
   carries the remainder to about 2^-115 absolute,
   enough for the closest approach of a double to a multiple of pi/2 (about 2^-61).
   fma() itself, not TPI_FMA: without hardware fma this is libm's, slow but exact. */
TP_INLINE TPI_AI double tpi_rem_pio2_f64(double x, double *rl, uint32_t *q)
{
    double t = TPI_FMA(x, 0x1.45f306dc9c883p-1, 0x1.8p52), k = t - 0x1.8p52;
    double r1 = fma(-k, 0x1.921fb54442d18p+0, x);
    double p2h = k * 0x1.1a62633145c07p-54, p2l = fma(k, 0x1.1a62633145c07p-54, -p2h);
    double s = r1 - p2h, b = s - r1, e = (r1 - (s - b)) + (-p2h - b);
    double u = (e - p2l) - k * -0x1.f1976b7ed8fbcp-110;
    double rh = s + u;
    b = rh - s;
    *rl = (s - (rh - b)) + (u - b);
    *q = (uint32_t)tpi_bits_f64(t);
    return rh;
}

/* sin(rh + rl) and cos(rh + rl) for |rh| <= pi/4, |rl| <= ulp(rh), each as hi + *lo
   (hi = rh or 1 - z/2, both exact; tan divides the pairs). */
TP_INLINE TPI_AI double tpi_sin_kernel_f64(double rh, double rl, double *lo)
{
    double z = rh * rh, p;
    p = -0x1.aaa2156c1893ep-41;
    p = TPI_FMA(p, z, 0x1.61208be592de3p-33);
    p = TPI_FMA(p, z, -0x1.ae64528ce7638p-26);
    p = TPI_FMA(p, z, 0x1.71de3a53301a3p-19);
    p = TPI_FMA(p, z, -0x1.a01a01a018a67p-13);
    p = TPI_FMA(p, z, 0x1.111111111110bp-7);
    p = TPI_FMA(p, z, -0x1.5555555555555p-3);
    *lo = TPI_FMA(rh * z, p, rl * TPI_FMA(-0.5, z, 1.0));
    return rh;
}
TP_INLINE TPI_AI double tpi_cos_kernel_f64(double rh, double rl, double *lo)
{
    double z = rh * rh, hz = 0.5 * z, w = 1.0 - hz, p;
    p = 0x1.aabce6836b4d4p-45;
    p = TPI_FMA(p, z, -0x1.939323b031f7dp-37);
    p = TPI_FMA(p, z, 0x1.1eed8c906a012p-29);
    p = TPI_FMA(p, z, -0x1.27e4fb75eb366p-22);
    p = TPI_FMA(p, z, 0x1.a01a01a018cc5p-16);
    p = TPI_FMA(p, z, -0x1.6c16c16c16c0fp-10);
    p = TPI_FMA(p, z, 0x1.5555555555555p-5);
    *lo = ((1.0 - w) - hz) + TPI_FMA(z * z, p, -rh * rl);
    return w;
}

TP_INLINE TPI_AI double tpi_sincos_f64(double x, uint32_t shift)
{
    uint32_t q;
    double rl, rh = tpi_rem_pio2_f64(x, &rl, &q), sl, cl, sh, ch, y;
    sh = tpi_sin_kernel_f64(rh, rl, &sl);
    ch = tpi_cos_kernel_f64(rh, rl, &cl);
    q += shift;
    y = tpi_sel_f64((int)(q & 1u), ch + cl, sh + sl);
    return tpi_float_f64(tpi_bits_f64(y) ^ ((uint64_t)(q & 2u) << 62));
}

TP_INLINE TPI_AI double tp_sin_f64(double x)
{
    double y = tpi_sel_f64(fabs(x) < 0x1p-26, x, tpi_sincos_f64(x, 0u));
    if (fabs(x) >= TPI_TRIG_F64_LIMIT)
        y = sin(x);
    return y;
}

TP_INLINE TPI_AI double tp_cos_f64(double x)
{
    double y = tpi_sincos_f64(x, 1u);
    if (fabs(x) >= TPI_TRIG_F64_LIMIT)
        y = cos(x);
    return y;
}

/* tan = (nh + nl) / (dh + dl): sin / cos, or -cos / sin in odd quadrants. The quotient
   is corrected once with its residual, so only the final rounding counts. */
TP_INLINE TPI_AI double tp_tan_f64(double x)
{
    uint32_t q;
    double rl, rh = tpi_rem_pio2_f64(x, &rl, &q), sl, cl, sh, ch, nh, nl, dh, dl, d, t, y;
    int odd = (int)(q & 1u);
    sh = tpi_sin_kernel_f64(rh, rl, &sl);
    ch = tpi_cos_kernel_f64(rh, rl, &cl);
    nh = tpi_sel_f64(odd, -ch, sh);
    nl = tpi_sel_f64(odd, -cl, sl);
    dh = tpi_sel_f64(odd, sh, ch);
    dl = tpi_sel_f64(odd, sl, cl);
    d = dh + dl;
    t = nh / d;
    y = t + (fma(-t, dh, nh) + (nl - t * dl)) / d;
    y = tpi_sel_f64(fabs(x) < 0x1p-27, x, y);
    if (fabs(x) >= TPI_TRIG_F64_LIMIT)
        y = tan(x);
    return y;
}

#endif /* TP_MATH_H */

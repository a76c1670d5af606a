/* tp_xla_math.h: log, log1p and erf_inv, and float32 exp, tanh and logistic, with the
 * bits JAX 0.10.2 gets on CPU.
 *
 * Provides tp_xla_log_f32(float), tp_xla_log1p_f32(float), tp_xla_erf_inv_f32(float), and
 * the float64 ones tp_xla_log_f64, tp_xla_log1p_f64, tp_xla_erf_inv_f64 (described at
 * their definitions below; they call libm's log, so loops using them stay scalar); and
 * tp_xla_exp_f32, tp_xla_tanh_f32, tp_xla_logistic_f32 (described at their definitions;
 * NumPy twins in transpile/lax/_xla_exp.py, checked by tests/test_runtime_xla_exp.py and,
 * over all 2^32 inputs, tools/check_xla_exp_full.py).
 *
 * Why: XLA:CPU neither calls libm for these nor rounds them correctly; it expands them
 * into straight-line float32 code, and LLVM fuses some of its multiply-adds. jnp.log
 * then differs from NumPy's float32 log on about a quarter of the inputs (log1p on about
 * an eighth; from the correctly rounded functions on 0.5% and 0.8%), and so do
 * random.normal (sqrt(2) erf_inv(u)) and random.gumbel (-log(-log(u))). These functions
 * repeat XLA's operations one by one, in its order, with fmaf() exactly where its
 * machine code has a fused multiply-add, so they return the same bits for every one of
 * the 2^32 inputs (NaN payloads included) as jax.jit(jnp.log) etc. on float32 arrays
 * (XLA's vector path; the exception: for a lone log on some small arrays, sizes 3, 7
 * and 11 seen, XLA calls libm's logf for some elements). transpile/lax/_xla_math.py holds
 * bit-identical NumPy twins for eager mode; tests/test_runtime_xla_math.py checks both.
 *
 * The algorithms (accuracy: log within 1 ulp; log1p within 2 ulp; erf_inv within a few
 * ulp except near |x| = 1, as XLA's):
 *   log:     u = 2^e m, m in [1/2, 1); m < sqrt(1/2) folds into [sqrt(1/2), sqrt(2)) as
 *            f = 2m - 1 with e - 1, else f = m - 1. log u = f - f^2/2 + f^3 P(f) + e ln2,
 *            P the degree-8 Cephes logf polynomial in three interleaved Horner pieces
 *            combined with powers of f^3, ln2 split as 0.693359375 - 2.1219444e-4.
 *   log1p:   |x| < sqrt(2) - 1: x - x^2/2 + x^3 N(x)/D(x) (degree 6 over monic degree 7);
 *            otherwise log(1 + x) as above.
 *   erf_inv: w = -log1p(-x^2); t = w - 2.5 (w < 5) or sqrt(w) - 3; x p(t) with Giles'
 *            two degree-8 float32 polynomials; |x| = 1 gives x * inf.
 *
 * Subnormals: XLA:CPU runs with FTZ/DAZ. These functions flush the operand, the one
 * intermediate that can matter (x^2 in erf_inv) and erf_inv's result themselves
 * (tpi_flush_f32, and erf_inv's product as FTZ flushes it: tininess before rounding),
 * so they give JAX's bits with or without FTZ/DAZ set.
 *
 * fmaf must be the hardware instruction for speed (-march with FMA): the code calls
 * fmaf() itself, never TPI_FMAF, because a * b + c would change the bits. Without
 * hardware fma the results are the same but each fmaf is a libm call (scalar loops).
 * Everything else is branch-free (selects as bit blends): a loop calling these is
 * vectorized by gcc under the kernel flags. C99, clean under -Wall -Wextra -pedantic.
 */
#ifndef TP_XLA_MATH_H
#define TP_XLA_MATH_H

#include "tp_ops.h"

/* XLA's float32 log of u (u already flushed): the bits of all special cases as XLA
   writes them (u < 0 or NaN: 0xffffffff; 0: -inf; +inf: +inf). */
TP_INLINE TPI_AI float tpi_xla_log_core_f32(float u)
{
    float v = tpi_sel_f32(u > 0x1p-126f, u, 0x1p-126f);
    uint32_t vb = tpi_bits_f32(v), rb;
    float e = (float)((int32_t)(vb >> 23) - 127) + 1.0f;
    float m = tpi_float_f32((vb & 0x807fffffu) | 0x3f000000u);
    int fold = m < 0x1.6a09e6p-1f;
    float f, f2, f3, a, b, c, y, r;
    e = e - tpi_sel_f32(fold, 1.0f, 0.0f);
    f = (m - 1.0f) + tpi_sel_f32(fold, m, 0.0f);
    f2 = f * f;
    f3 = f2 * f;
    a = fmaf(fmaf(f, 0x1.204376p-4f, -0x1.d7a37p-4f), f, 0x1.de4a34p-4f);
    b = fmaf(fmaf(f, -0x1.fcba9ep-4f, 0x1.23d37ep-3f), f, -0x1.555cap-3f);
    c = fmaf(fmaf(f, 0x1.999d58p-3f, -0x1.fffff8p-3f), f, 0x1.555554p-2f);
    y = fmaf(fmaf(a, f3, b), f3, c);
    r = fmaf(y, f3, e * -0x1.bd0106p-13f);
    /* XLA fuses the next two as well; both products are exact, so plain operations
       give the same bits and cost nothing without hardware fma */
    r = e * 0x1.63p-1f + ((f - f2 * 0.5f) + r);
    rb = tpi_sel_u32(u > 0.0f, tpi_bits_f32(r), 0xffffffffu);
    rb = tpi_sel_u32(u == INFINITY, 0x7f800000u, rb);
    rb = tpi_sel_u32(u == 0.0f, 0xff800000u, rb);
    return tpi_float_f32(rb);
}

TP_INLINE TPI_AI float tp_xla_log_f32(float x)
{
    return tpi_xla_log_core_f32(tpi_flush_f32(x));
}

TP_INLINE TPI_AI float tp_xla_log1p_f32(float x)
{
    float xf = tpi_flush_f32(x);
    float z = xf * 0.0f; /* NaN for infinite x, as XLA's x * 0 + c */
    float q = z + 1.0f, n = z + 0x1.7bc096p-15f, ratio, x2, small;
    q = fmaf(q, xf, 0x1.e2035ap+3f);
    n = fmaf(n, xf, 0x1.fe818ap-2f);
    q = fmaf(q, xf, 0x1.4c30b6p+6f);
    n = fmaf(n, xf, 0x1.a509f4p+2f);
    q = fmaf(q, xf, 0x1.bb865ap+7f);
    n = fmaf(n, xf, 0x1.de9738p+4f);
    q = fmaf(q, xf, 0x1.351946p+8f);
    n = fmaf(n, xf, 0x1.e798ecp+5f);
    q = fmaf(q, xf, 0x1.b0db14p+7f);
    n = fmaf(n, xf, 0x1.c8e75ap+5f);
    q = fmaf(q, xf, 0x1.e0f304p+5f);
    n = fmaf(n, xf, 0x1.40a202p+4f);
    ratio = n / q;
    x2 = xf * xf;
    small = xf + fmaf(x2, -0.5f, (xf * x2) * ratio);
    /* 1 + x is never subnormal once x is flushed */
    return tpi_sel_f32(fabsf(xf) < 0x1.a8279ap-2f, small, tpi_xla_log_core_f32(xf + 1.0f));
}

TP_INLINE TPI_AI float tp_xla_erf_inv_f32(float x)
{
    float xf = tpi_flush_f32(x);
    float lp = tp_xla_log1p_f32(tpi_flush_f32(xf * -xf));
    int cen = lp > -5.0f;
    float t = tpi_sel_f32(cen, -2.5f - lp, sqrtf(-lp) - 3.0f);
    float p = tpi_sel_f32(cen, 0x1.e2cb1p-26f, -0x1.a3e136p-13f), y, r;
    p = fmaf(p, t, tpi_sel_f32(cen, 0x1.70966cp-22f, 0x1.a76ad6p-14f));
    p = fmaf(p, t, tpi_sel_f32(cen, -0x1.d8e6aep-19f, 0x1.61b8e4p-10f));
    p = fmaf(p, t, tpi_sel_f32(cen, -0x1.26b582p-18f, -0x1.e17bcep-9f));
    p = fmaf(p, t, tpi_sel_f32(cen, 0x1.ca65b6p-13f, 0x1.7824f6p-8f));
    p = fmaf(p, t, tpi_sel_f32(cen, -0x1.48a81p-10f, -0x1.f38baep-8f));
    p = fmaf(p, t, tpi_sel_f32(cen, -0x1.11c9dep-8f, 0x1.354afcp-7f));
    p = fmaf(p, t, tpi_sel_f32(cen, 0x1.f91ec6p-3f, 0x1.006db6p+0f));
    p = fmaf(p, t, tpi_sel_f32(cen, 0x1.805c5ep+0f, 0x1.6a9efcp+1f));
    p = tpi_sel_f32(fabsf(xf) == 1.0f, INFINITY, p);
    y = xf * p;
    /* FTZ on x86 flushes a product whose exact value lies below 2^-126 even when it
       rounds up to 2^-126 (tininess before rounding): |x| = 0x1.20dd76p-126 does it.
       Without FTZ the sign of the exact residual |x p| - |y| tells (it underflows to
       -0 when negative, and is +0 when exactly 0). */
    r = fmaf(fabsf(xf), fabsf(p), -fabsf(y));
    y = tpi_sel_f32((fabsf(y) == 0x1p-126f) & (int)(tpi_bits_f32(r) >> 31), 0.0f * y, y);
    y = tpi_flush_f32(y);
    /* a NaN operand comes back quieted, whichever operand order the product got */
    return tpi_sel_f32(xf != xf, xf + xf, y);
}

/* A NaN quieted, its sign and payload kept, whatever the compiler does with the
   arithmetic around it (C leaves the sign of a NaN result open). */
TP_INLINE TPI_AI float tpi_quiet_f32(float x)
{
    return tpi_float_f32(tpi_bits_f32(x) | 0x00400000u);
}

/* XLA's float32 exp (its MLIR polynomial expansion, every step a fused multiply-add):
   x clamped to [-87.8, 88.8]; n = floor(x log2(e) + 1/2) clamped to [-127, 127];
   r = x - n ln2 with ln2 = 0.693359375 - 2.1219444e-4; e^r = 1 + r + r^2 P(r), P the
   degree-5 Cephes expf polynomial (Horner); the result is e^r 2^n, 2^n built from the
   exponent bits (0 for n = -127). A NaN operand comes back quieted, its payload kept.
   Matches jax.jit(jnp.exp) on all 2^32 float32 inputs.
   Subnormals: a subnormal x gives 1 with or without DAZ; a result below 2^-126 is
   flushed, and so is n = -126 with e^r < 1, whose product FTZ flushes even where it
   rounds up to 2^-126 (tininess before rounding). */
TP_INLINE TPI_AI float tp_xla_exp_f32(float x)
{
    /* a NaN x reads as -87.8 (no NaN reaches the integer conversion; x is returned) */
    float c = tpi_sel_f32(x > -87.8f, tpi_sel_f32(x < 88.8f, x, 88.8f), -87.8f);
    float t = fmaf(c, 0x1.715476p+0f, 0.5f), n, r, z, y;
    /* floor(t) by truncation, |t| < 129: vectorizes without SSE4.1 or -fno-trapping-math */
    int32_t k = (int32_t)t;
    k -= (float)k > t;
    k = k < -127 ? -127 : k > 127 ? 127 : k;
    n = (float)k;
    r = fmaf(-0x1.63p-1f, n, c);
    r = fmaf(0x1.bd0106p-13f, n, r);
    z = fmaf(r, 0x1.a0d2cep-13f, 0x1.6e879cp-10f);
    z = fmaf(z, r, 0x1.11121p-7f);
    z = fmaf(z, r, 0x1.555382p-5f);
    z = fmaf(z, r, 0x1.555554p-3f);
    z = fmaf(z, r, 0x1p-1f);
    z = fmaf(z, r * r, r);
    z = 1.0f + z;
    /* (k + 127) << 23 is 2^k, and 0 (so the product 0) for k = -127 */
    y = z * tpi_float_f32((uint32_t)(k + 127) << 23);
    /* the only other products below 2^-126 (e^r > 0.7 once k > -127) */
    y = tpi_sel_f32((k < -125) & (z < 1.0f), 0.0f, y);
    return tpi_sel_f32(x != x, tpi_quiet_f32(x), y);
}

/* XLA's float32 tanh (Eigen's rational approximation, its Horner steps fused): x clamped
   to +-7.998811721801758 (where the approximation reaches 1 exactly);
   tanh x = x N(x^2) / D(x^2), N of degree 6 and D of degree 3 in x^2; |x| < 0.0004 gives
   x itself (a subnormal x too, unflushed, as XLA's select returns it), |x| >= 20 gives
   +-1; a NaN comes back quieted. Matches jax.jit(jnp.tanh) on all 2^32 float32 inputs. */
TP_INLINE TPI_AI float tp_xla_tanh_f32(float x)
{
    float ax = fabsf(x), r;
    float c = tpi_sel_f32(x < -0x1.ffec88p+2f, -0x1.ffec88p+2f, x);
    float x2, n = -0x1.3e4b8p-52f, d = 0x1.41a7bp-20f;
    c = tpi_sel_f32(c > 0x1.ffec88p+2f, 0x1.ffec88p+2f, c); /* NaN stays */
    x2 = c * c;
    n = fmaf(x2, n, 0x1.c266fcp-43f);
    n = fmaf(x2, n, -0x1.7a6ffep-34f);
    n = fmaf(x2, n, 0x1.b80082p-25f);
    n = fmaf(x2, n, 0x1.f28694p-17f);
    n = fmaf(x2, n, 0x1.4e1bdap-11f);
    n = fmaf(x2, n, 0x1.40b3b8p-8f);
    d = fmaf(x2, d, 0x1.f12bacp-14f);
    d = fmaf(x2, d, 0x1.29540ap-9f);
    d = fmaf(x2, d, 0x1.40b3bap-8f);
    r = (c * n) / d;
    r = tpi_sel_f32(ax < 0x1.a36e2ep-12f, x, r);
    r = tpi_sel_f32(ax >= 20.0f, copysignf(1.0f, x), r);
    return tpi_sel_f32(x != x, tpi_quiet_f32(x), r);
}

/* XLA's float32 logistic: 1 / (1 + exp(-x)) with its exp. A quotient below 2^-126 (that
   is, 1 + exp(-x) > 2^126) is flushed, also where it would round up to 2^-126, as FTZ
   flushes it (tininess before rounding); a NaN comes back quieted with its sign flipped.
   Matches jax.jit(jax.nn.sigmoid) on all 2^32 float32 inputs. */
TP_INLINE TPI_AI float tp_xla_logistic_f32(float x)
{
    float d = 1.0f + tp_xla_exp_f32(-x);
    float y = tpi_sel_f32(d > 0x1p126f, 0.0f, 1.0f / d);
    /* NaN: XLA's -x flips the sign; set here, as gcc may fold 1 + -(x + x) into
       1 - (x + x), whose NaN keeps x's sign */
    return tpi_sel_f32(x != x, tpi_quiet_f32(-x), y);
}

/* ------------------------------------------------------------------------------------
 * float64: tp_xla_log_f64, tp_xla_log1p_f64, tp_xla_erf_inv_f64.
 *
 * XLA:CPU computes float64 log by calling the C library's log on each element (glibc's
 * here), so these are bit-exact with JAX when linked against the same libm. log1p and
 * erf_inv are expanded like the float32 ones, with double coefficients:
 *   log1p:   |x| < sqrt(2) - 1: x - x^2/2 + x^3 N(x)/D(x), the float32 rational
 *            function's coefficients in double; otherwise log(1 + x) (libm).
 *   erf_inv: w = -log1p(-x^2); w < 6.25: t = w - 3.125, degree-22 polynomial;
 *            w < 16: t = sqrt(w) - 3.25, degree 18; else t = sqrt(w) - 5, degree 16
 *            (Giles' double precision coefficients); x p(t); |x| = 1 gives x * inf.
 * Every Horner step is a fused multiply-add in XLA's machine code (fma() here). The
 * libm call keeps loops calling these scalar (no vector variant of log has the bits).
 * Subnormals: operands are flushed; log1p's intermediates cannot be subnormal where
 * they matter (for |x| < 2^-55 the result is x either way); erf_inv's product is
 * flushed as FTZ flushes it (tininess before rounding). */

/* XLA's float64 log: libm's log of the DAZ-flushed operand, except that a negative
   operand (-inf included) gives the positive quiet NaN where glibc's is negative. */
TP_INLINE TPI_AI double tpi_xla_log_core_f64(double u)
{
    return tpi_sel_f64(u < 0.0, tpi_float_f64(UINT64_C(0x7ff8000000000000)), log(u));
}

TP_INLINE TPI_AI double tp_xla_log_f64(double x)
{
    return tpi_xla_log_core_f64(tpi_flush_f64(x));
}

TP_INLINE TPI_AI double tp_xla_log1p_f64(double x)
{
    double xf = tpi_flush_f64(x);
    double z, q, n, x2;
    if (!(fabs(xf) < 0x1.a827999fcef32p-2))
        return tpi_xla_log_core_f64(xf + 1.0); /* NaN too; 1 + x is never subnormal */
    z = xf * 0.0;
    q = z + 1.0;
    n = z + 0x1.7bc0962b395cap-15;
    q = fma(q, xf, 0x1.e20359e903e37p+3);
    n = fma(n, xf, 0x1.fe818a0fe1a83p-2);
    q = fma(q, xf, 0x1.4c30b52213498p+6);
    n = fma(n, xf, 0x1.a509f46f4fa53p+2);
    q = fma(q, xf, 0x1.bb86590fcfb56p+7);
    n = fma(n, xf, 0x1.de9738b8cb9c9p+4);
    q = fma(q, xf, 0x1.351945dc908a5p+8);
    n = fma(n, xf, 0x1.e798eb86c3351p+5);
    q = fma(q, xf, 0x1.b0db13e48e066p+7);
    n = fma(n, xf, 0x1.c8e7597479a10p+5);
    q = fma(q, xf, 0x1.e0f304466448ep+5);
    n = fma(n, xf, 0x1.40a202d99830ap+4);
    x2 = xf * xf;
    return xf + fma(x2, -0.5, (xf * x2) * (n / q));
}

/* Giles' three polynomials (w < 6.25, w < 16, else), highest degree first, the
   shorter two with leading zeros: fma(0, t, 0) = 0 and fma(0, t, c) = c for finite t,
   so one 22-step chain gives each branch's bits without branching on it. */
TP_TABLE double tpi_xla_erfinv_f64[3][23] = {
    {
      -0x1.135d2e746e627p-68, -0x1.8ddf93324d327p-63, 0x1.7b83eef0b7c9fp-60,
      0x1.9ba72cd589b91p-57, -0x1.33689090a6b96p-53, 0x1.82e11898132e0p-56,
      0x1.de4acfd9e26bap-48, -0x1.6d33eed66c487p-45, -0x1.6f2167040d8e2p-44,
      0x1.72a22c2d77e20p-39, -0x1.c8859c4e5c0afp-37, -0x1.dc583d118a561p-35,
      0x1.20f47ccf46b3cp-30, -0x1.1a9e38dc84d60p-28, -0x1.f36cd6d3d46a9p-26,
      0x1.c6b4f5d03b787p-22, -0x1.6e8a5434ae8a2p-20, -0x1.d1d1f7b8736f6p-17,
      0x1.879c2a212f024p-13, -0x1.845769484fca8p-11, -0x1.8b6c33114f909p-8,
      0x1.ebd80d9b13e28p-3, 0x1.a755e7c99ae86p+0},
    {
      0.0, 0.0, 0.0, 0.0, 0x1.3040f87dbd932p-29, 0x1.85cbe52878635p-24,
      -0x1.2777453dd3955p-22, 0x1.395abcd554c6cp-26, 0x1.936388a3790adp-20,
      -0x1.0d5db812b5083p-18, 0x1.8860cd5d652f6p-19, 0x1.a29a0cacdfb23p-17,
      -0x1.8cef1f80281f2p-15, 0x1.1e684d0b9188ap-14, 0x1.932cd54c8a222p-16,
      -0x1.7448a89ef8aa3p-12, 0x1.f3cc55ad40c25p-11, -0x1.ba924132f38b1p-10,
      0x1.468eeca533cf8p-9, -0x1.ebadabb891bbdp-9, 0x1.5ffcfe5b76afcp-8,
      0x1.0158a6d641d39p+0, 0x1.8abcc380d5a48p+1},
    {
      0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0x1.dcec3a7785389p-36, -0x1.18feec0e38727p-32,
      0x1.9e6bf2dda45e3p-30, -0x1.0468fb24e2f5fp-28, 0x1.05ac6a8fba182p-27,
      -0x1.0102e495fb9c0p-26, 0x1.f4c20e1334af8p-26, -0x1.22d220fdf9c3ep-24,
      0x1.ebc8bb824cb54p-23, -0x1.0a8d40ea372ccp-20, 0x1.2fbd29d093d2bp-18,
      -0x1.4a3497e1e0facp-16, 0x1.3ebf4eb00938fp-14, -0x1.c2f36a8fc5d53p-13,
      -0x1.22ea5df04047cp-13, 0x1.02a30d1fba0dcp+0, 0x1.3664ddd1ad7fbp+2}};

TP_INLINE TPI_AI double tp_xla_erf_inv_f64(double x)
{
    double xf = tpi_flush_f64(x);
    double lp = tp_xla_log1p_f64(tpi_flush_f64(xf * -xf));
    int k = (lp > -6.25) ? 0 : (lp > -16.0) ? 1 : 2; /* NaN lp: the last, as XLA's */
    const double *c = tpi_xla_erfinv_f64[k];
    double t = tpi_sel_f64(k == 0, -3.125 - lp, sqrt(-lp) - (k == 1 ? 3.25 : 5.0));
    double p = c[0], y, r;
    int j;
    for (j = 1; j < 23; j++)
        p = fma(p, t, c[j]); /* an infinite or NaN t only where the result is x * inf or NaN */
    p = fabs(xf) == 1.0 ? INFINITY : p;
    y = xf * p;
    /* FTZ flushes a product below 2^-1022 that rounds up to it (see the float32 one) */
    r = fma(fabs(xf), fabs(p), -fabs(y));
    y = (fabs(y) == 0x1p-1022 && (tpi_bits_f64(r) >> 63)) ? 0.0 * y : y;
    y = tpi_flush_f64(y);
    return xf != xf ? xf + xf : y;
}

#endif /* TP_XLA_MATH_H */

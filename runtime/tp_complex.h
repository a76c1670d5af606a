/* complex64/complex128 in generated C: C99 complex types (tp_c64, tp_c128: two floats
 * or doubles, NumPy's layout), with the operations written out where C99's library or
 * operators compute differently from XLA:CPU or from the NumPy rules of
 * transpile/lax/_complex_math.py:
 *   - mul is the textbook (ac - bd, ad + bc), no Annex G recovery of infinities (XLA's);
 *   - div is NumPy's scaled (Smith) division in the operands' precision;
 *   - complex64 functions compute in complex128 (glibc's cexp, clog...) and round once;
 *   - expm1/log1p/pow are NumPy's and XLA's formulas from real functions;
 *   - max/min order lexicographically (real part, then imaginary), NaN propagating.
 * Included by tp_codegen.h; in CUDA (and C++) the types are cuda::std::complex
 * (std::complex), with C99's function names defined over them. */
#ifndef TP_COMPLEX_H
#define TP_COMPLEX_H

#include <math.h>
#include <stdint.h>
#include "transpile_macros.h"

#ifndef __cplusplus
#include <complex.h>
/* Generated code and the other headers use I and complex as names. */
#undef I
#undef complex
#ifndef TP_COMPLEX_TYPES  /* also defined by exported headers */
#define TP_COMPLEX_TYPES
typedef float _Complex tp_c64;
typedef double _Complex tp_c128;
#endif
#else
/* CUDA (and C++): the same layout as cuda::std::complex / std::complex, and C99's names
 * of the operations the emitters write. */
#ifdef __CUDACC__
#include <cuda/std/complex>
namespace tpc = cuda::std;
#else
#include <complex>
namespace tpc = std;
#endif
typedef tpc::complex<float> tp_c64;
typedef tpc::complex<double> tp_c128;
TP_INLINE float crealf(tp_c64 z) { return z.real(); }
TP_INLINE float cimagf(tp_c64 z) { return z.imag(); }
TP_INLINE double creal(tp_c128 z) { return z.real(); }
TP_INLINE double cimag(tp_c128 z) { return z.imag(); }
TP_INLINE tp_c64 conjf(tp_c64 z) { return tp_c64(z.real(), -z.imag()); }
TP_INLINE tp_c128 conj(tp_c128 z) { return tp_c128(z.real(), -z.imag()); }
#define TPC_CXX(c99, fn) TP_INLINE tp_c128 c99(tp_c128 z) { return tpc::fn(z); }
TPC_CXX(cexp, exp) TPC_CXX(clog, log) TPC_CXX(csqrt, sqrt) TPC_CXX(csin, sin)
TPC_CXX(ccos, cos) TPC_CXX(ctan, tan) TPC_CXX(csinh, sinh) TPC_CXX(ccosh, cosh)
TPC_CXX(ctanh, tanh) TPC_CXX(casin, asin) TPC_CXX(cacos, acos) TPC_CXX(casinh, asinh)
TPC_CXX(cacosh, acosh) TPC_CXX(catanh, atanh)
#endif

/* A complex value from its parts (C99 guarantees the array-of-two layout). */
TP_INLINE tp_c64 tp_cmake_c64(float re, float im)
{ tp_c64 z; ((float *)&z)[0] = re; ((float *)&z)[1] = im; return z; }
TP_INLINE tp_c128 tp_cmake_c128(double re, double im)
{ tp_c128 z; ((double *)&z)[0] = re; ((double *)&z)[1] = im; return z; }

#define TPC_COMPLEX(sfx, T, R, RE, IM, FABS, HYPOT_OF)                                     \
TP_INLINE T tp_cmul_##sfx(T a, T b)                                                       \
{ R ar = RE(a), ai = IM(a), br = RE(b), bi = IM(b);                                       \
  return tp_cmake_##sfx(ar * br - ai * bi, ar * bi + ai * br); }                          \
TP_INLINE T tp_cdiv_##sfx(T a, T b)                                                       \
{ R ar = RE(a), ai = IM(a), br = RE(b), bi = IM(b);                                       \
  R abr = FABS(br), abi = FABS(bi);                                                       \
  if (abr >= abi) {                                                                       \
      if (abr == 0 && abi == 0) return tp_cmake_##sfx(ar / abr, ai / abi);                \
      R rat = bi / br, scl = (R)1.0 / (br + bi * rat);                                    \
      return tp_cmake_##sfx((ar + ai * rat) * scl, (ai - ar * rat) * scl);                \
  }                                                                                       \
  R rat = br / bi, scl = (R)1.0 / (bi + br * rat);                                        \
  return tp_cmake_##sfx((ar * rat + ai) * scl, (ai * rat - ar) * scl); }                  \
TP_INLINE R tp_cabs_##sfx(T a) { return (R)HYPOT_OF(a); }                                 \
TP_INLINE int tp_cisnan_##sfx(T a) { return RE(a) != RE(a) || IM(a) != IM(a); }           \
TP_INLINE int tp_cless_##sfx(T a, T b)                                                    \
{ return RE(a) < RE(b) || (RE(a) == RE(b) && IM(a) < IM(b)); }                            \
TP_INLINE T tp_cmax_##sfx(T a, T b)                                                       \
{ if (tp_cisnan_##sfx(a)) return a; if (tp_cisnan_##sfx(b)) return b;                     \
  return tp_cless_##sfx(a, b) ? b : a; }                                                  \
TP_INLINE T tp_cmin_##sfx(T a, T b)                                                       \
{ if (tp_cisnan_##sfx(a)) return a; if (tp_cisnan_##sfx(b)) return b;                     \
  return tp_cless_##sfx(b, a) ? b : a; }                                                  \
TP_INLINE T tp_select_##sfx(uint8_t w, T t, T f) { return w ? t : f; }

#define TPC_HYPOT_C64(a) hypot((double)crealf(a), (double)cimagf(a))
#define TPC_HYPOT_C128(a) hypot(creal(a), cimag(a))
TPC_COMPLEX(c64, tp_c64, float, crealf, cimagf, fabsf, TPC_HYPOT_C64)
TPC_COMPLEX(c128, tp_c128, double, creal, cimag, fabs, TPC_HYPOT_C128)

/* Functions of complex128 (the complex64 ones: the same, rounded once). A real operand
 * of an arithmetic step is written as the complex (r, +0), as NumPy converts it (C99's
 * mixed arithmetic would keep the other operand's signed zero). */
TP_INLINE tp_c128 tp_cexpm1_c128(tp_c128 x)
{ double a = sin(cimag(x) / 2);
  return tp_cmake_c128(expm1(creal(x)) * cos(cimag(x)) - 2 * a * a,
                       exp(creal(x)) * sin(cimag(x))); }
TP_INLINE tp_c128 tp_clog1p_c128(tp_c128 x)
{ double l = hypot(creal(x) + 1, cimag(x));
  return tp_cmake_c128(log(l), atan2(cimag(x), creal(x) + 1)); }
TP_INLINE tp_c128 tp_csign_c128(tp_c128 x)
{ double a = hypot(creal(x), cimag(x));
  if (a == 0) return tp_cmake_c128(0.0, 0.0);
  double scl = 1.0 / a;
  return tp_cmake_c128(creal(x) * scl, cimag(x) * scl); }
TP_INLINE tp_c128 tp_crsqrt_c128(tp_c128 x) { return tp_cdiv_c128(1.0, csqrt(x)); }
TP_INLINE tp_c128 tp_clogistic_c128(tp_c128 x)
{ tp_c128 e = cexp(-x);
  return tp_cdiv_c128(1.0, tp_cmake_c128(1.0 + creal(e), 0.0 + cimag(e))); }
TP_INLINE tp_c128 tp_cexp2_c128(tp_c128 x)
{ return cexp(tp_cmul_c128(x, tp_cmake_c128(0.6931471805599453, 0.0))); }
/* XLA's complex power: |x|^c e^(-d arg x) (cos q + i sin q), q = c arg x + d ln|x|;
 * x^0 = 1. */
TP_INLINE tp_c128 tp_cpow_c128(tp_c128 x, tp_c128 y)
{ double a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);
  if (c == 0 && d == 0) return tp_cmake_c128(1.0, 0.0);
  double aa_bb = a * a + b * b, arg = atan2(b, a);
  double coeff = pow(aa_bb, 0.5 * c) * exp(-d * arg);
  double q = c * arg + 0.5 * d * log(aa_bb);
  return tp_cmake_c128(coeff * cos(q), coeff * sin(q)); }

/* XLA's expansions: atan(z) = (i/2)(log(1 - iz) - log(1 + iz)) and
 * atan2(x, y) = -i log((y + ix) / sqrt(y^2 + x^2)). */
TP_INLINE tp_c128 tp_catan_c128(tp_c128 z)
{ tp_c128 iz = tp_cmul_c128(tp_cmake_c128(0.0, 1.0), z);
  tp_c128 a = tp_cmake_c128(1.0 - creal(iz), 0.0 - cimag(iz));
  tp_c128 b = tp_cmake_c128(1.0 + creal(iz), 0.0 + cimag(iz));
  return tp_cmul_c128(tp_cmake_c128(0.0, 0.5), clog(a) - clog(b)); }
TP_INLINE tp_c128 tp_catan2_c128(tp_c128 x, tp_c128 y)
{ tp_c128 num = y + tp_cmul_c128(tp_cmake_c128(0.0, 1.0), x);
  tp_c128 den = csqrt(tp_cmul_c128(y, y) + tp_cmul_c128(x, x));
  return tp_cmul_c128(tp_cmake_c128(0.0, -1.0), clog(tp_cdiv_c128(num, den))); }

#define TPC_WIDE_UNARY(name, f128)                                                        \
TP_INLINE tp_c64 tp_c##name##_c64(tp_c64 x) { return (tp_c64)f128((tp_c128)x); }
TPC_WIDE_UNARY(expm1, tp_cexpm1_c128)
TPC_WIDE_UNARY(log1p, tp_clog1p_c128)
TPC_WIDE_UNARY(sign, tp_csign_c128)
TPC_WIDE_UNARY(rsqrt, tp_crsqrt_c128)
TPC_WIDE_UNARY(logistic, tp_clogistic_c128)
TPC_WIDE_UNARY(exp2, tp_cexp2_c128)
TPC_WIDE_UNARY(atan, tp_catan_c128)
TP_INLINE tp_c64 tp_catan2_c64(tp_c64 x, tp_c64 y)
{ return (tp_c64)tp_catan2_c128((tp_c128)x, (tp_c128)y); }
TP_INLINE tp_c64 tp_cpow_c64(tp_c64 x, tp_c64 y)
{ return (tp_c64)tp_cpow_c128((tp_c128)x, (tp_c128)y); }

#endif /* TP_COMPLEX_H */

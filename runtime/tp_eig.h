/* The nonsymmetric eigenproblem of real matrices (f32, f64): kernels of hessenberg,
 * householder_product, schur and eig. Own implementation of the classic design (EISPACK
 * hqr2, LAPACK gehrd/orghr/dlahqr/dlanv2/dtrevc/dgeev), no LAPACK:
 *
 * hessenberg: gehd2's Householder reduction, the same steps as the NumPy rule of
 *   transpile/lax/linalg_schur.py (reflector j: alpha = h[j+1][j], ss = sum of squares
 *   below it, beta = -sign(alpha) sqrt(alpha^2 + ss), tau = (beta - alpha) / beta,
 *   v = x / (alpha - beta); applied from the right to all rows, then from the left).
 * householder_product: orgqr's backward accumulation of the reflectors.
 * schur: Hessenberg form, Z from its reflectors (orghr), then Francis double-shift QR
 *   iterations (bulge chasing with 3-element reflectors, deflation where a subdiagonal
 *   entry is negligible next to its diagonal neighbours, exceptional shifts after 10 and
 *   20 iterations, at most 30 per eigenvalue) applied to the whole matrix and to Z. Every
 *   deflated 2 x 2 block is put in dlanv2's standard form: upper triangular when its
 *   eigenvalues are real, otherwise equal diagonal entries and off-diagonal entries of
 *   opposite signs (eigenvalues a +- i sqrt(|b c|), the positive imaginary part first).
 * eig: the Schur form, then each eigenvector of the quasi-triangular T by complex back
 *   substitution (a 2 x 2 block solved by Cramer's rule, a vanishing pivot replaced by
 *   eps |T|), multiplied by Z and normalised as dgeev normalises: unit 2-norm, and for a
 *   complex eigenvalue the largest-magnitude component made real and positive. Left
 *   eigenvectors are the right ones of the reversed transpose of T (again
 *   quasi-triangular). The second eigenvalue of a conjugate pair takes the conjugated
 *   vectors.
 *
 * Complex matrices (c64, c128): tp_eig_complex.h, zgehrd/zungqr/zlahqr/ztrevc/zgeev's
 * design (see there), reusing tp_linalg_complex.h's reflector helper.
 *
 * A matrix with a NaN or an infinity, or whose iteration does not converge, gives NaN
 * outputs (JAX's result for a failed geev/gees). Nothing here allocates: the caller
 * passes the work space (tp_eig_work_* elements). C only: CUDA refuses these kernels. */
#ifndef TP_EIG_H
#define TP_EIG_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "transpile_macros.h"
#include "tp_complex.h"
#include "tp_linalg.h"

#define TP_EIG_R float
#define TP_EIG_C tp_c64
#define TP_EIG_SFX(name) name##_f32
#define TP_EIG_SQRT sqrtf
#define TP_EIG_ABS fabsf
#define TP_EIG_EPS FLT_EPSILON
#define TP_EIG_MIN FLT_MIN
#include "tp_eig_impl.h"
#undef TP_EIG_R
#undef TP_EIG_C
#undef TP_EIG_SFX
#undef TP_EIG_SQRT
#undef TP_EIG_ABS
#undef TP_EIG_EPS
#undef TP_EIG_MIN

#define TP_EIG_R double
#define TP_EIG_C tp_c128
#define TP_EIG_SFX(name) name##_f64
#define TP_EIG_SQRT sqrt
#define TP_EIG_ABS fabs
#define TP_EIG_EPS DBL_EPSILON
#define TP_EIG_MIN DBL_MIN
#include "tp_eig_impl.h"
#undef TP_EIG_R
#undef TP_EIG_C
#undef TP_EIG_SFX
#undef TP_EIG_SQRT
#undef TP_EIG_ABS
#undef TP_EIG_EPS
#undef TP_EIG_MIN

#define TP_EIGC_T tp_c64
#define TP_EIGC_R float
#define TP_EIGC_SFX(name) name##_c64
#define TP_EIGC_RE crealf
#define TP_EIGC_IM cimagf
#define TP_EIGC_CONJ conjf
#define TP_EIGC_SQRT sqrtf
#define TP_EIGC_ABS fabsf
#define TP_EIGC_EPS FLT_EPSILON
#define TP_EIGC_MIN FLT_MIN
#include "tp_eig_complex.h"  /* (it undefines the TP_EIGC_ parameters) */

#define TP_EIGC_T tp_c128
#define TP_EIGC_R double
#define TP_EIGC_SFX(name) name##_c128
#define TP_EIGC_RE creal
#define TP_EIGC_IM cimag
#define TP_EIGC_CONJ conj
#define TP_EIGC_SQRT sqrt
#define TP_EIGC_ABS fabs
#define TP_EIGC_EPS DBL_EPSILON
#define TP_EIGC_MIN DBL_MIN
#include "tp_eig_complex.h"  /* (it undefines the TP_EIGC_ parameters) */

#endif /* TP_EIG_H */

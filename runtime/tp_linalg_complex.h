/* Complex (complex64/complex128) versions of the linear-algebra helpers of tp_linalg.h,
 * the same recurrences with conjugates where a Hermitian product needs them, products
 * written out (tp_cmul_*: the textbook formula) and divisions by a complex value done
 * as NumPy does them (tp_cdiv_*), so that the NumPy rules of lax/linalg_base.py agree:
 *
 * cholesky: L[j][j] = sqrt(re(a[j][j]) - sum_k (re^2 + im^2) of L[j][k]) (real, as
 * potrf reads only the real part of the diagonal), L[i][j] = (a[i][j] -
 * sum_k L[i][k] conj(L[j][k])) / L[j][j], the division part by part. A non-positive
 * pivot fills the matrix with NaN + NaN i.
 *
 * triangular_solve: as the real one, U(i, k) conjugated when conjugate_a.
 *
 * lu: as the real one, the pivot being the first row of largest |re| + |im| (LAPACK's
 * izamax, which getrf uses: not the modulus).
 *
 * qr: as the real one (geqrf, then orgqr), with LAPACK's complex reflectors (larfg):
 * beta = -sign(re alpha) sqrt(|alpha|^2 + ss), tau = ((beta - re alpha) / beta,
 * -im alpha / beta), v = column / (alpha - beta); a column is reflected unless it is 0
 * below alpha and im alpha is 0, so that r's diagonal is real. |alpha|^2 + ss outside
 * [QR_TINY, max] (overflowed, or digits lost to underflow) is recomputed from the
 * column scaled by a power of two. geqrf applies H^H = I - conj(tau)
 * v v^H to the columns on the right, orgqr H = I - tau v v^H to build q.
 *
 * eigh: as the real kernel, with zhetrd's reflectors (larfg's, as qr's, on column k
 * below the diagonal, read as the conjugate of row k): y = tau B v, w = y - tau/2 (y^H v)
 * v, B -= v w^H + w v^H; the tridiagonal is then real (beta), and the real QL runs with
 * its rotations applied to the real and imaginary parts of Q^T's rows.
 *
 * svd: tp_svd_complex.h.
 *
 * Not compiled for CUDA: the CUDA backend refuses complex linear algebra. */
#ifndef TP_LINALG_COMPLEX_H
#define TP_LINALG_COMPLEX_H
#ifndef __CUDACC__

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "transpile_macros.h"
#include "tp_complex.h"

#define TP_DEFINE_CHOLESKY_C(SFX, T, R, RE, IM, SQRT, CONJ)                           \
    TP_INLINE int tp_cholesky_##SFX(const T *a, T *l, int64_t n)                       \
    {                                                                                  \
        int64_t i, j, k;                                                               \
        if (l != a) memcpy(l, a, (size_t)(n * n) * sizeof(T));                         \
        for (j = 0; j < n; j++) {                                                      \
            T *rj = l + j * n;                                                         \
            R d = RE(rj[j]);                                                           \
            for (k = 0; k < j; k++) {                                                  \
                R re = RE(rj[k]), im = IM(rj[k]);                                      \
                d = d - (re * re + im * im);                                           \
            }                                                                          \
            if (d <= 0) {                                                              \
                for (i = 0; i < n * n; i++) l[i] = tp_cmake_##SFX((R)NAN, (R)NAN);     \
                return 1;                                                              \
            }                                                                          \
            d = SQRT(d);                                                               \
            rj[j] = tp_cmake_##SFX(d, 0);                                              \
            for (i = j + 1; i < n; i++) {                                              \
                T *ri = l + i * n;                                                     \
                T s = ri[j];                                                           \
                for (k = 0; k < j; k++) s = s - tp_cmul_##SFX(ri[k], CONJ(rj[k]));     \
                ri[j] = tp_cmake_##SFX(RE(s) / d, IM(s) / d);                          \
            }                                                                          \
        }                                                                              \
        return 0;                                                                      \
    }

TP_DEFINE_CHOLESKY_C(c64, tp_c64, float, crealf, cimagf, sqrtf, conjf)
TP_DEFINE_CHOLESKY_C(c128, tp_c128, double, creal, cimag, sqrt, conj)

#define TP_DEFINE_TRIANGULAR_SOLVE_C(SFX, T, CONJ)                                    \
    /* As tp_triangular_solve_f32, a conjugated when conjugate_a. */                   \
    TP_INLINE void tp_triangular_solve_##SFX(const T *a, const T *b, T *x, int64_t m,  \
                                             int64_t n, int left, int lower,         \
                                             int transpose_a, int conjugate_a,       \
                                             int unit_diagonal)                      \
    {                                                                                  \
        int64_t size = left ? m : n, nsys = left ? n : m;                              \
        int64_t es = left ? n : 1, ss = left ? 1 : n;                                  \
        int flip = (transpose_a != 0) != (left == 0);                                  \
        int forward = (lower != 0) != flip;                                            \
        int64_t ai = flip ? 1 : size, ak = flip ? size : 1;                            \
        int64_t t, k, s;                                                               \
        if (x != b) memcpy(x, b, (size_t)(m * n) * sizeof(T));                         \
        for (t = 0; t < size; t++) {                                                   \
            int64_t i = forward ? t : size - 1 - t;                                    \
            int64_t k0 = forward ? 0 : i + 1, k1 = forward ? i : size;                 \
            T *xi = x + i * es;                                                        \
            for (k = k0; k < k1; k++) {                                                \
                T u = a[i * ai + k * ak];                                              \
                const T *xk = x + k * es;                                              \
                if (conjugate_a) u = CONJ(u);                                          \
                for (s = 0; s < nsys; s++)                                             \
                    xi[s * ss] = xi[s * ss] - tp_cmul_##SFX(u, xk[s * ss]);            \
            }                                                                          \
            if (!unit_diagonal) {                                                      \
                T d = a[i * ai + i * ak];                                              \
                if (conjugate_a) d = CONJ(d);                                          \
                for (s = 0; s < nsys; s++) xi[s * ss] = tp_cdiv_##SFX(xi[s * ss], d);  \
            }                                                                          \
        }                                                                              \
    }

TP_DEFINE_TRIANGULAR_SOLVE_C(c64, tp_c64, conjf)
TP_DEFINE_TRIANGULAR_SOLVE_C(c128, tp_c128, conj)

#define TP_DEFINE_LU_C(SFX, T, R, RE, IM, FABS)                                       \
    /* As tp_lu_f32, pivoting on |re| + |im|. */                                       \
    TP_INLINE void tp_lu_##SFX(const T *a, T *lu, int32_t *piv, int32_t *perm,        \
                               int64_t m, int64_t n)                                   \
    {                                                                                  \
        int64_t i, j, c, k = m < n ? m : n;                                            \
        if (lu != a) memcpy(lu, a, (size_t)(m * n) * sizeof(T));                       \
        for (i = 0; i < m; i++) perm[i] = (int32_t)i;                                  \
        for (j = 0; j < k; j++) {                                                      \
            int64_t p = j;                                                             \
            R best = FABS(RE(lu[j * n + j])) + FABS(IM(lu[j * n + j]));                \
            T *rj = lu + j * n;                                                        \
            T d;                                                                       \
            for (i = j + 1; i < m; i++) {                                              \
                R v = FABS(RE(lu[i * n + j])) + FABS(IM(lu[i * n + j]));               \
                if (v > best) { best = v; p = i; }                                     \
            }                                                                          \
            piv[j] = (int32_t)p;                                                       \
            if (p != j) {                                                              \
                T *rp = lu + p * n;                                                    \
                int32_t t = perm[j];                                                   \
                perm[j] = perm[p];                                                     \
                perm[p] = t;                                                           \
                for (c = 0; c < n; c++) { T s = rj[c]; rj[c] = rp[c]; rp[c] = s; }     \
            }                                                                          \
            d = rj[j];                                                                 \
            for (i = j + 1; i < m; i++) {                                              \
                T *ri = lu + i * n;                                                    \
                T l = ri[j];                                                           \
                if (RE(d) != 0 || IM(d) != 0) l = tp_cdiv_##SFX(l, d);                 \
                ri[j] = l;                                                             \
                for (c = j + 1; c < n; c++) ri[c] = ri[c] - tp_cmul_##SFX(l, rj[c]);   \
            }                                                                          \
        }                                                                              \
    }

TP_DEFINE_LU_C(c64, tp_c64, float, crealf, cimagf, fabsf)
TP_DEFINE_LU_C(c128, tp_c128, double, creal, cimag, fabs)

#define TP_DEFINE_QR_C(SFX, T, R, RE, IM, SQRT, CONJ, FABS, FREXP, LDEXP, QR_TINY,     \
                       QR_HUGE)                                                        \
    /* y -= t v (v^H y) on columns c0..c1 of y, rows j..m-1 (v: below row j of column  \
     * j of x, a leading 1). */                                                        \
    TP_INLINE void tp_qr_reflect_##SFX(const T *x, int64_t n, T t, T *y, int64_t ld,   \
                                       int64_t m, int64_t j, int64_t c0, int64_t c1,   \
                                       T *w)                                           \
    {                                                                                  \
        int64_t i, c;                                                                  \
        const T *yj = y + j * ld;                                                      \
        for (c = c0; c < c1; c++) w[c] = yj[c];                                        \
        for (i = j + 1; i < m; i++) {                                                  \
            const T v = CONJ(x[i * n + j]);                                            \
            const T *yi = y + i * ld;                                                  \
            for (c = c0; c < c1; c++) w[c] = w[c] + tp_cmul_##SFX(v, yi[c]);           \
        }                                                                              \
        for (c = c0; c < c1; c++) w[c] = tp_cmul_##SFX(t, w[c]);                       \
        for (c = c0; c < c1; c++) y[j * ld + c] = yj[c] - w[c];                        \
        for (i = j + 1; i < m; i++) {                                                  \
            const T v = x[i * n + j];                                                  \
            T *yi = y + i * ld;                                                        \
            for (c = c0; c < c1; c++) yi[c] = yi[c] - tp_cmul_##SFX(v, w[c]);          \
        }                                                                              \
    }                                                                                  \
    TP_INLINE void tp_qr_pivot_##SFX(T *x, int32_t *perm, int64_t m, int64_t n,        \
                                     int64_t j)                                        \
    {                                                                                  \
        int64_t i, c, p = j;                                                           \
        R best = 0;                                                                    \
        for (c = j; c < n; c++) {                                                      \
            R s = 0;                                                                   \
            for (i = j; i < m; i++) {                                                  \
                R re = RE(x[i * n + c]), im = IM(x[i * n + c]);                        \
                s = s + (re * re + im * im);                                           \
            }                                                                          \
            if (c == j || s > best) { best = s; p = c; }                               \
        }                                                                              \
        if (p != j) {                                                                  \
            int32_t t = perm[j]; perm[j] = perm[p]; perm[p] = t;                       \
            for (i = 0; i < m; i++) {                                                  \
                T v = x[i * n + j]; x[i * n + j] = x[i * n + p]; x[i * n + p] = v;     \
            }                                                                          \
        }                                                                              \
    }                                                                                  \
    /* Whether column j has a nonzero entry below row j (its sum of squares may have  \
     * underflowed to 0). */                                                           \
    TP_INLINE int tp_qr_nonzero_##SFX(const T *x, int64_t n, int64_t m, int64_t j)     \
    {                                                                                  \
        int64_t i;                                                                     \
        for (i = j + 1; i < m; i++)                                                    \
            if (RE(x[i * n + j]) != 0 || IM(x[i * n + j]) != 0) return 1;              \
        return 0;                                                                      \
    }                                                                                  \
    /* |column j from row j| from its sum of squares nrm2, unless nrm2 overflowed or   \
     * is small enough to have lost digits to underflow: then from the entries scaled \
     * by the power of two that brings the largest part near 1 (exact). */            \
    TP_INLINE R tp_qr_norm_##SFX(const T *x, int64_t n, int64_t m, int64_t j, R nrm2)  \
    {                                                                                  \
        R amax = 0, sc, s2 = 0, re, im;                                                \
        int64_t i;                                                                     \
        int ex = 0;                                                                    \
        if (nrm2 >= (R)QR_TINY && nrm2 <= (R)QR_HUGE) return SQRT(nrm2);               \
        for (i = j; i < m; i++) {                                                      \
            re = FABS(RE(x[i * n + j]));                                               \
            im = FABS(IM(x[i * n + j]));                                               \
            if (re > amax) amax = re;                                                  \
            if (im > amax) amax = im;                                                  \
        }                                                                              \
        if (!(amax > 0 && amax <= (R)QR_HUGE)) return SQRT(nrm2); /* NaN, inf */      \
        FREXP(amax, &ex);                                                              \
        sc = LDEXP((R)1, -ex);                                                         \
        for (i = j; i < m; i++) {                                                      \
            re = RE(x[i * n + j]) * sc;                                                \
            im = IM(x[i * n + j]) * sc;                                                \
            s2 = s2 + (re * re + im * im);                                             \
        }                                                                              \
        return SQRT(s2) * LDEXP((R)1, ex);                                             \
    }                                                                                  \
    /* As tp_qr_f32; geqrf's complex reflectors make r's diagonal real. */             \
    TP_INLINE void tp_qr_##SFX(const T *a, T *q, T *r, int64_t m, int64_t n, int full, \
                               T *work, int32_t *perm)                                 \
    {                                                                                  \
        int64_t i, j, c, k = m < n ? m : n;                                            \
        int64_t qc = full ? m : k, rr = full ? m : k;                                  \
        T *x = work, *tau = work + m * n, *w = tau + k;                                \
        memcpy(x, a, (size_t)(m * n) * sizeof(T));                                     \
        if (perm)                                                                      \
            for (c = 0; c < n; c++) perm[c] = (int32_t)c;                              \
        for (j = 0; j < k; j++) {                                                      \
            T alpha;                                                                   \
            R ss = 0, ar, ai;                                                          \
            if (perm) tp_qr_pivot_##SFX(x, perm, m, n, j);                             \
            alpha = x[j * n + j];                                                      \
            ar = RE(alpha);                                                            \
            ai = IM(alpha);                                                            \
            for (i = j + 1; i < m; i++) {                                              \
                R re = RE(x[i * n + j]), im = IM(x[i * n + j]);                        \
                ss = ss + (re * re + im * im);                                         \
            }                                                                          \
            tau[j] = tp_cmake_##SFX(0, 0);                                             \
            if (ss != 0 || ai != 0 || tp_qr_nonzero_##SFX(x, n, m, j)) {               \
                R beta = tp_qr_norm_##SFX(x, n, m, j, (ar * ar + ai * ai) + ss);       \
                T scale;                                                               \
                if (ar >= 0) beta = -beta;                                             \
                tau[j] = tp_cmake_##SFX((beta - ar) / beta, -ai / beta);               \
                scale = alpha - tp_cmake_##SFX(beta, 0);                               \
                for (i = j + 1; i < m; i++)                                            \
                    x[i * n + j] = tp_cdiv_##SFX(x[i * n + j], scale);                 \
                x[j * n + j] = tp_cmake_##SFX(beta, 0);                                \
            }                                                                          \
            tp_qr_reflect_##SFX(x, n, CONJ(tau[j]), x, n, m, j, j + 1, n, w);          \
        }                                                                              \
        for (i = 0; i < rr; i++)                                                       \
            for (c = 0; c < n; c++)                                                    \
                r[i * n + c] = c >= i ? x[i * n + c] : tp_cmake_##SFX(0, 0);           \
        for (i = 0; i < m; i++)                                                        \
            for (c = 0; c < qc; c++) q[i * qc + c] = tp_cmake_##SFX((R)(i == c), 0);   \
        for (j = k - 1; j >= 0; j--)                                                   \
            tp_qr_reflect_##SFX(x, n, tau[j], q, qc, m, j, j, qc, w);                  \
    }

/* QR_TINY: sums of squares below it are recomputed scaled (squares of parts below
 * 2^-63 (float) / 2^-511 (double) may be subnormal, and compiled code flushes those) */
TP_DEFINE_QR_C(c64, tp_c64, float, crealf, cimagf, sqrtf, conjf, fabsf, frexpf, ldexpf,
               0x1p-100f, FLT_MAX)
TP_DEFINE_QR_C(c128, tp_c128, double, creal, cimag, sqrt, conj, fabs, frexp, ldexp,
               0x1p-900, DBL_MAX)

#define TP_DEFINE_EIGH_C(SFX, T, R, RE, IM, SQRT, CONJ, RSFX)                         \
    /* tre[j], tim[j] = the textbook product c y[j] (y[j] conjugated when cj), the     \
     * parts in separate loops: gcc 12 vectorises a loop of whole complex products by  \
     * an invariant with different rounding (not IEEE's, even without contraction). */ \
    TP_INLINE void tp_eighc_prod_##SFX(T c, const T *y, int cj, R *tre, R *tim,        \
                                       int64_t m)                                      \
    {                                                                                  \
        const R cr = RE(c), ci = IM(c);                                                \
        int64_t j;                                                                     \
        for (j = 0; j < m; j++) {                                                      \
            R yr = RE(y[j]), yi = cj ? -IM(y[j]) : IM(y[j]);                           \
            tre[j] = cr * yr - ci * yi;                                                \
        }                                                                              \
        for (j = 0; j < m; j++) {                                                      \
            R yr = RE(y[j]), yi = cj ? -IM(y[j]) : IM(y[j]);                           \
            tim[j] = cr * yi + ci * yr;                                                \
        }                                                                              \
    }                                                                                  \
    /* y[j] += (or -=) the parts of tre, tim */                                        \
    TP_INLINE void tp_eighc_add_##SFX(T *y, const R *tre, const R *tim, int sub,       \
                                      int64_t m)                                       \
    {                                                                                  \
        int64_t j;                                                                     \
        for (j = 0; j < m; j++)                                                        \
            y[j] = sub ? tp_cmake_##SFX(RE(y[j]) - tre[j], IM(y[j]) - tim[j])          \
                       : tp_cmake_##SFX(RE(y[j]) + tre[j], IM(y[j]) + tim[j]);         \
    }                                                                                  \
    /* As tp_eigh_f32 on a Hermitian matrix (zhetrd's reflectors, then the real QL):  \
     * w (n) is real; work: 2 n n + 6 n elements. */                                  \
    TP_INLINE void tp_eigh_##SFX(const T *a, T *v, R *w, int64_t n, int lower, int sort, \
                                 T *work)                                              \
    {                                                                                  \
        T *x = work, *z = work + n * n, *taus = z + n * n, *p = taus + n;              \
        R *d = (R *)(p + n), *e = d + n, *idx = (R *)(p + 2 * n);                      \
        R *tre = idx + n, *tim = tre + 2 * n; /* 2 n each */                           \
        int64_t i, j, k, r;                                                            \
        R unscale;                                                                     \
        for (i = 0; i < n; i++)                                                        \
            for (j = 0; j < n; j++)                                                    \
                x[i * n + j] = (lower ? i >= j : i <= j) ? a[i * n + j]                \
                                                         : CONJ(a[j * n + i]);         \
        for (i = 0; i < n; i++) x[i * n + i] = tp_cmake_##SFX(RE(x[i * n + i]), 0);    \
        { /* scaled as the real kernel, by the largest part of an entry */             \
            R anrm = 0, scale;                                                         \
            for (i = 0; i < n * n; i++) {                                              \
                const R re = RE(x[i]), im = IM(x[i]);                                  \
                const R ar = re < 0 ? -re : re, ai = im < 0 ? -im : im;                \
                anrm = ar > anrm ? ar : anrm;                                          \
                anrm = ai > anrm ? ai : anrm;                                          \
            }                                                                          \
            scale = tp_eigh_scale_##RSFX(anrm, &unscale);                              \
            if (scale != 1)                                                            \
                for (i = 0; i < n * n; i++)                                            \
                    x[i] = tp_cmake_##SFX(RE(x[i]) * scale, IM(x[i]) * scale);         \
        }                                                                              \
        for (k = 0; k + 1 < n; k++) {                                                  \
            T *hv = x + k * n + k + 1, *b0 = hv + n, alpha, tau, scale, yv, kk;        \
            int64_t m = n - k - 1;                                                     \
            R ss = 0, ar, ai, beta;                                                    \
            d[k] = RE(x[k * n + k]);                                                   \
            taus[k] = tp_cmake_##SFX(0, 0);                                            \
            alpha = CONJ(hv[0]); /* column k below the diagonal: the row's conjugate */ \
            ar = RE(alpha);                                                            \
            ai = IM(alpha);                                                            \
            for (i = 1; i < m; i++) {                                                  \
                R re = RE(hv[i]), im = IM(hv[i]);                                      \
                ss = ss + (re * re + im * im);                                         \
            }                                                                          \
            if (ss == 0 && ai == 0) {                                                  \
                e[k] = ar;                                                             \
                continue;                                                              \
            }                                                                          \
            beta = SQRT((ar * ar + ai * ai) + ss);                                     \
            if (ar >= 0) beta = -beta;                                                 \
            tau = tp_cmake_##SFX((beta - ar) / beta, -ai / beta);                      \
            scale = alpha - tp_cmake_##SFX(beta, 0);                                   \
            hv[0] = tp_cmake_##SFX(1, 0);                                              \
            for (i = 1; i < m; i++) hv[i] = tp_cdiv_##SFX(CONJ(hv[i]), scale);         \
            e[k] = beta;                                                               \
            taus[k] = tau;                                                             \
            /* y = tau B v = tau conj(v^H B) (B Hermitian; its rows combined in order) */ \
            for (j = 0; j < m; j++) p[j] = b0[j];                                      \
            for (i = 1; i < m; i++) {                                                  \
                tp_eighc_prod_##SFX(CONJ(hv[i]), b0 + i * n, 0, tre, tim, m);          \
                tp_eighc_add_##SFX(p, tre, tim, 0, m);                                 \
            }                                                                          \
            for (j = 0; j < m; j++) p[j] = CONJ(p[j]);                                 \
            tp_eighc_prod_##SFX(tau, p, 0, tre, tim, m);                               \
            for (j = 0; j < m; j++) p[j] = tp_cmake_##SFX(tre[j], tim[j]);             \
            /* w = y - tau/2 (y^H v) v; B -= v w^H + w v^H (exactly Hermitian) */      \
            yv = CONJ(p[0]);                                                           \
            for (i = 1; i < m; i++) yv = yv + tp_cmul_##SFX(CONJ(p[i]), hv[i]);        \
            kk = tp_cmul_##SFX(tau, yv);                                               \
            kk = tp_cmake_##SFX((R)-0.5 * RE(kk), (R)-0.5 * IM(kk));                   \
            tp_eighc_prod_##SFX(kk, hv, 0, tre, tim, m);                               \
            tp_eighc_add_##SFX(p, tre, tim, 0, m);                                     \
            for (i = 0; i < m; i++) { /* the sum of both products, then subtracted */  \
                T *bi = b0 + i * n;                                                    \
                tp_eighc_prod_##SFX(hv[i], p, 1, tre, tim, m);                         \
                tp_eighc_prod_##SFX(p[i], hv, 1, tre + m, tim + m, m);                 \
                for (j = 0; j < m; j++) {                                              \
                    R sr = tre[j] + tre[m + j], si = tim[j] + tim[m + j];              \
                    bi[j] = tp_cmake_##SFX(RE(bi[j]) - sr, IM(bi[j]) - si);            \
                }                                                                      \
            }                                                                          \
        }                                                                              \
        if (n >= 1) d[n - 1] = RE(x[(n - 1) * n + n - 1]);                             \
        if (n >= 1) e[n - 1] = 0;                                                      \
        /* Q = H_0 H_1 ... (H = I - tau v v^H) by backward accumulation */             \
        for (i = 0; i < n; i++)                                                        \
            for (j = 0; j < n; j++) z[i * n + j] = tp_cmake_##SFX((R)(i == j), 0);     \
        for (k = n - 2; k >= 0; k--) {                                                 \
            const T *hv = x + k * n + k + 1, tau = taus[k];                            \
            T *z0 = z + (k + 1) * n + k + 1;                                           \
            int64_t m = n - k - 1;                                                     \
            if (RE(tau) == 0 && IM(tau) == 0) continue;                                \
            for (j = 0; j < m; j++) p[j] = z0[j];                                      \
            for (i = 1; i < m; i++) {                                                  \
                tp_eighc_prod_##SFX(CONJ(hv[i]), z0 + i * n, 0, tre, tim, m);          \
                tp_eighc_add_##SFX(p, tre, tim, 0, m);                                 \
            }                                                                          \
            tp_eighc_prod_##SFX(tau, p, 0, tre, tim, m);                               \
            for (j = 0; j < m; j++) p[j] = tp_cmake_##SFX(tre[j], tim[j]);             \
            for (i = 0; i < m; i++) {                                                  \
                tp_eighc_prod_##SFX(hv[i], p, 0, tre, tim, m);                         \
                tp_eighc_add_##SFX(z0 + i * n, tre, tim, 1, m);                        \
            }                                                                          \
        }                                                                              \
        /* z becomes Q^T: the real rotations combine contiguous rows, part by part */  \
        for (i = 0; i < n; i++)                                                        \
            for (j = i + 1; j < n; j++) {                                              \
                T t = z[i * n + j]; z[i * n + j] = z[j * n + i]; z[j * n + i] = t;     \
            }                                                                          \
        tp_eigh_ql_##RSFX(d, e, (R *)z, n, 2 * n);                                     \
        if (unscale != 1)                                                              \
            for (i = 0; i < n; i++) d[i] = d[i] * unscale;                             \
        for (i = 0; i < n; i++) idx[i] = (R)i;                                         \
        if (sort) TP_SORT_PAIRS(R, d, idx, n, >, i, j); /* stable, by value */         \
        for (i = 0; i < n; i++) {                                                      \
            const T *zi = z + (int64_t)idx[i] * n;                                     \
            w[i] = d[i];                                                               \
            for (r = 0; r < n; r++) v[r * n + i] = zi[r];                              \
        }                                                                              \
    }

TP_DEFINE_EIGH_C(c64, tp_c64, float, crealf, cimagf, sqrtf, conjf, f32)
TP_DEFINE_EIGH_C(c128, tp_c128, double, creal, cimag, sqrt, conj, f64)

#include "tp_svd_complex.h"

#endif /* __CUDACC__ */
#endif /* TP_LINALG_COMPLEX_H */

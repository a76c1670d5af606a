/* Helpers of the top_k and cholesky kernels.
 *
 * top_k: every element becomes an unsigned 64-bit key whose order is the order top_k
 * ranks values in (JAX 0.10.2 on CPU): integers by value, floats by their total order
 * -NaN < -inf < ... < -0.0 < 0.0 < ... < inf < NaN. The k largest keys are then picked
 * largest first, equal keys in order of position (a stable order).
 *
 * cholesky: the lower factor of one row-major n x n matrix by the Cholesky-Crout
 * (left-looking) recurrence, in the matrix's own precision, one product and one
 * subtraction at a time (the NumPy rule of lax/linalg_base.py runs the same steps, so the
 * two agree bit for bit: generated code is built without FP contraction). As LAPACK's
 * potrf does, only the lower triangle is read, the upper triangle is left as it was, and
 * a non-positive pivot (not a NaN one) marks the matrix as not positive definite: the
 * whole matrix is then filled with NaN.
 *
 * triangular_solve: x = op(a)^-1 b or b op(a)^-1 for one row-major matrix b (m x n) and
 * one triangular a, by plain forward or back substitution (the layout is worked out as
 * lax/linalg_base.py's solve_layout does): every element is its right-hand side minus the
 * products with the elements already solved, one product and one subtraction at a time
 * in ascending order of those elements, then divided by the diagonal (unless unit).
 * The NumPy rule runs the same steps.
 *
 * lu: getrf's right-looking factorisation with partial pivoting of one row-major m x n
 * matrix: at step j the first row (from j down) of largest magnitude in column j is
 * swapped with row j (whole rows), the column below the pivot is divided by it (left
 * as it is when the pivot is zero), then the trailing block gets the rank-one update,
 * one product and one subtraction per element. The NumPy rule runs the same steps.
 *
 * qr: Householder QR of one row-major m x n matrix (geqrf, then orgqr's backward
 * accumulation of Q), in the matrix's precision. Step j: ss = sum of squares below the
 * diagonal of column j (top to bottom); when the column is 0 below the diagonal the
 * reflector is the identity (tau = 0, the column left as it is); otherwise
 * beta = -sign(alpha) sqrt(alpha^2 + ss), that norm recomputed from the column scaled by
 * a power of two when alpha^2 + ss is outside [QR_TINY, max] (overflowed, or digits lost
 * to underflow),
 * tau = (beta - alpha) / beta and v = column / (alpha - beta) below a leading 1. A
 * reflector is applied to columns c as w = x[j][c] + sum_i v_i x[i][c] (rows top to
 * bottom), t = tau w, x[j][c] -= t, x[i][c] -= v_i t: always, even when tau = 0, so
 * that the NumPy rule (lax/linalg_qr.py) runs the same operations and agrees bit for bit.
 * With a permutation to fill (column pivoting), each step first swaps in the remaining
 * column of largest sum of squares from row j down (recomputed, the first on ties).
 *
 * eigh: one row-major n x n symmetric matrix (its lower or upper triangle mirrored), in
 * its precision. Householder reduction to a tridiagonal (d, e), column k from 0 to n-3:
 * ss = sum of squares of x[k][k+2..] (in order); ss == 0: no reflector; otherwise
 * beta = -sign(alpha) sqrt(alpha^2 + ss), tau = (beta - alpha) / beta, v = x / (alpha -
 * beta) below a leading 1, p = tau B v (B's rows combined in order), K = tau/2 p.v,
 * q = p - K v, B -= v q^T + q v^T (exactly symmetric). Q = H_0 H_1 ... by backward
 * accumulation, transposed; then implicit QL with shifts (a split where |e_m| + (|d_m| +
 * |d_m+1|) == |d_m| + |d_m+1|; at most TP_EIGH_ITERS per eigenvalue; float64's hypot is
 * tp_eigh_hypot_f64), each rotation combining two contiguous rows of Q^T. Eigenvalues are then ordered ascending (stable)
 * with their vectors (columns of v). The NumPy rule (lax/linalg_eigh.py) runs the same
 * operations (sums in index order), so the two agree bit for bit.
 *
 * svd: tp_svd.h (Golub-Kahan bidiagonalisation, then implicit-shift QR).
 *
 * tridiagonal_solve: the Thomas algorithm on one system (m rows, k right-hand sides,
 * row-major b): forward elimination (c_i = du_i / den_i, den_i = d_i - dl_i c_{i-1}),
 * then back substitution, no pivoting. lax/linalg_tridiagonal.py runs the same steps.
 *
 * Nothing here allocates: the caller passes scratch space. */
#ifndef TP_LINALG_H
#define TP_LINALG_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "transpile_macros.h"
#include "tp_sort.h"
#include "tp_panels.h"

#define TP_KEY_SIGN ((uint64_t)1 << 63)

TP_INLINE uint64_t tp_topk_key_i64(int64_t x) { return (uint64_t)x ^ TP_KEY_SIGN; }
TP_INLINE uint64_t tp_topk_key_u64(uint64_t x) { return x; }

/* A float's bits as a signed integer, the magnitude bits flipped when negative. */
TP_INLINE uint64_t tp_topk_key_f16(uint16_t h)
{
    int16_t b = (int16_t)h;
    return tp_topk_key_i64(b < 0 ? (int16_t)(b ^ INT16_MAX) : b);
}

TP_INLINE uint64_t tp_topk_key_bf16(uint16_t h)
{
    int16_t b = (int16_t)h;
    return tp_topk_key_i64(b < 0 ? (int16_t)(b ^ INT16_MAX) : b);
}

TP_INLINE uint64_t tp_topk_key_f32(float x)
{
    int32_t b;
    memcpy(&b, &x, sizeof b);
    return tp_topk_key_i64(b < 0 ? (b ^ INT32_MAX) : b);
}

TP_INLINE uint64_t tp_topk_key_f64(double x)
{
    int64_t b;
    memcpy(&b, &x, sizeof b);
    return tp_topk_key_i64(b < 0 ? (b ^ INT64_MAX) : b);
}

TP_FUNCTION int tp_topk_greater(const void *ctx, int64_t i, int64_t j)
{
    const uint64_t *key = (const uint64_t *)ctx;
    return key[i] > key[j];
}

/* Write to idx[0..k) the positions of the k largest of key[0..n), largest first, equal
 * keys by position. idx and tmp hold n entries each. */
TP_INLINE void tp_top_k_order(const uint64_t *key, int64_t n, int64_t k, int64_t *idx,
                              int64_t *tmp)
{
    int64_t s;
    if (k <= 0) return;
    if (k <= 32) {
        /* A sorted window of the best k so far: a later key enters only when strictly
         * greater than the last one kept, after every kept key that is not smaller. */
        int64_t m = 0;
        for (s = 0; s < n; s++) {
            int64_t at;
            if (m == k && !(key[s] > key[idx[m - 1]])) continue;
            at = m < k ? m : k - 1;
            while (at > 0 && key[s] > key[idx[at - 1]]) {
                idx[at] = idx[at - 1];
                at--;
            }
            idx[at] = s;
            if (m < k) m++;
        }
        return;
    }
    for (s = 0; s < n; s++) idx[s] = s;
    tp_merge_sort(idx, tmp, n, tp_topk_greater, key);
}

#define TP_DEFINE_CHOLESKY(SFX, T, SQRT)                                              \
    /* The lower factor of a (n x n, row-major) into l; returns 0, or 1 (and NaNs) when \
     * a pivot is not positive. l may be a. */                                         \
    TP_INLINE int tp_cholesky_##SFX(const T *a, T *l, int64_t n)                       \
    {                                                                                  \
        int64_t i, j, k;                                                               \
        if (l != a) memcpy(l, a, (size_t)(n * n) * sizeof(T));                         \
        for (j = 0; j < n; j++) {                                                      \
            T *rj = l + j * n;                                                         \
            T d = rj[j];                                                               \
            for (k = 0; k < j; k++) d = d - rj[k] * rj[k];                             \
            if (d <= 0) {                                                              \
                for (i = 0; i < n * n; i++) l[i] = (T)NAN;                             \
                return 1;                                                              \
            }                                                                          \
            d = SQRT(d);                                                               \
            rj[j] = d;                                                                 \
            for (i = j + 1; i < n; i++) {                                              \
                T *ri = l + i * n;                                                     \
                T s = ri[j];                                                           \
                for (k = 0; k < j; k++) s = s - ri[k] * rj[k];                         \
                ri[j] = s / d;                                                         \
            }                                                                          \
        }                                                                              \
        return 0;                                                                      \
    }

TP_DEFINE_CHOLESKY(f32, float, sqrtf)
TP_DEFINE_CHOLESKY(f64, double, sqrt)

#define TP_DEFINE_TRIANGULAR_SOLVE(SFX, T)                                            \
    /* x (m x n) solving op(a) x = b (left) or x op(a) = b; x may be b. Each of the    \
     * nsys right-hand sides (columns when left, rows otherwise) has `size` elements   \
     * `es` apart, consecutive ones `ss` apart; U(i, k) = a[i * ai + k * ak]. */       \
    TP_INLINE void tp_triangular_solve_##SFX(const T *a, const T *b, T *x, int64_t m,  \
                                             int64_t n, int left, int lower,         \
                                             int transpose_a, int unit_diagonal)     \
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
                const T u = a[i * ai + k * ak];                                        \
                const T *xk = x + k * es;                                              \
                for (s = 0; s < nsys; s++) xi[s * ss] = xi[s * ss] - u * xk[s * ss];   \
            }                                                                          \
            if (!unit_diagonal) {                                                      \
                const T d = a[i * ai + i * ak];                                        \
                for (s = 0; s < nsys; s++) xi[s * ss] = xi[s * ss] / d;                \
            }                                                                          \
        }                                                                              \
    }

TP_DEFINE_TRIANGULAR_SOLVE(f32, float)
TP_DEFINE_TRIANGULAR_SOLVE(f64, double)

#define TP_DEFINE_LU(SFX, T, FABS)                                                    \
    /* The first row from r0 on whose column j has the largest magnitude (not NaN). */ \
    TP_INLINE int64_t tp_lu_pivot_##SFX(const T *lu, int64_t n, int64_t m, int64_t j,  \
                                        int64_t r0)                                    \
    {                                                                                  \
        int64_t i, p = r0;                                                             \
        T best = FABS(lu[r0 * n + j]);                                                 \
        for (i = r0 + 1; i < m; i++) {                                                 \
            T v = FABS(lu[i * n + j]);                                                 \
            if (v > best) { best = v; p = i; }                                         \
        }                                                                              \
        return p;                                                                      \
    }                                                                                  \
    /* Pivot p of step j: piv[j] = p, rows j and p swapped whole, perm with them. */   \
    TP_INLINE void tp_lu_swap_##SFX(T *lu, int64_t n, int32_t *piv, int32_t *perm,     \
                                    int64_t j, int64_t p)                              \
    {                                                                                  \
        piv[j] = (int32_t)p;                                                           \
        if (p != j) {                                                                  \
            T *rj = lu + j * n, *rp = lu + p * n;                                      \
            int64_t c;                                                                 \
            int32_t t = perm[j];                                                       \
            perm[j] = perm[p];                                                         \
            perm[p] = t;                                                               \
            for (c = 0; c < n; c++) { T s = rj[c]; rj[c] = rp[c]; rp[c] = s; }         \
        }                                                                              \
    }                                                                                  \
    /* lu (m x n, may be a), piv (min(m, n)), perm (m). Steps j and j + 1 share one    \
     * pass over the trailing rows: step j's column j + 1 is worked out first (the same \
     * operations as in the full update) to find step j + 1's pivot, whose row swap    \
     * moves rows before step j reaches them (each row is updated on its own). */      \
    TP_INLINE void tp_lu_##SFX(const T *a, T *lu, int32_t *piv, int32_t *perm,         \
                               int64_t m, int64_t n)                                   \
    {                                                                                  \
        int64_t i, j, c, k = m < n ? m : n;                                            \
        if (lu != a) memcpy(lu, a, (size_t)(m * n) * sizeof(T));                       \
        for (i = 0; i < m; i++) perm[i] = (int32_t)i;                                  \
        for (j = 0; j < k; j++) {                                                      \
            T *rj = lu + j * n, *r1 = rj + n, d, d1, best;                             \
            int64_t p = tp_lu_pivot_##SFX(lu, n, m, j, j), p1;                         \
            tp_lu_swap_##SFX(lu, n, piv, perm, j, p);                                  \
            d = rj[j];                                                                 \
            if (j + 1 >= k) { /* the last step on its own */                           \
                for (i = j + 1; i < m; i++) {                                          \
                    T *ri = lu + i * n, l = ri[j];                                     \
                    if (d != 0) l = l / d;                                             \
                    ri[j] = l;                                                         \
                    for (c = j + 1; c < n; c++) ri[c] = ri[c] - l * rj[c];             \
                }                                                                      \
                continue;                                                              \
            }                                                                          \
            /* step j + 1's pivot: the first largest of step j's column j + 1 */       \
            p1 = j + 1;                                                                \
            best = 0;                                                                  \
            for (i = j + 1; i < m; i++) {                                              \
                const T *ri = lu + i * n;                                              \
                T l = ri[j], v;                                                        \
                if (d != 0) l = l / d;                                                 \
                v = FABS(ri[j + 1] - l * rj[j + 1]);                                   \
                if (i == j + 1) best = v;                                              \
                else if (v > best) { best = v; p1 = i; }                               \
            }                                                                          \
            tp_lu_swap_##SFX(lu, n, piv, perm, j + 1, p1);                             \
            {   /* step j on row j + 1 */                                              \
                T l = r1[j];                                                           \
                if (d != 0) l = l / d;                                                 \
                r1[j] = l;                                                             \
                for (c = j + 1; c < n; c++) r1[c] = r1[c] - l * rj[c];                 \
            }                                                                          \
            d1 = r1[j + 1];                                                            \
            for (i = j + 2; i < m; i++) {                                              \
                T *ri = lu + i * n, l = ri[j], l1;                                     \
                if (d != 0) l = l / d;                                                 \
                ri[j] = l;                                                             \
                l1 = ri[j + 1] - l * rj[j + 1];                                        \
                if (d1 != 0) l1 = l1 / d1;                                             \
                ri[j + 1] = l1;                                                        \
                for (c = j + 2; c < n; c++) ri[c] = (ri[c] - l * rj[c]) - l1 * r1[c];  \
            }                                                                          \
            j++;                                                                       \
        }                                                                              \
    }                                                                                  \

TP_DEFINE_LU(f32, float, fabsf)
TP_DEFINE_LU(f64, double, fabs)

#define TP_DEFINE_QR(SFX, T, SQRT, FABS, FREXP, LDEXP, QR_TINY, QR_HUGE)            \
    /* Reflector j (v below row j of column j of x, n columns) applied to columns      \
     * c0..c1 of y (ld columns), rows j..m-1. */                                       \
    TP_INLINE void tp_qr_reflect_##SFX(const T *x, int64_t n, T tau, T *y, int64_t ld, \
                                       int64_t m, int64_t j, int64_t c0, int64_t c1,   \
                                       T *w)                                           \
    {                                                                                  \
        int64_t i, c;                                                                  \
        const T *yj = y + j * ld;                                                      \
        for (c = c0; c < c1; c++) w[c] = yj[c];                                        \
        for (i = j + 1; i < m; i++) {                                                  \
            const T v = x[i * n + j];                                                  \
            const T *yi = y + i * ld;                                                  \
            for (c = c0; c < c1; c++) w[c] = w[c] + v * yi[c];                         \
        }                                                                              \
        for (c = c0; c < c1; c++) w[c] = tau * w[c];                                   \
        for (c = c0; c < c1; c++) y[j * ld + c] = yj[c] - w[c];                        \
        for (i = j + 1; i < m; i++) {                                                  \
            const T v = x[i * n + j];                                                  \
            T *yi = y + i * ld;                                                        \
            for (c = c0; c < c1; c++) yi[c] = yi[c] - v * w[c];                        \
        }                                                                              \
    }                                                                                  \
    /* |column c from row r0| from its sum of squares nrm2, unless nrm2 overflowed or  \
     * is small enough to have lost digits to underflow: then from the entries scaled \
     * by the power of two that brings the largest near 1 (exact). */                 \
    TP_INLINE T tp_qr_norm_##SFX(const T *x, int64_t n, int64_t m, int64_t r0,         \
                                 int64_t c, T nrm2)                                    \
    {                                                                                  \
        T amax = 0, sc, s2 = 0, e;                                                     \
        int64_t i;                                                                     \
        int ex = 0;                                                                    \
        if (nrm2 >= (T)QR_TINY && nrm2 <= (T)QR_HUGE) return SQRT(nrm2);               \
        for (i = r0; i < m; i++) {                                                     \
            e = FABS(x[i * n + c]);                                                    \
            if (e > amax) amax = e;                                                    \
        }                                                                              \
        if (!(amax > 0 && amax <= (T)QR_HUGE)) return SQRT(nrm2); /* NaN, inf */      \
        FREXP(amax, &ex);                                                              \
        sc = LDEXP((T)1, -ex);                                                         \
        for (i = r0; i < m; i++) {                                                     \
            e = x[i * n + c] * sc;                                                     \
            s2 = s2 + e * e;                                                           \
        }                                                                              \
        return SQRT(s2) * LDEXP((T)1, ex);                                             \
    }                                                                                  \
    /* Whether column c has a nonzero entry from row r0. */                            \
    TP_INLINE int tp_qr_col_nonzero_##SFX(const T *x, int64_t n, int64_t m,            \
                                          int64_t r0, int64_t c)                       \
    {                                                                                  \
        int64_t i;                                                                     \
        for (i = r0; i < m; i++)                                                       \
            if (x[i * n + c] != 0) return 1;                                           \
        return 0;                                                                      \
    }                                                                                  \
    /* Column pivoting (geqp3's choice, norms recomputed): the first column c >= j     \
     * whose rows j.. have the largest sum of squares (top to bottom) swaps with j; if \
     * a sum overflowed or lost digits to underflow, the largest tp_qr_norm instead. */ \
    TP_INLINE void tp_qr_pivot_##SFX(T *x, int32_t *perm, int64_t m, int64_t n,        \
                                     int64_t j)                                        \
    {                                                                                  \
        int64_t i, c, p = j;                                                           \
        T best = 0;                                                                    \
        int redo = 0;                                                                  \
        for (c = j; c < n; c++) {                                                      \
            T s = 0;                                                                   \
            for (i = j; i < m; i++) s = s + x[i * n + c] * x[i * n + c];               \
            if (s != 0 ? !(s >= (T)QR_TINY && s <= (T)QR_HUGE)                         \
                       : tp_qr_col_nonzero_##SFX(x, n, m, j, c))                       \
                redo = 1;                                                              \
            if (c == j || s > best) { best = s; p = c; }                               \
        }                                                                              \
        for (c = j; redo && c < n; c++) {                                              \
            T s = 0, nv;                                                               \
            for (i = j; i < m; i++) s = s + x[i * n + c] * x[i * n + c];               \
            nv = tp_qr_norm_##SFX(x, n, m, j, c, s);                                   \
            if (c == j || nv > best) { best = nv; p = c; }                             \
        }                                                                              \
        if (p != j) {                                                                  \
            int32_t t = perm[j]; perm[j] = perm[p]; perm[p] = t;                       \
            for (i = 0; i < m; i++) {                                                  \
                T v = x[i * n + j]; x[i * n + j] = x[i * n + p]; x[i * n + p] = v;     \
            }                                                                          \
        }                                                                              \
    }                                                                                  \
    /* q: m x (full ? m : k), r: (full ? m : k) x n; work: m * n + k + max(m, n);      \
     * perm (n, or NULL: no pivoting): a[:, perm] == q r. */                           \
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
            if (perm) tp_qr_pivot_##SFX(x, perm, m, n, j);                             \
            T alpha = x[j * n + j], ss = 0;                                            \
            int go = 0;                                                                \
            for (i = j + 1; i < m; i++) ss = ss + x[i * n + j] * x[i * n + j];         \
            /* squares flushed to 0 (entries below 2^-63 / 2^-511) still reflect */    \
            go = tp_qr_col_nonzero_##SFX(x, n, m, j + 1, j);                          \
            tau[j] = 0;                                                                \
            if (go) {                                                                  \
                T beta = tp_qr_norm_##SFX(x, n, m, j, j, alpha * alpha + ss);          \
                T scale;                                                               \
                if (alpha >= 0) beta = -beta;                                          \
                tau[j] = (beta - alpha) / beta;                                        \
                scale = alpha - beta;                                                  \
                for (i = j + 1; i < m; i++) x[i * n + j] = x[i * n + j] / scale;       \
                x[j * n + j] = beta;                                                   \
            }                                                                          \
            tp_qr_reflect_##SFX(x, n, tau[j], x, n, m, j, j + 1, n, w);                \
        }                                                                              \
        for (i = 0; i < rr; i++)                                                       \
            for (c = 0; c < n; c++) r[i * n + c] = c >= i ? x[i * n + c] : (T)0;        \
        for (i = 0; i < m; i++)                                                        \
            for (c = 0; c < qc; c++) q[i * qc + c] = (T)(i == c);                      \
        for (j = k - 1; j >= 0; j--)                                                   \
            tp_qr_reflect_##SFX(x, n, tau[j], q, qc, m, j, j, qc, w);                  \
    }

/* QR_TINY: sums of squares below it are recomputed scaled (squares of entries below
 * 2^-63 (float) / 2^-511 (double) may be subnormal, and compiled code flushes those) */
TP_DEFINE_QR(f32, float, sqrtf, fabsf, frexpf, ldexpf, 0x1p-100f, FLT_MAX)
TP_DEFINE_QR(f64, double, sqrt, fabs, frexp, ldexp, 0x1p-900, DBL_MAX)

#define TP_EIGH_SWEEPS 100
/* QL iterations per eigenvalue before giving up on it */
#define TP_EIGH_ITERS 60

/* hypot for the float64 QL: libm's hypot takes ~60 ns, and the QL calls it once per
 * rotation (most of its time at n = 256). Where neither square can overflow and the
 * larger one is a normal number, sqrt(f^2 + g^2) (within an ulp of it); elsewhere libm.
 * float32 keeps hypotf (computed in double: already fast). */
TP_INLINE double tp_eigh_hypot_f64(double f, double g)
{
    double af = fabs(f), ag = fabs(g), mx = af > ag ? af : ag;
    return mx > 0x1p-450 && mx < 0x1p450 ? sqrt(f * f + g * g) : hypot(f, g);
}

/* Speed of eigh (n = 256 float64, one core of this machine: 9.1 ms -> 7.6 ms -> 6.2 ms
 * (session 12, 64-byte aligned scratch: 6.95 ms before)): the float64 QL's hypot above;
 * the QL applies its rotations to Q^T's rows two at a time (rows i, i + 1, i + 2 in one
 * pass: a load and a store fewer per element) as they come: recorded and applied later
 * by column panels they were slower (3.9 -> 4.5 ms: Q^T fits in L2, and the sweep's
 * latency-bound scalar work no longer overlaps them); Q^T is accumulated by
 * tp_panels.h's column panels (1.4 -> 0.65 ms), written transposed; the tridiagonal
 * reduction's rank-2 update of a row and the next step's product share one pass over
 * it. Every element goes through the same operations in the same order as one step at
 * a time (the NumPy rule's order). Threads were tried (the QL's rotations recorded,
 * then column chunks rotated on two threads): with other processes on the two cores
 * they made it two to four times slower. */

/* eigh's scaling of a matrix whose largest entry anrm lies outside [LO, HI] (LAPACK's
 * sqrt(safmin / eps) and its inverse: the reduction's squares would overflow or
 * underflow): the power of two to multiply the matrix by, 1 for none, and in *unscale
 * its inverse for the eigenvalues. The exponent is capped so that both are normal. The
 * NumPy rule's twin: lax/linalg_eigh.py's _scale. */
#define TP_DEFINE_EIGH_SCALE(SFX, T, LO, HI, CAP, MAXV, FREXP, LDEXP)                  \
    TP_INLINE T tp_eigh_scale_##SFX(T anrm, T *unscale)                                \
    {                                                                                  \
        int ex;                                                                        \
        *unscale = 1;                                                                  \
        if (!(anrm > 0 && anrm <= MAXV) || (anrm >= LO && anrm <= HI)) return 1;       \
        (void)FREXP(anrm, &ex);                                                        \
        ex = ex > CAP ? CAP : ex < -CAP ? -CAP : ex;                                   \
        *unscale = LDEXP((T)1, ex);                                                    \
        return LDEXP((T)1, -ex);                                                       \
    }
TP_DEFINE_EIGH_SCALE(f32, float, 0x1p-51f, 0x1p51f, 120, FLT_MAX, frexpf, ldexpf)
TP_DEFINE_EIGH_SCALE(f64, double, 0x1p-484, 0x1p484, 1000, DBL_MAX, frexp, ldexp)

#define TP_DEFINE_EIGH(SFX, T, SQRT, FABS, HYPOT)                        \
    /* The reflector of v (m >= 2 elements): ss = sum of squares of v[1..] (in         \
     * order); ss == 0: none (tau 0, v left as it is, *off = v[0]); otherwise          \
     * beta = -sign(v[0]) sqrt(v[0]^2 + ss), tau = (beta - v[0]) / beta,               \
     * v = v / (v[0] - beta) below a leading 1, *off = beta. Returns tau. */           \
    TP_INLINE T tp_eigh_reflector_##SFX(T *v, int64_t m, T *off)                       \
    {                                                                                  \
        T alpha = v[0], ss = v[1] * v[1], beta, tau, scale;                            \
        int64_t i;                                                                     \
        for (i = 2; i < m; i++) ss = ss + v[i] * v[i];                                 \
        if (ss == 0) {                                                                 \
            *off = alpha;                                                              \
            return 0;                                                                  \
        }                                                                              \
        beta = SQRT(alpha * alpha + ss);                                               \
        if (alpha >= 0) beta = -beta;                                                  \
        tau = (beta - alpha) / beta;                                                   \
        scale = 1 / (alpha - beta);                                                    \
        v[0] = 1;                                                                      \
        for (i = 1; i < m; i++) v[i] = v[i] * scale;                                   \
        *off = beta;                                                                   \
        return tau;                                                                    \
    }                                                                                  \
    /* p = v^T B for the m x w block B at b (rows n apart, v[0] taken as 1): B's rows  \
     * combined in order. */                                                           \
    TP_INLINE void tp_eigh_combine_##SFX(const T *b, int64_t n, const T *v, int64_t m, \
                                         int64_t w, T *p)                              \
    {                                                                                  \
        int64_t i, j;                                                                  \
        for (j = 0; j < w; j++) p[j] = b[j];                                           \
        for (i = 1; i < m; i++) {                                                      \
            const T *bi = b + i * n;                                                   \
            T vi = v[i];                                                               \
            for (j = 0; j < w; j++) p[j] = p[j] + vi * bi[j];                          \
        }                                                                              \
    }                                                                                  \
    /* Householder reduction of the full symmetric x (n x n) to the tridiagonal        \
     * (d, e): step k (k = 0 .. n-3) turns row k right of the diagonal into its        \
     * reflector v (taus[k]) and the trailing block B into B - (v q^T + q v^T), with   \
     * p = tau B v, K = tau/2 p.v, q = p - K v. Step k's update of B's row i and the   \
     * next step's product B' v' (its rows combined in order) share one pass over the  \
     * row: once the first row is updated the next reflector is known. p, pn: n        \
     * elements each. */                                                               \
    TP_INLINE void tp_eigh_tridiag_##SFX(T *x, int64_t n, T *d, T *e, T *taus, T *p,   \
                                         T *pn)                                        \
    {                                                                                  \
        int64_t k, i, j;                                                               \
        if (n >= 3) {                                                                  \
            taus[0] = tp_eigh_reflector_##SFX(x + 1, n - 1, &e[0]);                    \
            if (taus[0] != 0)                                                          \
                tp_eigh_combine_##SFX(x + n + 1, n, x + 1, n - 1, n - 1, p);           \
        }                                                                              \
        for (k = 0; k + 2 < n; k++) {                                                  \
            T *v = x + k * n + k + 1, *b0 = v + n, *vn = b0 + 1, *t;                   \
            T tau = taus[k], tn = 0, kk;                                               \
            int64_t m = n - k - 1;                                                     \
            int next = k + 3 < n;                                                      \
            if (tau == 0) { /* the block stays: the next product on its own */         \
                if (next) {                                                            \
                    tn = taus[k + 1] = tp_eigh_reflector_##SFX(vn, m - 1, &e[k + 1]);  \
                    if (tn != 0)                                                       \
                        tp_eigh_combine_##SFX(vn + n, n, vn, m - 1, m - 1, pn);        \
                }                                                                      \
                t = p; p = pn; pn = t;                                                 \
                continue;                                                              \
            }                                                                          \
            for (j = 0; j < m; j++) p[j] = tau * p[j];                                 \
            kk = p[0] * v[0];                                                          \
            for (i = 1; i < m; i++) kk = kk + p[i] * v[i];                             \
            kk = (T)0.5 * tau * kk;                                                    \
            for (j = 0; j < m; j++) p[j] = p[j] - kk * v[j];                           \
            for (i = 0; i < m; i++) {                                                  \
                T *bi = b0 + i * n, vi = v[i], qi = p[i];                              \
                for (j = 0; j < m; j++) bi[j] = bi[j] - (vi * p[j] + qi * v[j]);       \
                if (i == 0) {                                                          \
                    if (next)                                                          \
                        tn = taus[k + 1] =                                             \
                            tp_eigh_reflector_##SFX(vn, m - 1, &e[k + 1]);             \
                } else if (tn != 0) {                                                  \
                    const T *bj = bi + 1;                                              \
                    if (i == 1) {                                                      \
                        for (j = 0; j < m - 1; j++) pn[j] = bj[j];                     \
                    } else {                                                           \
                        T u = vn[i - 1];                                               \
                        for (j = 0; j < m - 1; j++) pn[j] = pn[j] + u * bj[j];         \
                    }                                                                  \
                }                                                                      \
            }                                                                          \
            t = p; p = pn; pn = t;                                                     \
        }                                                                              \
        for (k = 0; k < n; k++) d[k] = x[k * n + k];                                   \
        if (n >= 2) e[n - 2] = x[(n - 2) * n + n - 1];                                 \
        e[n - 1] = 0;                                                                  \
    }                                                                                  \
    /* Rotation (c, s) of rows i, i + 1 of z (rows of len): (z_i, z_i+1) becomes       \
     * (c z_i - s z_i+1, s z_i + c z_i+1); with pair, first the rotation (c0, s0) of   \
     * rows i + 1, i + 2, in the same pass (a load and a store of row i + 1 fewer). */ \
    TP_INLINE void tp_eigh_rotate_##SFX(T *z, int64_t len, int64_t i, T c, T s,        \
                                        int pair, T c0, T s0)                          \
    {                                                                                  \
        T *zi = z + i * len, *zj = zi + len, *zk = zj + len;                           \
        int64_t r;                                                                     \
        if (pair) {                                                                    \
            for (r = 0; r < len; r++) {                                                \
                T a = zi[r], b = zj[r], zr = zk[r], b1;                                \
                zk[r] = s0 * b + c0 * zr;                                              \
                b1 = c0 * b - s0 * zr;                                                 \
                zj[r] = s * a + c * b1;                                                \
                zi[r] = c * a - s * b1;                                                \
            }                                                                          \
        } else {                                                                       \
            for (r = 0; r < len; r++) {                                                \
                T zr = zj[r];                                                          \
                zj[r] = s * zi[r] + c * zr;                                            \
                zi[r] = c * zi[r] - s * zr;                                            \
            }                                                                          \
        }                                                                              \
    }                                                                                  \
    /* Implicit QL with shifts on the tridiagonal (d, e) in place (d becomes the       \
     * eigenvalues); each rotation combines rows i, i + 1 of z (n rows of len). A      \
     * sweep's rotations (rows m-1, m-2, ... down to l) are applied in pairs. */       \
    TP_INLINE void tp_eigh_ql_##SFX(T *d, T *e, T *z, int64_t n, int64_t len)          \
    {                                                                                  \
        int64_t i, l;                                                                  \
        for (l = 0; l < n; l++) {                                                      \
            int iter;                                                                  \
            for (iter = 0; iter < TP_EIGH_ITERS; iter++) {                             \
                int64_t m;                                                             \
                T g, rr, s, c, f, bb, pp, c0 = 0, s0 = 0;                              \
                int held = 0; /* rotation (c0, s0) of rows i + 1, i + 2 not applied */ \
                for (m = l; m + 1 < n; m++) {                                          \
                    T dd = FABS(d[m]) + FABS(d[m + 1]);                                \
                    if (FABS(e[m]) + dd == dd) break;                                  \
                }                                                                      \
                if (m == l) break;                                                     \
                g = (d[l + 1] - d[l]) / (2 * e[l]);                                    \
                rr = HYPOT(g, (T)1);                                                   \
                g = d[m] - d[l] + e[l] / (g + (g >= 0 ? rr : -rr));                    \
                s = 1; c = 1; pp = 0;                                                  \
                for (i = m - 1; i >= l; i--) {                                         \
                    f = s * e[i];                                                      \
                    bb = c * e[i];                                                     \
                    rr = HYPOT(f, g);                                                  \
                    e[i + 1] = rr;                                                     \
                    if (rr == 0) {                                                     \
                        d[i + 1] = d[i + 1] - pp;                                      \
                        e[m] = 0;                                                      \
                        break;                                                         \
                    }                                                                  \
                    s = f / rr;                                                        \
                    c = g / rr;                                                        \
                    g = d[i + 1] - pp;                                                 \
                    rr = (d[i] - g) * s + 2 * c * bb;                                  \
                    pp = s * rr;                                                       \
                    d[i + 1] = g + pp;                                                 \
                    g = c * rr - bb;                                                   \
                    if (held) {                                                        \
                        tp_eigh_rotate_##SFX(z, len, i, c, s, 1, c0, s0);              \
                        held = 0;                                                      \
                    } else {                                                           \
                        c0 = c; s0 = s; held = 1;                                      \
                        if (i == l) tp_eigh_rotate_##SFX(z, len, i, c, s, 0, c, s);    \
                    }                                                                  \
                }                                                                      \
                if (held && i >= l)                                                    \
                    tp_eigh_rotate_##SFX(z, len, i + 1, c0, s0, 0, c0, s0);            \
                if (i >= l) continue; /* stopped early on a zero rotation */           \
                d[l] = d[l] - pp;                                                      \
                e[l] = g;                                                              \
                e[m] = 0;                                                              \
            }                                                                          \
        }                                                                              \
    }                                                                                  \
    /* v (n x n, eigenvectors in columns), w (n); work: 2 n n + 5 n elements, then the \
     * accumulation's panels (lax/linalg_eigh.py's work_elements). */                  \
    TP_INLINE void tp_eigh_##SFX(const T *a, T *v, T *w, int64_t n, int lower, int sort,\
                                 T *work)                                              \
    {                                                                                  \
        T *x = work, *z = work + n * n, *d = z + n * n, *e = d + n, *taus = e + n;     \
        T *p = taus + n, *idx = p + n, *rw = idx + n;                                  \
        tp_hjob_##SFX job = {0};                                                       \
        int64_t i, j, r;                                                               \
        T anrm = 0, scale, unscale;                                                    \
        for (i = 0; i < n; i++)                                                        \
            for (j = 0; j < n; j++) {                                                  \
                const T xij = (lower ? i >= j : i <= j) ? a[i * n + j] : a[j * n + i]; \
                const T ax = FABS(xij);                                                \
                x[i * n + j] = xij;                                                    \
                anrm = ax > anrm ? ax : anrm;                                          \
            }                                                                          \
        /* a matrix whose largest entry is out of range is scaled by a power of two    \
         * first (exact), as LAPACK's syev does; the eigenvalues are scaled back */    \
        scale = tp_eigh_scale_##SFX(anrm, &unscale);                                   \
        if (scale != 1)                                                                \
            for (i = 0; i < n * n; i++) x[i] = x[i] * scale;                           \
        tp_eigh_tridiag_##SFX(x, n, d, e, taus, p, idx); /* idx: space until sorted */ \
        /* z = Q^T (Q = H_0 H_1 ... H_{n-3}): the rotations below then combine         \
         * contiguous rows */                                                          \
        job.rows = n; job.cols = n; job.dst = z; job.x = x; job.xld = n; job.vs = 1;   \
        job.off = 1; job.taus = taus; job.kmax = n - 3; job.tau_first = 1;             \
        tp_hacc_##SFX(&job, 1, rw);                                                    \
        tp_eigh_ql_##SFX(d, e, z, n, n);                                               \
        if (unscale != 1)                                                              \
            for (i = 0; i < n; i++) d[i] = d[i] * unscale;                             \
        for (i = 0; i < n; i++) idx[i] = (T)i;                                         \
        if (sort) TP_SORT_PAIRS(T, d, idx, n, >, i, j); /* stable, by value */         \
        for (i = 0; i < n; i++) {                                                      \
            const T *zi = z + (int64_t)idx[i] * n;                                     \
            w[i] = d[i];                                                               \
            for (r = 0; r < n; r++) v[r * n + i] = zi[r];                              \
        }                                                                              \
    }                                                                                  \

TP_DEFINE_EIGH(f32, float, sqrtf, fabsf, hypotf)
TP_DEFINE_EIGH(f64, double, sqrt, fabs, tp_eigh_hypot_f64)

#include "tp_svd.h" /* svd: bidiagonalisation + implicit QR */

#define TP_DEFINE_TRIDIAGONAL(SFX, T)                                                 \
    /* x (m x k) may be b; c: m elements of work. */                                    \
    TP_INLINE void tp_tridiagonal_solve_##SFX(const T *dl, const T *d, const T *du,    \
                                              const T *b, T *x, int64_t m, int64_t k, \
                                              T *c)                                    \
    {                                                                                  \
        int64_t i, s;                                                                  \
        if (x != b) memcpy(x, b, (size_t)(m * k) * sizeof(T));                         \
        for (i = 0; i < m; i++) {                                                      \
            T den;                                                                     \
            T *xi = x + i * k;                                                         \
            if (i == 0) {                                                              \
                den = d[0];                                                            \
                for (s = 0; s < k; s++) xi[s] = xi[s] / den;                           \
            } else {                                                                   \
                const T *xp = xi - k;                                                  \
                den = d[i] - dl[i] * c[i - 1];                                         \
                for (s = 0; s < k; s++) xi[s] = (xi[s] - dl[i] * xp[s]) / den;         \
            }                                                                          \
            c[i] = du[i] / den;                                                        \
        }                                                                              \
        for (i = m - 2; i >= 0; i--) {                                                 \
            T *xi = x + i * k;                                                         \
            const T *xn = xi + k;                                                      \
            for (s = 0; s < k; s++) xi[s] = xi[s] - c[i] * xn[s];                      \
        }                                                                              \
    }

TP_DEFINE_TRIDIAGONAL(f32, float)
TP_DEFINE_TRIDIAGONAL(f64, double)

#include "tp_linalg_complex.h"

#endif /* TP_LINALG_H */

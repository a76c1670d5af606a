/* svd of one real row-major m x n matrix (float32/float64), in its precision: Golub-Kahan
 * bidiagonalisation by Householder reflections, then implicit-shift QR on the bidiagonal
 * (LINPACK dsvdc's / JAMA's scheme: deflation at negligible off-diagonal entries,
 * splitting at negligible diagonal ones, the shift from the trailing 2x2 block).
 *
 * A wide matrix (m < n) is transposed first: with A^T = U' S V'^T, u = V' and vt = U'^T.
 * On the tall X (mm x nn):
 * - a non-finite entry makes every output NaN; an X whose largest magnitude is outside
 *   [2^-SMALL_EXP, 2^BIG_EXP] is first scaled by a power of two (exactly), s unscaled last;
 * - step k: the left reflector of column k (rows k..), then, for k + 2 < nn, the right
 *   reflector of row k (columns k + 1..). A reflector of x[0..len): ss = sum of squares
 *   of x[1..] (in order); ss == 0: none (tau = 0, the entry stays); otherwise beta =
 *   -sign(alpha) sqrt(alpha^2 + ss), tau = (beta - alpha) / beta, x[1..] *= 1 / (alpha -
 *   beta), x[0] = 1. Applied from the left: w = sum_i v_i y_i (rows in order), w *= tau,
 *   y_i -= v_i w; from the right: s_i = sum_j y_ij v_j (in order), s_i *= tau,
 *   y_ij -= s_i v_j;
 * - U (mm x uc) and V (nn x nn) by backward accumulation (left application), by column
 *   panels (tp_panels.h: 3.15 -> 1.2 ms at n = 256 float64), written transposed so that
 *   each QR rotation combines two contiguous rows;
 * - QR sweeps (tp_svd_bdsqr_*), with at most TP_SVD_ITERS per singular value (then the
 *   bottom one is accepted as it is); a negative singular value flips its row of V^T;
 * - singular values descending (stable), vectors in that order.
 * All sums run in index order; the NumPy rule (lax/linalg_svd_real.py) runs the same
 * operations, so the two agree bit for bit. */
#ifndef TP_SVD_H
#define TP_SVD_H

#include "tp_panels.h"

#define TP_SVD_ITERS 75

#define TP_DEFINE_SVD(SFX, T, SQRT, FABS, HYPOT, FREXP, LDEXP, EPS, TINY, BIG_EXP,     \
                      SAFE)                                                            \
    /* The reflector of x[0], x[stride], ... (len entries): returns beta (or x[0]). */ \
    TP_INLINE T tp_svd_house_##SFX(T *x, int64_t stride, int64_t len, T *tau)          \
    {                                                                                  \
        T alpha = x[0], ss, beta, scale;                                               \
        int64_t i;                                                                     \
        *tau = 0;                                                                      \
        if (len < 2) return alpha;                                                     \
        ss = x[stride] * x[stride];                                                    \
        for (i = 2; i < len; i++) ss = ss + x[i * stride] * x[i * stride];             \
        if (ss == 0) return alpha;                                                     \
        beta = SQRT(alpha * alpha + ss);                                               \
        if (alpha >= 0) beta = -beta;                                                  \
        *tau = (beta - alpha) / beta;                                                  \
        scale = 1 / (alpha - beta);                                                    \
        x[0] = 1;                                                                      \
        for (i = 1; i < len; i++) x[i * stride] = x[i * stride] * scale;               \
        return beta;                                                                   \
    }                                                                                  \
    /* y (rows x cols, ld apart) = (I - tau v v^T) y, v[i * vs] (v[0] == 1). */        \
    TP_INLINE void tp_svd_lapply_##SFX(const T *v, int64_t vs, T tau, T *y, int64_t ld, \
                                       int64_t rows, int64_t cols, T *w)               \
    {                                                                                  \
        int64_t i, c;                                                                  \
        for (c = 0; c < cols; c++) w[c] = y[c];                                        \
        for (i = 1; i < rows; i++) {                                                   \
            const T vi = v[i * vs], *yi = y + i * ld;                                  \
            for (c = 0; c < cols; c++) w[c] = w[c] + vi * yi[c];                       \
        }                                                                              \
        for (c = 0; c < cols; c++) w[c] = tau * w[c];                                  \
        for (i = 0; i < rows; i++) {                                                   \
            const T vi = v[i * vs];                                                    \
            T *yi = y + i * ld;                                                        \
            for (c = 0; c < cols; c++) yi[c] = yi[c] - vi * w[c];                      \
        }                                                                              \
    }                                                                                  \
    /* y = y (I - tau v v^T), v contiguous (v[0] == 1); four rows' sums at a time     \
     * (each still in order). */                                                       \
    TP_INLINE void tp_svd_rapply_##SFX(const T *v, T tau, T *y, int64_t ld,             \
                                       int64_t rows, int64_t cols)                     \
    {                                                                                  \
        int64_t i, j;                                                                  \
        for (i = 0; i + 4 <= rows; i += 4) {                                           \
            T *y0 = y + i * ld, *y1 = y0 + ld, *y2 = y1 + ld, *y3 = y2 + ld;           \
            T s0 = y0[0], s1 = y1[0], s2 = y2[0], s3 = y3[0];                          \
            for (j = 1; j < cols; j++) {                                               \
                const T vj = v[j];                                                     \
                s0 = s0 + y0[j] * vj; s1 = s1 + y1[j] * vj;                            \
                s2 = s2 + y2[j] * vj; s3 = s3 + y3[j] * vj;                            \
            }                                                                          \
            s0 = tau * s0; s1 = tau * s1; s2 = tau * s2; s3 = tau * s3;                \
            for (j = 0; j < cols; j++) {                                               \
                const T vj = v[j];                                                     \
                y0[j] = y0[j] - s0 * vj; y1[j] = y1[j] - s1 * vj;                      \
                y2[j] = y2[j] - s2 * vj; y3[j] = y3[j] - s3 * vj;                      \
            }                                                                          \
        }                                                                              \
        for (; i < rows; i++) {                                                        \
            T *yi = y + i * ld, s = yi[0];                                             \
            for (j = 1; j < cols; j++) s = s + yi[j] * v[j];                           \
            s = tau * s;                                                               \
            for (j = 0; j < cols; j++) yi[j] = yi[j] - s * v[j];                       \
        }                                                                              \
    }                                                                                  \
    /* c f + s g = r, c g - s f = 0 (c = 1, s = 0 when both are 0); returns r. Where   \
     * the squares cannot overflow, and where one flushed to zero would not change     \
     * the sum, r = sqrt(f^2 + g^2) (libm's hypot is several times slower). */         \
    TP_INLINE T tp_svd_givens_##SFX(T f, T g, T *c, T *s)                              \
    {                                                                                  \
        T af = FABS(f), ag = FABS(g), mx = af > ag ? af : ag;                          \
        T r = mx > (T)1 / (SAFE) && mx < (SAFE)                                      \
            ? SQRT(f * f + g * g) : HYPOT(f, g);                                       \
        if (r == 0) { *c = 1; *s = 0; return r; }                                      \
        *c = f / r;                                                                    \
        *s = g / r;                                                                    \
        return r;                                                                      \
    }                                                                                  \
    /* (x, y) = (c x + s y, c y - s x) */                                              \
    TP_INLINE void tp_svd_rot_##SFX(T *x, T *y, int64_t len, T c, T s)                 \
    {                                                                                  \
        int64_t i;                                                                     \
        for (i = 0; i < len; i++) {                                                    \
            T xi = x[i], yi = y[i];                                                    \
            x[i] = c * xi + s * yi;                                                    \
            y[i] = c * yi - s * xi;                                                    \
        }                                                                              \
    }                                                                                  \
    /* QR sweeps on the upper bidiagonal (s, e) (n entries, e[n-1] == 0); rows of ut   \
     * (ulen long) and vt (vlen long: n, or 2 n for a complex V's parts) rotated alike  \
     * unless ut is null. */                                                           \
    TP_INLINE void tp_svd_bdsqr_##SFX(T *s, T *e, int64_t n, T *ut, int64_t ulen, T *vt, \
                                      int64_t vlen)                                    \
    {                                                                                  \
        int64_t p = n, k, ks, j;                                                       \
        int iter = 0;                                                                  \
        const T eps = EPS, tiny = TINY;                                                \
        while (p > 0) {                                                                \
            int kase;                                                                  \
            T f, g, t, cs, sn;                                                         \
            for (k = p - 2; k >= 0; k--)                                               \
                if (FABS(e[k]) <= tiny + eps * (FABS(s[k]) + FABS(s[k + 1]))) {        \
                    e[k] = 0;                                                          \
                    break;                                                             \
                }                                                                      \
            if (k == p - 2) {                                                          \
                kase = 4;                                                              \
            } else {                                                                   \
                for (ks = p - 1; ks > k; ks--) {                                       \
                    t = FABS(e[ks]) + (ks != k + 1 ? FABS(e[ks - 1]) : (T)0);          \
                    if (FABS(s[ks]) <= tiny + eps * t) {                               \
                        s[ks] = 0;                                                     \
                        break;                                                         \
                    }                                                                  \
                }                                                                      \
                if (ks == k) kase = 3;                                                 \
                else if (ks == p - 1) kase = 1;                                        \
                else { kase = 2; k = ks; }                                             \
            }                                                                          \
            k++;                                                                       \
            if (kase == 1) { /* deflate the negligible s[p-1] */                       \
                f = e[p - 2];                                                          \
                e[p - 2] = 0;                                                          \
                for (j = p - 2; j >= k; j--) {                                         \
                    s[j] = tp_svd_givens_##SFX(s[j], f, &cs, &sn);                     \
                    if (j != k) {                                                      \
                        f = -sn * e[j - 1];                                            \
                        e[j - 1] = cs * e[j - 1];                                      \
                    }                                                                  \
                    if (ut) tp_svd_rot_##SFX(vt + j * vlen, vt + (p - 1) * vlen, vlen, cs, sn); \
                }                                                                      \
            } else if (kase == 2) { /* split at the negligible s[k-1] */               \
                f = e[k - 1];                                                          \
                e[k - 1] = 0;                                                          \
                for (j = k; j < p; j++) {                                              \
                    s[j] = tp_svd_givens_##SFX(s[j], f, &cs, &sn);                     \
                    f = -sn * e[j];                                                    \
                    e[j] = cs * e[j];                                                  \
                    if (ut)                                                            \
                        tp_svd_rot_##SFX(ut + j * ulen, ut + (k - 1) * ulen, ulen, cs, sn); \
                }                                                                      \
            } else if (kase == 3) { /* one QR step, shifted */                         \
                T scale = FABS(s[p - 1]), sp, spm1, epm1, sk, ek, b, c, shift = 0;     \
                if (FABS(s[p - 2]) > scale) scale = FABS(s[p - 2]);                    \
                if (FABS(e[p - 2]) > scale) scale = FABS(e[p - 2]);                    \
                if (FABS(s[k]) > scale) scale = FABS(s[k]);                            \
                if (FABS(e[k]) > scale) scale = FABS(e[k]);                            \
                sp = s[p - 1] / scale;                                                 \
                spm1 = s[p - 2] / scale;                                               \
                epm1 = e[p - 2] / scale;                                               \
                sk = s[k] / scale;                                                     \
                ek = e[k] / scale;                                                     \
                b = ((spm1 + sp) * (spm1 - sp) + epm1 * epm1) / 2;                     \
                c = (sp * epm1) * (sp * epm1);                                         \
                if (b != 0 || c != 0) {                                                \
                    shift = SQRT(b * b + c);                                           \
                    if (b < 0) shift = -shift;                                         \
                    shift = c / (b + shift);                                           \
                }                                                                      \
                f = (sk + sp) * (sk - sp) + shift;                                     \
                g = sk * ek;                                                           \
                for (j = k; j < p - 1; j++) {                                          \
                    t = tp_svd_givens_##SFX(f, g, &cs, &sn);                           \
                    if (j != k) e[j - 1] = t;                                          \
                    f = cs * s[j] + sn * e[j];                                         \
                    e[j] = cs * e[j] - sn * s[j];                                      \
                    g = sn * s[j + 1];                                                 \
                    s[j + 1] = cs * s[j + 1];                                          \
                    if (ut) tp_svd_rot_##SFX(vt + j * vlen, vt + (j + 1) * vlen, vlen, cs, sn); \
                    s[j] = tp_svd_givens_##SFX(f, g, &cs, &sn);                        \
                    f = cs * e[j] + sn * s[j + 1];                                     \
                    s[j + 1] = cs * s[j + 1] - sn * e[j];                              \
                    g = sn * e[j + 1];                                                 \
                    e[j + 1] = cs * e[j + 1];                                          \
                    if (ut)                                                            \
                        tp_svd_rot_##SFX(ut + j * ulen, ut + (j + 1) * ulen, ulen, cs, sn); \
                }                                                                      \
                e[p - 2] = f;                                                          \
                if (++iter >= TP_SVD_ITERS) e[p - 2] = 0; /* give up on this one */   \
            } else { /* s[p-1] converged: make it non-negative */                     \
                if (s[k] <= 0) {                                                       \
                    s[k] = s[k] < 0 ? -s[k] : (T)0;                                    \
                    if (ut)                                                            \
                        for (j = 0; j < vlen; j++) vt[k * vlen + j] = -vt[k * vlen + j]; \
                }                                                                      \
                iter = 0;                                                              \
                p--;                                                                   \
            }                                                                          \
        }                                                                              \
    }                                                                                  \
    /* s (min(m, n)); u (m x uc), vt (vr x n) unless u is null; work: tp_svd_work       \
     * elements (lax/linalg_svd_real.py's work_elements). */                           \
    TP_INLINE void tp_svd_##SFX(const T *a, T *sv, T *u, T *vt, int64_t m, int64_t n,  \
                                int full, void *work)                                  \
    {                                                                                  \
        int tall = m >= n, nonfinite = 0, ex = 0;                                      \
        int64_t mm = tall ? m : n, nn = tall ? n : m, uc = full ? mm : nn, i, j, k;    \
        T *x = (T *)work, *ut = x + mm * nn, *vtt = ut + uc * mm, *d = vtt + nn * nn;  \
        T *e = d + nn, *tl = e + nn, *tr = tl + nn, *idx = tr + nn, *w = idx + nn;     \
        T amax = 0, unscale = 1;                                                       \
        T *rw = w + (mm > uc ? mm : uc); /* the accumulation's panels */               \
        for (i = 0; i < mm; i++)                                                       \
            for (j = 0; j < nn; j++) {                                                 \
                T v = tall ? a[i * n + j] : a[j * n + i], av = FABS(v);                \
                x[i * nn + j] = v;                                                     \
                if (av != av) nonfinite = 1;                                           \
                else if (av > amax) amax = av;                                         \
            }                                                                          \
        if (nonfinite || amax - amax != 0) {                                           \
            for (i = 0; i < nn; i++) sv[i] = (T)NAN;                                   \
            if (u) {                                                                   \
                for (i = 0; i < m * (tall ? uc : m); i++) u[i] = (T)NAN;               \
                for (i = 0; i < (tall ? n : uc) * n; i++) vt[i] = (T)NAN;              \
            }                                                                          \
            return;                                                                    \
        }                                                                              \
        if (amax > 0 && (amax > LDEXP((T)1, BIG_EXP) || amax < LDEXP((T)1, -BIG_EXP))) { \
            T sc;                                                                      \
            FREXP(amax, &ex);                                                          \
            sc = LDEXP((T)1, -ex);                                                     \
            unscale = LDEXP((T)1, ex);                                                 \
            for (i = 0; i < mm * nn; i++) x[i] = x[i] * sc;                            \
        }                                                                              \
        for (k = 0; k < nn; k++) {                                                     \
            T *xk = x + k * nn + k;                                                    \
            d[k] = tp_svd_house_##SFX(xk, nn, mm - k, &tl[k]);                         \
            if (tl[k] != 0)                                                            \
                tp_svd_lapply_##SFX(xk, nn, tl[k], xk + 1, nn, mm - k, nn - k - 1, w); \
            tr[k] = 0;                                                                 \
            e[k] = 0;                                                                  \
            if (k + 2 < nn) {                                                          \
                e[k] = tp_svd_house_##SFX(xk + 1, 1, nn - k - 1, &tr[k]);              \
                if (tr[k] != 0)                                                        \
                    tp_svd_rapply_##SFX(xk + 1, tr[k], xk + nn + 1, nn, mm - k - 1,     \
                                        nn - k - 1);                                   \
            } else if (k + 1 < nn) {                                                   \
                e[k] = xk[1];                                                          \
            }                                                                          \
        }                                                                              \
        if (u) {                                                                       \
            tp_hjob_##SFX jobs[2] = {{0}};                                             \
            jobs[0].rows = mm; jobs[0].cols = uc; jobs[0].dst = ut; jobs[0].x = x;     \
            jobs[0].xld = nn; jobs[0].vs = nn; jobs[0].off = 0; jobs[0].taus = tl;     \
            jobs[0].kmax = nn - 1;                                                     \
            jobs[1].rows = nn; jobs[1].cols = nn; jobs[1].dst = vtt; jobs[1].x = x;    \
            jobs[1].xld = nn; jobs[1].vs = 1; jobs[1].off = 1; jobs[1].taus = tr;      \
            jobs[1].kmax = nn - 3;                                                     \
            tp_hacc_##SFX(jobs, 2, rw);                                                \
        }                                                                              \
        tp_svd_bdsqr_##SFX(d, e, nn, u ? ut : 0, mm, vtt, nn);                         \
        for (i = 0; i < nn; i++) idx[i] = (T)i;                                        \
        TP_SORT_PAIRS(T, d, idx, nn, <, i, j); /* stable, descending */                \
        for (i = 0; i < nn; i++) sv[i] = d[i] * unscale;                               \
        if (!u) return;                                                                \
        if (tall) {                                                                    \
            for (j = 0; j < uc; j++) {                                                 \
                const T *src = ut + (j < nn ? (int64_t)idx[j] : j) * mm;               \
                for (i = 0; i < m; i++) u[i * uc + j] = src[i];                        \
            }                                                                          \
            for (j = 0; j < nn; j++)                                                   \
                memcpy(vt + j * n, vtt + (int64_t)idx[j] * nn, (size_t)nn * sizeof(T)); \
        } else {                                                                       \
            for (j = 0; j < nn; j++) {                                                 \
                const T *src = vtt + (int64_t)idx[j] * nn;                             \
                for (i = 0; i < m; i++) u[i * m + j] = src[i];                         \
            }                                                                          \
            for (j = 0; j < uc; j++)                                                   \
                memcpy(vt + j * n, ut + (j < nn ? (int64_t)idx[j] : j) * mm,           \
                       (size_t)mm * sizeof(T));                                        \
        }                                                                              \
    }

TP_DEFINE_SVD(f32, float, sqrtf, fabsf, hypotf, frexpf, ldexpf, FLT_EPSILON, 0x1p-120f, 50,
              0x1p50f)
TP_DEFINE_SVD(f64, double, sqrt, fabs, hypot, frexp, ldexp, DBL_EPSILON, 0x1p-966, 500,
              0x1p450)

#endif /* TP_SVD_H */

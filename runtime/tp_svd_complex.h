/* svd of one complex (complex64/complex128) row-major m x n matrix, the real one's scheme
 * (tp_svd.h) with gebrd's complex reflectors (larfg's, as qr's in tp_linalg_complex.h)
 * on the tall X (A, or A^H when m < n): step k reflects column k (rows k..) from the
 * left (H^H), then the conjugate of row k (columns k + 1.., even a single entry) from
 * the right, so that the bidiagonal (d, e) is real: Q^H X P = B. U = Q and V = P by
 * backward accumulation (H = I - tau v v^H); the real implicit QR (tp_svd_bdsqr)
 * rotates the parts of U^T's and V^T's rows; vt is V^H (A = V' S U'^H when wide). Sums
 * run in index order, products are textbook ones, as the NumPy rule (lax/linalg_svd.py)
 * computes them. Non-finite input and scaling: as the real svd.
 *
 * Included by tp_linalg_complex.h (its cmul/cdiv helpers); not compiled for CUDA. */
#ifndef TP_SVD_COMPLEX_H
#define TP_SVD_COMPLEX_H

#define TP_DEFINE_SVD_C(SFX, T, R, RE, IM, SQRT, FABS, CONJ, FREXP, LDEXP, BIG_EXP, RSFX) \
    /* larfg's reflector of x[0], x[stride], ... (len entries, see the header comment): \
     * returns beta (real), or re x[0] when there is nothing to reflect (tau = 0). */   \
    TP_INLINE R tp_svdc_house_##SFX(T *x, int64_t stride, int64_t len, T *tau)         \
    {                                                                                  \
        const R ar = RE(x[0]), ai = IM(x[0]);                                          \
        R ss = 0, beta;                                                                \
        T scale;                                                                       \
        int64_t i;                                                                     \
        *tau = tp_cmake_##SFX(0, 0);                                                   \
        for (i = 1; i < len; i++) {                                                    \
            R re = RE(x[i * stride]), im = IM(x[i * stride]);                          \
            ss = ss + (re * re + im * im);                                             \
        }                                                                              \
        if (ss == 0 && ai == 0) return ar;                                             \
        beta = SQRT((ar * ar + ai * ai) + ss);                                         \
        if (ar >= 0) beta = -beta;                                                     \
        *tau = tp_cmake_##SFX((beta - ar) / beta, -ai / beta);                         \
        scale = tp_cmake_##SFX(ar - beta, ai);                                         \
        x[0] = tp_cmake_##SFX(1, 0);                                                   \
        for (i = 1; i < len; i++) x[i * stride] = tp_cdiv_##SFX(x[i * stride], scale); \
        return beta;                                                                   \
    }                                                                                  \
    /* y (rows x cols, ld apart) = (I - t v v^H) y, v[i * vs] (v[0] == 1): w = t (v^H \
     * y) (rows combined in order) in the parts wr, wi; then y_i -= v_i w. Products    \
     * are textbook ones, written on the parts (gcc's complex-multiply patterns round  \
     * differently from the NumPy rule). */                                           \
    TP_INLINE void tp_svdc_lapply_##SFX(const T *v, int64_t vs, T t, T *y, int64_t ld, \
                                        int64_t rows, int64_t cols, R *wr, R *wi)      \
    {                                                                                  \
        const R tr = RE(t), ti = IM(t);                                                \
        int64_t i, c;                                                                  \
        for (c = 0; c < cols; c++) {                                                   \
            wr[c] = RE(y[c]);                                                          \
            wi[c] = IM(y[c]);                                                          \
        }                                                                              \
        for (i = 1; i + 1 < rows; i += 2) { /* two rows a pass, each added in turn */  \
            const R vr = RE(v[i * vs]), vi = -IM(v[i * vs]), *yi = (const R *)(y + i * ld); \
            const R ur = RE(v[(i + 1) * vs]), ui = -IM(v[(i + 1) * vs]);               \
            const R *yj = (const R *)(y + (i + 1) * ld);                               \
            for (c = 0; c < cols; c++) {                                               \
                const R yr = yi[2 * c], ym = yi[2 * c + 1];                            \
                const R zr = yj[2 * c], zm = yj[2 * c + 1];                            \
                wr[c] = (wr[c] + (vr * yr - vi * ym)) + (ur * zr - ui * zm);           \
                wi[c] = (wi[c] + (vr * ym + vi * yr)) + (ur * zm + ui * zr);           \
            }                                                                          \
        }                                                                              \
        for (; i < rows; i++) {                                                        \
            const R vr = RE(v[i * vs]), vi = -IM(v[i * vs]), *yi = (const R *)(y + i * ld); \
            for (c = 0; c < cols; c++) {                                               \
                const R yr = yi[2 * c], ym = yi[2 * c + 1];                            \
                wr[c] = wr[c] + (vr * yr - vi * ym);                                   \
                wi[c] = wi[c] + (vr * ym + vi * yr);                                   \
            }                                                                          \
        }                                                                              \
        for (c = 0; c < cols; c++) {                                                   \
            const R a = wr[c], b = wi[c];                                              \
            wr[c] = tr * a - ti * b;                                                   \
            wi[c] = tr * b + ti * a;                                                   \
        }                                                                              \
        for (i = 0; i < rows; i++) {                                                   \
            const R vr = RE(v[i * vs]), vi = IM(v[i * vs]);                            \
            R *yi = (R *)(y + i * ld);                                                 \
            for (c = 0; c < cols; c++) {                                               \
                yi[2 * c] = yi[2 * c] - (vr * wr[c] - vi * wi[c]);                     \
                yi[2 * c + 1] = yi[2 * c + 1] - (vr * wi[c] + vi * wr[c]);             \
            }                                                                          \
        }                                                                              \
    }                                                                                  \
    /* y = y (I - t v v^H), v contiguous (v[0] == 1): s_i = t (y_i v) (each row's sum  \
     * in order; four rows at a time), y_ij -= s_i conj(v_j). */                       \
    TP_INLINE void tp_svdc_rapply_##SFX(const T *v, T t, T *y, int64_t ld, int64_t rows, \
                                        int64_t cols)                                  \
    {                                                                                  \
        const R tr = RE(t), ti = IM(t), *vp = (const R *)v;                            \
        int64_t i, j, b;                                                               \
        for (i = 0; i < rows; i += 4) {                                                \
            const int64_t nb = rows - i < 4 ? rows - i : 4;                            \
            R sr[4] = {0, 0, 0, 0}, si[4] = {0, 0, 0, 0}, *yb[4];                      \
            for (b = 0; b < 4; b++) yb[b] = (R *)(y + (i + (b < nb ? b : 0)) * ld);    \
            for (b = 0; b < 4; b++) {                                                  \
                sr[b] = yb[b][0];                                                      \
                si[b] = yb[b][1];                                                      \
            }                                                                          \
            for (j = 1; j < cols; j++) {                                               \
                const R vr = vp[2 * j], vi = vp[2 * j + 1];                            \
                for (b = 0; b < 4; b++) {                                              \
                    const R yr = yb[b][2 * j], ym = yb[b][2 * j + 1];                  \
                    sr[b] = sr[b] + (yr * vr - ym * vi);                               \
                    si[b] = si[b] + (yr * vi + ym * vr);                               \
                }                                                                      \
            }                                                                          \
            for (b = 0; b < nb; b++) {                                                 \
                const R a = tr * sr[b] - ti * si[b], c = tr * si[b] + ti * sr[b];      \
                R *yi = yb[b];                                                         \
                /* the parts in separate loops: gcc 12 vectorises a loop of whole      \
                 * complex products by an invariant with other rounding */             \
                for (j = 0; j < cols; j++)                                             \
                    yi[2 * j] = yi[2 * j] - (a * vp[2 * j] - c * -vp[2 * j + 1]);      \
                for (j = 0; j < cols; j++)                                             \
                    yi[2 * j + 1] = yi[2 * j + 1] - (a * -vp[2 * j + 1] + c * vp[2 * j]); \
            }                                                                          \
        }                                                                              \
    }                                                                                  \
    /* As tp_svd_f32 (see the header comment); s real, work: lax/linalg_svd.py's       \
     * work_elements (real elements). */                                               \
    TP_INLINE void tp_svd_##SFX(const T *a, R *sv, T *u, T *vt, int64_t m, int64_t n,  \
                                int full, void *work)                                  \
    {                                                                                  \
        int tall = m >= n, nonfinite = 0, ex = 0;                                      \
        int64_t mm = tall ? m : n, nn = tall ? n : m, uc = full ? mm : nn, i, j, k;    \
        T *x = (T *)work, *uu = x + mm * nn, *ut = uu + mm * uc, *vv = ut + uc * mm;  \
        T *vtt = vv + nn * nn, *tl = vtt + nn * nn, *tr = tl + nn;                     \
        R *d = (R *)(tr + nn), *e = d + nn, *idx = e + nn, *wr = idx + nn, *wi = wr + mm; \
        R amax = 0, unscale = 1;                                                       \
        const T czero = tp_cmake_##SFX(0, 0);                                          \
        for (i = 0; i < mm; i++)                                                       \
            for (j = 0; j < nn; j++) {                                                 \
                T v = tall ? a[i * n + j] : CONJ(a[j * n + i]);                        \
                R ar = FABS(RE(v)), ai = FABS(IM(v));                                  \
                x[i * nn + j] = v;                                                     \
                if (ar != ar || ai != ai) nonfinite = 1;                               \
                else {                                                                 \
                    if (ar > amax) amax = ar;                                          \
                    if (ai > amax) amax = ai;                                          \
                }                                                                      \
            }                                                                          \
        if (nonfinite || amax - amax != 0) {                                           \
            const T cnan = tp_cmake_##SFX((R)NAN, (R)NAN);                             \
            for (i = 0; i < nn; i++) sv[i] = (R)NAN;                                   \
            if (u) {                                                                   \
                for (i = 0; i < m * (tall ? uc : m); i++) u[i] = cnan;                 \
                for (i = 0; i < (tall ? n : uc) * n; i++) vt[i] = cnan;                \
            }                                                                          \
            return;                                                                    \
        }                                                                              \
        if (amax > 0 && (amax > LDEXP((R)1, BIG_EXP) || amax < LDEXP((R)1, -BIG_EXP))) { \
            R sc;                                                                      \
            FREXP(amax, &ex);                                                          \
            sc = LDEXP((R)1, -ex);                                                     \
            unscale = LDEXP((R)1, ex);                                                 \
            for (i = 0; i < mm * nn; i++)                                              \
                x[i] = tp_cmake_##SFX(RE(x[i]) * sc, IM(x[i]) * sc);                   \
        }                                                                              \
        for (k = 0; k < nn; k++) { /* Q^H X P = B (real): gebrd's reflectors */        \
            T *xk = x + k * nn + k;                                                    \
            d[k] = tp_svdc_house_##SFX(xk, nn, mm - k, &tl[k]);                        \
            if (RE(tl[k]) != 0 || IM(tl[k]) != 0)                                      \
                tp_svdc_lapply_##SFX(xk, nn, CONJ(tl[k]), xk + 1, nn, mm - k,          \
                                     nn - k - 1, wr, wi);                              \
            tr[k] = czero;                                                             \
            e[k] = 0;                                                                  \
            if (k + 1 < nn) { /* row k's conjugate reflected: x_k P = e[k] e_1^T */   \
                for (j = 1; j < nn - k; j++) xk[j] = CONJ(xk[j]);                      \
                e[k] = tp_svdc_house_##SFX(xk + 1, 1, nn - k - 1, &tr[k]);             \
                if (RE(tr[k]) != 0 || IM(tr[k]) != 0)                                  \
                    tp_svdc_rapply_##SFX(xk + 1, tr[k], xk + nn + 1, nn, mm - k - 1,   \
                                         nn - k - 1);                                  \
            }                                                                          \
        }                                                                              \
        if (u) { /* U = Q, V = P by backward accumulation, then transposed */          \
            for (i = 0; i < mm; i++)                                                   \
                for (j = 0; j < uc; j++) uu[i * uc + j] = tp_cmake_##SFX((R)(i == j), 0); \
            for (k = nn - 1; k >= 0; k--)                                              \
                if (RE(tl[k]) != 0 || IM(tl[k]) != 0)                                  \
                    tp_svdc_lapply_##SFX(x + k * nn + k, nn, tl[k], uu + k * uc + k,   \
                                         uc, mm - k, uc - k, wr, wi);                  \
            for (i = 0; i < nn; i++)                                                   \
                for (j = 0; j < nn; j++) vv[i * nn + j] = tp_cmake_##SFX((R)(i == j), 0); \
            for (k = nn - 2; k >= 0; k--)                                              \
                if (RE(tr[k]) != 0 || IM(tr[k]) != 0)                                  \
                    tp_svdc_lapply_##SFX(x + k * nn + k + 1, 1, tr[k],                 \
                                         vv + (k + 1) * nn + k + 1, nn, nn - k - 1,    \
                                         nn - k - 1, wr, wi);                          \
            for (i = 0; i < mm; i++)                                                   \
                for (j = 0; j < uc; j++) ut[j * mm + i] = uu[i * uc + j];              \
            for (i = 0; i < nn; i++)                                                   \
                for (j = 0; j < nn; j++) vtt[j * nn + i] = vv[i * nn + j];             \
        }                                                                              \
        /* the real QR, its rotations on the parts of U^T's and V^T's rows */          \
        tp_svd_bdsqr_##RSFX(d, e, nn, u ? (R *)ut : 0, 2 * mm, (R *)vtt, 2 * nn);      \
        for (i = 0; i < nn; i++) idx[i] = (R)i;                                        \
        TP_SORT_PAIRS(R, d, idx, nn, <, i, j); /* stable, descending */                \
        for (i = 0; i < nn; i++) sv[i] = d[i] * unscale;                               \
        if (!u) return;                                                                \
        for (j = 0; j < (tall ? uc : nn); j++) { /* u's columns */                    \
            const T *src = tall ? ut + (j < nn ? (int64_t)idx[j] : j) * mm             \
                                : vtt + (int64_t)idx[j] * nn;                          \
            int64_t ucols = tall ? uc : m;                                             \
            for (i = 0; i < m; i++) u[i * ucols + j] = src[i];                         \
        }                                                                              \
        for (j = 0; j < (tall ? nn : uc); j++) { /* vt's rows: conjugated */           \
            const T *src = tall ? vtt + (int64_t)idx[j] * nn                           \
                                : ut + (j < nn ? (int64_t)idx[j] : j) * mm;            \
            for (i = 0; i < n; i++) vt[j * n + i] = CONJ(src[i]);                      \
        }                                                                              \
    }

TP_DEFINE_SVD_C(c64, tp_c64, float, crealf, cimagf, sqrtf, fabsf, conjf, frexpf, ldexpf, 50,
                f32)
TP_DEFINE_SVD_C(c128, tp_c128, double, creal, cimag, sqrt, fabs, conj, frexp, ldexp, 500, f64)

#endif /* TP_SVD_COMPLEX_H */

/* One precision of tp_eig.h's kernels for complex matrices, included once per complex
 * type (TP_EIGC_T, its real TP_EIGC_R, TP_EIGC_SFX naming, TP_EIGC_RE/IM/CONJ,
 * TP_EIGC_SQRT, TP_EIGC_ABS, TP_EIGC_EPS, TP_EIGC_MIN). Row-major n x n matrices.
 *
 * hessenberg: zgehd2's reduction with larfg's complex reflectors (beta real, so the
 *   subdiagonal is real), from the right (H) on all rows, then from the left (H^H) with
 *   tp_linalg_complex.h's reflector helper, as the NumPy rule of lax/linalg_schur.py.
 * householder_product: zungqr's backward accumulation (the same helper).
 * schur: Hessenberg form, Z from its reflectors, then zlahqr's single-shift complex QR:
 *   subdiagonal entries kept real (diagonal unitary scalings), Ahues and Tisseur's
 *   deflation test, Wilkinson's shift from the trailing 2 x 2 block, exceptional shifts
 *   every 10th iteration without deflation, the sweep started where two consecutive
 *   subdiagonal entries are small, at most 30 max(n, 10) iterations in all.
 * eig: the eigenvalues are T's diagonal; each eigenvector by back (right) or forward
 *   (left, on T^H) substitution as ztrevc does it (a pivot below max(ulp |t_kk|,
 *   smlnum) replaced by that bound), multiplied by Z and normalised as zgeev: unit
 *   2-norm, the first largest-magnitude component made real.
 * No balancing (as the real kernels). Non-finite input or no convergence: NaN outputs. */
#define T_ TP_EIGC_T
#define R_ TP_EIGC_R
#define S_(name) TP_EIGC_SFX(name)
#define RE_ TP_EIGC_RE
#define IM_ TP_EIGC_IM
#define CONJ_ TP_EIGC_CONJ
#define ABS_ TP_EIGC_ABS
#define MK_ S_(tp_cmake)
#define MUL_ S_(tp_cmul)
#define DIV_ S_(tp_cdiv)

TP_INLINE R_ S_(tp_eigc_abs1)(T_ z) { return ABS_(RE_(z)) + ABS_(IM_(z)); }

TP_INLINE T_ S_(tp_eigc_rmul)(R_ r, T_ z) { return MK_(r * RE_(z), r * IM_(z)); }

TP_INLINE R_ S_(tp_eigc_max)(R_ a, R_ b) { return a > b ? a : b; }

/* The principal square root from real operations only (the same bits in every build,
 * whatever the library's csqrt). */
TP_INLINE T_ S_(tp_eigc_sqrt)(T_ z)
{
    R_ a = RE_(z), b = IM_(z), r = S_(tp_cabs)(z), s;
    if (r == 0)
        return MK_(0, b);
    if (a >= 0) {
        s = TP_EIGC_SQRT((r + a) / 2);
        return MK_(s, b / (2 * s));
    }
    s = TP_EIGC_SQRT((r - a) / 2);
    return MK_(ABS_(b) / (2 * s), b < 0 ? -s : s);
}

/* larfg on col[0] (alpha) and col[s], ..., col[len s]: the vector replaces the entries
 * below alpha, beta (real) replaces alpha; returns tau (0 when there is nothing to
 * annihilate and alpha is real). */
TP_INLINE T_ S_(tp_eigc_larfg)(T_ *col, int64_t s, int64_t len)
{
    R_ ss = 0, ar = RE_(col[0]), ai = IM_(col[0]), beta;
    T_ scale;
    int64_t i;
    for (i = 1; i <= len; i++)
        ss += RE_(col[i * s]) * RE_(col[i * s]) + IM_(col[i * s]) * IM_(col[i * s]);
    if (ss == 0 && ai == 0)
        return MK_(0, 0);
    beta = TP_EIGC_SQRT((ar * ar + ai * ai) + ss);
    if (ar >= 0)
        beta = -beta;
    scale = col[0] - MK_(beta, 0);
    for (i = 1; i <= len; i++)
        col[i * s] = DIV_(col[i * s], scale);
    col[0] = MK_(beta, 0);
    return MK_((beta - ar) / beta, -ai / beta);
}

/* zgehd2, in place on x; taus gets n - 1 scales; w: n elements. */
TP_INLINE void S_(tp_hessenberg)(T_ *x, T_ *taus, int64_t n, T_ *w)
{
    int64_t i, j, c;
    for (j = 0; j + 1 < n; j++) {
        T_ tau = S_(tp_eigc_larfg)(x + (j + 1) * n + j, n, n - j - 2);
        taus[j] = tau;
        if (RE_(tau) == 0 && IM_(tau) == 0)
            continue;
        /* v = (1, x[j+2..n-1][j]) on rows/columns j+1..: X -= tau (X v) v^H, all rows */
        for (i = 0; i < n; i++) {
            T_ s = x[i * n + j + 1];
            for (c = j + 2; c < n; c++)
                s += MUL_(x[i * n + c], x[c * n + j]);
            s = MUL_(tau, s);
            x[i * n + j + 1] -= s;
            for (c = j + 2; c < n; c++)
                x[i * n + c] -= MUL_(s, CONJ_(x[c * n + j]));
        }
        /* then X -= conj(tau) v (v^H X) on rows and columns j+1..: the matrix seen from
         * row 1, where the reflector sits below row j of column j */
        S_(tp_qr_reflect)(x + n, n, CONJ_(tau), x + n, n, n - 1, j, j + 1, n, w);
    }
}

/* zungqr: q (m x ncol, leading dimension ldq) = the first ncol columns of
 * H_0 ... H_{k-1}, reflector j's vector below row j of column j of a (leading
 * dimension lda); w: ncol elements. */
TP_INLINE void S_(tp_householder_product)(const T_ *a, int64_t lda, const T_ *taus,
                                          int64_t m, int64_t ncol, int64_t k, T_ *q,
                                          int64_t ldq, T_ *w)
{
    int64_t i, j;
    for (i = 0; i < m; i++)
        for (j = 0; j < ncol; j++)
            q[i * ldq + j] = MK_((R_)(i == j), 0);
    for (j = k - 1; j >= 0; j--)
        S_(tp_qr_reflect)(a, lda, taus[j], q, ldq, m, j, j, ncol, w);
}

/* Row r of t scaled by f on columns c0..n-1, column c of t by g on rows 0..r1-1 and
 * column c of z by g (a diagonal unitary similarity, one index at a time). */
TP_INLINE void S_(tp_eigc_scale)(T_ *t, T_ *z, int64_t n, int64_t r, int64_t c0, T_ f,
                                 int64_t c, int64_t r1, T_ g)
{
    int64_t i;
    for (i = c0; i < n; i++)
        t[r * n + i] = MUL_(f, t[r * n + i]);
    for (i = 0; i < r1; i++)
        t[i * n + c] = MUL_(g, t[i * n + c]);
    for (i = 0; i < n; i++)
        z[i * n + c] = MUL_(g, z[i * n + c]);
}

/* zlahqr on the Hessenberg t (whole matrix updated), accumulating into z. Returns 0
 * when it does not converge. */
TP_INLINE int S_(tp_eigc_hqr)(T_ *t, T_ *z, int64_t n)
{
#define H_(i, j) t[((i) - 1) * n + (j) - 1]
#define A1_(v) S_(tp_eigc_abs1)(v)
    const R_ ulp = TP_EIGC_EPS, smlnum = TP_EIGC_MIN * ((R_)n / TP_EIGC_EPS);
    const int64_t itmax = 30 * (n > 10 ? n : 10);
    int64_t i, j, k, l, m, its, kdefl = 0;
    T_ v[2];
    for (j = 1; j <= n - 3; j++) {  /* clear what lies below the subdiagonal */
        H_(j + 2, j) = MK_(0, 0);
        H_(j + 3, j) = MK_(0, 0);
    }
    if (n >= 3)
        H_(n, n - 2) = MK_(0, 0);
    for (i = 2; i <= n; i++)  /* real subdiagonal entries */
        if (IM_(H_(i, i - 1)) != 0) {
            R_ mag = S_(tp_cabs)(H_(i, i - 1));
            T_ sc = MK_(RE_(H_(i, i - 1)) / mag, -IM_(H_(i, i - 1)) / mag);
            H_(i, i - 1) = MK_(mag, 0);
            S_(tp_eigc_scale)(t, z, n, i - 1, i - 1, sc, i - 1, i + 1 < n ? i + 1 : n,
                              CONJ_(sc));
        }
    i = n;
    while (i >= 1) {
        int converged = 0;
        l = 1;
        for (its = 0; its <= itmax; its++) {
            R_ s, tst;
            T_ shift, t1, v2, temp;
            for (k = i; k > l; k--) {  /* a negligible subdiagonal entry */
                if (A1_(H_(k, k - 1)) <= smlnum)
                    break;
                tst = A1_(H_(k - 1, k - 1)) + A1_(H_(k, k));
                if (tst == 0) {
                    if (k - 2 >= 1)
                        tst += ABS_(RE_(H_(k - 1, k - 2)));
                    if (k + 1 <= n)
                        tst += ABS_(RE_(H_(k + 1, k)));
                }
                if (ABS_(RE_(H_(k, k - 1))) <= ulp * tst) {
                    R_ p = A1_(H_(k, k - 1)), q = A1_(H_(k - 1, k));
                    R_ ab = p > q ? p : q, ba = p > q ? q : p;
                    R_ d = A1_(H_(k - 1, k - 1) - H_(k, k)), e = A1_(H_(k, k));
                    R_ aa = e > d ? e : d, bb = e > d ? d : e;
                    s = aa + ab;
                    if (ba * (ab / s) <= S_(tp_eigc_max)(smlnum, ulp * (bb * (aa / s))))
                        break;
                }
            }
            l = k;
            if (l > 1)
                H_(l, l - 1) = MK_(0, 0);
            if (l >= i) {
                converged = 1;
                break;
            }
            kdefl++;
            if (kdefl % 20 == 0) {  /* exceptional shifts */
                shift = MK_((R_)0.75 * ABS_(RE_(H_(i, i - 1))), 0) + H_(i, i);
            } else if (kdefl % 10 == 0) {
                shift = MK_((R_)0.75 * ABS_(RE_(H_(l + 1, l))), 0) + H_(l, l);
            } else {  /* Wilkinson's: the eigenvalue of the trailing block nearer h_ii */
                T_ u = MUL_(S_(tp_eigc_sqrt)(H_(i - 1, i)), S_(tp_eigc_sqrt)(H_(i, i - 1)));
                shift = H_(i, i);
                s = A1_(u);
                if (s != 0) {
                    T_ x = S_(tp_eigc_rmul)((R_)0.5, H_(i - 1, i - 1) - shift), y, xs, us;
                    R_ sx = A1_(x);
                    s = S_(tp_eigc_max)(s, sx);
                    xs = S_(tp_eigc_rmul)(1 / s, x);
                    us = S_(tp_eigc_rmul)(1 / s, u);
                    y = S_(tp_eigc_rmul)(s, S_(tp_eigc_sqrt)(MUL_(xs, xs) + MUL_(us, us)));
                    if (sx > 0 && RE_(x) / sx * RE_(y) + IM_(x) / sx * IM_(y) < 0)
                        y = MK_(-RE_(y), -IM_(y));
                    shift -= MUL_(u, DIV_(u, x + y));
                }
            }
            for (m = i - 1;; m--) {  /* two consecutive small subdiagonal entries */
                T_ h11 = H_(m, m), h11s = h11 - shift;
                R_ h21 = RE_(H_(m + 1, m));
                s = A1_(h11s) + ABS_(h21);
                v[0] = S_(tp_eigc_rmul)(1 / s, h11s);
                v[1] = MK_(h21 / s, 0);
                if (m == l)
                    break;
                if (ABS_(RE_(H_(m, m - 1))) * ABS_(h21 / s)
                    <= ulp * (A1_(v[0]) * (A1_(h11) + A1_(H_(m + 1, m + 1)))))
                    break;
            }
            for (k = m; k <= i - 1; k++) {  /* the single-shift QR sweep */
                R_ t2;
                if (k > m) {
                    v[0] = H_(k, k - 1);
                    v[1] = H_(k + 1, k - 1);
                }
                t1 = S_(tp_eigc_larfg)(v, 1, 1);
                if (k > m) {
                    H_(k, k - 1) = v[0];
                    H_(k + 1, k - 1) = MK_(0, 0);
                }
                v2 = v[1];
                t2 = RE_(MUL_(t1, v2));
                for (j = k; j <= n; j++) {
                    T_ sum = MUL_(CONJ_(t1), H_(k, j)) + S_(tp_eigc_rmul)(t2, H_(k + 1, j));
                    H_(k, j) -= sum;
                    H_(k + 1, j) -= MUL_(sum, v2);
                }
                for (j = 1; j <= (k + 2 < i ? k + 2 : i); j++) {
                    T_ sum = MUL_(t1, H_(j, k)) + S_(tp_eigc_rmul)(t2, H_(j, k + 1));
                    H_(j, k) -= sum;
                    H_(j, k + 1) -= MUL_(sum, CONJ_(v2));
                }
                for (j = 0; j < n; j++) {
                    T_ *zr = z + j * n + k - 1;
                    T_ sum = MUL_(t1, zr[0]) + S_(tp_eigc_rmul)(t2, zr[1]);
                    zr[0] -= sum;
                    zr[1] -= MUL_(sum, CONJ_(v2));
                }
                if (k == m && m > l) {
                    /* started below row l: a diagonal scaling keeps h(m+1, m) real */
                    temp = MK_(1, 0) - t1;
                    temp = S_(tp_eigc_rmul)(1 / S_(tp_cabs)(temp), temp);
                    H_(m + 1, m) = MUL_(H_(m + 1, m), CONJ_(temp));
                    if (m + 2 <= i)
                        H_(m + 2, m + 1) = MUL_(H_(m + 2, m + 1), temp);
                    for (j = m; j <= i; j++)
                        if (j != m + 1)
                            S_(tp_eigc_scale)(t, z, n, j - 1, j, temp, j - 1, j - 1,
                                              CONJ_(temp));
                }
            }
            temp = H_(i, i - 1);  /* h(i, i - 1) real again */
            if (IM_(temp) != 0) {
                R_ mag = S_(tp_cabs)(temp);
                H_(i, i - 1) = MK_(mag, 0);
                temp = S_(tp_eigc_rmul)(1 / mag, temp);
                S_(tp_eigc_scale)(t, z, n, i - 1, i, CONJ_(temp), i - 1, i - 1, temp);
            }
        }
        if (!converged)
            return 0;
        kdefl = 0;
        i = l - 1;
    }
    return 1;
#undef A1_
#undef H_
}

/* Schur form: t = T (upper triangular), z = Z (a = Z T Z^H); work: 2 n elements.
 * Returns 0 (outputs NaN) for a non-finite matrix or no convergence. */
TP_INLINE int S_(tp_schur)(const T_ *a, T_ *t, T_ *z, int64_t n, T_ *work)
{
    int64_t i, j;
    int ok = 1;
    for (i = 0; i < n * n; i++) {
        t[i] = a[i];
        if (!isfinite(RE_(a[i])) || !isfinite(IM_(a[i])))
            ok = 0;
    }
    if (ok && n > 0) {
        S_(tp_hessenberg)(t, work, n, work + n);
        /* zunghr: Z = diag(1, the product of the reflectors below t's subdiagonal) */
        for (i = 0; i < n; i++)
            z[i] = z[i * n] = MK_((R_)(i == 0), 0);
        if (n > 1)
            S_(tp_householder_product)(t + n, n, work, n - 1, n - 1, n - 1, z + n + 1, n,
                                       work + n);
        for (i = 2; i < n; i++)
            for (j = 0; j + 1 < i; j++)
                t[i * n + j] = MK_(0, 0);
        ok = S_(tp_eigc_hqr)(t, z, n);
        for (i = 1; i < n; i++)  /* the converged subdiagonal */
            for (j = 0; j < i; j++)
                t[i * n + j] = MK_(0, 0);
    }
    if (!ok)
        for (i = 0; i < n * n; i++)
            t[i] = z[i] = MK_((R_)NAN, (R_)NAN);
    return ok;
}

/* Column col of out = Z x (x nonzero on lo..hi-1), normalised as zgeev does. */
TP_INLINE void S_(tp_eigc_vector)(const T_ *z, const T_ *x, int64_t n, int64_t lo,
                                  int64_t hi, T_ *out, int64_t col)
{
    int64_t i, j, top = 0;
    R_ norm = 0, big = -1, mag;
    T_ scale;
    for (i = 0; i < n; i++) {
        T_ s = MK_(0, 0);
        for (j = lo; j < hi; j++)
            s += MUL_(z[i * n + j], x[j]);
        out[i * n + col] = s;
        norm += RE_(s) * RE_(s) + IM_(s) * IM_(s);
    }
    norm = TP_EIGC_SQRT(norm);
    for (i = 0; i < n; i++) {
        T_ s = S_(tp_eigc_rmul)(1 / norm, out[i * n + col]);
        out[i * n + col] = s;
        mag = RE_(s) * RE_(s) + IM_(s) * IM_(s);
        if (mag > big) {
            big = mag;
            top = i;
        }
    }
    big = TP_EIGC_SQRT(big);
    scale = MK_(RE_(out[top * n + col]) / big, -IM_(out[top * n + col]) / big);
    for (i = 0; i < n; i++)
        out[i * n + col] = MUL_(scale, out[i * n + col]);
    out[top * n + col] = MK_(RE_(out[top * n + col]), 0);
}

/* Eigenvalues w (n) and left/right eigenvectors vl/vr (n x n, in columns; either may be
 * NULL) of a. Work: 2 n n + 2 n elements (T, Z, and the Schur work, then a vector). */
TP_INLINE void S_(tp_eig)(const T_ *a, T_ *w, T_ *vl, T_ *vr, int64_t n, T_ *work)
{
    T_ *t = work, *z = work + n * n, *x = z + n * n;
    const R_ smlnum = TP_EIGC_MIN * ((R_)n / TP_EIGC_EPS);
    int64_t i, j, k;
    if (!S_(tp_schur)(a, t, z, n, x)) {
        T_ nan = MK_((R_)NAN, (R_)NAN);
        for (i = 0; i < n; i++)
            w[i] = nan;
        for (i = 0; i < n * n; i++) {
            if (vl)
                vl[i] = nan;
            if (vr)
                vr[i] = nan;
        }
        return;
    }
    for (k = 0; k < n; k++) {
        T_ lam = t[k * n + k];
        R_ smin = S_(tp_eigc_max)(TP_EIGC_EPS * S_(tp_eigc_abs1)(lam), smlnum);
        w[k] = lam;
        if (vr) {  /* (T - lam) x = 0 with x_k = 1, upwards */
            x[k] = MK_(1, 0);
            for (i = k - 1; i >= 0; i--) {
                T_ s = MK_(0, 0), d = t[i * n + i] - lam;
                for (j = i + 1; j <= k; j++)
                    s -= MUL_(t[i * n + j], x[j]);
                if (S_(tp_eigc_abs1)(d) < smin)
                    d = MK_(smin, 0);
                x[i] = DIV_(s, d);
            }
            S_(tp_eigc_vector)(z, x, n, 0, k + 1, vr, k);
        }
        if (vl) {  /* (T - lam)^H y = 0 with y_k = 1, downwards */
            x[k] = MK_(1, 0);
            for (i = k + 1; i < n; i++) {
                T_ s = MK_(0, 0), d = CONJ_(t[i * n + i] - lam);
                for (j = k; j < i; j++)
                    s -= MUL_(CONJ_(t[j * n + i]), x[j]);
                if (S_(tp_eigc_abs1)(d) < smin)
                    d = MK_(smin, 0);
                x[i] = DIV_(s, d);
            }
            S_(tp_eigc_vector)(z, x, n, k, n, vl, k);
        }
    }
}

#undef T_
#undef R_
#undef S_
#undef RE_
#undef IM_
#undef CONJ_
#undef ABS_
#undef MK_
#undef MUL_
#undef DIV_
/* this instance's parameters, set by the includer (tp_eig.h) */
#undef TP_EIGC_T
#undef TP_EIGC_R
#undef TP_EIGC_SFX
#undef TP_EIGC_RE
#undef TP_EIGC_IM
#undef TP_EIGC_CONJ
#undef TP_EIGC_SQRT
#undef TP_EIGC_ABS
#undef TP_EIGC_EPS
#undef TP_EIGC_MIN

/* One precision of tp_eig.h's kernels, included once per real type (TP_EIG_R, its
 * complex TP_EIG_C, TP_EIG_SFX naming, TP_EIG_SQRT, TP_EIG_ABS, TP_EIG_EPS, TP_EIG_MIN).
 * All matrices are row-major n x n. */
#define R_ TP_EIG_R
#define C_ TP_EIG_C
#define SQRT_ TP_EIG_SQRT
#define ABS_ TP_EIG_ABS

TP_INLINE C_ TP_EIG_SFX(tp_eig_cplx)(R_ re, R_ im)
{
    C_ z;
    ((R_ *)&z)[0] = re;  /* C99 complex: an array of two reals */
    ((R_ *)&z)[1] = im;
    return z;
}

TP_INLINE R_ TP_EIG_SFX(tp_eig_re)(C_ z) { return ((R_ *)&z)[0]; }
TP_INLINE R_ TP_EIG_SFX(tp_eig_im)(C_ z) { return ((R_ *)&z)[1]; }

TP_INLINE R_ TP_EIG_SFX(tp_eig_cabs)(C_ z)
{
    R_ a = ABS_(TP_EIG_SFX(tp_eig_re)(z)), b = ABS_(TP_EIG_SFX(tp_eig_im)(z));
    R_ hi = a > b ? a : b, lo = a > b ? b : a;
    if (hi == 0)
        return 0;
    lo /= hi;
    return hi * SQRT_(1 + lo * lo);
}

/* Complex division by Smith's scaling (no overflow for moderate operands). */
TP_INLINE C_ TP_EIG_SFX(tp_eig_cdiv)(C_ x, C_ y)
{
    R_ a = TP_EIG_SFX(tp_eig_re)(x), b = TP_EIG_SFX(tp_eig_im)(x);
    R_ c = TP_EIG_SFX(tp_eig_re)(y), d = TP_EIG_SFX(tp_eig_im)(y);
    if (ABS_(c) >= ABS_(d)) {
        R_ r = d / c, den = c + d * r;
        return TP_EIG_SFX(tp_eig_cplx)((a + b * r) / den, (b - a * r) / den);
    }
    R_ r = c / d, den = c * r + d;
    return TP_EIG_SFX(tp_eig_cplx)((a * r + b) / den, (b * r - a) / den);
}

/* gehd2, in place on x; taus gets n - 1 scales. */
TP_INLINE void TP_EIG_SFX(tp_hessenberg)(R_ *x, R_ *taus, int64_t n)
{
    int64_t i, j, c;
    for (j = 0; j + 1 < n; j++) {
        R_ alpha = x[(j + 1) * n + j], ss = 0, beta, tau, w;
        for (i = j + 2; i < n; i++)
            ss += x[i * n + j] * x[i * n + j];
        beta = SQRT_(alpha * alpha + ss);
        if (alpha >= 0)
            beta = -beta;
        tau = 0;
        if (ss != 0) {
            tau = (beta - alpha) / beta;
            for (i = j + 2; i < n; i++)
                x[i * n + j] /= alpha - beta;
            x[(j + 1) * n + j] = beta;
        }
        taus[j] = tau;
        /* v = (1, x[j+2..n-1][j]) on rows/columns j+1..n-1 */
        for (i = 0; i < n; i++) {  /* from the right, every row */
            w = x[i * n + j + 1];
            for (c = j + 2; c < n; c++)
                w += x[i * n + c] * x[c * n + j];
            w *= tau;
            x[i * n + j + 1] -= w;
            for (c = j + 2; c < n; c++)
                x[i * n + c] -= w * x[c * n + j];
        }
        for (c = j + 1; c < n; c++) {  /* then from the left, rows and columns j+1.. */
            w = x[(j + 1) * n + c];
            for (i = j + 2; i < n; i++)
                w += x[i * n + j] * x[i * n + c];
            w *= tau;
            x[(j + 1) * n + c] -= w;
            for (i = j + 2; i < n; i++)
                x[i * n + c] -= x[i * n + j] * w;
        }
    }
}

/* orgqr: q (m x ncol, leading dimension ldq) = the first ncol columns of
 * H_0 ... H_{k-1}, reflector j's vector below row j of column j of a (leading
 * dimension lda). */
TP_INLINE void TP_EIG_SFX(tp_householder_product)(const R_ *a, int64_t lda, const R_ *taus,
                                                 int64_t m, int64_t ncol, int64_t k, R_ *q,
                                                 int64_t ldq)
{
    int64_t i, j, c;
    for (i = 0; i < m; i++)
        for (c = 0; c < ncol; c++)
            q[i * ldq + c] = i == c ? 1 : 0;
    for (j = k - 1; j >= 0; j--)
        for (c = j; c < ncol; c++) {
            R_ w = q[j * ldq + c];
            for (i = j + 1; i < m; i++)
                w += a[i * lda + j] * q[i * ldq + c];
            w *= taus[j];
            q[j * ldq + c] -= w;
            for (i = j + 1; i < m; i++)
                q[i * ldq + c] -= a[i * lda + j] * w;
        }
}

/* Rotate rows/columns p, p + 1 of t and columns of z by (cs, sn): x' = cs x + sn y,
 * y' = cs y - sn x. Only t's upper Hessenberg part: what bulge chases leave below it is
 * ignored (zeroed at the end), and must not mix into it. */
TP_INLINE void TP_EIG_SFX(tp_eig_rotate)(R_ *t, R_ *z, int64_t n, int64_t p, R_ cs, R_ sn)
{
    int64_t i;
    for (i = p; i < n; i++) {  /* rows p, p + 1 */
        R_ x = t[p * n + i], y = t[(p + 1) * n + i];
        t[p * n + i] = cs * x + sn * y;
        t[(p + 1) * n + i] = cs * y - sn * x;
    }
    for (i = 0; i < n; i++) {  /* columns p, p + 1 */
        R_ x, y;
        if (i < p + 2) {
            x = t[i * n + p];
            y = t[i * n + p + 1];
            t[i * n + p] = cs * x + sn * y;
            t[i * n + p + 1] = cs * y - sn * x;
        }
        x = z[i * n + p];
        y = z[i * n + p + 1];
        z[i * n + p] = cs * x + sn * y;
        z[i * n + p + 1] = cs * y - sn * x;
    }
}

TP_INLINE R_ TP_EIG_SFX(tp_eig_sign)(R_ a, R_ b) { return b >= 0 ? ABS_(a) : -ABS_(a); }

/* dlanv2's standard form of the 2 x 2 block at p (its rotation applied to t and z). */
TP_INLINE void TP_EIG_SFX(tp_eig_standardise)(R_ *t, R_ *z, int64_t n, int64_t p)
{
    R_ a = t[p * n + p], b = t[p * n + p + 1], c = t[(p + 1) * n + p],
       d = t[(p + 1) * n + p + 1];
    R_ cs = 1, sn = 0;
    int real = 0;  /* the rotation makes the block triangular */
    if (c == 0)
        return;
    if (b == 0) {
        cs = 0;
        sn = 1;
        real = 1;
    } else if (a - d == 0 && (b >= 0) != (c >= 0)) {
        return;
    } else {
        R_ temp = a - d, p2 = temp / 2;
        R_ bcmax = ABS_(b) > ABS_(c) ? ABS_(b) : ABS_(c);
        R_ bcmis = (ABS_(b) < ABS_(c) ? ABS_(b) : ABS_(c)) * TP_EIG_SFX(tp_eig_sign)(1, b)
                   * TP_EIG_SFX(tp_eig_sign)(1, c);
        R_ scale = ABS_(p2) > bcmax ? ABS_(p2) : bcmax;
        R_ zz = p2 / scale * p2 + bcmax / scale * bcmis;
        if (zz >= 4 * TP_EIG_EPS) {  /* real eigenvalues: make the block triangular */
            zz = p2 + TP_EIG_SFX(tp_eig_sign)(SQRT_(scale) * SQRT_(zz), p2);
            R_ tau = SQRT_(c * c + zz * zz);
            cs = zz / tau;
            sn = c / tau;
            real = 1;
        } else {  /* complex (or nearly equal) eigenvalues: equal diagonal entries */
            R_ sigma = b + c, tau = SQRT_(sigma * sigma + temp * temp);
            cs = SQRT_((1 + ABS_(sigma) / tau) / 2);
            sn = -(p2 / (tau * cs)) * TP_EIG_SFX(tp_eig_sign)(1, sigma);
        }
    }
    TP_EIG_SFX(tp_eig_rotate)(t, z, n, p, cs, sn);
    if (real) {
        t[(p + 1) * n + p] = 0;
        return;
    }
    a = t[p * n + p];
    b = t[p * n + p + 1];
    c = t[(p + 1) * n + p];
    d = t[(p + 1) * n + p + 1];
    if (c != 0 && b != 0 && (b >= 0) == (c >= 0)) {
        /* real eigenvalues after all: one more rotation to triangular form */
        R_ sab = SQRT_(ABS_(b)), sac = SQRT_(ABS_(c));
        R_ tau = 1 / SQRT_(ABS_(b + c));
        TP_EIG_SFX(tp_eig_rotate)(t, z, n, p, sab * tau, sac * tau);
        t[(p + 1) * n + p] = 0;
    } else if (c != 0 && b == 0) {
        TP_EIG_SFX(tp_eig_rotate)(t, z, n, p, 0, 1);
        t[(p + 1) * n + p] = 0;
    } else if (b == 0) {  /* c == 0 too: already triangular */
        t[(p + 1) * n + p] = 0;
    } else if (c != 0) {
        R_ mean = (a + d) / 2;  /* equal diagonal entries, exactly */
        t[p * n + p] = t[(p + 1) * n + p + 1] = mean;
    }
}

/* Francis double-shift QR on the Hessenberg t (whole matrix updated), accumulating into
 * z, in dlahqr's design so that eigenvalues come out in LAPACK's order: Ahues and
 * Tisseur's deflation test, shifts from the trailing 2 x 2 block (a real pair replaced
 * by the eigenvalue nearer its last diagonal entry, twice), exceptional shifts every
 * 10th iteration without deflation, the bulge started where two consecutive
 * subdiagonal entries are small. Returns 0 when it does not converge. */
TP_INLINE int TP_EIG_SFX(tp_eig_hqr)(R_ *t, R_ *z, int64_t n)
{
#define H_(i, j) t[((i) - 1) * n + (j) - 1]
    const R_ ulp = TP_EIG_EPS, smlnum = TP_EIG_MIN * ((R_)n / TP_EIG_EPS);
    const int64_t itmax = 30 * (n > 10 ? n : 10);
    int64_t i = n, l, k, m, j, its, kdefl = 0, nr;
    R_ v[3] = {0, 0, 0};
    for (j = 1; j <= n - 3; j++) {  /* clear what lies below the subdiagonal */
        H_(j + 2, j) = 0;
        H_(j + 3, j) = 0;
    }
    if (n >= 3)
        H_(n, n - 2) = 0;
    while (i >= 1) {
        int converged = 0;
        l = 1;
        for (its = 0; its <= itmax; its++) {
            R_ s, h11, h12, h21, h22, rt1r, rt1i, rt2r, rt2i;
            for (k = i; k > l; k--) {  /* a negligible subdiagonal entry */
                R_ tst, ab, ba, aa, bb;
                if (ABS_(H_(k, k - 1)) <= smlnum)
                    break;
                tst = ABS_(H_(k - 1, k - 1)) + ABS_(H_(k, k));
                if (tst == 0) {
                    if (k - 2 >= 1)
                        tst += ABS_(H_(k - 1, k - 2));
                    if (k + 1 <= n)
                        tst += ABS_(H_(k + 1, k));
                }
                if (ABS_(H_(k, k - 1)) <= ulp * tst) {
                    ab = ABS_(H_(k, k - 1)) > ABS_(H_(k - 1, k)) ? ABS_(H_(k, k - 1))
                                                                 : ABS_(H_(k - 1, k));
                    ba = ABS_(H_(k, k - 1)) > ABS_(H_(k - 1, k)) ? ABS_(H_(k - 1, k))
                                                                 : ABS_(H_(k, k - 1));
                    R_ d = ABS_(H_(k - 1, k - 1) - H_(k, k));
                    aa = ABS_(H_(k, k)) > d ? ABS_(H_(k, k)) : d;
                    bb = ABS_(H_(k, k)) > d ? d : ABS_(H_(k, k));
                    s = aa + ab;
                    R_ lim = ulp * (bb * (aa / s));
                    if (ba * (ab / s) <= (smlnum > lim ? smlnum : lim))
                        break;
                }
            }
            l = k;
            if (l > 1)
                H_(l, l - 1) = 0;
            if (l >= i - 1) {
                converged = 1;
                break;
            }
            kdefl++;
            if (kdefl % 20 == 0) {  /* exceptional shifts */
                s = ABS_(H_(i, i - 1)) + ABS_(H_(i - 1, i - 2));
                h11 = (R_)0.75 * s + H_(i, i);
                h12 = (R_)-0.4375 * s;
                h21 = s;
                h22 = h11;
            } else if (kdefl % 10 == 0) {
                s = ABS_(H_(l + 1, l)) + ABS_(H_(l + 2, l + 1));
                h11 = (R_)0.75 * s + H_(l, l);
                h12 = (R_)-0.4375 * s;
                h21 = s;
                h22 = h11;
            } else {
                h11 = H_(i - 1, i - 1);
                h21 = H_(i, i - 1);
                h12 = H_(i - 1, i);
                h22 = H_(i, i);
            }
            s = ABS_(h11) + ABS_(h12) + ABS_(h21) + ABS_(h22);
            if (s == 0) {
                rt1r = rt1i = rt2r = rt2i = 0;
            } else {
                h11 /= s;
                h21 /= s;
                h12 /= s;
                h22 /= s;
                R_ tr = (h11 + h22) / 2;
                R_ det = (h11 - tr) * (h22 - tr) - h12 * h21;
                R_ rtdisc = SQRT_(ABS_(det));
                if (det >= 0) {  /* a complex conjugate pair */
                    rt1r = tr * s;
                    rt2r = rt1r;
                    rt1i = rtdisc * s;
                    rt2i = -rt1i;
                } else {  /* real shifts: the one nearer h22, twice */
                    rt1r = tr + rtdisc;
                    rt2r = tr - rtdisc;
                    if (ABS_(rt1r - h22) <= ABS_(rt2r - h22)) {
                        rt1r *= s;
                        rt2r = rt1r;
                    } else {
                        rt2r *= s;
                        rt1r = rt2r;
                    }
                    rt1i = rt2i = 0;
                }
            }
            for (m = i - 2; m >= l; m--) {  /* two consecutive small subdiagonal entries */
                R_ h21s = H_(m + 1, m), h00, h01;
                s = ABS_(H_(m, m) - rt2r) + ABS_(rt2i) + ABS_(h21s);
                h21s = H_(m + 1, m) / s;
                v[0] = h21s * H_(m, m + 1) + (H_(m, m) - rt1r) * ((H_(m, m) - rt2r) / s)
                       - rt1i * (rt2i / s);
                v[1] = h21s * (H_(m, m) + H_(m + 1, m + 1) - rt1r - rt2r);
                v[2] = h21s * H_(m + 2, m + 1);
                s = ABS_(v[0]) + ABS_(v[1]) + ABS_(v[2]);
                v[0] /= s;
                v[1] /= s;
                v[2] /= s;
                if (m == l)
                    break;
                h00 = ABS_(H_(m, m - 1)) * (ABS_(v[1]) + ABS_(v[2]));
                h01 = ABS_(v[0]) * (ABS_(H_(m - 1, m - 1)) + ABS_(H_(m, m))
                                    + ABS_(H_(m + 1, m + 1)));
                if (h00 <= ulp * h01)
                    break;
            }
            for (k = m; k <= i - 1; k++) {  /* the double-shift QR sweep */
                R_ t1 = 0, t2, t3, v2, v3, sum, xnorm, alpha, beta;
                nr = i - k + 1 < 3 ? i - k + 1 : 3;
                if (k > m) {
                    v[0] = H_(k, k - 1);
                    v[1] = H_(k + 1, k - 1);
                    if (nr == 3)
                        v[2] = H_(k + 2, k - 1);
                }
                /* larfg on v[0..nr-1] */
                alpha = v[0];
                xnorm = nr == 3 ? SQRT_(v[1] * v[1] + v[2] * v[2]) : ABS_(v[1]);
                if (xnorm != 0) {
                    beta = -TP_EIG_SFX(tp_eig_sign)(SQRT_(alpha * alpha + xnorm * xnorm), alpha);
                    t1 = (beta - alpha) / beta;
                    v[1] /= alpha - beta;
                    if (nr == 3)
                        v[2] /= alpha - beta;
                    v[0] = beta;
                }
                if (k > m) {
                    H_(k, k - 1) = v[0];
                    H_(k + 1, k - 1) = 0;
                    if (k < i - 1)
                        H_(k + 2, k - 1) = 0;
                } else if (m > l) {
                    H_(k, k - 1) *= 1 - t1;
                }
                v2 = v[1];
                t2 = t1 * v2;
                if (nr == 3) {
                    v3 = v[2];
                    t3 = t1 * v3;
                    for (j = k; j <= n; j++) {
                        sum = H_(k, j) + v2 * H_(k + 1, j) + v3 * H_(k + 2, j);
                        H_(k, j) -= sum * t1;
                        H_(k + 1, j) -= sum * t2;
                        H_(k + 2, j) -= sum * t3;
                    }
                    for (j = 1; j <= (k + 3 < i ? k + 3 : i); j++) {
                        sum = H_(j, k) + v2 * H_(j, k + 1) + v3 * H_(j, k + 2);
                        H_(j, k) -= sum * t1;
                        H_(j, k + 1) -= sum * t2;
                        H_(j, k + 2) -= sum * t3;
                    }
                    for (j = 0; j < n; j++) {
                        R_ *zr = z + j * n + k - 1;
                        sum = zr[0] + v2 * zr[1] + v3 * zr[2];
                        zr[0] -= sum * t1;
                        zr[1] -= sum * t2;
                        zr[2] -= sum * t3;
                    }
                } else if (nr == 2) {
                    for (j = k; j <= n; j++) {
                        sum = H_(k, j) + v2 * H_(k + 1, j);
                        H_(k, j) -= sum * t1;
                        H_(k + 1, j) -= sum * t2;
                    }
                    for (j = 1; j <= i; j++) {
                        sum = H_(j, k) + v2 * H_(j, k + 1);
                        H_(j, k) -= sum * t1;
                        H_(j, k + 1) -= sum * t2;
                    }
                    for (j = 0; j < n; j++) {
                        R_ *zr = z + j * n + k - 1;
                        sum = zr[0] + v2 * zr[1];
                        zr[0] -= sum * t1;
                        zr[1] -= sum * t2;
                    }
                }
            }
        }
        if (!converged)
            return 0;
        if (l == i - 1)  /* a 2 x 2 block: dlanv2's standard form */
            TP_EIG_SFX(tp_eig_standardise)(t, z, n, i - 2);
        kdefl = 0;
        i = l - 1;
    }
    return 1;
#undef H_
}

/* Real Schur form: t = T, z = Z (a = Z T Z^T); work: n elements. Returns 0 (outputs
 * NaN) for a non-finite matrix or no convergence. */
TP_INLINE int TP_EIG_SFX(tp_schur)(const R_ *a, R_ *t, R_ *z, int64_t n, R_ *work)
{
    int64_t i, j;
    int ok = 1;
    for (i = 0; i < n * n; i++) {
        t[i] = a[i];
        if (!isfinite(a[i]))
            ok = 0;
    }
    if (ok && n > 0) {
        TP_EIG_SFX(tp_hessenberg)(t, work, n);
        /* orghr: Z = diag(1, householder product of the reflectors below t's subdiagonal) */
        for (i = 0; i < n; i++)
            z[i] = z[i * n] = i == 0 ? 1 : 0;
        if (n > 1)
            TP_EIG_SFX(tp_householder_product)(t + n, n, work, n - 1, n - 1, n - 1,
                                               z + n + 1, n);
        for (i = 2; i < n; i++)
            for (j = 0; j + 1 < i; j++)
                t[i * n + j] = 0;
        ok = TP_EIG_SFX(tp_eig_hqr)(t, z, n);
        for (i = 2; i < n; i++)  /* what the bulge chases left below the subdiagonal */
            for (j = 0; j + 1 < i; j++)
                t[i * n + j] = 0;
    }
    if (!ok)
        for (i = 0; i < n * n; i++)
            t[i] = z[i] = (R_)NAN;
    return ok;
}

/* The eigenvector of quasi-triangular M (entry (i, j) at m[base + i rs + j cs]) for the
 * eigenvalue lam starting at diagonal position k, into x (n, zero past the block). */
TP_INLINE void TP_EIG_SFX(tp_eig_backsolve)(const R_ *m, int64_t base, int64_t rs,
                                            int64_t cs, int64_t n, int64_t k, C_ lam,
                                            R_ smin, C_ *x)
{
#define M_(i, j) m[base + (i) * rs + (j) * cs]
    int64_t i, j, kend = k;
    for (i = 0; i < n; i++)
        x[i] = 0;
    if (k + 1 < n && M_(k + 1, k) != 0) {  /* (b, i s) solves the standard 2 x 2 block */
        x[k] = M_(k, k + 1);
        x[k + 1] = TP_EIG_SFX(tp_eig_cplx)(0, TP_EIG_SFX(tp_eig_im)(lam));
        kend = k + 1;
    } else {
        x[k] = 1;
    }
    i = k - 1;
    while (i >= 0) {
        if (i >= 1 && M_(i, i - 1) != 0) {  /* a 2 x 2 block on rows i - 1, i */
            C_ r1 = 0, r2 = 0, a11, a22, det;
            R_ a12 = M_(i - 1, i), a21 = M_(i, i - 1);
            for (j = i + 1; j <= kend; j++) {
                r1 -= M_(i - 1, j) * x[j];
                r2 -= M_(i, j) * x[j];
            }
            a11 = M_(i - 1, i - 1) - lam;
            a22 = M_(i, i) - lam;
            det = a11 * a22 - a12 * a21;
            if (TP_EIG_SFX(tp_eig_cabs)(det) < smin * smin)
                det = smin * smin;
            x[i - 1] = TP_EIG_SFX(tp_eig_cdiv)(r1 * a22 - a12 * r2, det);
            x[i] = TP_EIG_SFX(tp_eig_cdiv)(a11 * r2 - a21 * r1, det);
            i -= 2;
        } else {
            C_ r = 0, d = M_(i, i) - lam;
            for (j = i + 1; j <= kend; j++)
                r -= M_(i, j) * x[j];
            if (TP_EIG_SFX(tp_eig_cabs)(d) < smin)
                d = smin;
            x[i] = TP_EIG_SFX(tp_eig_cdiv)(r, d);
            i -= 1;
        }
    }
#undef M_
}

/* v = Z x (x in reversed order when rev), normalised as dgeev does, into column col of
 * out (n x n). */
TP_INLINE void TP_EIG_SFX(tp_eig_vector)(const R_ *z, const C_ *x, int64_t n, int rev,
                                         int conj, int real, C_ *out, int64_t col)
{
    int64_t i, j, top = 0;
    R_ norm = 0, big = -1, mag;
    for (i = 0; i < n; i++) {
        C_ s = 0;
        for (j = 0; j < n; j++)
            s += z[i * n + j] * x[rev ? n - 1 - j : j];
        if (conj)
            s = TP_EIG_SFX(tp_eig_cplx)(TP_EIG_SFX(tp_eig_re)(s), -TP_EIG_SFX(tp_eig_im)(s));
        out[i * n + col] = s;
    }
    for (i = 0; i < n; i++) {
        mag = TP_EIG_SFX(tp_eig_cabs)(out[i * n + col]);
        norm += mag * mag;
        if (mag > big) {
            big = mag;
            top = i;
        }
    }
    norm = SQRT_(norm);
    C_ scale = TP_EIG_SFX(tp_eig_cplx)(norm > 0 ? 1 / norm : 1, 0);
    if (!real && big > 0) {  /* the largest component real and positive */
        C_ tv = out[top * n + col];
        scale = TP_EIG_SFX(tp_eig_cplx)(TP_EIG_SFX(tp_eig_re)(tv) / (big * norm),
                                        -TP_EIG_SFX(tp_eig_im)(tv) / (big * norm));
    }
    for (i = 0; i < n; i++) {
        C_ s = out[i * n + col] * scale;
        if (real)  /* a real eigenvalue's vector is real */
            s = TP_EIG_SFX(tp_eig_cplx)(TP_EIG_SFX(tp_eig_re)(s), 0);
        out[i * n + col] = s;
    }
    if (!real)
        out[top * n + col] = TP_EIG_SFX(tp_eig_cplx)(TP_EIG_SFX(tp_eig_re)(out[top * n + col]), 0);
}

/* Eigenvalues w (n) and left/right eigenvectors vl/vr (n x n, in columns; either may
 * be NULL) of a. Work: 2 n n + 5 n reals (T, Z, taus, two complex vectors). */
TP_INLINE void TP_EIG_SFX(tp_eig)(const R_ *a, C_ *w, C_ *vl, C_ *vr, int64_t n, R_ *work)
{
    R_ *t = work, *z = work + n * n, *taus = z + n * n;
    C_ *x = (C_ *)(taus + n), *y = x + n;
    int64_t i, k;
    R_ tnorm = 0, smin;
    if (!TP_EIG_SFX(tp_schur)(a, t, z, n, taus)) {
        C_ nan = TP_EIG_SFX(tp_eig_cplx)((R_)NAN, (R_)NAN);
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
    for (i = 0; i < n * n; i++)
        tnorm += ABS_(t[i]);
    smin = TP_EIG_EPS * tnorm;
    if (smin < TP_EIG_MIN)
        smin = TP_EIG_MIN;
    for (k = 0; k < n; k++) {
        if (k + 1 < n && t[(k + 1) * n + k] != 0) {  /* a conjugate pair */
            R_ s = SQRT_(ABS_(t[k * n + k + 1])) * SQRT_(ABS_(t[(k + 1) * n + k]));
            C_ lam = TP_EIG_SFX(tp_eig_cplx)(t[k * n + k], s);
            w[k] = lam;
            w[k + 1] = TP_EIG_SFX(tp_eig_cplx)(t[k * n + k], -s);
            if (vr) {
                TP_EIG_SFX(tp_eig_backsolve)(t, 0, n, 1, n, k, lam, smin, x);
                TP_EIG_SFX(tp_eig_vector)(z, x, n, 0, 0, 0, vr, k);
                for (i = 0; i < n; i++)
                    vr[i * n + k + 1] = TP_EIG_SFX(tp_eig_cplx)(
                        TP_EIG_SFX(tp_eig_re)(vr[i * n + k]), -TP_EIG_SFX(tp_eig_im)(vr[i * n + k]));
            }
            if (vl) {  /* T's reversed transpose: entry (i, j) = T[n-1-j][n-1-i] */
                TP_EIG_SFX(tp_eig_backsolve)(t, n * n - 1, -1, -n, n, n - 2 - k, lam, smin, y);
                TP_EIG_SFX(tp_eig_vector)(z, y, n, 1, 1, 0, vl, k);
                for (i = 0; i < n; i++)
                    vl[i * n + k + 1] = TP_EIG_SFX(tp_eig_cplx)(
                        TP_EIG_SFX(tp_eig_re)(vl[i * n + k]), -TP_EIG_SFX(tp_eig_im)(vl[i * n + k]));
            }
            k++;
            continue;
        }
        w[k] = TP_EIG_SFX(tp_eig_cplx)(t[k * n + k], 0);
        if (vr) {
            TP_EIG_SFX(tp_eig_backsolve)(t, 0, n, 1, n, k, w[k], smin, x);
            TP_EIG_SFX(tp_eig_vector)(z, x, n, 0, 0, 1, vr, k);
        }
        if (vl) {
            TP_EIG_SFX(tp_eig_backsolve)(t, n * n - 1, -1, -n, n, n - 1 - k, w[k], smin, y);
            TP_EIG_SFX(tp_eig_vector)(z, y, n, 1, 0, 1, vl, k);
        }
    }
}

#undef R_
#undef C_
#undef SQRT_
#undef ABS_

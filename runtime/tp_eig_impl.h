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

/* Rotate rows/columns p, p + 1 of t (the whole matrix) and columns of z by (cs, sn):
 * x' = cs x + sn y, y' = cs y - sn x. */
TP_INLINE void TP_EIG_SFX(tp_eig_rotate)(R_ *t, R_ *z, int64_t n, int64_t p, R_ cs, R_ sn)
{
    int64_t i;
    for (i = 0; i < n; i++) {  /* rows p, p + 1 */
        R_ x = t[p * n + i], y = t[(p + 1) * n + i];
        t[p * n + i] = cs * x + sn * y;
        t[(p + 1) * n + i] = cs * y - sn * x;
    }
    for (i = 0; i < n; i++) {  /* columns p, p + 1 */
        R_ x = t[i * n + p], y = t[i * n + p + 1];
        t[i * n + p] = cs * x + sn * y;
        t[i * n + p + 1] = cs * y - sn * x;
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
    if (c == 0)
        return;
    if (b == 0) {
        cs = 0;
        sn = 1;
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
        } else {  /* complex (or nearly equal) eigenvalues: equal diagonal entries */
            R_ sigma = b + c, tau = SQRT_(sigma * sigma + temp * temp);
            cs = SQRT_((1 + ABS_(sigma) / tau) / 2);
            sn = -(p2 / (tau * cs)) * TP_EIG_SFX(tp_eig_sign)(1, sigma);
        }
    }
    TP_EIG_SFX(tp_eig_rotate)(t, z, n, p, cs, sn);
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
    } else if (c != 0) {
        R_ mean = (a + d) / 2;  /* equal diagonal entries, exactly */
        t[p * n + p] = t[(p + 1) * n + p + 1] = mean;
    }
}

/* Francis double-shift QR on the Hessenberg t (whole matrix updated), accumulating into
 * z. Returns 0 when an eigenvalue needs more than 30 iterations. */
TP_INLINE int TP_EIG_SFX(tp_eig_hqr)(R_ *t, R_ *z, int64_t n)
{
    int64_t nn = n - 1, l = 0, m, k, i, j, its, mmin;
    R_ anorm = 0, shift = 0, p = 0, q = 0, r = 0, s, w, x, y, zz, u, v;
    for (i = 0; i < n; i++)
        for (j = i > 0 ? i - 1 : 0; j < n; j++)
            anorm += ABS_(t[i * n + j]);
    while (nn >= 0) {
        its = 0;
        do {
            for (l = nn; l > 0; l--) {  /* a negligible subdiagonal entry splits */
                s = ABS_(t[(l - 1) * n + l - 1]) + ABS_(t[l * n + l]);
                if (s == 0)
                    s = anorm;
                if (ABS_(t[l * n + l - 1]) + s == s) {
                    t[l * n + l - 1] = 0;
                    break;
                }
            }
            x = t[nn * n + nn];
            if (l == nn) {  /* one eigenvalue */
                t[nn * n + nn] = x + shift;
                nn--;
            } else if (l == nn - 1) {  /* a 2 x 2 block */
                t[nn * n + nn] = x + shift;
                t[(nn - 1) * n + nn - 1] += shift;
                TP_EIG_SFX(tp_eig_standardise)(t, z, n, nn - 1);
                nn -= 2;
            } else {
                y = t[(nn - 1) * n + nn - 1];
                w = t[nn * n + nn - 1] * t[(nn - 1) * n + nn];
                if (its == 30)
                    return 0;
                if (its == 10 || its == 20) {  /* exceptional shift */
                    shift += x;
                    for (i = 0; i <= nn; i++)
                        t[i * n + i] -= x;
                    s = ABS_(t[nn * n + nn - 1]) + ABS_(t[(nn - 1) * n + nn - 2]);
                    y = x = (R_)0.75 * s;
                    w = (R_)-0.4375 * s * s;
                }
                its++;
                for (m = nn - 2; m >= l; m--) {  /* where the double shift starts */
                    zz = t[m * n + m];
                    r = x - zz;
                    s = y - zz;
                    p = (r * s - w) / t[(m + 1) * n + m] + t[m * n + m + 1];
                    q = t[(m + 1) * n + m + 1] - zz - r - s;
                    r = t[(m + 2) * n + m + 1];
                    s = ABS_(p) + ABS_(q) + ABS_(r);
                    p /= s;
                    q /= s;
                    r /= s;
                    if (m == l)
                        break;
                    u = ABS_(t[m * n + m - 1]) * (ABS_(q) + ABS_(r));
                    v = ABS_(p) * (ABS_(t[(m - 1) * n + m - 1]) + ABS_(zz)
                                   + ABS_(t[(m + 1) * n + m + 1]));
                    if (u + v == v)
                        break;
                }
                for (i = m; i < nn - 1; i++) {
                    t[(i + 2) * n + i] = 0;
                    if (i != m)
                        t[(i + 2) * n + i - 1] = 0;
                }
                for (k = m; k < nn; k++) {  /* chase the bulge */
                    if (k != m) {
                        p = t[k * n + k - 1];
                        q = t[(k + 1) * n + k - 1];
                        r = k + 1 != nn ? t[(k + 2) * n + k - 1] : 0;
                        x = ABS_(p) + ABS_(q) + ABS_(r);
                        if (x != 0) {
                            p /= x;
                            q /= x;
                            r /= x;
                        }
                    }
                    s = TP_EIG_SFX(tp_eig_sign)(SQRT_(p * p + q * q + r * r), p);
                    if (s == 0)
                        continue;
                    if (k == m) {
                        if (l != m)
                            t[k * n + k - 1] = -t[k * n + k - 1];
                    } else {
                        t[k * n + k - 1] = -s * x;
                    }
                    p += s;
                    x = p / s;
                    y = q / s;
                    zz = r / s;
                    q /= p;
                    r /= p;
                    for (j = k; j < n; j++) {  /* rows k..k+2 */
                        p = t[k * n + j] + q * t[(k + 1) * n + j];
                        if (k + 1 != nn) {
                            p += r * t[(k + 2) * n + j];
                            t[(k + 2) * n + j] -= p * zz;
                        }
                        t[(k + 1) * n + j] -= p * y;
                        t[k * n + j] -= p * x;
                    }
                    mmin = nn < k + 3 ? nn : k + 3;
                    for (i = 0; i <= mmin; i++) {  /* columns k..k+2 */
                        p = x * t[i * n + k] + y * t[i * n + k + 1];
                        if (k + 1 != nn) {
                            p += zz * t[i * n + k + 2];
                            t[i * n + k + 2] -= p * r;
                        }
                        t[i * n + k + 1] -= p * q;
                        t[i * n + k] -= p;
                    }
                    for (i = 0; i < n; i++) {
                        p = x * z[i * n + k] + y * z[i * n + k + 1];
                        if (k + 1 != nn) {
                            p += zz * z[i * n + k + 2];
                            z[i * n + k + 2] -= p * r;
                        }
                        z[i * n + k + 1] -= p * q;
                        z[i * n + k] -= p;
                    }
                }
            }
        } while (l + 1 < nn);
    }
    return 1;
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

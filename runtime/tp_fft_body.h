/* The FFT code of tp_fft.h for one real type: tp_fft.h includes this file once per type
 * with TPFFT_T (float, double) and TPFFT_S (f32, f64) defined. No include guard, on
 * purpose; see tp_fft.h for the design. */
#define T TPFFT_T
#define F(name) TPFFT_CAT(name, TPFFT_S)
#define PLAN F(tp_fft_plan)

typedef struct PLAN PLAN;
struct PLAN {
    int64_t n;
    int nst, rad[64];                /* Stockham stages (nst = 0 for Bluestein) */
    int64_t off[64];
    T *tw;                           /* per stage, per i: r-1 interleaved twiddles */
    int64_t m;                       /* Bluestein: convolution length, else 0 */
    PLAN *sub;
    T *chirp, *filt;                 /* split: n (m) re, then n (m) im */
    int64_t n1, n2;                  /* four-step n = n1 n2 (0 when not used) */
    PLAN *p1, *p2;
    T *tw4;                          /* w_n^(k1 b): n re, then n im (fourstep order) */
    PLAN *half;                      /* real transforms of even n: the plan of n/2 */
    T *rtw;                          /* w_n^k, k <= n/2: n/2+1 re, then n/2+1 im */
    T *spare;                        /* a kept line buffer (see tpfft_take) */
};

static PLAN *F(tpfft_make)(int64_t n, int top);
static void F(tpfft_block)(const PLAN *p, int64_t B, T **re, T **im, T *w);

/* Complex columns per block: 8 keep a block of 256 (its two arrays and the work
 * space) in L1, and every inner loop a whole number of vectors. */
static int64_t F(tpfft_width)(const PLAN *p)
{
    const int64_t len = p->m ? p->m : p->n;
    return len <= 4096 ? 8 : 4;
}

/* Values of T the block transform of B columns needs beyond its own two arrays. */
static int64_t F(tpfft_work)(const PLAN *p, int64_t B)
{
    return p->m ? 2 * p->m * B + F(tpfft_work)(p->sub, B) : 2 * p->n * B;
}

static PLAN *F(tpfft_make)(int64_t n, int top)
{
    PLAN *p = (PLAN *)calloc(1, sizeof(PLAN));
    int64_t r = n, total = 0, ncur = n;
    p->n = n;
    while (r > 1 && r % 8 == 0) { p->rad[p->nst++] = 8; r /= 8; }
    while (r > 1 && r % 4 == 0) { p->rad[p->nst++] = 4; r /= 4; }
    while (r > 1 && r % 2 == 0) { p->rad[p->nst++] = 2; r /= 2; }
    while (r > 1 && r % 3 == 0) { p->rad[p->nst++] = 3; r /= 3; }
    while (r > 1 && r % 5 == 0) { p->rad[p->nst++] = 5; r /= 5; }
    if (r > 1) {
        /* Bluestein: X_k = c_k sum_j (x_j c_j) conj(c_{k-j}), c_j = exp(-i pi j^2/n) */
        /* the convolution's length: the least 2^a 3^b 5^c >= 2n - 1 */
        int64_t m = 1;
        while (m < 2 * n - 1) m *= 2;
        for (int64_t p5 = 1; p5 < m; p5 *= 5)
            for (int64_t p3 = p5; p3 < m; p3 *= 3) {
                int64_t c = p3;
                while (c < 2 * n - 1) c *= 2;
                if (c < m) m = c;
            }
        p->nst = 0; p->m = m;
        p->sub = F(tpfft_make)(m, 0);
        p->chirp = (T *)malloc(sizeof(T) * 2 * (size_t)n);
        T *fr = (T *)calloc((size_t)(2 * m), sizeof(T)), *fi = fr + m;
        for (int64_t j = 0; j < n; j++) {
            /* j^2 mod 2n in integers keeps the angle exact for large j */
            int64_t q = (int64_t)(((unsigned __int128)j * (unsigned __int128)j)
                                  % (unsigned __int128)(2 * n));
            double a = TPFFT_PI * (double)q / (double)n;
            p->chirp[j] = (T)cos(a); p->chirp[n + j] = (T)-sin(a);
            fr[j] = (T)(cos(a) / (double)m); fi[j] = (T)(sin(a) / (double)m);
            if (j) { fr[m - j] = fr[j]; fi[m - j] = fi[j]; }
        }
        T *w = (T *)malloc(sizeof(T) * (size_t)F(tpfft_work)(p->sub, 1));
        T *rr = fr, *ri = fi;
        F(tpfft_block)(p->sub, 1, &rr, &ri, w);
        p->filt = (T *)malloc(sizeof(T) * 2 * (size_t)m);
        memcpy(p->filt, rr, sizeof(T) * (size_t)m);
        memcpy(p->filt + m, ri, sizeof(T) * (size_t)m);
        free(w); free(fr);
        return p;
    }
    for (int st = 0; st < p->nst; st++) {
        p->off[st] = total;
        total += (ncur / p->rad[st]) * (p->rad[st] - 1);
        ncur /= p->rad[st];
    }
    p->tw = (T *)malloc(sizeof(T) * 2 * (size_t)(total + 1));
    ncur = n;
    for (int st = 0; st < p->nst; st++) {
        int rr = p->rad[st];
        int64_t mm = ncur / rr;
        T *t = p->tw + 2 * p->off[st];
        for (int64_t q = 0; q < mm; q++)
            for (int k = 1; k < rr; k++) {
                double a = -2.0 * TPFFT_PI * (double)(q * k) / (double)ncur;
                t[2 * (q * (rr - 1) + k - 1)] = (T)cos(a);
                t[2 * (q * (rr - 1) + k - 1) + 1] = (T)sin(a);
            }
        ncur = mm;
    }
    if (top && n >= TPFFT_FOUR_MIN) {
        /* four-step: the largest divisor n1 <= sqrt(n), if the blocks are wide enough */
        int64_t d = 1;
        for (int64_t c = 2; c * c <= n; c++) if (n % c == 0) d = c;
        if (d >= 16) {
            p->n1 = d; p->n2 = n / d;
            p->p1 = F(tpfft_make)(p->n1, 0);
            p->p2 = F(tpfft_make)(p->n2, 0);
            p->tw4 = (T *)malloc(sizeof(T) * 2 * (size_t)n);
            /* in tpfft_fourstep's order: blocks of TPFFT_FOUR_B columns b, k1-major */
            for (int64_t b = 0; b < p->n2; b++)
                for (int64_t k1 = 0; k1 < p->n1; k1++) {
                    const int64_t c0 = b / TPFFT_FOUR_B * TPFFT_FOUR_B;
                    const int64_t bw = p->n2 - c0 < TPFFT_FOUR_B ? p->n2 - c0 : TPFFT_FOUR_B;
                    const int64_t e = c0 * p->n1 + k1 * bw + b - c0;
                    double a = -2.0 * TPFFT_PI * (double)(k1 * b) / (double)n;
                    p->tw4[e] = (T)cos(a); p->tw4[n + e] = (T)sin(a);
                }
        }
    }
    return p;
}

/* The plan of a length-n transform along an axis. */
static PLAN *F(tp_fft_plan_new)(int64_t n) { return F(tpfft_make)(n, 1); }

/* The plan of the last axis of a real transform: for even n its complex half too. */
static PLAN *F(tp_fft_plan_real_new)(int64_t n)
{
    PLAN *p = F(tpfft_make)(n, n % 2 == 1);
    if (n % 2 == 0 && n >= 2) {
        const int64_t h = n / 2;
        p->half = F(tpfft_make)(h, 1);
        p->rtw = (T *)malloc(sizeof(T) * 2 * (size_t)(h + 1));
        for (int64_t k = 0; k <= h; k++) {
            double a = -2.0 * TPFFT_PI * (double)k / (double)n;
            p->rtw[k] = (T)cos(a); p->rtw[h + 1 + k] = (T)sin(a);
        }
    }
    return p;
}

/* Stockham stages on split columns: element (e, v) of a block at e L0 + v. A stage of
 * radix r, m = (current length)/r, L = (product of earlier radices) B reads x at
 * u + L (i + j m), j < r, writes y at u + L (r i + k) = twiddle_k(i) DFT_r_k; the inner
 * loop runs over the L contiguous u, so it vectorises for any stage. */
#define TPFFT_STAGE_HEAD(R)                                                              \
    for (int64_t i = 0; i < m; i++) {                                                    \
        const T *t = tw + 2 * (R - 1) * i;                                               \
        const T *restrict x0r = xr + L * i, *restrict x0i = xi + L * i;                  \
        T *restrict y0r = yr + L * R * i, *restrict y0i = yi + L * R * i;
/* output k of the butterfly, times its twiddle (TPFFT_OUT) or not (i = 0: all ones) */
#define TPFFT_OUT(k, br, bi)                                                             \
    y0r[u + (k) * L] = (br) * t[2 * (k) - 2] - (bi) * t[2 * (k) - 1];                   \
    y0i[u + (k) * L] = (br) * t[2 * (k) - 1] + (bi) * t[2 * (k) - 2];
#define TPFFT_PLAIN(k, br, bi) y0r[u + (k) * L] = (br); y0i[u + (k) * L] = (bi);
#define TPFFT_LOOP(BODY)                                                                 \
        if (i == 0) {                                                                    \
            TPFFT_SIMD                                                                   \
            for (int64_t u = 0; u < L; u++) { BODY(TPFFT_PLAIN) }                        \
        } else {                                                                         \
            TPFFT_SIMD                                                                   \
            for (int64_t u = 0; u < L; u++) { BODY(TPFFT_OUT) }                          \
        }                                                                                \
    }
#define TPFFT_LOAD(j) T a##j##r = x0r[u + (j) * m * L], a##j##i = x0i[u + (j) * m * L];

#define TPFFT_R2(OUT)                                                                    \
    TPFFT_LOAD(0) TPFFT_LOAD(1)                                                          \
    y0r[u] = a0r + a1r; y0i[u] = a0i + a1i;                                              \
    OUT(1, a0r - a1r, a0i - a1i)

#define TPFFT_R4(OUT)                                                                    \
    TPFFT_LOAD(0) TPFFT_LOAD(1) TPFFT_LOAD(2) TPFFT_LOAD(3)                              \
    T t0r = a0r + a2r, t0i = a0i + a2i, t1r = a0r - a2r, t1i = a0i - a2i;                \
    T t2r = a1r + a3r, t2i = a1i + a3i;                                                  \
    T t3r = a1i - a3i, t3i = a3r - a1r; /* -i (a1 - a3) */                               \
    y0r[u] = t0r + t2r; y0i[u] = t0i + t2i;                                              \
    OUT(1, t1r + t3r, t1i + t3i)                                                         \
    OUT(2, t0r - t2r, t0i - t2i)                                                         \
    OUT(3, t1r - t3r, t1i - t3i)

#define TPFFT_R3(OUT)                                                                    \
    TPFFT_LOAD(0) TPFFT_LOAD(1) TPFFT_LOAD(2)                                            \
    T t1r = a1r + a2r, t1i = a1i + a2i, t2r = a1r - a2r, t2i = a1i - a2i;                \
    T m1r = a0r + c3 * t1r, m1i = a0i + c3 * t1i;                                        \
    T m2r = s3 * t2i, m2i = -s3 * t2r; /* -i s (a1 - a2) */                              \
    y0r[u] = a0r + t1r; y0i[u] = a0i + t1i;                                              \
    OUT(1, m1r + m2r, m1i + m2i)                                                         \
    OUT(2, m1r - m2r, m1i - m2i)

#define TPFFT_R5(OUT)                                                                    \
    TPFFT_LOAD(0) TPFFT_LOAD(1) TPFFT_LOAD(2) TPFFT_LOAD(3) TPFFT_LOAD(4)                \
    T t1r = a1r + a4r, t1i = a1i + a4i, t2r = a2r + a3r, t2i = a2i + a3i;                \
    T t3r = a1r - a4r, t3i = a1i - a4i, t4r = a2r - a3r, t4i = a2i - a3i;                \
    T m1r = a0r + c51 * t1r + c52 * t2r, m1i = a0i + c51 * t1i + c52 * t2i;              \
    T m2r = a0r + c52 * t1r + c51 * t2r, m2i = a0i + c52 * t1i + c51 * t2i;              \
    T u1r = s51 * t3r + s52 * t4r, u1i = s51 * t3i + s52 * t4i;                          \
    T u2r = s52 * t3r - s51 * t4r, u2i = s52 * t3i - s51 * t4i;                          \
    y0r[u] = a0r + t1r + t2r; y0i[u] = a0i + t1i + t2i;                                  \
    OUT(1, m1r + u1i, m1i - u1r)                                                         \
    OUT(4, m1r - u1i, m1i + u1r)                                                         \
    OUT(2, m2r + u2i, m2i - u2r)                                                         \
    OUT(3, m2r - u2i, m2i + u2r)

/* radix 8: DFT4 of the even and of the odd inputs, joined by w8^k (w8 = e^{-i pi/4}) */
#define TPFFT_DFT4(y, x0r, x0i, x1r, x1i, x2r, x2i, x3r, x3i)                            \
    T y##0r = x0r + x2r, y##0i = x0i + x2i, y##1r = x0r - x2r, y##1i = x0i - x2i;       \
    T y##2r = x1r + x3r, y##2i = x1i + x3i, y##3r = x1i - x3i, y##3i = x3r - x1r;       \
    T y##e0r = y##0r + y##2r, y##e0i = y##0i + y##2i, y##e2r = y##0r - y##2r;            \
    T y##e2i = y##0i - y##2i, y##e1r = y##1r + y##3r, y##e1i = y##1i + y##3i;            \
    T y##e3r = y##1r - y##3r, y##e3i = y##1i - y##3i;
#define TPFFT_R8(OUT)                                                                    \
    TPFFT_LOAD(0) TPFFT_LOAD(1) TPFFT_LOAD(2) TPFFT_LOAD(3)                              \
    TPFFT_LOAD(4) TPFFT_LOAD(5) TPFFT_LOAD(6) TPFFT_LOAD(7)                              \
    TPFFT_DFT4(e, a0r, a0i, a2r, a2i, a4r, a4i, a6r, a6i)                                \
    TPFFT_DFT4(o, a1r, a1i, a3r, a3i, a5r, a5i, a7r, a7i)                                \
    T q1r = h8 * (oe1r + oe1i), q1i = h8 * (oe1i - oe1r); /* w8 o1 */                    \
    T q2r = oe2i, q2i = -oe2r;                            /* w8^2 o2 = -i o2 */           \
    T q3r = h8 * (oe3i - oe3r), q3i = -h8 * (oe3r + oe3i); /* w8^3 o3 */                \
    y0r[u] = ee0r + oe0r; y0i[u] = ee0i + oe0i;                                          \
    OUT(4, ee0r - oe0r, ee0i - oe0i)                                                     \
    OUT(1, ee1r + q1r, ee1i + q1i)                                                       \
    OUT(5, ee1r - q1r, ee1i - q1i)                                                       \
    OUT(2, ee2r + q2r, ee2i + q2i)                                                       \
    OUT(6, ee2r - q2r, ee2i - q2i)                                                       \
    OUT(3, ee3r + q3r, ee3i + q3i)                                                       \
    OUT(7, ee3r - q3r, ee3i - q3i)

static void F(tpfft_r8)(int64_t m, int64_t L, const T *tw, const T *xr, const T *xi,
                        T *yr, T *yi)
{
    const T h8 = (T)0.70710678118654752440;
    TPFFT_STAGE_HEAD(8) TPFFT_LOOP(TPFFT_R8)
}

static void F(tpfft_r2)(int64_t m, int64_t L, const T *tw, const T *xr, const T *xi,
                        T *yr, T *yi)
{
    TPFFT_STAGE_HEAD(2) TPFFT_LOOP(TPFFT_R2)
}

static void F(tpfft_r4)(int64_t m, int64_t L, const T *tw, const T *xr, const T *xi,
                        T *yr, T *yi)
{
    TPFFT_STAGE_HEAD(4) TPFFT_LOOP(TPFFT_R4)
}

static void F(tpfft_r3)(int64_t m, int64_t L, const T *tw, const T *xr, const T *xi,
                        T *yr, T *yi)
{
    const T c3 = (T)-0.5, s3 = (T)0.86602540378443864676;
    TPFFT_STAGE_HEAD(3) TPFFT_LOOP(TPFFT_R3)
}

static void F(tpfft_r5)(int64_t m, int64_t L, const T *tw, const T *xr, const T *xi,
                        T *yr, T *yi)
{
    const T c51 = (T)0.30901699437494742410, c52 = (T)-0.80901699437494742410;
    const T s51 = (T)0.95105651629515357212, s52 = (T)0.58778525229247312917;
    TPFFT_STAGE_HEAD(5) TPFFT_LOOP(TPFFT_R5)
}

/* y = x times w: row j of the B split columns times the complex w_j (split). */
static void F(tpfft_rows_times)(const T *wr, const T *wi, int64_t rows, int64_t B,
                                const T *xr, const T *xi, T *yr, T *yi)
{
    for (int64_t j = 0; j < rows; j++) {
        const T cr = wr[j], ci = wi[j];
        TPFFT_SIMD
        for (int64_t v = 0; v < B; v++) {
            T a = xr[j * B + v], b = xi[j * B + v];
            yr[j * B + v] = a * cr - b * ci; yi[j * B + v] = a * ci + b * cr;
        }
    }
}

/* Forward transforms of the B split columns *re, *im (n B values each, column v of
 * element e at e B + v); w: tpfft_work values. On return *re, *im point at the result:
 * the arrays given or two inside w. An unscaled inverse is the same call with re and
 * im swapped (conj(FFT(conj x)) = swap(FFT(swap x)) for split values). */
static void F(tpfft_block)(const PLAN *p, int64_t B, T **re, T **im, T *w)
{
    const int64_t n = p->n;
    if (p->m) {
        const int64_t m = p->m, nb = n * B;
        T *ar = w, *ai = w + m * B, *sw = w + 2 * m * B, *cr = *re, *ci = *im;
        F(tpfft_rows_times)(p->chirp, p->chirp + n, n, B, cr, ci, ar, ai);
        memset(ar + nb, 0, sizeof(T) * (size_t)((m - n) * B));
        memset(ai + nb, 0, sizeof(T) * (size_t)((m - n) * B));
        T *br = ar, *bi = ai;
        F(tpfft_block)(p->sub, B, &br, &bi, sw);
        /* times the filter's transform (scaled by 1/m), into a, then the inverse */
        F(tpfft_rows_times)(p->filt, p->filt + m, m, B, br, bi, ar, ai);
        br = ar; bi = ai;
        F(tpfft_block)(p->sub, B, &bi, &br, sw);
        F(tpfft_rows_times)(p->chirp, p->chirp + n, n, B, br, bi, cr, ci);
        return;
    }
    T *xr = *re, *xi = *im, *yr = w, *yi = w + n * B;
    int64_t ncur = n, L = B;
    for (int st = 0; st < p->nst; st++) {
        const int r = p->rad[st];
        const int64_t mm = ncur / r;
        const T *tw = p->tw + 2 * p->off[st];
        if (r == 8) F(tpfft_r8)(mm, L, tw, xr, xi, yr, yi);
        else if (r == 4) F(tpfft_r4)(mm, L, tw, xr, xi, yr, yi);
        else if (r == 2) F(tpfft_r2)(mm, L, tw, xr, xi, yr, yi);
        else if (r == 3) F(tpfft_r3)(mm, L, tw, xr, xi, yr, yi);
        else F(tpfft_r5)(mm, L, tw, xr, xi, yr, yi);
        T *t = xr; xr = yr; yr = t;
        t = xi; xi = yi; yi = t;
        ncur = mm; L *= r;
    }
    *re = xr; *im = xi;
}

/* The real-FFT post-pass: Z (split, element (k, v) at k zs + v, k < n/2) is the complex
 * FFT of the even/odd pairs of B real lines of even length n; writes their n/2+1
 * frequencies k0 <= k < k1 (of 0..n/2) to y (interleaved, line v at y + 2 v ys). */
static void F(tpfft_r2c_post)(const PLAN *p, const T *zr, const T *zi, int64_t zs,
                              int64_t B, T *y, int64_t ys, int64_t k0, int64_t k1)
{
    const int64_t h = p->n / 2;
    for (int64_t k = k0; k < k1; k++) {
        const int64_t kk = k % h, kc = (h - k) % h;
        const T wr = p->rtw[k], wi = p->rtw[h + 1 + k], half = (T)0.5;
        for (int64_t v = 0; v < B; v++) {
            T a = zr[kk * zs + v], b = zi[kk * zs + v];
            T c = zr[kc * zs + v], d = zi[kc * zs + v];
            T er = half * (a + c), ei = half * (b - d), orr = half * (b + d), oi = half * (c - a);
            y[2 * (v * ys + k)] = er + (wr * orr - wi * oi);
            y[2 * (v * ys + k) + 1] = ei + (wr * oi + wi * orr);
        }
    }
}

/* The inverse real-FFT pre-pass: from B lines of n/2+1 frequencies x (interleaved, line
 * v at x + 2 v xs), the spectrum Z (split as above) whose unscaled inverse FFT of length
 * n/2 holds n times the real lines' even/odd pairs (its values k0 <= k < k1 of 0..n/2-1).
 * The imaginary parts of the zero and
 * n/2 frequencies are ignored, as in NumPy. */
static void F(tpfft_c2r_pre)(const PLAN *p, const T *x, int64_t xs, int64_t B, T *zr,
                             T *zi, int64_t zs, int64_t k0, int64_t k1)
{
    const int64_t h = p->n / 2;
    for (int64_t k = k0; k < k1; k++) {
        const T wr = p->rtw[k], wi = p->rtw[h + 1 + k], keep = k ? (T)1 : (T)0;
        for (int64_t v = 0; v < B; v++) {
            T pr = x[2 * (v * xs + k)], pi = keep * x[2 * (v * xs + k) + 1];
            T rr = x[2 * (v * xs + h - k)], ri = keep * x[2 * (v * xs + h - k) + 1];
            T sr = pr + rr, si = pi - ri, dr = pr - rr, di = pi + ri;
            T qr = dr * wr + di * wi, qi = di * wr - dr * wi; /* (X_k - conj X_{h-k}) conj w^k */
            zr[k * zs + v] = sr - qi; zi[k * zs + v] = si + qr;
        }
    }
}

/* A buffer of 2 p->n values: the plan's kept one when no other call holds it (a fresh
 * 8 MiB buffer costs its page faults, more than a transform of 2^20 reads), else a new
 * one; tpfft_give keeps it for the next call or frees it. */
static T *F(tpfft_take)(const PLAN *p)
{
    T *b = __atomic_exchange_n(&((PLAN *)p)->spare, (T *)NULL, __ATOMIC_ACQUIRE);
    return b ? b : (T *)malloc(sizeof(T) * 2 * (size_t)p->n);
}

static void F(tpfft_give)(const PLAN *p, T *b)
{
    T *none = NULL;
    if (!__atomic_compare_exchange_n(&((PLAN *)p)->spare, &none, b, 0, __ATOMIC_RELEASE,
                                     __ATOMIC_RELAXED))
        free(b);
}

/* 8 x 8 transposes for blocks of 8 whole lines (GCC vector extensions): x[v] holds
 * elements j0..j0+7 of line v; afterwards x[j] holds element j0+j of lines 0..7. Its own
 * inverse. */
typedef T F(tpfft_vec) __attribute__((vector_size(8 * sizeof(T))));
typedef TPFFT_I F(tpfft_ivec) __attribute__((vector_size(8 * sizeof(T))));
#define V8 F(tpfft_vec)
#define I8 F(tpfft_ivec)
static inline void F(tpfft_t8)(V8 *x)
{
    V8 s[8], t[8];
    for (int k = 0; k < 8; k += 2) {
        s[k] = __builtin_shuffle(x[k], x[k + 1], (I8){0, 8, 2, 10, 4, 12, 6, 14});
        s[k + 1] = __builtin_shuffle(x[k], x[k + 1], (I8){1, 9, 3, 11, 5, 13, 7, 15});
    }
    for (int k = 0; k < 8; k += 4)
        for (int q = 0; q < 2; q++) {
            t[k + q] = __builtin_shuffle(s[k + q], s[k + q + 2], (I8){0, 1, 8, 9, 4, 5, 12, 13});
            t[k + q + 2] = __builtin_shuffle(s[k + q], s[k + q + 2], (I8){2, 3, 10, 11, 6, 7, 14, 15});
        }
    for (int q = 0; q < 4; q++) {
        x[q] = __builtin_shuffle(t[q], t[q + 4], (I8){0, 1, 2, 3, 8, 9, 10, 11});
        x[q + 4] = __builtin_shuffle(t[q], t[q + 4], (I8){4, 5, 6, 7, 12, 13, 14, 15});
    }
}

/* Elements j0..j0+7 of 8 interleaved lines (line v at c + 2 v lstep) to rows j0..j0+7 of
 * a split block of width 8, and back (times scale). */
static inline void F(tpfft_split8)(const T *c, int64_t lstep, int sw, T *re, T *im)
{
    V8 r[8], i[8];
    for (int v = 0; v < 8; v++) {
        V8 lo, hi;
        memcpy(&lo, c + 2 * v * lstep, sizeof(V8));
        memcpy(&hi, c + 2 * v * lstep + 8, sizeof(V8));
        r[v] = __builtin_shuffle(lo, hi, (I8){0, 2, 4, 6, 8, 10, 12, 14});
        i[v] = __builtin_shuffle(lo, hi, (I8){1, 3, 5, 7, 9, 11, 13, 15});
    }
    F(tpfft_t8)(r); F(tpfft_t8)(i);
    for (int j = 0; j < 8; j++) {
        memcpy(re + 8 * j, sw ? &i[j] : &r[j], sizeof(V8));
        memcpy(im + 8 * j, sw ? &r[j] : &i[j], sizeof(V8));
    }
}

static inline void F(tpfft_merge8)(T *c, int64_t lstep, int sw, const T *re, const T *im,
                                   T scale)
{
    V8 r[8], i[8];
    for (int j = 0; j < 8; j++) {
        memcpy(sw ? &i[j] : &r[j], re + 8 * j, sizeof(V8));
        memcpy(sw ? &r[j] : &i[j], im + 8 * j, sizeof(V8));
    }
    F(tpfft_t8)(r); F(tpfft_t8)(i);
    for (int v = 0; v < 8; v++) {
        V8 lo = __builtin_shuffle(r[v], i[v], (I8){0, 8, 1, 9, 2, 10, 3, 11}) * scale;
        V8 hi = __builtin_shuffle(r[v], i[v], (I8){4, 12, 5, 13, 6, 14, 7, 15}) * scale;
        memcpy(c + 2 * v * lstep, &lo, sizeof(V8));
        memcpy(c + 2 * v * lstep + 8, &hi, sizeof(V8));
    }
}

/* Complex values to a split block and back: element (j, v), j < rows, v < bw, of the
 * interleaved array at c[2 (j stride + v lstep)], of the block at j bw + v; sw = 1 swaps
 * re and im (inverse transforms). Unit lstep (adjacent columns) and unit stride (whole
 * lines, transposed on the way) get loops of contiguous accesses. */
static void F(tpfft_split)(const T *c, int64_t rows, int64_t bw, int64_t stride,
                           int64_t lstep, int sw, T *restrict re, T *restrict im)
{
    const T *a = c + sw, *b = c + 1 - sw;
    if (lstep == 1 && bw == 8) {
        /* 8 adjacent columns: each row is two vectors to deinterleave */
        for (int64_t j = 0; j < rows; j++) {
            V8 lo, hi, r, i;
            memcpy(&lo, c + 2 * j * stride, sizeof(V8));
            memcpy(&hi, c + 2 * j * stride + 8, sizeof(V8));
            r = __builtin_shuffle(lo, hi, (I8){0, 2, 4, 6, 8, 10, 12, 14});
            i = __builtin_shuffle(lo, hi, (I8){1, 3, 5, 7, 9, 11, 13, 15});
            memcpy(re + 8 * j, sw ? &i : &r, sizeof(V8));
            memcpy(im + 8 * j, sw ? &r : &i, sizeof(V8));
        }
    } else if (lstep == 1) {
        for (int64_t j = 0; j < rows; j++) {
            const T *ra = a + 2 * j * stride, *rb = b + 2 * j * stride;
            TPFFT_SIMD
            for (int64_t v = 0; v < bw; v++) { re[j * bw + v] = ra[2 * v]; im[j * bw + v] = rb[2 * v]; }
        }
    } else {
        /* whole lines: 8 x 8 tiles in registers when 8 lines are unit-stride */
        int64_t j0 = 0;
        if (bw == 8 && stride == 1)
            for (; j0 + 8 <= rows; j0 += 8)
                F(tpfft_split8)(c + 2 * j0, lstep, sw, re + 8 * j0, im + 8 * j0);
        for (int64_t j = j0; j < rows; j++)
            for (int64_t v = 0; v < bw; v++) {
                re[j * bw + v] = a[2 * (v * lstep + j * stride)];
                im[j * bw + v] = b[2 * (v * lstep + j * stride)];
            }
    }
}

static void F(tpfft_merge)(T *c, int64_t rows, int64_t bw, int64_t stride, int64_t lstep,
                           int sw, const T *restrict re, const T *restrict im, T scale)
{
    T *a = c + sw, *b = c + 1 - sw;
    if (lstep == 1 && bw == 8) {
        for (int64_t j = 0; j < rows; j++) {
            V8 r, i, lo, hi;
            memcpy(sw ? &i : &r, re + 8 * j, sizeof(V8));
            memcpy(sw ? &r : &i, im + 8 * j, sizeof(V8));
            lo = __builtin_shuffle(r, i, (I8){0, 8, 1, 9, 2, 10, 3, 11}) * scale;
            hi = __builtin_shuffle(r, i, (I8){4, 12, 5, 13, 6, 14, 7, 15}) * scale;
            memcpy(c + 2 * j * stride, &lo, sizeof(V8));
            memcpy(c + 2 * j * stride + 8, &hi, sizeof(V8));
        }
    } else if (lstep == 1) {
        for (int64_t j = 0; j < rows; j++) {
            T *ra = a + 2 * j * stride, *rb = b + 2 * j * stride;
            TPFFT_SIMD
            for (int64_t v = 0; v < bw; v++) {
                ra[2 * v] = re[j * bw + v] * scale; rb[2 * v] = im[j * bw + v] * scale;
            }
        }
    } else {
        int64_t j0 = 0;
        if (bw == 8 && stride == 1)
            for (; j0 + 8 <= rows; j0 += 8)
                F(tpfft_merge8)(c + 2 * j0, lstep, sw, re + 8 * j0, im + 8 * j0, scale);
        for (int64_t j = j0; j < rows; j++)
            for (int64_t v = 0; v < bw; v++) {
                a[2 * (v * lstep + j * stride)] = re[j * bw + v] * scale;
                b[2 * (v * lstep + j * stride)] = im[j * bw + v] * scale;
            }
    }
}

/* Length-n transform of one line by the four-step method (n = n1 n2): n2 columns of
 * length n1 (x at n2 a + b), the twiddles w_n^(k1 b), then n1 rows of length n2 written
 * transposed to k1 + n1 k2; blocks of columns and of rows in parallel. Between the
 * passes the values wait split in the order the column blocks write them (each block one
 * contiguous run), so both passes stream through memory. src and dst may be the same;
 * inverse: unscaled inverse; the result times scale. */
static void F(tpfft_fourstep)(const PLAN *p, const T *src, T *dst, int inverse, T scale)
{
    const int64_t n = p->n, n1 = p->n1, n2 = p->n2, B = TPFFT_FOUR_B;
    const int64_t nb1 = (n2 + B - 1) / B, nb2 = (n1 + B - 1) / B, big = n1 > n2 ? n1 : n2;
    const int64_t wk1 = F(tpfft_work)(p->p1, B), wk2 = F(tpfft_work)(p->p2, B);
    const int64_t wn = 2 * big * B + (wk1 > wk2 ? wk1 : wk2);
    const int sw = inverse ? 1 : 0;
    T *mid = F(tpfft_take)(p);
    for (int pass = 0; pass < 2; pass++) {
        const int64_t nb = pass ? nb2 : nb1;
        const int team = tp_par_team(nb);
        _Pragma("omp parallel num_threads(team)")
        {
            T *buf = (T *)malloc(sizeof(T) * (size_t)wn);
            _Pragma("omp for schedule(static) nowait")
            for (int64_t blk = 0; blk < nb; blk++) {
                const int64_t c0 = blk * B;
                T *re = buf, *im = buf + big * B;
                if (!pass) {
                    const int64_t bw = n2 - c0 < B ? n2 - c0 : B;
                    F(tpfft_split)(src + 2 * c0, n1, bw, n2, 1, sw, re, im);
                    F(tpfft_block)(p->p1, bw, &re, &im, buf + 2 * big * B);
                    /* the column block, twiddled, stays one contiguous run of mid */
                    const T *wr = p->tw4 + c0 * n1, *wi = wr + n;
                    T *restrict mr = mid + c0 * n1, *restrict mi = mr + n;
                    TPFFT_SIMD
                    for (int64_t e = 0; e < n1 * bw; e++) {
                        mr[e] = re[e] * wr[e] - im[e] * wi[e];
                        mi[e] = re[e] * wi[e] + im[e] * wr[e];
                    }
                } else {
                    const int64_t bw = n1 - c0 < B ? n1 - c0 : B;
                    for (int64_t cb = 0; cb < n2; cb += B) {
                        const int64_t bb = n2 - cb < B ? n2 - cb : B;
                        const T *mr = mid + cb * n1 + c0 * bb, *mi = mr + n;
                        for (int64_t v = 0; v < bw; v++)
                            for (int64_t u = 0; u < bb; u++) {
                                re[(cb + u) * bw + v] = mr[v * bb + u];
                                im[(cb + u) * bw + v] = mi[v * bb + u];
                            }
                    }
                    F(tpfft_block)(p->p2, bw, &re, &im, buf + 2 * big * B);
                    F(tpfft_merge)(dst + 2 * c0, n2, bw, n1, 1, sw, re, im, scale);
                }
            }
            free(buf);
            tp_par_arrive();
        }
    }
    F(tpfft_give)(p, mid);
}


/* Lines of a transform, blocks of them at once (every kind shares the blocking and the
 * threads; only how a block is read and written differs):
 *   C2C: complex src to dst (may be the same), length p->n along an axis with `inner`
 *        values after it; R2C: real lines of p->n to lines of p->n/2+1 (inner 1);
 *   C2R: lines of p->n/2+1 to real lines of p->n, times scale.
 * q: the plan the blocks run (p->half for real transforms of even length, else p). */
static void F(tpfft_lines)(int kind, const PLAN *p, const T *src, T *dst, int64_t lines,
                           int64_t inner, int inverse, T scale)
{
    const int64_t n = p->n, h = n / 2 + 1;
    const PLAN *q = kind != TPFFT_C2C && p->half ? p->half : p;
    const int64_t len = q->n, B = F(tpfft_width)(q);
    const int64_t per = (inner == 1 ? lines + B - 1 : inner + B - 1) / B;
    const int64_t nblk = (inner == 1 ? 1 : lines / inner) * per;
    const int64_t wn = 2 * len * B + F(tpfft_work)(q, B);
    const int sw = inverse ? 1 : 0;
    const int team = tp_par_team(nblk * len * B >= 16384 ? nblk : 1);
    _Pragma("omp parallel num_threads(team)")
    {
        T *buf = (T *)malloc(sizeof(T) * (size_t)wn);
        _Pragma("omp for schedule(static) nowait")
        for (int64_t blk = 0; blk < nblk; blk++) {
            const int64_t c0 = (blk % per) * B, o = blk / per;
            const int64_t bw = (inner == 1 ? lines : inner) - c0 < B
                ? (inner == 1 ? lines : inner) - c0 : B;
            /* base: line v's first element, stride: between its elements */
            const int64_t base = inner == 1 ? c0 * n : o * n * inner + c0;
            const int64_t lstep = inner == 1 ? n : 1, stride = inner;
            T *re = buf, *im = buf + len * B;
            if (kind == TPFFT_C2C) {
                F(tpfft_split)(src + 2 * base, n, bw, stride, lstep, sw, re, im);
            } else if (kind == TPFFT_R2C) {
                const int64_t step = q == p ? 1 : 2;
                for (int64_t j = 0; j < len; j++)
                    for (int64_t v = 0; v < bw; v++) {
                        const T *e = src + (c0 + v) * n + j * step;
                        re[j * bw + v] = e[0]; im[j * bw + v] = q == p ? (T)0 : e[1];
                    }
            } else if (q != p) {
                F(tpfft_c2r_pre)(p, src + 2 * c0 * h, h, bw, im, re, bw, 0, n / 2);
            } else {
                for (int64_t j = 0; j < n; j++)
                    for (int64_t v = 0; v < bw; v++) {
                        const T *e = src + 2 * ((c0 + v) * h + (j < h ? j : n - j));
                        /* Hermitian extension, re and im swapped for the inverse */
                        im[j * bw + v] = e[0]; re[j * bw + v] = j < h ? e[1] : -e[1];
                    }
            }
            F(tpfft_block)(q, bw, &re, &im, buf + 2 * len * B);
            if (kind == TPFFT_C2C) {
                F(tpfft_merge)(dst + 2 * base, n, bw, stride, lstep, sw, re, im, scale);
            } else if (kind == TPFFT_R2C && q != p) {
                F(tpfft_r2c_post)(p, re, im, bw, bw, dst + 2 * c0 * h, h, 0, h);
            } else if (kind == TPFFT_R2C) {
                for (int64_t j = 0; j < h; j++)
                    for (int64_t v = 0; v < bw; v++) {
                        T *e = dst + 2 * ((c0 + v) * h + j);
                        e[0] = re[j * bw + v]; e[1] = im[j * bw + v];
                    }
            } else {
                /* re, im hold the swapped result: the real lines are in im */
                const int64_t step = q == p ? 1 : 2;
                for (int64_t j = 0; j < len; j++)
                    for (int64_t v = 0; v < bw; v++) {
                        T *e = dst + (c0 + v) * n + j * step;
                        e[0] = im[j * bw + v] * scale;
                        if (q != p) e[1] = re[j * bw + v] * scale;
                    }
            }
        }
        free(buf);
        tp_par_arrive();
    }
}

/* One line's real-FFT post-pass (c2r = 0: the n/2 complex values z to the n/2+1 of y)
 * or pre-pass (c2r = 1: the n/2+1 values z to the n/2 of y), `count` outputs in parallel
 * chunks. */
static void F(tpfft_pairs)(const PLAN *p, const T *z, T *y, int64_t count, int c2r)
{
    const int64_t chunk = 16384, nc = (count + chunk - 1) / chunk;
    const int team = tp_par_team(nc);
    _Pragma("omp parallel num_threads(team)")
    {
        _Pragma("omp for schedule(static) nowait")
        for (int64_t c = 0; c < nc; c++) {
            const int64_t k0 = c * chunk, k1 = k0 + chunk < count ? k0 + chunk : count;
            if (c2r) F(tpfft_c2r_pre)(p, z, 0, 1, y, y + 1, 2, k0, k1);
            else F(tpfft_r2c_post)(p, z, z + 1, 2, 1, y, 0, k0, k1);
        }
        tp_par_arrive();
    }
}

/* Complex transforms of src along an axis (length p->n, `inner` values after it) of
 * `total` complex values, into dst (may be src), each value times scale. */
static void F(tp_fft_axis)(const PLAN *p, const T *src, T *dst, int64_t total,
                           int64_t inner, int inverse, T scale)
{
    const int64_t n = p->n, lines = n ? total / n : 0;
    if (!lines) return;
    if (inner == 1 && p->n1) {
        for (int64_t l = 0; l < lines; l++)
            F(tpfft_fourstep)(p, src + 2 * l * n, dst + 2 * l * n, inverse, scale);
        return;
    }
    F(tpfft_lines)(TPFFT_C2C, p, src, dst, lines, inner, inverse, scale);
}

/* RFFT of the last axis: `lines` real lines of n values to lines of n/2+1. */
static void F(tp_rfft_last)(const PLAN *p, const T *x, T *y, int64_t lines)
{
    const int64_t n = p->n, h = n / 2 + 1;
    if (p->half && p->half->n1) {
        T *z = F(tpfft_take)(p); /* n values are used */
        for (int64_t l = 0; l < lines; l++) {
            F(tpfft_fourstep)(p->half, x + l * n, z, 0, (T)1);
            F(tpfft_pairs)(p, z, (T *)(y + 2 * l * h), h, 0);
        }
        F(tpfft_give)(p, z);
        return;
    }
    F(tpfft_lines)(TPFFT_R2C, p, x, y, lines, 1, 0, (T)1);
}

/* IRFFT of the last axis: lines of n/2+1 Hermitian halves to n real values, scaled. */
static void F(tp_irfft_last)(const PLAN *p, const T *x, T *y, int64_t lines, T scale)
{
    const int64_t n = p->n, h = n / 2 + 1;
    if (p->half && p->half->n1) {
        T *z = F(tpfft_take)(p); /* n values are used */
        for (int64_t l = 0; l < lines; l++) {
            F(tpfft_pairs)(p, x + 2 * l * h, z, h - 1, 1);
            F(tpfft_fourstep)(p->half, z, y + l * n, 1, scale);
        }
        F(tpfft_give)(p, z);
        return;
    }
    F(tpfft_lines)(TPFFT_C2R, p, x, y, lines, 1, 1, scale);
}

#undef TPFFT_STAGE_HEAD
#undef TPFFT_OUT
#undef TPFFT_PLAIN
#undef TPFFT_LOOP
#undef TPFFT_LOAD
#undef TPFFT_R2
#undef TPFFT_R3
#undef TPFFT_R4
#undef TPFFT_R5
#undef TPFFT_R8
#undef TPFFT_DFT4
#undef V8
#undef I8
#undef PLAN
#undef F
#undef T

/* Fast Fourier transforms for the fft kernel (templates/c/kernel_fft.j2).
 *
 * A plan per length: lengths 2^a 3^b 5^c run a Stockham autosort transform (decimation
 * in frequency, radix 4/2/3/5 stages, no bit reversal, twiddles computed in double once
 * per plan); any other length runs Bluestein's chirp-z through a power-of-two plan of at
 * least 2n-1 points. Complex values are interleaved (re, im) pairs, as C99 complex
 * arrays are laid out. Inverse transforms conjugate in and out (no 1/n: the caller
 * scales). Plans live as long as the module (cached in the kernel). */
#ifndef TP_FFT_H
#define TP_FFT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TPFFT_PI 3.14159265358979323846264338327950288

#define TPFFT_DEFINE(S, T)                                                                \
typedef struct tp_fft_plan_##S {                                                         \
    int64_t n, m; /* m: Bluestein's power-of-two length (0 when n factors) */            \
    int nst;                                                                            \
    int rad[64];                                                                        \
    int64_t off[64];                                                                    \
    T *tw;                                                                              \
    struct tp_fft_plan_##S *sub;                                                        \
    T *chirp, *filt;                                                                    \
} tp_fft_plan_##S;                                                                      \
                                                                                        \
static tp_fft_plan_##S *tp_fft_plan_new_##S(int64_t n);                                 \
static void tp_fft_forward_##S(const tp_fft_plan_##S *p, T *x, T *w);                   \
                                                                                        \
/* Complex values of work space a line of plan p needs besides itself. */              \
static int64_t tp_fft_work_##S(const tp_fft_plan_##S *p)                                \
{                                                                                       \
    return p->m ? 2 * p->m + tp_fft_work_##S(p->sub) : p->n;                            \
}                                                                                       \
                                                                                        \
static tp_fft_plan_##S *tp_fft_plan_new_##S(int64_t n)                                  \
{                                                                                       \
    tp_fft_plan_##S *p = (tp_fft_plan_##S *)calloc(1, sizeof(tp_fft_plan_##S));         \
    int64_t r = n, total = 0, ncur = n;                                                 \
    p->n = n;                                                                           \
    while (r > 1 && r % 4 == 0) { p->rad[p->nst++] = 4; r /= 4; }                       \
    while (r > 1 && r % 2 == 0) { p->rad[p->nst++] = 2; r /= 2; }                       \
    while (r > 1 && r % 3 == 0) { p->rad[p->nst++] = 3; r /= 3; }                       \
    while (r > 1 && r % 5 == 0) { p->rad[p->nst++] = 5; r /= 5; }                       \
    if (r > 1) {                                                                        \
        /* Bluestein: X_k = c_k sum_j (x_j c_j) conj(c_{k-j}), c_j = exp(-i pi j^2/n) */ \
        int64_t m = 1;                                                                  \
        while (m < 2 * n - 1) m *= 2;                                                   \
        p->nst = 0; p->m = m;                                                           \
        p->sub = tp_fft_plan_new_##S(m);                                                \
        p->chirp = (T *)malloc(sizeof(T) * 2 * n);                                      \
        p->filt = (T *)calloc((size_t)(2 * m), sizeof(T));                              \
        for (int64_t j = 0; j < n; j++) {                                               \
            /* j^2 mod 2n in integers keeps the angle exact for large j */             \
            int64_t q = (int64_t)(((unsigned __int128)j * (unsigned __int128)j)        \
                                  % (unsigned __int128)(2 * n));                        \
            double a = TPFFT_PI * (double)q / (double)n;                                \
            p->chirp[2 * j] = (T)cos(a); p->chirp[2 * j + 1] = (T)-sin(a);              \
            p->filt[2 * j] = (T)(cos(a) / (double)m);                                   \
            p->filt[2 * j + 1] = (T)(sin(a) / (double)m);                               \
            if (j) {                                                                    \
                p->filt[2 * (m - j)] = p->filt[2 * j];                                  \
                p->filt[2 * (m - j) + 1] = p->filt[2 * j + 1];                          \
            }                                                                           \
        }                                                                               \
        T *w = (T *)malloc(sizeof(T) * 2 * (size_t)tp_fft_work_##S(p->sub));             \
        tp_fft_forward_##S(p->sub, p->filt, w);                                         \
        free(w);                                                                        \
        return p;                                                                       \
    }                                                                                   \
    for (int st = 0; st < p->nst; st++) {                                               \
        p->off[st] = total;                                                             \
        total += (ncur / p->rad[st]) * (p->rad[st] - 1);                                \
        ncur /= p->rad[st];                                                             \
    }                                                                                   \
    p->tw = (T *)malloc(sizeof(T) * 2 * (size_t)(total + 1));                           \
    ncur = n;                                                                           \
    for (int st = 0; st < p->nst; st++) {                                               \
        int rr = p->rad[st];                                                            \
        int64_t mm = ncur / rr;                                                         \
        T *t = p->tw + 2 * p->off[st];                                                  \
        for (int64_t q = 0; q < mm; q++)                                                \
            for (int k = 1; k < rr; k++) {                                              \
                double a = -2.0 * TPFFT_PI * (double)(q * k) / (double)ncur;            \
                t[2 * (q * (rr - 1) + k - 1)] = (T)cos(a);                              \
                t[2 * (q * (rr - 1) + k - 1) + 1] = (T)sin(a);                          \
            }                                                                           \
        ncur = mm;                                                                      \
    }                                                                                   \
    return p;                                                                           \
}                                                                                       \
                                                                                        \
/* One Stockham stage: x[q + s(j + r i)] ... reads x[q + s(i + j m)], j < r, writes */  \
/* y[q + s(r i + k)] = twiddle_k(i) * DFT_r(a)_k. */                                     \
static void tpfft_pass_##S(int r, int64_t m, int64_t s, const T *tw, const T *x, T *y)  \
{                                                                                       \
    const T c3 = (T)-0.5, s3 = (T)0.86602540378443864676;                               \
    const T c51 = (T)0.30901699437494742410, c52 = (T)-0.80901699437494742410;          \
    const T s51 = (T)0.95105651629515357212, s52 = (T)0.58778525229247312917;           \
    for (int64_t i = 0; i < m; i++) {                                                   \
        const T *t = tw + 2 * i * (r - 1);                                              \
        for (int64_t q = 0; q < s; q++) {                                               \
            T ar[5], ai[5], br[5], bi[5];                                               \
            for (int j = 0; j < r; j++) {                                               \
                ar[j] = x[2 * (q + s * (i + j * m))];                                   \
                ai[j] = x[2 * (q + s * (i + j * m)) + 1];                               \
            }                                                                           \
            if (r == 4) {                                                               \
                T t0r = ar[0] + ar[2], t0i = ai[0] + ai[2];                             \
                T t1r = ar[0] - ar[2], t1i = ai[0] - ai[2];                             \
                T t2r = ar[1] + ar[3], t2i = ai[1] + ai[3];                             \
                T t3r = ai[1] - ai[3], t3i = ar[3] - ar[1]; /* -i (a1 - a3) */          \
                br[0] = t0r + t2r; bi[0] = t0i + t2i;                                   \
                br[2] = t0r - t2r; bi[2] = t0i - t2i;                                   \
                br[1] = t1r + t3r; bi[1] = t1i + t3i;                                   \
                br[3] = t1r - t3r; bi[3] = t1i - t3i;                                   \
            } else if (r == 2) {                                                        \
                br[0] = ar[0] + ar[1]; bi[0] = ai[0] + ai[1];                           \
                br[1] = ar[0] - ar[1]; bi[1] = ai[0] - ai[1];                           \
            } else if (r == 3) {                                                        \
                T t1r = ar[1] + ar[2], t1i = ai[1] + ai[2];                             \
                T t2r = ar[1] - ar[2], t2i = ai[1] - ai[2];                             \
                T m1r = ar[0] + c3 * t1r, m1i = ai[0] + c3 * t1i;                       \
                T m2r = s3 * t2i, m2i = -s3 * t2r; /* -i s (a1 - a2) */                 \
                br[0] = ar[0] + t1r; bi[0] = ai[0] + t1i;                               \
                br[1] = m1r + m2r; bi[1] = m1i + m2i;                                   \
                br[2] = m1r - m2r; bi[2] = m1i - m2i;                                   \
            } else {                                                                    \
                T t1r = ar[1] + ar[4], t1i = ai[1] + ai[4];                             \
                T t2r = ar[2] + ar[3], t2i = ai[2] + ai[3];                             \
                T t3r = ar[1] - ar[4], t3i = ai[1] - ai[4];                             \
                T t4r = ar[2] - ar[3], t4i = ai[2] - ai[3];                             \
                T m1r = ar[0] + c51 * t1r + c52 * t2r, m1i = ai[0] + c51 * t1i + c52 * t2i; \
                T m2r = ar[0] + c52 * t1r + c51 * t2r, m2i = ai[0] + c52 * t1i + c51 * t2i; \
                T u1r = s51 * t3r + s52 * t4r, u1i = s51 * t3i + s52 * t4i;             \
                T u2r = s52 * t3r - s51 * t4r, u2i = s52 * t3i - s51 * t4i;             \
                br[0] = ar[0] + t1r + t2r; bi[0] = ai[0] + t1i + t2i;                   \
                br[1] = m1r + u1i; bi[1] = m1i - u1r;                                   \
                br[4] = m1r - u1i; bi[4] = m1i + u1r;                                   \
                br[2] = m2r + u2i; bi[2] = m2i - u2r;                                   \
                br[3] = m2r - u2i; bi[3] = m2i + u2r;                                   \
            }                                                                           \
            T *o = y + 2 * (q + s * r * i);                                             \
            o[0] = br[0]; o[1] = bi[0];                                                 \
            for (int k = 1; k < r; k++) {                                               \
                T wr = t[2 * (k - 1)], wi = t[2 * (k - 1) + 1];                         \
                o[2 * s * k] = br[k] * wr - bi[k] * wi;                                 \
                o[2 * s * k + 1] = br[k] * wi + bi[k] * wr;                             \
            }                                                                           \
        }                                                                               \
    }                                                                                   \
}                                                                                       \
                                                                                        \
/* The forward transform of x (n complex values) in place; w: tp_fft_work values. */   \
static void tp_fft_forward_##S(const tp_fft_plan_##S *p, T *x, T *w)                    \
{                                                                                       \
    const int64_t n = p->n;                                                             \
    if (p->m) {                                                                         \
        const int64_t m = p->m;                                                         \
        T *a = w, *sw = w + 2 * m;                                                      \
        for (int64_t j = 0; j < n; j++) {                                               \
            T xr = x[2 * j], xi = x[2 * j + 1], cr = p->chirp[2 * j], ci = p->chirp[2 * j + 1]; \
            a[2 * j] = xr * cr - xi * ci; a[2 * j + 1] = xr * ci + xi * cr;             \
        }                                                                               \
        memset(a + 2 * n, 0, sizeof(T) * 2 * (size_t)(m - n));                          \
        tp_fft_forward_##S(p->sub, a, sw);                                              \
        /* times the filter's transform, then an inverse by conjugation */              \
        for (int64_t j = 0; j < m; j++) {                                               \
            T ar = a[2 * j], ai = a[2 * j + 1], fr = p->filt[2 * j], fi = p->filt[2 * j + 1]; \
            a[2 * j] = ar * fr - ai * fi; a[2 * j + 1] = -(ar * fi + ai * fr);          \
        }                                                                               \
        tp_fft_forward_##S(p->sub, a, sw);                                              \
        for (int64_t k = 0; k < n; k++) {                                               \
            T ar = a[2 * k], ai = -a[2 * k + 1], cr = p->chirp[2 * k], ci = p->chirp[2 * k + 1]; \
            x[2 * k] = ar * cr - ai * ci; x[2 * k + 1] = ar * ci + ai * cr;             \
        }                                                                               \
        return;                                                                         \
    }                                                                                   \
    T *a = x, *b = w;                                                                   \
    int64_t ncur = n, s = 1;                                                            \
    for (int st = 0; st < p->nst; st++) {                                               \
        int r = p->rad[st];                                                             \
        tpfft_pass_##S(r, ncur / r, s, p->tw + 2 * p->off[st], a, b);                   \
        T *t = a; a = b; b = t;                                                         \
        ncur /= r; s *= r;                                                              \
    }                                                                                   \
    if (a != x) memcpy(x, a, sizeof(T) * 2 * (size_t)n);                                \
}                                                                                       \
                                                                                        \
/* Forward (inverse = 0) or unscaled inverse transform of x in place. */               \
static void tp_fft_line_##S(const tp_fft_plan_##S *p, T *x, T *w, int inverse)          \
{                                                                                       \
    if (inverse) for (int64_t j = 0; j < p->n; j++) x[2 * j + 1] = -x[2 * j + 1];      \
    tp_fft_forward_##S(p, x, w);                                                        \
    if (inverse) for (int64_t j = 0; j < p->n; j++) x[2 * j + 1] = -x[2 * j + 1];      \
}                                                                                       \
                                                                                        \
/* Complex transforms along axis `axis` (length n = p->n, `inner` values after it) of  \
 * the complex array a of `total` values, each line scaled by `scale`. */              \
static void tp_fft_axis_##S(const tp_fft_plan_##S *p, T *a, int64_t total, int64_t inner, \
                            int inverse, T scale)                                       \
{                                                                                       \
    const int64_t n = p->n, lines = n ? total / n : 0;                                  \
    if (!lines) return;                                                                 \
    const int64_t wn = n + tp_fft_work_##S(p);                                          \
    const int team = tp_par_team(lines * n >= 16384 ? lines : 1);                       \
    _Pragma("omp parallel num_threads(team)")                                            \
    {                                                                                   \
        T *buf = (T *)malloc(sizeof(T) * 2 * (size_t)wn);                               \
        _Pragma("omp for schedule(static) nowait")                                       \
        for (int64_t l = 0; l < lines; l++) {                                           \
            T *base = a + 2 * ((l / inner) * n * inner + l % inner);                    \
            for (int64_t j = 0; j < n; j++) {                                           \
                buf[2 * j] = base[2 * j * inner]; buf[2 * j + 1] = base[2 * j * inner + 1]; \
            }                                                                           \
            tp_fft_line_##S(p, buf, buf + 2 * n, inverse);                              \
            for (int64_t j = 0; j < n; j++) {                                           \
                base[2 * j * inner] = buf[2 * j] * scale;                               \
                base[2 * j * inner + 1] = buf[2 * j + 1] * scale;                       \
            }                                                                           \
        }                                                                               \
        free(buf);                                                                      \
        tp_par_arrive();                                                                \
    }                                                                                   \
}                                                                                       \
                                                                                        \
/* RFFT of the last axis: `lines` real lines of n values to lines of n/2+1. */         \
static void tp_rfft_last_##S(const tp_fft_plan_##S *p, const T *x, T *y, int64_t lines) \
{                                                                                       \
    const int64_t n = p->n, h = n / 2 + 1, wn = n + tp_fft_work_##S(p);                \
    const int team = tp_par_team(lines * n >= 16384 ? lines : 1);                       \
    _Pragma("omp parallel num_threads(team)")                                            \
    {                                                                                   \
        T *buf = (T *)malloc(sizeof(T) * 2 * (size_t)wn);                               \
        _Pragma("omp for schedule(static) nowait")                                       \
        for (int64_t l = 0; l < lines; l++) {                                           \
            for (int64_t j = 0; j < n; j++) { buf[2 * j] = x[l * n + j]; buf[2 * j + 1] = 0; } \
            tp_fft_line_##S(p, buf, buf + 2 * n, 0);                                    \
            memcpy(y + 2 * l * h, buf, sizeof(T) * 2 * (size_t)h);                      \
        }                                                                               \
        free(buf);                                                                      \
        tp_par_arrive();                                                                \
    }                                                                                   \
}                                                                                       \
                                                                                        \
/* IRFFT of the last axis: lines of n/2+1 Hermitian halves to n real values, scaled. */ \
static void tp_irfft_last_##S(const tp_fft_plan_##S *p, const T *x, T *y, int64_t lines, \
                              T scale)                                                  \
{                                                                                       \
    const int64_t n = p->n, h = n / 2 + 1, wn = n + tp_fft_work_##S(p);                \
    const int team = tp_par_team(lines * n >= 16384 ? lines : 1);                       \
    _Pragma("omp parallel num_threads(team)")                                            \
    {                                                                                   \
        T *buf = (T *)malloc(sizeof(T) * 2 * (size_t)wn);                               \
        _Pragma("omp for schedule(static) nowait")                                       \
        for (int64_t l = 0; l < lines; l++) {                                           \
            const T *src = x + 2 * l * h;                                               \
            for (int64_t j = 0; j < n; j++) {                                           \
                if (j < h) { buf[2 * j] = src[2 * j]; buf[2 * j + 1] = src[2 * j + 1]; } \
                else { buf[2 * j] = src[2 * (n - j)]; buf[2 * j + 1] = -src[2 * (n - j) + 1]; } \
            }                                                                           \
            tp_fft_line_##S(p, buf, buf + 2 * n, 1);                                    \
            for (int64_t j = 0; j < n; j++) y[l * n + j] = buf[2 * j] * scale;          \
        }                                                                               \
        free(buf);                                                                      \
        tp_par_arrive();                                                                \
    }                                                                                   \
}

TPFFT_DEFINE(f32, float)
TPFFT_DEFINE(f64, double)

#endif /* TP_FFT_H */

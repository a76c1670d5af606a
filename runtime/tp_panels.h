/* Column panels for svd (tp_svd.h) and eigh (tp_linalg.h): the backward accumulation
 * of their Householder reflectors (svd's U and V, eigh's Q) by blocks of TP_HACC_LINE
 * bytes of columns (tp_hacc_panel), each block a contiguous panel of all the rows that
 * goes through all the reflectors, one pass over its rows per reflector, its sums in
 * registers. Blocks are independent, so up to TP_PANEL_THREADS threads share them when
 * the work pays for it (tp_par_team), each with the caller's MXCSR (flush-to-zero as
 * the caller runs). Every element goes through the same operations in the same order
 * as when each reflector is applied to whole rows in turn, so results do not depend on
 * the blocking or the number of threads (the NumPy rules apply whole reflectors).
 *
 * Measured (n = 256 float64 svd, one core of this machine, 64-byte aligned scratch):
 * U and V took 3.15 ms accumulated a reflector at a time, 1.2 ms by panels; eigh's Q
 * 1.4 ms, 0.65 ms.
 *
 * Also tried, and left out: recording the svd QR's rotations and applying them later
 * by such panels (the chain's shared row in registers). With rows streamed from a
 * misaligned scratch it won (9.0 -> 7.5 ms), but against the rotations applied as they
 * come from aligned rows it lost (6.7 -> 7.3 ms): those are as bound by multiplies as
 * the panels, and they overlap the sweep's latency-bound scalar work (1.9 ms) while
 * recorded ones do not, even applied a few at a time between the sweep's steps. eigh's
 * QL likewise (3.9 -> 4.5 ms). */
#ifndef TP_PANELS_H
#define TP_PANELS_H

#include <stdint.h>
#include "transpile_macros.h"

/* Bytes of columns of a reflector product accumulated at a time (64-byte panels were
 * slower: the latency of the sums' additions shows). */
#ifndef TP_HACC_LINE
#define TP_HACC_LINE 256
#endif
/* Threads that share the blocks at most, and the multiply-adds each must have: n = 256
 * (about 4 ms of work a thread at most, where a thread descheduled by another process
 * costs a time slice, and the two-thread gain could not be measured on a quiet machine)
 * stays on one thread; from about n = 400 two. */
#ifndef TP_PANEL_THREADS
#define TP_PANEL_THREADS 2
#endif
#ifndef TP_HACC_PAR_MIN
#define TP_HACC_PAR_MIN (1 << 25)
#endif
/* Elements of T tp_hacc_* needs for jobs of at most rows rows */
#define TP_HACC_WORK(T, rows)                                                          \
    (TP_PANEL_THREADS * (rows) * (int64_t)(TP_HACC_LINE / sizeof(T)) +                 \
     64 / (int64_t)sizeof(T))

#if defined(_OPENMP) && !defined(__CUDACC__)
#define TP_PANEL_PRAGMA_(x) _Pragma(#x)
#define TP_PANEL_THREAD_(t, nt) (t = omp_get_thread_num(), nt = omp_get_num_threads())
#define TP_PANEL_ARRIVE_() tp_par_arrive()
#define TP_PANEL_TEAM_(units) tp_par_team(units)
#else
#define TP_PANEL_PRAGMA_(x)
#define TP_PANEL_THREAD_(t, nt) ((void)0)
#define TP_PANEL_ARRIVE_() ((void)0)
#define TP_PANEL_TEAM_(units) 1
#endif
#ifdef TPI_HAVE_MXCSR
#define TP_PANEL_CSR_GET_() tpi_getcsr()
#define TP_PANEL_CSR_SET_(v) tpi_setcsr(v)
#else
#define TP_PANEL_CSR_GET_() 0u
#define TP_PANEL_CSR_SET_(v) ((void)(v))
#endif

#define TP_DEFINE_PANELS(SFX, T)                                                       \
    /* Backward accumulation of Householder reflectors into an R-row matrix that      \
     * starts as the identity, by column blocks: columns [c0, c0 + W) held in the      \
     * panel z (R x W, row-major). Reflector k (k = kmax down to 0, skipped where      \
     * taus[k] == 0) is v = x + k xld + k + off (stride vs, v[0] == 1), applied from   \
     * the left to rows and columns from r0 = k + off: w = row r0 + sum v_i row r0+i   \
     * (in order), then row r0+i -= v_i (tau w) (svd's tp_svd_lapply) or, with         \
     * tau_first (eigh's), row r0+i -= (tau v_i) w. One pass over the rows per         \
     * reflector: row i's update is followed at once by its term of the next           \
     * reflector's sum. Columns left of r0 go through the update with w = 0: they are   \
     * still the identity's (+0 or 1, which x - (a 0) leaves as they are), so whole    \
     * vectors of W columns are updated. */                                            \
    TP_INLINE void tp_hacc_panel_##SFX(T *TP_RESTRICT z, int64_t R, int64_t c0,        \
                                       const T *x, int64_t xld, int64_t vs,            \
                                       int64_t off, const T *taus, int64_t kmax,       \
                                       int tau_first)                                  \
    {                                                                                  \
        enum { W = TP_HACC_LINE / sizeof(T) };                                         \
        T wa[W], wb[W]; /* (local arrays: kept in registers) */                        \
        int64_t k = kmax, i, c;                                                        \
        for (i = 0; i < R; i++)                                                        \
            for (c = 0; c < W; c++) z[i * W + c] = (T)(i == c0 + c);                   \
        while (k >= 0 && (taus[k] == 0 || k + off >= c0 + W)) k--;                     \
        if (k < 0) return;                                                             \
        {                                                                              \
            const int64_t r0 = k + off;                                                \
            const T *v = x + k * xld + k + off;                                        \
            for (c = 0; c < W; c++) wa[c] = z[r0 * W + c];                             \
            for (i = r0 + 1; i < R; i++) {                                             \
                const T vi = v[(i - r0) * vs], *TP_RESTRICT zi = z + i * W;            \
                TP_PANEL_PRAGMA_(omp simd)                                               \
                for (c = 0; c < W; c++) wa[c] = wa[c] + vi * zi[c];                    \
            }                                                                          \
        }                                                                              \
        for (;;) {                                                                     \
            const int64_t r0 = k + off, cs = r0 > c0 ? r0 - c0 : 0;                    \
            const T *v = x + k * xld + k + off, tau = taus[k];                         \
            int64_t kn = k - 1, rn;                                                    \
            const T *vn;                                                               \
            for (c = 0; c < W; c++)                                                    \
                wa[c] = c < cs ? (T)0 : tau_first ? wa[c] : tau * wa[c];               \
            while (kn >= 0 && taus[kn] == 0) kn--;                                     \
            if (kn < 0) {                                                              \
                for (i = r0; i < R; i++) {                                             \
                    const T vi = tau_first ? tau * v[(i - r0) * vs] : v[(i - r0) * vs]; \
                    T *TP_RESTRICT zi = z + i * W;                                     \
                    TP_PANEL_PRAGMA_(omp simd)                                           \
                    for (c = 0; c < W; c++) zi[c] = zi[c] - vi * wa[c];                \
                }                                                                      \
                return;                                                                \
            }                                                                          \
            rn = kn + off;                                                             \
            vn = x + kn * xld + kn + off;                                              \
            for (c = 0; c < W; c++) wb[c] = z[rn * W + c];                             \
            for (i = rn + 1; i < r0; i++) {                                            \
                const T ui = vn[(i - rn) * vs], *TP_RESTRICT zi = z + i * W;           \
                TP_PANEL_PRAGMA_(omp simd)                                               \
                for (c = 0; c < W; c++) wb[c] = wb[c] + ui * zi[c];                    \
            }                                                                          \
            for (i = r0; i < R; i++) {                                                 \
                const T vi = tau_first ? tau * v[(i - r0) * vs] : v[(i - r0) * vs];     \
                const T ui = vn[(i - rn) * vs];                                        \
                T *TP_RESTRICT zi = z + i * W;                                         \
                TP_PANEL_PRAGMA_(omp simd)                                               \
                for (c = 0; c < W; c++) {                                              \
                    T y = zi[c] - vi * wa[c];                                          \
                    zi[c] = y;                                                         \
                    wb[c] = wb[c] + ui * y;                                            \
                }                                                                      \
            }                                                                          \
            for (c = 0; c < W; c++) wa[c] = wb[c];                                     \
            k = kn;                                                                    \
        }                                                                              \
    }                                                                                  \
    /* One accumulation (tp_hacc_panel's parameters): the rows x cols product of the   \
     * reflectors, written transposed to dst (cols rows of rows elements). */          \
    typedef struct {                                                                   \
        int64_t rows, cols, xld, vs, off, kmax;                                        \
        int tau_first;                                                                 \
        const T *x, *taus;                                                             \
        T *dst;                                                                        \
    } tp_hjob_##SFX;                                                                   \
    /* Column blocks [b0, b1) of the jobs' (the first job's blocks first); panel:      \
     * rows x W elements of the largest job. */                                        \
    TP_INLINE void tp_hacc_blocks_##SFX(const tp_hjob_##SFX *jobs, int njobs,          \
                                        int64_t b0, int64_t b1, T *panel)              \
    {                                                                                  \
        enum { W = TP_HACC_LINE / sizeof(T) };                                         \
        int64_t bk, i, c, base = 0;                                                    \
        int j;                                                                         \
        for (j = 0; j < njobs; j++) {                                                  \
            const tp_hjob_##SFX *q = jobs + j;                                         \
            const int64_t nb = (q->cols + W - 1) / W;                                  \
            for (bk = b0 > base ? b0 : base; bk < b1 && bk < base + nb; bk++) {        \
                const int64_t c0 = (bk - base) * W;                                    \
                const int64_t w = q->cols - c0 < W ? q->cols - c0 : W, R = q->rows;    \
                tp_hacc_panel_##SFX(panel, R, c0, q->x, q->xld, q->vs, q->off, q->taus, \
                                    q->kmax, q->tau_first);                            \
                for (c = 0; c < w; c++)                                                \
                    for (i = 0; i < R; i++) q->dst[(c0 + c) * R + i] = panel[i * W + c]; \
            }                                                                          \
            base += nb;                                                                \
        }                                                                              \
    }                                                                                  \
    /* All the jobs' blocks, on up to TP_PANEL_THREADS threads when the work pays;     \
     * work: TP_HACC_WORK(T, rows of the largest job) elements. */                     \
    TP_INLINE void tp_hacc_##SFX(const tp_hjob_##SFX *jobs, int njobs, T *work)        \
    {                                                                                  \
        enum { W = TP_HACC_LINE / sizeof(T) };                                         \
        int64_t nb = 0, units = 0, rmax = 0;                                           \
        const unsigned csr = TP_PANEL_CSR_GET_();                                      \
        T *wk = (T *)(((uintptr_t)work + 63) & ~(uintptr_t)63);                        \
        int j;                                                                         \
        (void)csr;                                                                     \
        for (j = 0; j < njobs; j++) {                                                  \
            nb += (jobs[j].cols + W - 1) / W;                                          \
            units += jobs[j].rows * jobs[j].rows * jobs[j].cols / TP_HACC_PAR_MIN;     \
            if (jobs[j].rows > rmax) rmax = jobs[j].rows;                              \
        }                                                                              \
        if (units > TP_PANEL_THREADS) units = TP_PANEL_THREADS;                        \
        if (units > nb) units = nb;                                                    \
        if (units < 2) {                                                               \
            tp_hacc_blocks_##SFX(jobs, njobs, 0, nb, wk);                              \
            return;                                                                    \
        }                                                                              \
        TP_PANEL_PRAGMA_(omp parallel num_threads(TP_PANEL_TEAM_(units)))              \
        {                                                                              \
            int64_t t = 0, nt = 1;                                                     \
            unsigned saved;                                                            \
            TP_PANEL_THREAD_(t, nt);                                                   \
            saved = TP_PANEL_CSR_GET_();                                               \
            TP_PANEL_CSR_SET_(csr);                                                    \
            tp_hacc_blocks_##SFX(jobs, njobs, nb * t / nt, nb * (t + 1) / nt,          \
                                 wk + t * rmax * W);                                   \
            TP_PANEL_CSR_SET_(saved);                                                  \
            TP_PANEL_ARRIVE_();                                                        \
        }                                                                              \
    }

TP_DEFINE_PANELS(f32, float)
TP_DEFINE_PANELS(f64, double)

#endif /* TP_PANELS_H */

/* Column panels for svd (tp_svd.h) and eigh (tp_linalg.h): the backward accumulation
 * of their Householder reflectors (tp_hacc: see tp_hacc_panel; svd's U and V, eigh's Q)
 * and the plane rotations of svd's QR sweeps, recorded and applied later.
 *
 * A rotation (a, b, c, s) turns rows a and b of a matrix into (c x_a + s x_b,
 * c x_b - s x_a); b < 0 negates row a. The sweeps' rotations do not depend on the
 * matrices they rotate, so they are recorded (tp_rotrec_push) and applied in bulk
 * (tp_rotrec_flush): by blocks of TP_ROT_LINE bytes of columns, each block of every
 * touched row packed into a contiguous panel that stays in L1 through all the recorded
 * rotations (rows in place, a power of two bytes apart, fall into a few cache sets).
 * Along a sweep's chain of rotations (j, j+1), (j+1, j+2), ... the shared row stays
 * in registers. Blocks are independent, so up to
 * TP_ROT_THREADS threads share them when the work pays for it (tp_par_team), each with
 * the caller's MXCSR (flush-to-zero as the caller runs).
 *
 * Every element goes through the same operations in the same order as when whole rows
 * are rotated one rotation at a time, so results do not depend on the blocking, the
 * buffer size or the number of threads (the NumPy rules rotate whole rows).
 *
 * Measured (n = 256 float64 svd, one core of this machine): the QR with the rotations
 * of U^T and V^T took 9.0 ms rotated as they come (rows streamed from L2 and L3),
 * 7.5 ms recorded and applied by panels (of which 1.9 ms is the sweeps' own scalar,
 * latency-bound work). eigh's QL is better off rotating as it goes (tp_linalg.h). */
#ifndef TP_PANELS_H
#define TP_PANELS_H

#include <stdint.h>
#include "transpile_macros.h"

/* Bytes of columns per block (a multiple of the vector width: the chain's carried row
 * is four AVX-512 registers, enough independent work to hide the latency of the
 * multiply-add chain through it). */
#ifndef TP_ROT_LINE
#define TP_ROT_LINE 256
#endif
/* Threads that share the blocks at most, and the work (rotations x columns) each must
 * have. */
#ifndef TP_ROT_THREADS
#define TP_ROT_THREADS 2
#endif
#ifndef TP_ROT_PAR_MIN
#define TP_ROT_PAR_MIN (1 << 18)
#endif

/* Bytes of columns of a reflector product accumulated at a time (tp_hacc: a panel of
 * all the rows through all the reflectors, its sums in registers). n = 256 float64
 * svd, one core: 2.9 ms for U and V as whole-row reflector applications, 1.25 ms by
 * 256-byte panels (2.0 ms by 64-byte ones: the sums' latency shows). */
#ifndef TP_HACC_LINE
#define TP_HACC_LINE 256
#endif
/* Multiply-adds of an accumulation per thread */
#ifndef TP_HACC_PAR_MIN
#define TP_HACC_PAR_MIN (1 << 22)
#endif
/* Elements of T tp_hacc_* needs for jobs of at most rows rows */
#define TP_HACC_WORK(T, rows)                                                          \
    (TP_ROT_THREADS * (rows) * (int64_t)(TP_HACC_LINE / sizeof(T)) +                   \
     64 / (int64_t)sizeof(T))

#if defined(_OPENMP) && !defined(__CUDACC__)
#define TP_ROT_PRAGMA_(x) _Pragma(#x)
#define TP_ROT_THREAD_(t, nt) (t = omp_get_thread_num(), nt = omp_get_num_threads())
#define TP_ROT_ARRIVE_() tp_par_arrive()
#define TP_ROT_TEAM_(units) tp_par_team(units)
#else
#define TP_ROT_PRAGMA_(x)
#define TP_ROT_THREAD_(t, nt) ((void)0)
#define TP_ROT_ARRIVE_() ((void)0)
#define TP_ROT_TEAM_(units) 1
#endif
#ifdef TPI_HAVE_MXCSR
#define TP_ROT_CSR_GET_() tpi_getcsr()
#define TP_ROT_CSR_SET_(v) tpi_setcsr(v)
#else
#define TP_ROT_CSR_GET_() 0u
#define TP_ROT_CSR_SET_(v) ((void)(v))
#endif

/* Elements of T that tp_rotrec_init_* needs for cap rotations per matrix and rows rows
 * (with a panel; see tp_rotrec_init): 2 cap records of at most 4 elements (24 bytes for
 * double, 16 for float), TP_ROT_THREADS panels and 64 bytes of alignment. */
#define TP_ROT_WORK(T, cap, rows)                                                      \
    (8 * (cap) + TP_ROT_THREADS * (rows) * (int64_t)(TP_ROT_LINE / sizeof(T)) +         \
     64 / (int64_t)sizeof(T))

#define TP_DEFINE_ROTSEQ(SFX, T)                                                       \
    typedef struct { T c, s; int32_t a, b; } tp_rop_##SFX;                              \
    /* ops[0..nops) in order to w (<= W) columns of the rows at z, ld apart. */        \
    TP_INLINE void tp_rot_lasr_##SFX(const tp_rop_##SFX *ops, int64_t nops, T *z,       \
                                     int64_t ld, int64_t w)                            \
    {                                                                                  \
        enum { W = TP_ROT_LINE / sizeof(T) };                                          \
        int64_t o, r;                                                                  \
        for (o = 0; o < nops;) {                                                       \
            T *x = z + ops[o].a * ld;                                                  \
            if (ops[o].b < 0) {                                                        \
                for (r = 0; r < w; r++) x[r] = -x[r];                                  \
                o++;                                                                   \
            } else if (w == W && o + 1 < nops && ops[o + 1].a == ops[o].b) {           \
                /* ascending chain: row b carried into the next rotation as its a */   \
                T cur[W];                                                              \
                for (r = 0; r < W; r++) cur[r] = x[r];                                 \
                for (;;) {                                                             \
                    T *TP_RESTRICT xr = x, *TP_RESTRICT y = z + ops[o].b * ld;         \
                    const T c = ops[o].c, s = ops[o].s;                                \
                    TP_ROT_PRAGMA_(omp simd)                                           \
                    for (r = 0; r < W; r++) {                                          \
                        T xi = cur[r], yi = y[r];                                      \
                        xr[r] = c * xi + s * yi;                                       \
                        cur[r] = c * yi - s * xi;                                      \
                    }                                                                  \
                    x = y;                                                             \
                    o++;                                                               \
                    if (o == nops || ops[o].b < 0 || ops[o].a != ops[o - 1].b) break;  \
                }                                                                      \
                for (r = 0; r < W; r++) x[r] = cur[r];                                 \
            } else {                                                                   \
                T *TP_RESTRICT xr = x, *TP_RESTRICT y = z + ops[o].b * ld;             \
                const T c = ops[o].c, s = ops[o].s;                                    \
                for (r = 0; r < w; r++) {                                              \
                    T xi = xr[r], yi = y[r];                                           \
                    xr[r] = c * xi + s * yi;                                           \
                    y[r] = c * yi - s * xi;                                            \
                }                                                                      \
                o++;                                                                   \
            }                                                                          \
        }                                                                              \
    }                                                                                  \
    /* A recorder: rotations of two matrices (rows len[m] long, ld[m] apart; the       \
     * second may be absent), cap of each before both are applied. */                  \
    typedef struct {                                                                   \
        tp_rop_##SFX *ops[2];                                                          \
        T *z[2], *panel;                                                               \
        int64_t len[2], ld[2], n[2], cap, hi;                                          \
    } tp_rotrec_##SFX;                                                                 \
    /* Column blocks [b0, b1): matrix 0's blocks first, then matrix 1's; rows below    \
     * hi are touched; panel (hi x W) or null (rotated in place). */                   \
    TP_INLINE void tp_rot_blocks_##SFX(const tp_rotrec_##SFX *q, T *panel, int64_t b0,  \
                                       int64_t b1)                                     \
    {                                                                                  \
        enum { W = TP_ROT_LINE / sizeof(T) };                                          \
        const int64_t nb0 = (q->len[0] + W - 1) / W, rows = q->hi;                     \
        int64_t bk, i, r;                                                              \
        for (bk = b0; bk < b1; bk++) {                                                 \
            const int m = bk >= nb0;                                                   \
            const int64_t c0 = (bk - (m ? nb0 : 0)) * W, ld = q->ld[m];                \
            const int64_t w = q->len[m] - c0 < W ? q->len[m] - c0 : W;                 \
            T *z = q->z[m] + c0;                                                       \
            if (q->n[m] == 0) continue;                                                \
            if (!panel || w < W) {                                                     \
                tp_rot_lasr_##SFX(q->ops[m], q->n[m], z, ld, w);                       \
                continue;                                                              \
            }                                                                          \
            for (i = 0; i < rows; i++)                                                 \
                for (r = 0; r < W; r++) panel[i * W + r] = z[i * ld + r];              \
            tp_rot_lasr_##SFX(q->ops[m], q->n[m], panel, W, W);                        \
            for (i = 0; i < rows; i++)                                                 \
                for (r = 0; r < W; r++) z[i * ld + r] = panel[i * W + r];              \
        }                                                                              \
    }                                                                                  \
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
                TP_ROT_PRAGMA_(omp simd)                                               \
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
                    TP_ROT_PRAGMA_(omp simd)                                           \
                    for (c = 0; c < W; c++) zi[c] = zi[c] - vi * wa[c];                \
                }                                                                      \
                return;                                                                \
            }                                                                          \
            rn = kn + off;                                                             \
            vn = x + kn * xld + kn + off;                                              \
            for (c = 0; c < W; c++) wb[c] = z[rn * W + c];                             \
            for (i = rn + 1; i < r0; i++) {                                            \
                const T ui = vn[(i - rn) * vs], *TP_RESTRICT zi = z + i * W;           \
                TP_ROT_PRAGMA_(omp simd)                                               \
                for (c = 0; c < W; c++) wb[c] = wb[c] + ui * zi[c];                    \
            }                                                                          \
            for (i = r0; i < R; i++) {                                                 \
                const T vi = tau_first ? tau * v[(i - r0) * vs] : v[(i - r0) * vs];     \
                const T ui = vn[(i - rn) * vs];                                        \
                T *TP_RESTRICT zi = z + i * W;                                         \
                TP_ROT_PRAGMA_(omp simd)                                               \
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
    /* All the jobs' blocks, on up to TP_ROT_THREADS threads when the work pays;       \
     * work: TP_HACC_WORK(T, rows of the largest job) elements. */                     \
    TP_INLINE void tp_hacc_##SFX(const tp_hjob_##SFX *jobs, int njobs, T *work)        \
    {                                                                                  \
        enum { W = TP_HACC_LINE / sizeof(T) };                                         \
        int64_t nb = 0, units = 0, rmax = 0;                                           \
        const unsigned csr = TP_ROT_CSR_GET_();                                        \
        T *wk = (T *)(((uintptr_t)work + 63) & ~(uintptr_t)63);                        \
        int j;                                                                         \
        (void)csr;                                                                     \
        for (j = 0; j < njobs; j++) {                                                  \
            nb += (jobs[j].cols + W - 1) / W;                                          \
            units += jobs[j].rows * jobs[j].rows * jobs[j].cols / TP_HACC_PAR_MIN;     \
            if (jobs[j].rows > rmax) rmax = jobs[j].rows;                              \
        }                                                                              \
        if (units > TP_ROT_THREADS) units = TP_ROT_THREADS;                            \
        if (units > nb) units = nb;                                                    \
        if (units < 2) {                                                               \
            tp_hacc_blocks_##SFX(jobs, njobs, 0, nb, wk);                              \
            return;                                                                    \
        }                                                                              \
        TP_ROT_PRAGMA_(omp parallel num_threads(TP_ROT_TEAM_(units)))                  \
        {                                                                              \
            int64_t t = 0, nt = 1;                                                     \
            unsigned saved;                                                            \
            TP_ROT_THREAD_(t, nt);                                                     \
            saved = TP_ROT_CSR_GET_();                                                 \
            TP_ROT_CSR_SET_(csr);                                                      \
            tp_hacc_blocks_##SFX(jobs, njobs, nb * t / nt, nb * (t + 1) / nt,          \
                                 wk + t * rmax * W);                                   \
            TP_ROT_CSR_SET_(saved);                                                    \
            TP_ROT_ARRIVE_();                                                          \
        }                                                                              \
    }                                                                                  \
    /* Applies the recorded rotations and empties the record. */                       \
    TP_INLINE void tp_rotrec_flush_##SFX(tp_rotrec_##SFX *q)                           \
    {                                                                                  \
        enum { W = TP_ROT_LINE / sizeof(T) };                                          \
        const int64_t nb = (q->len[0] + W - 1) / W + (q->len[1] + W - 1) / W;          \
        int64_t units = (q->n[0] * q->len[0] + q->n[1] * q->len[1]) / TP_ROT_PAR_MIN;  \
        const unsigned csr = TP_ROT_CSR_GET_();                                        \
        (void)csr;                                                                     \
        if (units > TP_ROT_THREADS) units = TP_ROT_THREADS;                            \
        if (units > nb) units = nb;                                                    \
        if (units < 2) {                                                               \
            tp_rot_blocks_##SFX(q, q->panel, 0, nb);                                   \
        } else {                                                                       \
            TP_ROT_PRAGMA_(omp parallel num_threads(TP_ROT_TEAM_(units)))              \
            {                                                                          \
                int64_t t = 0, nt = 1;                                                 \
                unsigned saved;                                                        \
                TP_ROT_THREAD_(t, nt);                                                 \
                saved = TP_ROT_CSR_GET_();                                             \
                TP_ROT_CSR_SET_(csr);                                                  \
                tp_rot_blocks_##SFX(q, q->panel ? q->panel + t * q->hi * W : 0,        \
                                    nb * t / nt, nb * (t + 1) / nt);                   \
                TP_ROT_CSR_SET_(saved);                                                \
                TP_ROT_ARRIVE_();                                                      \
            }                                                                          \
        }                                                                              \
        q->n[0] = q->n[1] = 0;                                                         \
        q->hi = 0;                                                                     \
    }                                                                                  \
    /* Rotations of matrix 0 (z0: rows len0 long, ld0 apart) and matrix 1 (z1 may be   \
     * null), touching rows below rows, cap of each recorded at a time; work:          \
     * TP_ROT_WORK(T, cap, rows) elements (64-byte aligned panels, then the records). */ \
    TP_INLINE void tp_rotrec_init_##SFX(tp_rotrec_##SFX *q, T *z0, int64_t len0,       \
                                        int64_t ld0, T *z1, int64_t len1, int64_t ld1, \
                                        int64_t rows, int64_t cap, T *work)            \
    {                                                                                  \
        enum { W = TP_ROT_LINE / sizeof(T) };                                          \
        T *p = (T *)(((uintptr_t)work + 63) & ~(uintptr_t)63);                         \
        q->z[0] = z0; q->len[0] = len0; q->ld[0] = ld0;                                \
        q->z[1] = z1; q->len[1] = z1 ? len1 : 0; q->ld[1] = ld1;                       \
        q->n[0] = q->n[1] = 0;                                                         \
        q->cap = cap;                                                                  \
        q->hi = 0;                                                                     \
        q->panel = p;                                                                  \
        q->ops[0] = (tp_rop_##SFX *)(void *)(p + TP_ROT_THREADS * rows * W);           \
        q->ops[1] = q->ops[0] + cap;                                                   \
    }                                                                                  \
    /* Records rotation (a, b, c, s) of matrix m (b < 0: negation of row a), applying  \
     * the record first when it is full. */                                            \
    TP_INLINE void tp_rotrec_push_##SFX(tp_rotrec_##SFX *q, int m, int64_t a,          \
                                        int64_t b, T c, T s)                           \
    {                                                                                  \
        tp_rop_##SFX *op;                                                              \
        if (q->n[m] == q->cap) tp_rotrec_flush_##SFX(q);                               \
        op = q->ops[m] + q->n[m]++;                                                    \
        op->a = (int32_t)a;                                                            \
        op->b = (int32_t)b;                                                            \
        op->c = c;                                                                     \
        op->s = s;                                                                     \
        if (a >= q->hi) q->hi = a + 1;                                                 \
        if (b >= q->hi) q->hi = b + 1;                                                 \
    }

TP_DEFINE_ROTSEQ(f32, float)
TP_DEFINE_ROTSEQ(f64, double)

#endif /* TP_PANELS_H */

/* Sequences of plane rotations of matrix rows, recorded and applied later (the QR sweeps
 * of svd, tp_svd.h, and the QL sweeps of eigh, tp_linalg.h).
 *
 * A rotation (a, b, c, s) turns rows a and b of a matrix into (c x_a + s x_b,
 * c x_b - s x_a); b < 0 negates row a. The sweeps' rotations do not depend on the
 * matrices they rotate, so they are recorded (tp_rotrec_push) and applied in bulk
 * (tp_rotrec_flush): by blocks of TP_ROT_LINE bytes of columns, each block of every
 * touched row packed into a contiguous panel that stays in L1 through all the recorded
 * rotations (rows in place, a power of two bytes apart, fall into a few cache sets).
 * Along a sweep's chain of rotations, (j, j+1), (j+1, j+2), ... or (j, j+1),
 * (j-1, j), ..., the shared row stays in registers. Blocks are independent, so up to
 * TP_ROT_THREADS threads share them when the work pays for it (tp_par_team), each with
 * the caller's MXCSR (flush-to-zero as the caller runs).
 *
 * Every element goes through the same operations in the same order as when whole rows
 * are rotated one rotation at a time, so results do not depend on the blocking, the
 * buffer size or the number of threads (the NumPy rules rotate whole rows).
 *
 * Measured (n = 256 float64 svd, one core of this machine): the rotations of U^T and
 * V^T took 7 ms rotated one at a time (rows streamed from L2), 5.7 ms recorded and
 * applied by panels. */
#ifndef TP_ROTSEQ_H
#define TP_ROTSEQ_H

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
            } else if (w == W && o + 1 < nops && ops[o + 1].b == ops[o].a) {           \
                /* descending chain: row a carried into the next rotation as its b */  \
                T cur[W];                                                              \
                T *y = z + ops[o].b * ld;                                              \
                for (r = 0; r < W; r++) cur[r] = y[r];                                 \
                for (;;) {                                                             \
                    T *TP_RESTRICT xr = z + ops[o].a * ld, *TP_RESTRICT yr = y;        \
                    const T c = ops[o].c, s = ops[o].s;                                \
                    TP_ROT_PRAGMA_(omp simd)                                           \
                    for (r = 0; r < W; r++) {                                          \
                        T xi = xr[r], yi = cur[r];                                     \
                        cur[r] = c * xi + s * yi;                                      \
                        yr[r] = c * yi - s * xi;                                       \
                    }                                                                  \
                    y = xr;                                                            \
                    o++;                                                               \
                    if (o == nops || ops[o].b != ops[o - 1].a) break;                  \
                }                                                                      \
                for (r = 0; r < W; r++) y[r] = cur[r];                                 \
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

#endif /* TP_ROTSEQ_H */

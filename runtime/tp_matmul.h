/* Dense matrix multiply (float32 / float64) for the C backend: jnp.dot and lax.dot_general.
 *
 *   void tp_gemm_f32(M, N, K, A, rsa, csa, B, rsb, csb, C, rsc, workspace)   (and _f64)
 *   C[i*rsc + j] = sum_k A[i*rsa + k*csa] * B[k*rsb + j*csb]     i < M, j < N
 *
 * C is overwritten (unit column stride) and must not overlap A or B. A and B take any
 * element strides (negative too), so transposed operands need no copy. K == 0 gives zeros;
 * M == 0 or N == 0 does nothing. The caller passes a workspace of at least
 * tp_gemm_workspace_bytes_<t>(M, N, K) bytes (NULL when that is 0), best 64-byte aligned;
 * any alignment works, as the size includes room to align it inside. The call never
 * allocates and keeps no global state, so it is reentrant and can be exported as standalone
 * C. The size depends on M, N, K only, not on the number of threads: the threads share the
 * packing buffers.
 *
 * Blocking (the GotoBLAS layering, sizes for 32 KiB L1d and 512 KiB L2 per core), in rounds
 * so that the threads meet at few barriers:
 *
 *   for jc in N, step NC;  for pb in K, step KR*KC;  for ib in M, step MB:       (a round)
 *     pack B[pb.., jc..] (unless only ib moved) into KC x NR panels and A[ib.., pb..] into
 *     MR x KC panels, the threads sharing the copying                            (barrier)
 *     chunks of C, MC rows x JB panels, handed out to the threads dynamically:
 *       for each K chunk pc of the round, in order:
 *         for each B panel (KC x NR, stays in L1), for each A panel of the MC rows (the
 *         MC x KC block stays in L2): MR x NR register tile, then C = or += tile
 *                                                                                (barrier)
 *
 * Up to about 1024^3 that is a single round. The workspace holds one round's packed blocks:
 * about the size of A and B (8 MiB for float32 1024^3), at most about 25 MiB.
 *
 * Packing pads partial panels (with copies of the last row or column), so the micro-kernel
 * always computes a full tile, and edge tiles differ only in how they are written back.
 * Every element of C is therefore computed the same way wherever it falls: per K chunk one
 * fma chain over k in ascending order, starting from zero, then C = chunk0 + chunk1 + ... in
 * order. The chunks depend on K only and threads split M and N, never K, so the result is
 * bitwise identical for any number of threads (the tests check it).
 *
 * Tiny products (M*N*K <= TP_GEMM_DIRECT_MAX) run a plain loop, with no workspace and no
 * threads. Matrix-vector shapes (M == 1 or N == 1) need no workspace either: they stream the
 * matrix once through dot or axpy loops (rows or columns shared between threads) instead of
 * padding the vector to a tile.
 *
 * With AVX2+FMA (gcc), the kernels are written with GCC vector types: a 6x16 float / 6x8
 * double tile (12 accumulators + 2 B vectors + 1 broadcast: 15 of the 16 ymm registers).
 * Otherwise portable C kernels with the same packed layouts (4x8 / 4x4 tiles), loops left to
 * the auto-vectorizer, and the direct loop for matrix-vector shapes. With -fopenmp the
 * threaded paths run in a parallel region when the product is large enough (TP_GEMM_PAR_MIN
 * multiply-adds per thread) and the caller is not already in one; without it the pragmas
 * vanish. No FP contraction is relied on: fused operations are explicit. Host C only.
 */
#ifndef TP_MATMUL_H
#define TP_MATMUL_H

#include <stdint.h>
#include <string.h>
#include "transpile_macros.h"

/* The SIMD kernels use GCC vector types and x86 builtins rather than <immintrin.h>: with
 * -march=native that header alone costs gcc ~0.35 s to parse, in every library using dot.
 * (Clang spells some builtins differently; it gets the portable kernels.) */
#if defined(__AVX2__) && defined(__FMA__) && defined(__GNUC__) && !defined(__clang__)
#define TP_GEMM_AVX2 1
typedef float tp_gemm_v8sf_ __attribute__((vector_size(32), may_alias));
typedef float tp_gemm_v8sf_u_ __attribute__((vector_size(32), may_alias, aligned(4)));
typedef double tp_gemm_v4df_ __attribute__((vector_size(32), may_alias));
typedef double tp_gemm_v4df_u_ __attribute__((vector_size(32), may_alias, aligned(8)));
typedef int tp_gemm_v8si_ __attribute__((vector_size(32)));
typedef long long tp_gemm_v4di_ __attribute__((vector_size(32)));
#define TP_GEMM_IOTA_f32_ ((tp_gemm_v8si_){0, 1, 2, 3, 4, 5, 6, 7})
#define TP_GEMM_IOTA_f64_ ((tp_gemm_v4di_){0, 1, 2, 3})
#define TP_GEMM_LANE_f32_ int
#define TP_GEMM_LANE_f64_ long long
#define TP_GEMM_FMA_f32_(a, b, c) __builtin_ia32_vfmaddps256((a), (b), (c))
#define TP_GEMM_FMA_f64_(a, b, c) __builtin_ia32_vfmaddpd256((a), (b), (c))
#define TP_GEMM_MASKLOAD_f32_(p, k)                                                         \
    __builtin_ia32_maskloadps256((const tp_gemm_v8sf_ *)(p), (k))
#define TP_GEMM_MASKLOAD_f64_(p, k)                                                         \
    __builtin_ia32_maskloadpd256((const tp_gemm_v4df_ *)(p), (k))
#define TP_GEMM_MASKSTORE_f32_(p, k, x)                                                     \
    __builtin_ia32_maskstoreps256((tp_gemm_v8sf_ *)(p), (k), (x))
#define TP_GEMM_MASKSTORE_f64_(p, k, x)                                                     \
    __builtin_ia32_maskstorepd256((tp_gemm_v4df_ *)(p), (k), (x))
#endif

/* Out-of-line helpers: static (not inline, which gcc would not combine with noinline), and
 * marked unused so that a file which never calls them gets no -Wunused-function. The entry
 * points are always_inline instead: inlined early, their dispatch folds for constant shapes
 * and the paths a file does not use are never compiled. */
#if defined(__GNUC__)
#define TP_GEMM_OUTLINE_ static __attribute__((noinline, unused))
#define TP_GEMM_ALWAYS_INLINE_ __attribute__((always_inline))
#else
#define TP_GEMM_OUTLINE_ TP_INLINE
#define TP_GEMM_ALWAYS_INLINE_
#endif

#include "tp_parallel.h"

#ifdef _OPENMP
#include <omp.h>
/* _Pragma in a macro: a bare "#pragma omp" draws -Wunknown-pragmas without -fopenmp. */
#define TP_GEMM_PRAGMA_(x) _Pragma(#x)
#define TP_GEMM_IN_PARALLEL_() omp_in_parallel()
#else
#define TP_GEMM_PRAGMA_(x)
#define TP_GEMM_IN_PARALLEL_() 0
#endif

/* Register tile. The packed layouts depend on it, so it is fixed per instruction set. */
#ifdef TP_GEMM_AVX2
#define TP_GEMM_MR_F32 6
#define TP_GEMM_NR_F32 16
#define TP_GEMM_MR_F64 6
#define TP_GEMM_NR_F64 8
#else
#define TP_GEMM_MR_F32 4
#define TP_GEMM_NR_F32 8
#define TP_GEMM_MR_F64 4
#define TP_GEMM_NR_F64 4
#endif

/* Cache blocks (elements). KC*NR*sizeof fills half of L1 (the B panel stays there while A
 * panels stream past); MC*KC*sizeof under a third of L2; KC*NC*sizeof a few MiB of L3. MB,
 * the rows of A packed per round, is a multiple of MC: a few large rounds keep the barriers
 * few. MC is a multiple of MR, NC of NR. Overridable for tuning; KC changes the rounding. */
#ifndef TP_GEMM_KC_F32
#define TP_GEMM_KC_F32 256
#endif
#ifndef TP_GEMM_MC_F32
#define TP_GEMM_MC_F32 144
#endif
#ifndef TP_GEMM_NC_F32
#define TP_GEMM_NC_F32 4096
#endif
#ifndef TP_GEMM_MB_F32
#define TP_GEMM_MB_F32 (16 * TP_GEMM_MC_F32)
#endif
#ifndef TP_GEMM_KC_F64
#define TP_GEMM_KC_F64 256
#endif
#ifndef TP_GEMM_MC_F64
#define TP_GEMM_MC_F64 72
#endif
#ifndef TP_GEMM_NC_F64
#define TP_GEMM_NC_F64 2048
#endif
#ifndef TP_GEMM_MB_F64
#define TP_GEMM_MB_F64 (16 * TP_GEMM_MC_F64)
#endif
/* K chunks per round, and B panels per chunk of work handed to a thread. */
#ifndef TP_GEMM_KR
#define TP_GEMM_KR 4
#endif
#ifndef TP_GEMM_JB
#define TP_GEMM_JB 8
#endif

/* Below this many multiply-adds (M*N*K) the direct loop wins: packing costs about as much as
 * the product itself. */
#ifndef TP_GEMM_DIRECT_MAX
#define TP_GEMM_DIRECT_MAX 4096
#endif
/* Multiply-adds per thread below which another thread does not pay (measured on 2 cores:
 * at 64^3 a second thread is already a loss in the median, from about 96^3 a gain). */
#ifndef TP_GEMM_PAR_MIN
#define TP_GEMM_PAR_MIN (1 << 18)
#endif

TP_INLINE int64_t tp_gemm_min_(int64_t a, int64_t b) { return a < b ? a : b; }
TP_INLINE int64_t tp_gemm_roundup_(int64_t a, int64_t m) { return (a + m - 1) / m * m; }

/* K chunk length: ceil(K / nchunks) with nchunks = ceil(K / KC), so a K slightly above KC is
 * cut in two halves instead of KC and a sliver. Depends on K only (see determinism above). */
TP_INLINE int64_t tp_gemm_kc_(int64_t K, int64_t kcmax)
{
    int64_t nchunks = (K + kcmax - 1) / kcmax;
    return (K + nchunks - 1) / nchunks;
}

/* The packed path needs the workspace; tiny products and matrix-vector shapes do without
 * (packing would cost as much as the product, or pad a vector to a whole tile). */
TP_INLINE int tp_gemm_use_packed_(int64_t M, int64_t N, int64_t K)
{
    return M > 1 && N > 1 && K > 0 && M * N * K > TP_GEMM_DIRECT_MAX;
}

/* The team: one thread per TP_GEMM_PAR_MIN multiply-adds, at most the adaptive width of
 * tp_parallel.h (1 inside another parallel region). */
TP_INLINE int tp_gemm_threads_(int64_t M, int64_t N, int64_t K)
{
    return tp_par_team(M * N * K / TP_GEMM_PAR_MIN);
}

/* ---------------------------------------------------------------------------------------- */
/* Micro-kernels: c[MR x NR] (row stride rsc) = or += a_panel * b_panel over kc.            */
/* Only the m x n top-left part of the tile is stored; the rest is padding.                 */
/* ---------------------------------------------------------------------------------------- */

#ifdef TP_GEMM_AVX2

/* 6 x (2 vectors) tile. V: vector type, VU: its unaligned twin, L: lanes. A broadcast of a
 * scalar load is one vbroadcastss/sd; B panels are 64-byte aligned (NR*sizeof = 64 bytes). */
#define TP_GEMM_SIMD_UKR_(T, SFX, V, VU, VI, L)                                             \
TP_GEMM_OUTLINE_ void tp_gemm_ukr_##SFX##_(int64_t kc, const T *TP_RESTRICT a,              \
                                           const T *TP_RESTRICT b, T *TP_RESTRICT c,        \
                                           int64_t rsc, int64_t m, int64_t n, int first)    \
{                                                                                           \
    V c00 = {0}, c01 = {0}, c10 = {0}, c11 = {0}, c20 = {0}, c21 = {0};                     \
    V c30 = {0}, c31 = {0}, c40 = {0}, c41 = {0}, c50 = {0}, c51 = {0};                     \
    int64_t k, i;                                                                           \
    /* C rows are far apart (often a page each): fetch them while the loop runs */          \
    for (i = 0; i < m; i++) {                                                               \
        __builtin_prefetch(c + i * rsc, 1, 3);                                              \
        __builtin_prefetch(c + i * rsc + n - 1, 1, 3);                                      \
    }                                                                                       \
    for (k = 0; k < kc; k++) {                                                              \
        const V b0 = *(const V *)b, b1 = *(const V *)(b + L);                               \
        TP_GEMM_STEP_(T, SFX, V, 0, c00, c01)                                               \
        TP_GEMM_STEP_(T, SFX, V, 1, c10, c11)                                               \
        TP_GEMM_STEP_(T, SFX, V, 2, c20, c21)                                               \
        TP_GEMM_STEP_(T, SFX, V, 3, c30, c31)                                               \
        TP_GEMM_STEP_(T, SFX, V, 4, c40, c41)                                               \
        TP_GEMM_STEP_(T, SFX, V, 5, c50, c51)                                               \
        a += 6;                                                                             \
        b += 2 * L;                                                                         \
    }                                                                                       \
    if (m == 6 && n == 2 * L) {                                                             \
        if (first) {                                                                        \
            TP_GEMM_PUT_(VU, L, 0, c00, c01, =) TP_GEMM_PUT_(VU, L, 1, c10, c11, =)         \
            TP_GEMM_PUT_(VU, L, 2, c20, c21, =) TP_GEMM_PUT_(VU, L, 3, c30, c31, =)         \
            TP_GEMM_PUT_(VU, L, 4, c40, c41, =) TP_GEMM_PUT_(VU, L, 5, c50, c51, =)         \
        } else {                                                                            \
            TP_GEMM_PUT_(VU, L, 0, c00, c01, +=) TP_GEMM_PUT_(VU, L, 1, c10, c11, +=)       \
            TP_GEMM_PUT_(VU, L, 2, c20, c21, +=) TP_GEMM_PUT_(VU, L, 3, c30, c31, +=)       \
            TP_GEMM_PUT_(VU, L, 4, c40, c41, +=) TP_GEMM_PUT_(VU, L, 5, c50, c51, +=)       \
        }                                                                                   \
    } else {                                                                                \
        /* edge tile: masked loads and stores of the first n columns of the first m rows    \
         * (vector moves, no element loop for gcc to vectorize and version) */              \
        V t[12];                                                                            \
        const VI lane = TP_GEMM_IOTA_##SFX##_, nn = lane * 0 + (TP_GEMM_LANE_##SFX##_)n;    \
        const VI k0 = lane < nn, k1 = lane + L < nn;                                        \
        t[0] = c00; t[1] = c01; t[2] = c10; t[3] = c11; t[4] = c20; t[5] = c21;             \
        t[6] = c30; t[7] = c31; t[8] = c40; t[9] = c41; t[10] = c50; t[11] = c51;           \
        for (i = 0; i < m; i++) {                                                           \
            T *ci = c + i * rsc;                                                            \
            V x0 = t[2 * i], x1 = t[2 * i + 1];                                             \
            if (!first) x0 = TP_GEMM_MASKLOAD_##SFX##_(ci, k0) + x0;                        \
            TP_GEMM_MASKSTORE_##SFX##_(ci, k0, x0);                                         \
            if (n > L) {                                                                    \
                if (!first) x1 = TP_GEMM_MASKLOAD_##SFX##_(ci + L, k1) + x1;                \
                TP_GEMM_MASKSTORE_##SFX##_(ci + L, k1, x1);                                 \
            }                                                                               \
        }                                                                                   \
    }                                                                                       \
}

#define TP_GEMM_STEP_(T, SFX, V, r, x0, x1)                                                 \
    {                                                                                       \
        const T s = a[r];                                                                   \
        const V ar = TP_GEMM_SPLAT_##SFX##_(s);                                             \
        x0 = TP_GEMM_FMA_##SFX##_(ar, b0, x0);                                              \
        x1 = TP_GEMM_FMA_##SFX##_(ar, b1, x1);                                              \
    }
#define TP_GEMM_PUT_(VU, L, r, x0, x1, op)                                                  \
    *(VU *)(c + (r) * rsc) op x0;                                                           \
    *(VU *)(c + (r) * rsc + (L)) op x1;
#define TP_GEMM_SPLAT_f32_(s) ((tp_gemm_v8sf_){s, s, s, s, s, s, s, s})
#define TP_GEMM_SPLAT_f64_(s) ((tp_gemm_v4df_){s, s, s, s})

/* Matrix-vector products (M == 1 or N == 1). The packed path would spend its time packing
 * and computing padding there; these stream the matrix once. Each output is still one sum in
 * a fixed order (its own lanes, then the lanes added in order), whatever the thread count. */

/* Strips of the matrix-vector axpy loop: TP_GEMM_AXW vectors of y (8 independent fma
 * chains: two FMA pipes of four cycles' latency) over chunks of TP_GEMM_AXK rows of B. */
#ifndef TP_GEMM_AXW
#define TP_GEMM_AXW 8
#endif
#ifndef TP_GEMM_AXK
#define TP_GEMM_AXK 256
#endif
/* One strip of NV (<= TP_GEMM_AXW) vectors at column j over rows [kb, ke); a constant NV
 * unrolls into registers. */
#define TP_GEMM_AXSTRIP_(T, SFX, V, VU, L, NV)                                              \
    {                                                                                       \
        V acc[TP_GEMM_AXW];                                                                 \
        int64_t q;                                                                          \
        for (q = 0; q < (NV); q++)                                                          \
            acc[q] = kb == 0 ? (V){0} : *(const VU *)(y + j + q * L);                       \
        for (k = kb; k < ke; k++) {                                                         \
            const V vk = TP_GEMM_SPLAT_##SFX##_(u[k * us]);                                 \
            const T *TP_RESTRICT bk = B + k * rsb + j;                                      \
            for (q = 0; q < (NV); q++)                                                      \
                acc[q] = TP_GEMM_FMA_##SFX##_(vk, *(const VU *)(bk + q * L), acc[q]);       \
        }                                                                                   \
        for (q = 0; q < (NV); q++) *(VU *)(y + j + q * L) = acc[q];                         \
    }

/* y[r*ys] = sum_k X[r*xrs + k] * v[k]: four rows at a time share the loads of v, four
 * independent FMA chains hide the latency. */
#define TP_GEMM_SIMD_DOTS_(T, SFX, V, VU, L, SFMA)                                          \
/* lanes added in order; out of line, as four inlined copies cost more compile time */      \
TP_GEMM_OUTLINE_ T tp_gemm_hsum_##SFX##_(V s)                                               \
{                                                                                           \
    T t = 0;                                                                                \
    int l;                                                                                  \
    for (l = 0; l < L; l++) t += s[l];                                                      \
    return t;                                                                               \
}                                                                                           \
                                                                                            \
TP_GEMM_OUTLINE_ void tp_gemm_dots_##SFX##_(int64_t R, int64_t K, const T *TP_RESTRICT X,   \
                                            int64_t xrs, const T *TP_RESTRICT v,            \
                                            T *TP_RESTRICT y, int64_t ys)                   \
{                                                                                           \
    int64_t g;                                                                              \
    /* orphaned: the threads of the caller's parallel region share the rows */              \
    TP_GEMM_PRAGMA_(omp for schedule(static))                                               \
    for (g = 0; g < (R + 3) / 4; g++) {                                                     \
        const int64_t r = 4 * g;                                                            \
        int64_t k;                                                                          \
        /* past the last row, repeat it: same work, result not stored */                    \
        const T *TP_RESTRICT x0 = X + r * xrs;                                              \
        const T *TP_RESTRICT x1 = X + tp_gemm_min_(r + 1, R - 1) * xrs;                     \
        const T *TP_RESTRICT x2 = X + tp_gemm_min_(r + 2, R - 1) * xrs;                     \
        const T *TP_RESTRICT x3 = X + tp_gemm_min_(r + 3, R - 1) * xrs;                     \
        V s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};                                           \
        T t0 = 0, t1 = 0, t2 = 0, t3 = 0;                                                   \
        for (k = 0; k + L <= K; k += L) {                                                   \
            const V w = *(const VU *)(v + k);                                               \
            s0 = TP_GEMM_FMA_##SFX##_(*(const VU *)(x0 + k), w, s0);                        \
            s1 = TP_GEMM_FMA_##SFX##_(*(const VU *)(x1 + k), w, s1);                        \
            s2 = TP_GEMM_FMA_##SFX##_(*(const VU *)(x2 + k), w, s2);                        \
            s3 = TP_GEMM_FMA_##SFX##_(*(const VU *)(x3 + k), w, s3);                        \
        }                                                                                   \
        t0 = tp_gemm_hsum_##SFX##_(s0); t1 = tp_gemm_hsum_##SFX##_(s1);                     \
        t2 = tp_gemm_hsum_##SFX##_(s2); t3 = tp_gemm_hsum_##SFX##_(s3);                     \
        for (; k < K; k++) {                                                                \
            t0 = SFMA(x0[k], v[k], t0); t1 = SFMA(x1[k], v[k], t1);                         \
            t2 = SFMA(x2[k], v[k], t2); t3 = SFMA(x3[k], v[k], t3);                         \
        }                                                                                   \
        y[r * ys] = t0;                                                                     \
        if (r + 1 < R) y[(r + 1) * ys] = t1;                                                \
        if (r + 2 < R) y[(r + 2) * ys] = t2;                                                \
        if (r + 3 < R) y[(r + 3) * ys] = t3;                                                \
    }                                                                                       \
}                                                                                           \
                                                                                            \
/* y[j] = sum_k u[k*us] * B[k*rsb + j], B unit along j. Strips of up to TP_GEMM_AXW vectors
 * of y stay in registers while a chunk of TP_GEMM_AXK rows of B streams past (stored and
 * reloaded between chunks: exact), so the only memory traffic is B itself, and the strip's
 * independent fma chains hide the latency (one accumulator per vector chained across k
 * would be latency-bound). Each y[j] is one fma chain over k in ascending order from zero;
 * the last N % L columns one by one with the same chain. */                               \
TP_GEMM_OUTLINE_ void tp_gemm_axpys_##SFX##_(int64_t N, int64_t K, const T *TP_RESTRICT u,  \
                                             int64_t us, const T *TP_RESTRICT B,            \
                                             int64_t rsb, T *TP_RESTRICT y, int64_t nblk)   \
{                                                                                           \
    /* nblk column blocks (one per thread): long runs along the rows of B */                \
    const int64_t bw = tp_gemm_roundup_((N + nblk - 1) / nblk, L);                          \
    int64_t blk;                                                                            \
    TP_GEMM_PRAGMA_(omp for schedule(static))                                               \
    for (blk = 0; blk < nblk; blk++) {                                                      \
        const int64_t j0 = tp_gemm_min_(blk * bw, N), j1 = tp_gemm_min_(j0 + bw, N);        \
        const int64_t jv = j0 + (j1 - j0) / L * L;                                          \
        int64_t j, k, kb;                                                                   \
        for (kb = 0; kb < K; kb += TP_GEMM_AXK) {                                           \
            const int64_t ke = tp_gemm_min_(kb + TP_GEMM_AXK, K);                           \
            for (j = j0; j < jv; j += TP_GEMM_AXW * L) {                                    \
                const int64_t nv = tp_gemm_min_(TP_GEMM_AXW, (jv - j) / L);                 \
                if (nv == TP_GEMM_AXW) {                                                    \
                    TP_GEMM_AXSTRIP_(T, SFX, V, VU, L, TP_GEMM_AXW)                         \
                } else {                                                                    \
                    TP_GEMM_AXSTRIP_(T, SFX, V, VU, L, nv)                                  \
                }                                                                           \
            }                                                                               \
        }                                                                                   \
        for (j = jv; j < j1; j++) {                                                         \
            T s = 0;                                                                        \
            for (k = 0; k < K; k++) s = SFMA(u[k * us], B[k * rsb + j], s);                 \
            y[j] = s;                                                                       \
        }                                                                                   \
    }                                                                                       \
}

TP_GEMM_SIMD_UKR_(float, f32, tp_gemm_v8sf_, tp_gemm_v8sf_u_, tp_gemm_v8si_, 8)
TP_GEMM_SIMD_UKR_(double, f64, tp_gemm_v4df_, tp_gemm_v4df_u_, tp_gemm_v4di_, 4)
TP_GEMM_SIMD_DOTS_(float, f32, tp_gemm_v8sf_, tp_gemm_v8sf_u_, 8, __builtin_fmaf)
TP_GEMM_SIMD_DOTS_(double, f64, tp_gemm_v4df_, tp_gemm_v4df_u_, 4, __builtin_fma)

/* Matrix-vector shapes (M == 1 or N == 1) with unit strides where the loops above need
 * them: which loop (1 to 4), or 0 for odd strides, left to the direct loop. */
TP_INLINE int tp_gemm_vec_kind_(int64_t M, int64_t N, int64_t rsa, int64_t csa, int64_t rsb,
                                int64_t csb, int64_t rsc)
{
    if (N == 1 && csa == 1 && rsb == 1) return 1;       /* rows of A . b */
    if (N == 1 && rsa == 1 && rsc == 1) return 2;       /* columns of A scaled by b, summed */
    if (M == 1 && csb == 1) return 3;                   /* rows of B scaled by a, summed */
    if (M == 1 && rsb == 1 && csa == 1) return 4;       /* a . columns of B */
    return 0;
}

/* Run by every thread of the team (the loops share out the rows or columns). */
#define TP_GEMM_SIMD_VEC_(T, SFX)                                                           \
TP_INLINE void tp_gemm_vec_##SFX##_(int kind, int64_t M, int64_t N, int64_t K,              \
                                    const T *A, int64_t rsa, int64_t csa,                   \
                                    const T *B, int64_t rsb, int64_t csb,                   \
                                    T *C, int64_t rsc, int64_t nthreads)                    \
{                                                                                           \
    if (kind == 1) tp_gemm_dots_##SFX##_(M, K, A, rsa, B, C, rsc);                          \
    else if (kind == 2) tp_gemm_axpys_##SFX##_(M, K, B, rsb, A, csa, C, nthreads);          \
    else if (kind == 3) tp_gemm_axpys_##SFX##_(N, K, A, csa, B, rsb, C, nthreads);          \
    else tp_gemm_dots_##SFX##_(N, K, B, csb, A, C, 1);                                      \
}
TP_GEMM_SIMD_VEC_(float, f32)
TP_GEMM_SIMD_VEC_(double, f64)
#undef TP_GEMM_SIMD_VEC_
#undef TP_GEMM_SIMD_UKR_
#undef TP_GEMM_SIMD_DOTS_
#undef TP_GEMM_STEP_
#undef TP_GEMM_AXSTRIP_
#undef TP_GEMM_PUT_
#undef TP_GEMM_SPLAT_f32_
#undef TP_GEMM_SPLAT_f64_

#else /* portable kernels: the j loops are what the auto-vectorizer turns into SIMD */

#define TP_GEMM_PORTABLE_UKR_(T, SFX, MR, NR)                                               \
TP_INLINE void tp_gemm_ukr_##SFX##_(int64_t kc, const T *TP_RESTRICT a,                     \
                                    const T *TP_RESTRICT b, T *TP_RESTRICT c,               \
                                    int64_t rsc, int64_t m, int64_t n, int first)           \
{                                                                                           \
    T acc[MR][NR];                                                                          \
    int64_t i, j, k;                                                                        \
    for (i = 0; i < MR; i++)                                                                \
        for (j = 0; j < NR; j++) acc[i][j] = 0;                                             \
    for (k = 0; k < kc; k++) {                                                              \
        for (i = 0; i < MR; i++) {                                                          \
            T ak = a[i];                                                                    \
            for (j = 0; j < NR; j++) acc[i][j] += ak * b[j];                                \
        }                                                                                   \
        a += MR;                                                                            \
        b += NR;                                                                            \
    }                                                                                       \
    for (i = 0; i < m; i++)                                                                 \
        for (j = 0; j < n; j++)                                                             \
            c[i * rsc + j] = first ? acc[i][j] : c[i * rsc + j] + acc[i][j];                \
}
TP_GEMM_PORTABLE_UKR_(float, f32, TP_GEMM_MR_F32, TP_GEMM_NR_F32)
TP_GEMM_PORTABLE_UKR_(double, f64, TP_GEMM_MR_F64, TP_GEMM_NR_F64)
#undef TP_GEMM_PORTABLE_UKR_

/* No matrix-vector loops without SIMD types: the direct loop handles those shapes. */
TP_INLINE int tp_gemm_vec_kind_(int64_t M, int64_t N, int64_t rsa, int64_t csa, int64_t rsb,
                                int64_t csb, int64_t rsc)
{
    (void)M; (void)N; (void)rsa; (void)csa; (void)rsb; (void)csb; (void)rsc;
    return 0;
}
#define TP_GEMM_PORTABLE_VEC_(T, SFX)                                                       \
TP_INLINE void tp_gemm_vec_##SFX##_(int kind, int64_t M, int64_t N, int64_t K,              \
                                    const T *A, int64_t rsa, int64_t csa,                   \
                                    const T *B, int64_t rsb, int64_t csb,                   \
                                    T *C, int64_t rsc, int64_t nthreads)                    \
{                                                                                           \
    (void)kind; (void)M; (void)N; (void)K; (void)A; (void)rsa; (void)csa;                   \
    (void)B; (void)rsb; (void)csb; (void)C; (void)rsc; (void)nthreads;                      \
}
TP_GEMM_PORTABLE_VEC_(float, f32)
TP_GEMM_PORTABLE_VEC_(double, f64)
#undef TP_GEMM_PORTABLE_VEC_

#endif /* TP_GEMM_AVX2 */

/* ---------------------------------------------------------------------------------------- */
/* Everything else is the same for both types; one macro instantiates it per type.           */
/* ---------------------------------------------------------------------------------------- */

#define TP_GEMM_DEFINE_(T, SFX, MR, NR, KCMAX, MCMAX, NCMAX, MBMAX)                         \
                                                                                            \
/* Packing is O(MK + KN) against O(MNK) for the product. Both copies take a fixed-size      \
 * gather per step (the MR or NR offsets precomputed), which gcc turns into straight-line   \
 * loads and vector stores, and a memcpy of constant size where the panel is contiguous.    \
 * Padding rows and columns repeat the last real one: their results only reach the unused   \
 * part of a tile, and real values rather than stale memory keep odd operands (denormals)   \
 * out of the FMAs. Out of line: that keeps the compile time of the blocked loops down. */  \
                                                                                            \
/* Panel of A rows [0, m) x k [0, kc): layout [k][MR], rows past m repeat row m-1. */       \
TP_GEMM_OUTLINE_ void tp_gemm_pack_a_##SFX##_(int64_t m, int64_t kc,                       \
                                              const T *TP_RESTRICT a, int64_t rsa,          \
                                              int64_t csa, T *TP_RESTRICT ap)               \
{                                                                                           \
    int64_t i, k, off[MR];                                                                  \
    if (m == MR && rsa == 1) {                                                              \
        for (k = 0; k < kc; k++) memcpy(ap + k * MR, a + k * csa, MR * sizeof(T));          \
        return;                                                                             \
    }                                                                                       \
    for (i = 0; i < MR; i++) off[i] = tp_gemm_min_(i, m - 1) * rsa;                         \
    for (k = 0; k < kc; k++, a += csa, ap += MR)                                            \
        for (i = 0; i < MR; i++) ap[i] = a[off[i]];                                         \
}                                                                                           \
                                                                                            \
/* Panel of B k [0, kc) x columns [0, n): layout [k][NR], columns past n repeat n-1. */     \
TP_GEMM_OUTLINE_ void tp_gemm_pack_b_##SFX##_(int64_t kc, int64_t n,                       \
                                              const T *TP_RESTRICT b, int64_t rsb,          \
                                              int64_t csb, T *TP_RESTRICT bp)               \
{                                                                                           \
    int64_t j, k, off[NR];                                                                  \
    if (n == NR && csb == 1) {                                                              \
        for (k = 0; k < kc; k++) memcpy(bp + k * NR, b + k * rsb, NR * sizeof(T));          \
        return;                                                                             \
    }                                                                                       \
    for (j = 0; j < NR; j++) off[j] = tp_gemm_min_(j, n - 1) * csb;                         \
    for (k = 0; k < kc; k++, b += rsb, bp += NR)                                            \
        for (j = 0; j < NR; j++) bp[j] = b[off[j]];                                         \
}                                                                                           \
                                                                                            \
/* Direct loop for tiny products, where packing would cost as much as the product: one      \
 * sum over k in ascending order per C element. */                                          \
TP_GEMM_OUTLINE_ void tp_gemm_direct_##SFX##_(int64_t M, int64_t N, int64_t K,              \
                                              const T *TP_RESTRICT A, int64_t rsa,          \
                                              int64_t csa, const T *TP_RESTRICT B,          \
                                              int64_t rsb, int64_t csb, T *TP_RESTRICT C,   \
                                              int64_t rsc)                                  \
{                                                                                           \
    int64_t i, j, k;                                                                        \
    for (i = 0; i < M; i++)                                                                 \
        for (j = 0; j < N; j++) {                                                           \
            T s = 0;                                                                        \
            for (k = 0; k < K; k++) s += A[i * rsa + k * csa] * B[k * rsb + j * csb];       \
            C[i * rsc + j] = s;                                                             \
        }                                                                                   \
}                                                                                           \
                                                                                            \
/* Workspace: the B block of a round (up to KR chunks of K x NC columns), then its A block  \
 * (the same chunks x up to MB rows), from the first 64-byte boundary. Each chunk is laid   \
 * out in panels of kcs x NR (B) or kcs x MR (A), kcs the chunk length. */                  \
TP_INLINE int64_t tp_gemm_bblock_elems_##SFX##_(int64_t N, int64_t K)                       \
{                                                                                           \
    const int64_t kcs = tp_gemm_kc_(K, KCMAX);                                              \
    const int64_t nkc = tp_gemm_min_(TP_GEMM_KR, (K + kcs - 1) / kcs);                      \
    const int64_t nc = tp_gemm_min_(NCMAX, tp_gemm_roundup_(N, NR));                        \
    return tp_gemm_roundup_(nkc * kcs * nc, 64 / (int64_t)sizeof(T));                       \
}                                                                                           \
                                                                                            \
TP_INLINE int64_t tp_gemm_workspace_bytes_##SFX(int64_t M, int64_t N, int64_t K)            \
{                                                                                           \
    int64_t kcs, nkc, mb;                                                                   \
    if (!tp_gemm_use_packed_(M, N, K)) return 0;                                            \
    kcs = tp_gemm_kc_(K, KCMAX);                                                            \
    nkc = tp_gemm_min_(TP_GEMM_KR, (K + kcs - 1) / kcs);                                    \
    mb = tp_gemm_min_(MBMAX, tp_gemm_roundup_(M, MR));                                      \
    /* + 64: room to align a workspace that comes unaligned */                              \
    return (tp_gemm_bblock_elems_##SFX##_(N, K) + nkc * kcs * mb) * (int64_t)sizeof(T) + 64; \
}                                                                                           \
                                                                                            \
/* The packed path, run by every thread of the team. A round packs up to KR chunks of K for \
 * up to NC columns of B (when it moves on in K or N) and up to MB rows of A, the threads   \
 * sharing the copying; then the threads take chunks of C (MC rows x jb panels of NR        \
 * columns), dynamically, each chunk going through all the K chunks of the round in order.  \
 * Two barriers per round and few rounds (one up to about 1024^3): when other processes     \
 * compete for the cores, a barrier can cost a scheduler time slice. The work-sharing       \
 * constructs are orphaned (they bind to the caller's parallel region, or run on one thread \
 * without one): the outlined region is a single call and gcc compiles this body once. */   \
TP_GEMM_OUTLINE_ void tp_gemm_blocked_##SFX##_(                                             \
    int64_t M, int64_t N, int64_t K, const T *A, int64_t rsa, int64_t csa,                  \
    const T *B, int64_t rsb, int64_t csb, T *C, int64_t rsc, T *bpk, T *apk, int64_t kcs,   \
    int64_t nthreads)                                                                       \
{                                                                                           \
    /* rounds of equal height, in whole MC blocks, at most MB rows */                       \
    const int64_t nrounds = (M + MBMAX - 1) / MBMAX;                                        \
    const int64_t mbs = tp_gemm_min_(MBMAX, tp_gemm_roundup_((M + nrounds - 1) / nrounds,   \
                                                             MCMAX));                       \
    int64_t jc, pb, ib;                                                                     \
    for (jc = 0; jc < N; jc += NCMAX) {                                                     \
        const int64_t nc = tp_gemm_min_(NCMAX, N - jc);                                     \
        const int64_t njr = (nc + NR - 1) / NR;                                             \
        for (pb = 0; pb < K; pb += TP_GEMM_KR * kcs) {                                      \
            const int64_t nkc = tp_gemm_min_(TP_GEMM_KR, (K - pb + kcs - 1) / kcs);         \
            for (ib = 0; ib < M; ib += mbs) {                                               \
                const int64_t mb = tp_gemm_min_(mbs, M - ib);                               \
                const int64_t npanel = (mb + MR - 1) / MR;                                  \
                const int64_t nic = (mb + MCMAX - 1) / MCMAX;                               \
                /* panels per chunk: TP_GEMM_JB, fewer if that leaves too few chunks */     \
                const int64_t per_ic = (4 * nthreads + nic - 1) / nic;                      \
                const int64_t jb = tp_gemm_min_(TP_GEMM_JB,                                 \
                                                njr / per_ic > 1 ? njr / per_ic : 1);       \
                const int64_t ngroup = (njr + jb - 1) / jb;                                 \
                const int64_t nbpack = ib == 0 ? nkc * njr : 0;                             \
                int64_t t, q;                                                               \
                /* packing claimed dynamically: a descheduled thread holds up only the     \
                 * panels it took, not a static share */                                    \
                TP_GEMM_PRAGMA_(omp for schedule(dynamic, 4) nowait)                        \
                for (t = 0; t < nbpack + nkc * npanel; t++) {                               \
                    if (t < nbpack) {                                                       \
                        const int64_t c = t / njr, p = t - c * njr, pc = pb + c * kcs;      \
                        tp_gemm_pack_b_##SFX##_(tp_gemm_min_(kcs, K - pc),                  \
                                                tp_gemm_min_(NR, nc - p * NR),              \
                                                B + pc * rsb + (jc + p * NR) * csb,         \
                                                rsb, csb, bpk + t * kcs * NR);              \
                    } else {                                                                \
                        const int64_t u = t - nbpack, c = u / npanel, p = u - c * npanel;   \
                        const int64_t pc = pb + c * kcs;                                    \
                        tp_gemm_pack_a_##SFX##_(tp_gemm_min_(MR, mb - p * MR),              \
                                                tp_gemm_min_(kcs, K - pc),                  \
                                                A + (ib + p * MR) * rsa + pc * csa,         \
                                                rsa, csa, apk + u * kcs * MR);              \
                    }                                                                       \
                }                                                                           \
                /* the packing done; the wait is timed for tp_parallel.h */                 \
                tp_par_barrier();                                                           \
                /* chunk q: rows [i0, i1) x panels [j0, j1); per K chunk, each B panel      \
                 * stays in L1 over the MC rows and the A block in L2 over the jb panels.   \
                 * The barrier after it keeps the packed blocks alive. */                   \
                TP_GEMM_PRAGMA_(omp for schedule(dynamic, 1) nowait)                        \
                for (q = 0; q < nic * ngroup; q++) {                                        \
                    const int64_t i0 = q / ngroup * MCMAX, j0 = q % ngroup * jb;            \
                    const int64_t i1 = tp_gemm_min_(i0 + MCMAX, mb);                        \
                    const int64_t j1 = tp_gemm_min_(j0 + jb, njr);                          \
                    int64_t c, jr, i;                                                       \
                    for (c = 0; c < nkc; c++) {                                             \
                        const int64_t pc = pb + c * kcs, kc = tp_gemm_min_(kcs, K - pc);    \
                        for (jr = j0; jr < j1; jr++)                                        \
                            for (i = i0; i < i1; i += MR)                                   \
                                tp_gemm_ukr_##SFX##_(                                       \
                                    kc, apk + (c * npanel + i / MR) * kcs * MR,             \
                                    bpk + (c * njr + jr) * kcs * NR,                        \
                                    C + (ib + i) * rsc + jc + jr * NR, rsc,                 \
                                    tp_gemm_min_(MR, i1 - i),                               \
                                    tp_gemm_min_(NR, nc - jr * NR), pc == 0);               \
                    }                                                                       \
                }                                                                           \
                tp_par_barrier();                                                           \
            }                                                                               \
        }                                                                                   \
    }                                                                                       \
}                                                                                           \
                                                                                            \
/* The two threaded paths, out of line: compiled once however many calls a file makes. */   \
TP_GEMM_OUTLINE_ void tp_gemm_packed_##SFX##_(int64_t M, int64_t N, int64_t K,              \
                                              const T *A, int64_t rsa, int64_t csa,         \
                                              const T *B, int64_t rsb, int64_t csb,         \
                                              T *C, int64_t rsc, void *workspace)           \
{                                                                                           \
    const int64_t kcs = tp_gemm_kc_(K, KCMAX);                                              \
    /* the B panels are read with aligned vector loads */                                   \
    T *bpk = (T *)(((uintptr_t)workspace + 63) & ~(uintptr_t)63);                           \
    T *apk = bpk + tp_gemm_bblock_elems_##SFX##_(N, K);                                     \
    const int nthreads = tp_gemm_threads_(M, N, K);                                         \
    /* one thread outside any region: none (entering one, even if(0), costs a team set-up); \
     * inside another region, a one-thread one, so the work-sharing binds to it */          \
    if (nthreads <= 1 && !TP_GEMM_IN_PARALLEL_()) {                                         \
        tp_gemm_blocked_##SFX##_(M, N, K, A, rsa, csa, B, rsb, csb, C, rsc, bpk, apk, kcs,  \
                                 1);                                                        \
        return;                                                                             \
    }                                                                                       \
    TP_GEMM_PRAGMA_(omp parallel num_threads(nthreads) if(nthreads > 1))                    \
    {                                                                                       \
        tp_gemm_blocked_##SFX##_(M, N, K, A, rsa, csa, B, rsb, csb, C, rsc, bpk, apk, kcs,  \
                                 nthreads);                                                 \
        tp_par_arrive();                                                                    \
    }                                                                                       \
}                                                                                           \
                                                                                            \
TP_GEMM_OUTLINE_ void tp_gemm_vecpar_##SFX##_(int kind, int64_t M, int64_t N, int64_t K,    \
                                              const T *A, int64_t rsa, int64_t csa,         \
                                              const T *B, int64_t rsb, int64_t csb,         \
                                              T *C, int64_t rsc)                            \
{                                                                                           \
    const int nthreads = tp_gemm_threads_(M, N, K);                                         \
    /* small products (the bodies of loops) outside any region: none (entering one costs   \
     * ~0.3 us, a loop body's whole budget); inside one, as in tp_gemm_packed */            \
    if (nthreads <= 1 && !TP_GEMM_IN_PARALLEL_()) {                                         \
        tp_gemm_vec_##SFX##_(kind, M, N, K, A, rsa, csa, B, rsb, csb, C, rsc, 1);           \
        return;                                                                             \
    }                                                                                       \
    TP_GEMM_PRAGMA_(omp parallel num_threads(nthreads) if(nthreads > 1))                    \
    tp_gemm_vec_##SFX##_(kind, M, N, K, A, rsa, csa, B, rsb, csb, C, rsc, nthreads);        \
}                                                                                           \
                                                                                            \
/* The dispatch stays inline: with the constant shapes and strides that generated code      \
 * passes, gcc folds it and never compiles the paths a file does not use (a file with only  \
 * large products skips the matrix-vector and tiny loops, and the other way round). */      \
TP_INLINE TP_GEMM_ALWAYS_INLINE_ void tp_gemm_##SFX(int64_t M, int64_t N, int64_t K,        \
                             const T *A, int64_t rsa, int64_t csa,                          \
                             const T *B, int64_t rsb, int64_t csb,                          \
                             T *C, int64_t rsc, void *workspace)                            \
{                                                                                           \
    if (M <= 0 || N <= 0) return;                                                           \
    if (K <= 0) {                                                                           \
        int64_t i;                                                                          \
        for (i = 0; i < M; i++) memset(C + i * rsc, 0, (size_t)N * sizeof(T));              \
    } else if (M * N * K <= TP_GEMM_DIRECT_MAX) {                                           \
        TP_GEMM_CALL_(direct, SFX)(M, N, K, A, rsa, csa, B, rsb, csb, C, rsc);              \
    } else if (tp_gemm_use_packed_(M, N, K)) {                                              \
        TP_GEMM_CALL_(packed, SFX)(M, N, K, A, rsa, csa, B, rsb, csb, C, rsc, workspace);   \
    } else {                                                                                \
        const int kind = tp_gemm_vec_kind_(M, N, rsa, csa, rsb, csb, rsc);                  \
        if (kind == 0)                                                                      \
            TP_GEMM_CALL_(direct, SFX)(M, N, K, A, rsa, csa, B, rsb, csb, C, rsc);          \
        else                                                                                \
            TP_GEMM_CALL_(vecpar, SFX)(kind, M, N, K, A, rsa, csa, B, rsb, csb, C, rsc);    \
    }                                                                                       \
}

/* The threaded and direct paths precompiled (backend/runtime_lib.py): with TP_RUNTIME_LIB
 * the dispatch calls the object's copies (tpx_*), and the static ones here go unused, so
 * gcc never optimises them in the generated file; the object defines tpx_* (hidden) over
 * them with TP_RUNTIME_LIB_DEFINE. Same code, same results; the dispatch stays inline. */
#define TPX_GEMM_PROTOS_(T, SFX, BODY_DIRECT, BODY_PACKED, BODY_VECPAR)                      \
    __attribute__((visibility("hidden"))) void tpx_gemm_direct_##SFX##_(                    \
        int64_t M, int64_t N, int64_t K, const T *A, int64_t rsa, int64_t csa, const T *B,   \
        int64_t rsb, int64_t csb, T *C, int64_t rsc) BODY_DIRECT                             \
    __attribute__((visibility("hidden"))) void tpx_gemm_packed_##SFX##_(                    \
        int64_t M, int64_t N, int64_t K, const T *A, int64_t rsa, int64_t csa, const T *B,   \
        int64_t rsb, int64_t csb, T *C, int64_t rsc, void *workspace) BODY_PACKED            \
    __attribute__((visibility("hidden"))) void tpx_gemm_vecpar_##SFX##_(                    \
        int kind, int64_t M, int64_t N, int64_t K, const T *A, int64_t rsa, int64_t csa,     \
        const T *B, int64_t rsb, int64_t csb, T *C, int64_t rsc) BODY_VECPAR
#if defined(TP_RUNTIME_LIB) && !defined(TP_RUNTIME_LIB_DEFINE) && !defined(__CUDACC__)
#define TP_GEMM_CALL_(fn, SFX) tpx_gemm_##fn##_##SFX##_
TPX_GEMM_PROTOS_(float, f32, ;, ;, ;)
TPX_GEMM_PROTOS_(double, f64, ;, ;, ;)
#else
#define TP_GEMM_CALL_(fn, SFX) tp_gemm_##fn##_##SFX##_
#endif

TP_GEMM_DEFINE_(float, f32, TP_GEMM_MR_F32, TP_GEMM_NR_F32,
                TP_GEMM_KC_F32, TP_GEMM_MC_F32, TP_GEMM_NC_F32, TP_GEMM_MB_F32)
TP_GEMM_DEFINE_(double, f64, TP_GEMM_MR_F64, TP_GEMM_NR_F64,
                TP_GEMM_KC_F64, TP_GEMM_MC_F64, TP_GEMM_NC_F64, TP_GEMM_MB_F64)
#undef TP_GEMM_DEFINE_

#if defined(TP_RUNTIME_LIB_DEFINE) && !defined(__CUDACC__)
#define TPX_GEMM_DIRECT_(SFX) { tp_gemm_direct_##SFX##_(M, N, K, A, rsa, csa, B, rsb, csb, C, rsc); }
#define TPX_GEMM_PACKED_(SFX) \
    { tp_gemm_packed_##SFX##_(M, N, K, A, rsa, csa, B, rsb, csb, C, rsc, workspace); }
#define TPX_GEMM_VECPAR_(SFX) \
    { tp_gemm_vecpar_##SFX##_(kind, M, N, K, A, rsa, csa, B, rsb, csb, C, rsc); }
TPX_GEMM_PROTOS_(float, f32, TPX_GEMM_DIRECT_(f32), TPX_GEMM_PACKED_(f32), TPX_GEMM_VECPAR_(f32))
TPX_GEMM_PROTOS_(double, f64, TPX_GEMM_DIRECT_(f64), TPX_GEMM_PACKED_(f64), TPX_GEMM_VECPAR_(f64))
#endif

#endif /* TP_MATMUL_H */

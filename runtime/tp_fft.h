/* Fast Fourier transforms for the fft kernel (templates/c/kernel_fft.j2).
 *
 * A plan per length: lengths 2^a 3^b 5^c run a Stockham autosort transform (decimation
 * in frequency, radix 8/4/2/3/5 stages, no bit reversal, twiddles computed in double once
 * per plan); any other length runs Bluestein's chirp-z through a plan of the least
 * 2^a 3^b 5^c >= 2n-1 points (chirp and filter spectrum made once per plan). Plans live as long
 * as the module (cached in the kernel).
 *
 * Speed comes from running several transforms at once: a block of B lines (or of B
 * adjacent columns of a strided axis) is copied into split re/im arrays, element e of
 * column v at e B + v, so every Stockham stage's inner loop runs over B or more
 * contiguous values and vectorises; blocks run in parallel. A long single line (n >=
 * TPFFT_FOUR_MIN, n = n1 n2) runs the four-step method: columns of length n1, twiddles,
 * rows of length n2, each through the same blocks, so both passes work in cache. Real
 * transforms of even length n run one complex transform of n/2 (the even/odd pairs)
 * and a post-pass (pre-pass for the inverse). Inverses swap re and im on the way in and
 * out (no 1/n: the caller passes the scale). Every value is computed the same way
 * whatever the number of threads. Batches of small multi-axis arrays (one array per
 * thread at a time, 2D ones with both passes fused) are in tp_fft_batch.h. */
#ifndef TP_FFT_H
#define TP_FFT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TPFFT_PI 3.14159265358979323846264338327950288
/* Lengths from which a single line runs the four-step method. */
#define TPFFT_FOUR_MIN 4096
/* Columns (rows) per block of the four-step passes; the twiddle table's order uses it. */
#define TPFFT_FOUR_B 8
#define TPFFT_CAT2(a, b) a##_##b
#define TPFFT_CAT(a, b) TPFFT_CAT2(a, b)
/* The inner loops over the columns of a block: 8 values a vector iteration. Blocks are 8
 * (or 4) columns wide, so a loop often has only 8 iterations; at the compiler's own
 * choice of width (16 floats with AVX-512) they would all fall to the remainder, which
 * runs scalar under --param=vect-epilogues-nomask=0 (the backend's flag): 1.7x slower. */
#define TPFFT_SIMD _Pragma("omp simd simdlen(8)")
enum { TPFFT_C2C, TPFFT_R2C, TPFFT_C2R }; /* the kinds of tpfft_lines */

#define TPFFT_T float
#define TPFFT_I int32_t
#define TPFFT_S f32
#include "tp_fft_body.h"
#include "tp_fft_batch.h"
#undef TPFFT_T
#undef TPFFT_I
#undef TPFFT_S

#define TPFFT_T double
#define TPFFT_I int64_t
#define TPFFT_S f64
#include "tp_fft_body.h"
#include "tp_fft_batch.h"
#undef TPFFT_T
#undef TPFFT_I
#undef TPFFT_S

#endif /* TP_FFT_H */

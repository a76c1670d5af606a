/* Spelling that differs between the C and CUDA backends lives here, so templates and
 * emitters can write one form, with the few macros the runtime headers share.
 * Included first by every generated file. */
#ifndef TRANSPILE_MACROS_H
#define TRANSPILE_MACROS_H

#if defined(__CUDACC__)
#define TP_RESTRICT __restrict__
#define TP_INLINE static __device__ __forceinline__
/* A helper whose address is taken (a comparison handed to a sort). */
#define TP_FUNCTION static __device__
/* A table of constants read by helpers. */
#define TP_TABLE static __device__ const
#else
#ifdef __cplusplus  /* C++ (the CUDA emulator's host build) has no restrict keyword */
#define TP_RESTRICT __restrict__
#else
#define TP_RESTRICT restrict
#endif
#define TP_INLINE static inline
#define TP_FUNCTION static
#define TP_TABLE static const
#endif

/* A stable insertion sort of the pairs (d[k], idx[k]), k < n, by d, for the linalg
 * kernels' eigenvalues and singular values: an element moves up past those with
 * `d[j - 1] CMP key` (`>`: ascending, `<`: descending). i and j are the caller's
 * loop variables. */
#define TP_SORT_PAIRS(T, d, idx, n, CMP, i, j)                                         \
    for (i = 1; i < (n); i++) {                                                        \
        T tp_key_ = (d)[i], tp_ki_ = (idx)[i];                                         \
        for (j = i; j > 0 && (d)[j - 1] CMP tp_key_; j--) {                            \
            (d)[j] = (d)[j - 1];                                                       \
            (idx)[j] = (idx)[j - 1];                                                   \
        }                                                                              \
        (d)[j] = tp_key_;                                                              \
        (idx)[j] = tp_ki_;                                                             \
    }

#endif /* TRANSPILE_MACROS_H */

/* Spelling that differs between the C and CUDA backends lives here, so templates and
 * emitters can write one form. Included first by every generated file. */
#ifndef TRANSPILE_MACROS_H
#define TRANSPILE_MACROS_H

#if defined(__CUDACC__)
#define TP_RESTRICT __restrict__
#define TP_INLINE __device__ __forceinline__
#else
#define TP_RESTRICT restrict
#define TP_INLINE static inline
#endif

#endif /* TRANSPILE_MACROS_H */

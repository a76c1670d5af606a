/* Spelling that differs between the C and CUDA backends lives here, so templates and
 * emitters can write one form. Included first by every generated file. */
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
#define TP_RESTRICT restrict
#define TP_INLINE static inline
#define TP_FUNCTION static
#define TP_TABLE static const
#endif

#endif /* TRANSPILE_MACROS_H */

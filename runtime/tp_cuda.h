/* What generated CUDA needs beyond the shared headers: the host-side helpers of the
 * entry point (scalar reads for control flow, fills) and the device-side pieces of the
 * reduction templates. Included after tp_codegen.h by every generated .cu file. */
#ifndef TP_CUDA_H
#define TP_CUDA_H

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

/* Threads per block of every generated kernel: eight warps, so a block reduction is
 * one shuffle tree per warp and one over the eight warp results. */
#define TP_BLOCK 256
#define TP_WARPS (TP_BLOCK / 32)

/* A lane's value from the lane `offset` above it, for any type of at most 16 bytes
 * (bool, integers, halves stored as uint16_t, floats, doubles, complex). */
template <typename T>
static __device__ __forceinline__ T tp_shfl_down(T v, int offset)
{
    static_assert(sizeof(T) <= 16, "tp_shfl_down: type wider than 16 bytes");
    T r;
    if constexpr (sizeof(T) <= 4) {
        unsigned u = 0;
        memcpy(&u, &v, sizeof(T));
        u = __shfl_down_sync(0xffffffffu, u, offset);
        memcpy(&r, &u, sizeof(T));
    } else if constexpr (sizeof(T) > 8) {  /* complex128: two 8-byte shuffles */
        unsigned long long u[2] = {0, 0};
        memcpy(u, &v, sizeof(T));
        u[0] = __shfl_down_sync(0xffffffffu, u[0], offset);
        u[1] = __shfl_down_sync(0xffffffffu, u[1], offset);
        memcpy(&r, u, sizeof(T));
    } else {
        unsigned long long u = 0;
        memcpy(&u, &v, sizeof(T));
        u = __shfl_down_sync(0xffffffffu, u, offset);
        memcpy(&r, &u, sizeof(T));
    }
    return r;
}

/* Host: one element of device memory, read once the work queued before it is done
 * (a loop predicate, a branch index). */
template <typename T>
static T tp_load(const T *p, cudaStream_t stream)
{
    T v;
    memset(&v, 0, sizeof v);
    cudaMemcpyAsync(&v, p, sizeof(T), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    return v;
}

template <typename T>
__global__ void tp_fill_kernel(T *dst, T value, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = value;
}

/* Host: set n elements of device memory to value. */
template <typename T>
static void tp_fill(T *dst, T value, int64_t n, cudaStream_t stream)
{
    int64_t blocks = (n + TP_BLOCK - 1) / TP_BLOCK;
    if (blocks > 4096) blocks = 4096;
    if (blocks < 1) blocks = 1;
    tp_fill_kernel<T><<<(unsigned)blocks, TP_BLOCK, 0, stream>>>(dst, value, n);
}

/* Host: copy n elements between device buffers. */
template <typename T>
static void tp_copy(T *dst, const T *src, int64_t n, cudaStream_t stream)
{
    cudaMemcpyAsync(dst, src, (size_t)n * sizeof(T), cudaMemcpyDeviceToDevice, stream);
}

#endif /* TP_CUDA_H */

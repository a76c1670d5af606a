/* A CPU emulation of the parts of CUDA that generated code uses, for testing the CUDA
 * templates on machines without a GPU (tests/cuda_emulation.py).
 *
 * Device memory is host memory. A kernel launch runs its blocks one after another; the
 * threads of a block are fibers (ucontext) on the calling thread, scheduled round robin,
 * so __syncthreads and warp shuffles really wait for the other threads: a kernel whose
 * threads disagree about a barrier deadlocks here (reported, then abort) as it would
 * hang a GPU. Launch syntax (k<<<g, b, smem, stream>>>(args)) is rewritten to
 * tp_emu_launch by tests/cuda_emulation.py before compiling with a C++ compiler.
 *
 * Not CUDA: nothing here runs on a GPU, and memory ordering, timing and the warp-
 * synchronous shortcuts a GPU allows are not modelled (every shuffle synchronises). */
#ifndef TP_CUDA_EMU_RUNTIME_H
#define TP_CUDA_EMU_RUNTIME_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>
#include <ucontext.h>
#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#endif

using std::fma;

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(n)
/* One block runs at a time, so a function-level static is the block's shared memory. */
#define __shared__ static

typedef void *cudaStream_t;
typedef int cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,
                      cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3 };
#define cudaSuccess 0

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};

namespace tp_emu {

enum State { RUNNABLE, AT_BLOCK_BARRIER, AT_WARP_BARRIER, DONE };

struct Thread {
    ucontext_t ctx;
    dim3 idx;
    State state;
    std::vector<char> stack;
};

struct Scheduler {
    ucontext_t main_ctx;
    std::vector<Thread> threads;
    int current = 0;
    const std::function<void()> *body = nullptr;
    dim3 block_idx, block_dim, grid_dim;
    uint64_t shuffle[64][32];
    long launches = 0;
};

inline Scheduler &sched() { static Scheduler s; return s; }

inline void yield_as(State st)
{
    Scheduler &s = sched();
    Thread &t = s.threads[s.current];
    t.state = st;
    swapcontext(&t.ctx, &s.main_ctx);
}

inline void entry()
{
    Scheduler &s = sched();
    (*s.body)();
    s.threads[s.current].state = DONE;
    swapcontext(&s.threads[s.current].ctx, &s.main_ctx);
}

/* Release the threads waiting at a barrier once every live thread of its scope (the
 * block, or the warp) waits there; false when nothing could be released. */
inline bool release()
{
    Scheduler &s = sched();
    int n = (int)s.threads.size();
    bool any = false;
    int live = 0, at_block = 0;
    for (auto &t : s.threads) {
        live += t.state != DONE;
        at_block += t.state == AT_BLOCK_BARRIER;
    }
    if (live && at_block == live) {
        for (auto &t : s.threads) t.state = RUNNABLE;
        return true;
    }
    for (int w = 0; w * 32 < n; w++) {
        int wl = 0, wa = 0;
        for (int i = w * 32; i < n && i < w * 32 + 32; i++) {
            wl += s.threads[i].state != DONE;
            wa += s.threads[i].state == AT_WARP_BARRIER;
        }
        if (wl && wa == wl) {
            for (int i = w * 32; i < n && i < w * 32 + 32; i++)
                if (s.threads[i].state == AT_WARP_BARRIER) s.threads[i].state = RUNNABLE;
            any = true;
        }
    }
    return any;
}

inline void launch(dim3 grid, dim3 block, const std::function<void()> &body)
{
    Scheduler &s = sched();
    s.launches++;
    int n = (int)(block.x * block.y * block.z);
    if (n <= 0 || n > 1024 || grid.x == 0 || grid.y == 0 || grid.z == 0 ||
        grid.y > 65535 || grid.z > 65535) {
        fprintf(stderr, "tp_emu: invalid launch configuration (%u,%u,%u)x(%u,%u,%u)\n",
                grid.x, grid.y, grid.z, block.x, block.y, block.z);
        abort();
    }
    s.threads.resize(n);
    for (auto &t : s.threads)
        if (t.stack.empty()) t.stack.resize(256 * 1024);
    s.body = &body;
    s.block_dim = block;
    s.grid_dim = grid;
    for (unsigned bz = 0; bz < grid.z; bz++)
    for (unsigned by = 0; by < grid.y; by++)
    for (unsigned bx = 0; bx < grid.x; bx++) {
        s.block_idx = dim3(bx, by, bz);
        for (int i = 0; i < n; i++) {
            Thread &t = s.threads[i];
            t.idx = dim3(i % block.x, (i / block.x) % block.y, i / (block.x * block.y));
            t.state = RUNNABLE;
            getcontext(&t.ctx);
            t.ctx.uc_stack.ss_sp = t.stack.data();
            t.ctx.uc_stack.ss_size = t.stack.size();
            t.ctx.uc_link = nullptr;
            makecontext(&t.ctx, entry, 0);
        }
        for (;;) {
            bool ran = false;
            for (int i = 0; i < n; i++) {
                if (s.threads[i].state != RUNNABLE) continue;
                s.current = i;
                ran = true;
                swapcontext(&s.main_ctx, &s.threads[i].ctx);
            }
            bool done = true;
            for (auto &t : s.threads) done = done && t.state == DONE;
            if (done) break;
            if (!release() && !ran) {
                fprintf(stderr, "tp_emu: deadlock: threads wait at a barrier others "
                        "never reach (block %u,%u,%u)\n", bx, by, bz);
                abort();
            }
        }
    }
}

template <typename T>
inline T shuffle_down(T v, int offset)
{
    static_assert(sizeof(T) <= 8, "shuffle of a type wider than 8 bytes");
    Scheduler &s = sched();
    int lane = s.current % 32, warp = s.current / 32;
    uint64_t bits = 0;
    memcpy(&bits, &v, sizeof(T));
    s.shuffle[warp][lane] = bits;
    yield_as(AT_WARP_BARRIER);  /* every lane has written */
    int src = lane + offset;
    uint64_t got = src < 32 && warp * 32 + src < (int)s.threads.size()
                   ? s.shuffle[warp][src] : bits;
    yield_as(AT_WARP_BARRIER);  /* every lane has read */
    T r;
    memcpy(&r, &got, sizeof(T));
    return r;
}

}  // namespace tp_emu

#define threadIdx (tp_emu::sched().threads[tp_emu::sched().current].idx)
#define blockIdx (tp_emu::sched().block_idx)
#define blockDim (tp_emu::sched().block_dim)
#define gridDim (tp_emu::sched().grid_dim)

inline void __syncthreads() { tp_emu::yield_as(tp_emu::AT_BLOCK_BARRIER); }

template <typename T>
inline T __shfl_down_sync(unsigned, T v, int offset) { return tp_emu::shuffle_down(v, offset); }

/* nvcc -ftz=true flushes float32 subnormals; MXCSR's FTZ|DAZ stands in for it while a
 * kernel runs (set before the fibers' contexts are made, which copy it). It flushes
 * float64 too, as the C backend does and a GPU does not: the emulator is compared with
 * the C backend. */
inline void tp_emu_launch(dim3 grid, dim3 block, const std::function<void()> &body)
{
#if defined(__SSE__) || defined(__x86_64__)
    unsigned saved = _mm_getcsr();
    _mm_setcsr(saved | 0x8040u);
    tp_emu::launch(grid, block, body);
    _mm_setcsr(saved);
#else
    tp_emu::launch(grid, block, body);
#endif
}

inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind,
                                   cudaStream_t)
{
    if (n) memmove(dst, src, n);
    return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind k)
{
    return cudaMemcpyAsync(dst, src, n, k, nullptr);
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }

extern "C" long tp_emu_launches() { return tp_emu::sched().launches; }

#endif /* TP_CUDA_EMU_RUNTIME_H */

/* A stand-in for libcudart with two "GPUs" whose memory is host memory.
 *
 * tests/test_backend_cuda_runtime.py builds it and reruns the GPU-only tests against
 * it (TRANSPILE_CUDART=<this library>), so the code paths that need a GPU (allocation,
 * copies, the pool set-up, out-of-memory, freeing) run on machines without one. It
 * checks what a real runtime would reject: unknown pointers, copies out of bounds and
 * frees of freed memory make the call fail, and mock_errors() counts them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ALLOCS 65536
#define OOM_BYTES ((size_t)1 << 40)

static void *ptrs[MAX_ALLOCS];
static size_t sizes[MAX_ALLOCS];
static int owner[MAX_ALLOCS];
static int current, last_error, errors, pool_calls;
static uint64_t thresholds[2];

static int fail(int code) { last_error = code; if (code != 2) errors++; return code; }

/* The allocation containing [p, p + n), or -1. */
static int find(const void *p, size_t n) {
  for (int i = 0; i < MAX_ALLOCS; i++)
    if (ptrs[i] && (const char *)p >= (char *)ptrs[i] &&
        (const char *)p + n <= (char *)ptrs[i] + sizes[i])
      return i;
  return -1;
}

int mock_live(void) { int n = 0; for (int i = 0; i < MAX_ALLOCS; i++) n += ptrs[i] != 0; return n; }
int mock_errors(void) { return errors; }
int mock_pool_calls(void) { return pool_calls; }
uint64_t mock_threshold(int d) { return thresholds[d]; }

int cudaGetDeviceCount(int *n) { *n = 2; return 0; }
int cudaSetDevice(int d) { if (d < 0 || d > 1) return fail(101); current = d; return 0; }
int cudaGetDevice(int *d) { *d = current; return 0; }

int cudaMalloc(void **out, size_t size) {
  if (size == 0) return fail(1);
  if (size >= OOM_BYTES) return fail(2);
  for (int i = 0; i < MAX_ALLOCS; i++)
    if (!ptrs[i]) {
      ptrs[i] = malloc(size); sizes[i] = size; owner[i] = current;
      memset(ptrs[i], 0xAB, size);  /* uninitialised device memory is not zeros */
      *out = ptrs[i];
      return 0;
    }
  return fail(2);
}
int cudaMallocAsync(void **out, size_t size, void *stream) { (void)stream; return cudaMalloc(out, size); }
int cudaFree(void *p) {
  for (int i = 0; i < MAX_ALLOCS; i++)
    if (ptrs[i] == p && p) { free(p); ptrs[i] = 0; return 0; }
  return fail(1);
}
int cudaFreeAsync(void *p, void *stream) { (void)stream; return cudaFree(p); }

int cudaMemcpy(void *dst, const void *src, size_t n, int kind) {
  if (kind == 1 && find(dst, n) < 0) return fail(1);
  if (kind == 2 && find(src, n) < 0) return fail(1);
  if (kind == 3 && (find(dst, n) < 0 || find(src, n) < 0)) return fail(1);
  if (kind < 1 || kind > 3) return fail(21);
  memcpy(dst, src, n);
  return 0;
}
int cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream) {
  (void)stream; return cudaMemcpy(dst, src, n, kind);
}
int cudaStreamSynchronize(void *stream) { (void)stream; return 0; }
int cudaDeviceSynchronize(void) { return 0; }
int cudaGetLastError(void) { int e = last_error; last_error = 0; return e; }
int cudaPeekAtLastError(void) { return last_error; }

const char *cudaGetErrorName(int e) {
  switch (e) {
    case 0: return "cudaSuccess";
    case 1: return "cudaErrorInvalidValue";
    case 2: return "cudaErrorMemoryAllocation";
    case 101: return "cudaErrorInvalidDevice";
    default: return "cudaErrorUnknown";
  }
}
const char *cudaGetErrorString(int e) {
  switch (e) {
    case 0: return "no error";
    case 1: return "invalid argument";
    case 2: return "out of memory";
    case 101: return "invalid device ordinal";
    default: return "unknown error";
  }
}
int cudaRuntimeGetVersion(int *v) { *v = 13000; return 0; }
int cudaDriverGetVersion(int *v) { *v = 13000; return 0; }
int cudaDeviceGetAttribute(int *v, int attr, int d) {
  if (d < 0 || d > 1) return fail(101);
  switch (attr) {
    case 75: *v = 9; return 0;
    case 76: *v = 0; return 0;
    case 16: *v = 132; return 0;
    case 115: *v = 1; return 0;
    default: return fail(1);
  }
}
int cudaMemGetInfo(size_t *f, size_t *t) { *f = (size_t)1 << 30; *t = (size_t)1 << 31; return 0; }
int cudaDeviceGetDefaultMemPool(void **pool, int d) {
  if (d < 0 || d > 1) return fail(101);
  *pool = &thresholds[d];
  return 0;
}
int cudaMemPoolSetAttribute(void *pool, int attr, void *value) {
  if (attr != 4) return fail(1);
  pool_calls++;
  *(uint64_t *)pool = *(uint64_t *)value;
  return 0;
}
/* Only the plain name, as CUDA 13 exports it: the _v2 fallback is exercised. */
int cudaGetDeviceProperties(void *prop, int d) {
  if (d < 0 || d > 1) return fail(101);
  strcpy((char *)prop, d ? "Mock GPU One" : "Mock GPU Zero");
  return 0;
}

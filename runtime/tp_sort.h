/* A stable merge sort of positions, used by generated sort kernels.
 *
 * The kernel generates the comparison (it knows the key operands and their dtypes) and
 * sorts an array of positions with it, then permutes every operand by those positions.
 * Sorting positions keeps one routine for any number and type of operands; stability
 * (equal keys keep their order) is what JAX's sort promises by default. The caller
 * provides the scratch space: nothing here allocates. */
#ifndef TP_SORT_H
#define TP_SORT_H

#include <stdint.h>
#include <string.h>
#include "transpile_macros.h"

typedef int (*tp_less_fn)(const void *ctx, int64_t i, int64_t j);

/* Sort idx[0..n) by less(ctx, ., .), stably. tmp must hold n entries. */
TP_INLINE void tp_merge_sort(int64_t *idx, int64_t *tmp, int64_t n, tp_less_fn less,
                             const void *ctx)
{
    int64_t width, lo, i;
    int64_t *src = idx, *dst = tmp;
    /* Insertion sort of short runs first: merging one-element runs is slow. */
    const int64_t run = 16;
    for (lo = 0; lo < n; lo += run) {
        int64_t hi = lo + run < n ? lo + run : n;
        for (i = lo + 1; i < hi; i++) {
            int64_t v = idx[i], j = i;
            while (j > lo && less(ctx, v, idx[j - 1])) {
                idx[j] = idx[j - 1];
                j--;
            }
            idx[j] = v;
        }
    }
    for (width = run; width < n; width *= 2) {
        for (lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi) {
                /* Take from the right run only when strictly less: stability. */
                if (less(ctx, src[b], src[a])) dst[k++] = src[b++];
                else dst[k++] = src[a++];
            }
            while (a < mid) dst[k++] = src[a++];
            while (b < hi) dst[k++] = src[b++];
        }
        { int64_t *t = src; src = dst; dst = t; }
    }
    if (src != idx) memcpy(idx, src, (size_t)n * sizeof(int64_t));
}

#endif /* TP_SORT_H */

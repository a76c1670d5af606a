/* Collectives between the processes of an MPI run, called by generated kernels of
 * transpile's process collectives (lax/process_collectives.py).
 *
 * Every transfer moves bytes (MPI_BYTE): only the reductions need the element type,
 * and they combine in generated code's own order. A reduction is deterministic and
 * bandwidth-optimal: pairwise MPI_Sendrecv hand process r the r-th slice of every
 * process's operand, r folds those slices in process order (process 0 first), and an
 * MPI_Allgather returns every folded slice to everyone. Each element is therefore
 * ((x0 + x1) + x2) + ... whatever the MPI library's own reduction order, bit-identical
 * to a single-process fold in that order.
 *
 * The communicator is MPI_COMM_WORLD: in Python, mpi4py initialised MPI in this
 * process (the same libmpi); in an exported program, its main calls MPI_Init. The
 * caller gives the work space: nothing here allocates. A size mismatch or a count
 * that MPI cannot express aborts the run (MPI_Abort): a collective cannot fail on one
 * process alone. */
#ifndef TP_MPI_H
#define TP_MPI_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <mpi.h>
#include "transpile_macros.h"

#define TP_MPI_COMM MPI_COMM_WORLD

TP_INLINE int tp_mpi_rank(void)
{
    int r;
    MPI_Comm_rank(TP_MPI_COMM, &r);
    return r;
}

/* The run's process count, checked against the count the program was traced for. */
TP_INLINE int tp_mpi_size(int expected)
{
    int n;
    MPI_Comm_size(TP_MPI_COMM, &n);
    if (n != expected) {
        fprintf(stderr, "transpile: this program was traced for %d processes but the "
                "MPI run has %d\n", expected, n);
        MPI_Abort(TP_MPI_COMM, 1);
    }
    return n;
}

TP_INLINE int tp_mpi_count(int64_t nbytes)
{
    if (nbytes > INT_MAX) {
        fprintf(stderr, "transpile: a collective of %lld bytes per process is more than "
                "one MPI call moves (%d)\n", (long long)nbytes, INT_MAX);
        MPI_Abort(TP_MPI_COMM, 1);
    }
    return (int)nbytes;
}

/* out: every process's nbytes of x, in process order. */
TP_INLINE void tp_mpi_allgather(const void *x, void *out, int64_t nbytes, int size)
{
    int c = tp_mpi_count(nbytes);
    (void)size;
    MPI_Allgather((void *)x, c, MPI_BYTE, out, c, MPI_BYTE, TP_MPI_COMM);
}

/* x: `size` chunks of `chunk` bytes, chunk j for process j; out: the chunks received,
 * in source order. */
TP_INLINE void tp_mpi_alltoall(const void *x, void *out, int64_t chunk, int size)
{
    int c = tp_mpi_count(chunk);
    (void)size;
    MPI_Alltoall((void *)x, c, MPI_BYTE, out, c, MPI_BYTE, TP_MPI_COMM);
}

/* perm: n (source, destination) pairs. This process sends x to the process it is the
 * source of and receives into out from the process it is the destination of; zeros
 * where nothing arrives. */
TP_INLINE void tp_mpi_ppermute(const void *x, void *out, int64_t nbytes, const int *perm,
                            int n)
{
    int me = tp_mpi_rank(), dest = MPI_PROC_NULL, source = MPI_PROC_NULL, i;
    int c = tp_mpi_count(nbytes);
    for (i = 0; i < n; i++) {
        if (perm[2 * i] == me) dest = perm[2 * i + 1];
        if (perm[2 * i + 1] == me) source = perm[2 * i];
    }
    if (source == MPI_PROC_NULL) memset(out, 0, (size_t)nbytes);
    if (dest == me && source == me) {
        if (out != x) memmove(out, x, (size_t)nbytes);
        return;
    }
    MPI_Sendrecv((void *)x, c, MPI_BYTE, dest, 0, out, c, MPI_BYTE, source, 0,
                 TP_MPI_COMM, MPI_STATUS_IGNORE);
}

/* out = x0 + x1 of the two processes of a run by MPI_Allreduce: with two operands the
 * order MPI adds them in cannot change the sum (IEEE addition and integer wraparound
 * are commutative), so MPI's own, faster algorithm gives the bits of the fold. */
TP_INLINE void tp_mpi_allreduce_sum_pair(const void *x, void *out, int64_t n,
                                         MPI_Datatype type)
{
    MPI_Allreduce((void *)x, out, tp_mpi_count(n), type, MPI_SUM, TP_MPI_COMM);
}

/* Rearrange `outer` rows of `size` * `piece` bytes so the bytes for each process are
 * contiguous: src[o][j][.] -> dst[j][o][.] (and back with the roles swapped). */
TP_INLINE void tp_mpi_pack(const char *src, char *dst, int64_t outer, int64_t piece,
                        int size, int unpack)
{
    int64_t o;
    int j;
    for (o = 0; o < outer; o++)
        for (j = 0; j < size; j++) {
            const int64_t a = (o * size + j) * piece, b = ((int64_t)j * outer + o) * piece;
            if (unpack) memcpy((char *)dst + a, src + b, (size_t)piece);
            else memcpy((char *)dst + b, src + a, (size_t)piece);
        }
}

/* Process `me` gets slice `me` of every other process's x: recv + q * chunk holds process
 * q's (its own slice stays in x). Pairwise exchanges, step s with processes me + s and
 * me - s: no copy of the process's own slice, as an MPI_Alltoall would make. */
TP_INLINE void tp_mpi_scatter_slices(const char *x, char *recv, int64_t chunk, int size,
                                     int me)
{
    int c = tp_mpi_count(chunk), s;
    for (s = 1; s < size; s++) {
        const int to = (me + s) % size, from = (me - s + size) % size;
        MPI_Sendrecv((void *)(x + (int64_t)to * chunk), c, MPI_BYTE, to, 1,
                     recv + (int64_t)from * chunk, c, MPI_BYTE, from, 1, TP_MPI_COMM,
                     MPI_STATUS_IGNORE);
    }
}

/* NAME(x, out, n, size, work): out = x of every process combined in process order.
 * size >= 2 (one process needs no MPI); work holds size * ceil(n / size) elements, three
 * times that when size does not divide n. Process me folds slice me of every process into its place in the result, and an
 * in-place MPI_Allgather hands every folded slice to everyone. */
#define TP_MPI_ALLREDUCE(NAME, T, COMBINE)                                              \
static void NAME(const T *x, T *out, int64_t n, int size, T *work)                      \
{                                                                                       \
    const int64_t chunk = (n + size - 1) / size;                                        \
    const int padded = chunk * size != n;                                               \
    const int me = tp_mpi_rank();                                                       \
    T *recv = work, *dst = padded ? work + (int64_t)size * chunk : out;                 \
    const T *src = x;                                                                   \
    int64_t k;                                                                          \
    int q;                                                                              \
    if (n == 0) return;                                                                 \
    if (padded) { /* the last slice padded with zeros: a copy apart from dst, which */  \
        T *pad = work + 2 * (int64_t)size * chunk; /* the fold overwrites */            \
        memcpy(pad, x, (size_t)n * sizeof(T));                                          \
        memset(pad + n, 0, (size_t)(chunk * size - n) * sizeof(T));                     \
        src = pad;                                                                      \
    }                                                                                   \
    tp_mpi_scatter_slices((const char *)src, (char *)recv,                              \
                          chunk * (int64_t)sizeof(T), size, me);                        \
    {                                                                                   \
        const T *own = src + (int64_t)me * chunk;                                       \
        T *acc = dst + (int64_t)me * chunk;                                             \
        /* fold slice by slice, in process order: each pass a vectorisable loop */      \
        const T *s0 = me == 0 ? own : recv;                                             \
        const T *s1 = me == 1 ? own : recv + chunk;                                     \
        for (k = 0; k < chunk; k++) {                                                   \
            const T a = s0[k], b = s1[k];                                               \
            acc[k] = COMBINE;                                                           \
        }                                                                               \
        for (q = 2; q < size; q++) {                                                    \
            const T *sq = q == me ? own : recv + (int64_t)q * chunk;                    \
            for (k = 0; k < chunk; k++) {                                               \
                const T a = acc[k], b = sq[k];                                          \
                acc[k] = COMBINE;                                                       \
            }                                                                           \
        }                                                                               \
    }                                                                                   \
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, dst,                              \
                  tp_mpi_count(chunk * (int64_t)sizeof(T)), MPI_BYTE, TP_MPI_COMM);     \
    if (padded) memcpy(out, dst, (size_t)n * sizeof(T));                                \
}

#endif /* TP_MPI_H */

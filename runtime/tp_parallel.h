/* Team sizes for OpenMP regions that hold up when fewer cores are free than threads.
 *
 * Every parallel region of generated code and of tp_matmul.h is written
 *
 *     #pragma omp parallel num_threads(tp_par_team(units))
 *     { ... work-sharing loop with nowait ...; tp_par_arrive(); }
 *
 * tp_par_team(units) is 1 for small work (units: how many threads the work keeps busy,
 * the caller's estimate, e.g. elements / TP_PAR_MIN_ELEMS) and inside another region;
 * otherwise the current adaptive width, at most units.
 *
 * Why adapt: a team waits at its barrier for its slowest thread. When another process
 * holds a core, a descheduled thread is late by a whole scheduler time slice (ms), and a
 * program of many short regions spends its time waiting. So each thread notes the time it
 * reaches the region's end (tp_par_arrive, a clock read and a short critical section);
 * tp_par_barrier notes the wait at an inner barrier. The next tp_par_team judges that
 * sample: a region where a thread waited for its peers longer than TP_PAR_SLOW_S and more
 * than TP_PAR_SLOW_FRAC of the region's time is slow. A slow region less than
 * TP_PAR_WINDOW judged regions after the previous one drops the width to 1 for a probe
 * interval (TP_PAR_PROBE_S, doubled while probes keep failing, up to TP_PAR_PROBE_MAX_S);
 * then the full width is tried again, and one slow region within the window drops it
 * again. Not "in a row": on a loaded machine one region in tens stalls for a whole time
 * slice (ms), which costs more than the second thread saves on all the others when they
 * take tens of microseconds. A quiet machine gets its threads back within an interval,
 * and the interval its base length after a window without a slow region. Work of
 * TP_PAR_BIG_UNITS or more keeps the full width throughout.
 *
 * Results do not depend on the width: loops write disjoint elements, reductions combine
 * fixed chunks in order, and matmul computes each element the same way on any thread.
 *
 * TRANSPILE_PAR_WIDTH=n in the environment (read once), or tp_par_set_width(n), fixes
 * the width at n for work of at least n units and turns adaptation off (tests use them to
 * compare widths); n = 0 turns adaptation back on. The full width is omp_get_max_threads()
 * (OMP_NUM_THREADS, omp_set_num_threads, the CPUs in the process's affinity mask).
 *
 * State: one per process where the loader attaches it. Whether a core is taken is a fact
 * about the machine, not about one library: a library loaded after the machine got busy
 * should start at the width the others learnt, and one jitted function should not pay
 * again for what another found. Each library's code reaches the state through its pointer
 * tp_par_sp_, which starts at the library's own tp_par_state_; backend/build.py calls the
 * exported tp_par_attach with the process's state right after loading a library (a
 * standalone export keeps its own). The state holds its own lock: an OpenMP named
 * critical section's lock is per library. On GNU-compatible ELF and Mach-O
 * toolchains tp_par_state_ and tp_par_sp_ are weak definitions, which the linker merges
 * across the units of a library; other compilers get static (per unit) copies, which only
 * makes the adaptation per unit. Without OpenMP everything here is a no-op and
 * tp_par_team is 1. */
#ifndef TP_PARALLEL_H
#define TP_PARALLEL_H

#include <stdint.h>
#include "transpile_macros.h"

/* Elements per thread in elementwise and reduction kernels. The planner makes a kernel
 * parallel from 2^16 elements (PARALLEL_MIN_ELEMENTS): those get two threads, and only
 * larger kernels more (not tuned beyond 2 cores: this machine has no more). */
#ifndef TP_PAR_MIN_ELEMS
#define TP_PAR_MIN_ELEMS 32768
#endif

#ifdef _OPENMP
#include <omp.h>
#include <stdlib.h>

#ifndef TP_PAR_SLOW_S
#define TP_PAR_SLOW_S 250e-6
#endif
#ifndef TP_PAR_SLOW_FRAC
#define TP_PAR_SLOW_FRAC 0.3
#endif
#ifndef TP_PAR_WINDOW
#define TP_PAR_WINDOW 64
#endif
#ifndef TP_PAR_PROBE_S
#define TP_PAR_PROBE_S 0.1
#endif
#ifndef TP_PAR_PROBE_MAX_S
#define TP_PAR_PROBE_MAX_S 0.8
#endif
/* Work of at least this many units keeps the full width while the width is dropped: tens
 * of milliseconds of one thread's work (a 1024^3 matrix product is 4096), against which a
 * peer's stall of one time slice is small, while the second thread's share is not (one
 * core held: 17-21 ms at two threads against 22.5 ms at one, for that product). */
#ifndef TP_PAR_BIG_UNITS
#define TP_PAR_BIG_UNITS 2048
#endif

/* _Pragma in a macro: one spelling for templates and headers. */
#define TP_PAR_PRAGMA_(x) _Pragma(#x)

typedef struct tp_par_state {
    int lock;          /* 0: free (tp_par_lock_) */
    int ready;         /* 0 until initialised */
    int forced;        /* TRANSPILE_PAR_WIDTH or tp_par_set_width, 0 if unset */
    int since;         /* regions judged since the last slow one (TP_PAR_WINDOW: none) */
    double until;      /* width 1 until this time (omp_get_wtime) */
    double probe;      /* the next probe interval */
    /* the sample of the last region started with more than one thread */
    int n, arrived;
    double start, arrive_sum, arrive_max, waited;
} tp_par_state;

#if defined(__GNUC__) && (defined(__ELF__) || defined(__APPLE__))
__attribute__((weak)) tp_par_state tp_par_state_;
__attribute__((weak)) tp_par_state *tp_par_sp_ = &tp_par_state_;
#define TP_PAR_EXPORT_ __attribute__((weak, visibility("default")))
#else
static tp_par_state tp_par_state_;
static tp_par_state *tp_par_sp_ = &tp_par_state_;
#define TP_PAR_EXPORT_ static
#endif

/* The lock of the state: a spin on one word, held for a few loads and stores. */
TP_INLINE void tp_par_lock_(tp_par_state *s)
{
    int held;
    do {
        TP_PAR_PRAGMA_(omp atomic capture seq_cst)
        { held = s->lock; s->lock = 1; }
    } while (held);
}

TP_INLINE void tp_par_unlock_(tp_par_state *s)
{
    TP_PAR_PRAGMA_(omp atomic write seq_cst)
    s->lock = 0;
}

/* Points this library at the process's state (size bytes, zeroed before the first
 * attach); 0 if it is too small, which keeps the library's own. */
TP_PAR_EXPORT_ int tp_par_attach(void *state, int64_t size)
{
    if (state == 0 || size < (int64_t)sizeof(tp_par_state)) return 0;
    tp_par_sp_ = (tp_par_state *)state;
    return 1;
}

/* Called with the lock of s held. */
TP_INLINE void tp_par_init_(tp_par_state *s)
{
    const char *env = getenv("TRANSPILE_PAR_WIDTH");
    s->forced = env ? atoi(env) : 0;
    s->probe = TP_PAR_PROBE_S;
    s->since = TP_PAR_WINDOW;
    s->ready = 1;
}

/* Fixes the width at n (0: adapt again); for tests and benchmarks. */
TP_INLINE void tp_par_set_width(int n)
{
    tp_par_state *s = tp_par_sp_;
    tp_par_lock_(s);
    if (!s->ready) tp_par_init_(s);
    s->forced = n;
    tp_par_unlock_(s);
}

/* Judges the finished sample of s; called with the lock of s held. */
TP_INLINE void tp_par_judge_(tp_par_state *s, double now)
{
    const double wall = s->arrive_max - s->start;
    /* time the threads spent waiting for the last to arrive, per waiting thread */
    const double wait = (s->waited + s->n * s->arrive_max - s->arrive_sum) / (s->n - 1);
    if (wait > TP_PAR_SLOW_S && wait > TP_PAR_SLOW_FRAC * wall) {
        if (s->since < TP_PAR_WINDOW) {
            s->until = now + s->probe;
            s->probe = s->probe * 2 < TP_PAR_PROBE_MAX_S ? s->probe * 2 : TP_PAR_PROBE_MAX_S;
        }
        s->since = 0; /* after a drop: one more slow region in the window re-drops */
    } else if (s->since < TP_PAR_WINDOW && ++s->since == TP_PAR_WINDOW) {
        s->probe = TP_PAR_PROBE_S;
    }
}

/* A library built with TP_RUNTIME_LIB_PAR calls the precompiled runtime object's copies
 * of tp_par_team and tp_par_arrive (backend/runtime_lib.py compiles them with
 * TP_RUNTIME_PAR_DEFINE): the same code, compiled once per machine instead of again in
 * every file that opens a parallel region (about 19 ms of gcc a file). The state they
 * update is the one tp_par_sp_ points at (the pointer merged by the linker with the
 * object's). */
#if defined(TP_RUNTIME_LIB_PAR) && !defined(TP_RUNTIME_PAR_DEFINE)
int tp_par_team(int64_t units);
void tp_par_arrive(void);
#else
#ifdef TP_RUNTIME_PAR_DEFINE
#define TP_PAR_FN_
int tp_par_team(int64_t units);
void tp_par_arrive(void);
#else
#define TP_PAR_FN_ TP_INLINE
#endif

TP_PAR_FN_ int tp_par_team(int64_t units)
{
    tp_par_state *s = tp_par_sp_;
    double now;
    int w;
    if (units < 2 || omp_in_parallel()) return 1;
    now = omp_get_wtime();
    tp_par_lock_(s);
    if (!s->ready) tp_par_init_(s);
    if (s->n > 1 && s->arrived == s->n) tp_par_judge_(s, now);
    w = s->forced > 0 ? s->forced
        : now < s->until && units < TP_PAR_BIG_UNITS ? 1 : omp_get_max_threads();
    if (w > units) w = (int)units;
    s->n = w;
    s->arrived = 0;
    s->start = now;
    s->arrive_sum = s->arrive_max = s->waited = 0;
    tp_par_unlock_(s);
    return w;
}

/* Each thread of a region, once its share is done (before the region's end barrier). */
TP_PAR_FN_ void tp_par_arrive(void)
{
    tp_par_state *s = tp_par_sp_;
    double t;
    if (omp_get_num_threads() < 2) return;
    t = omp_get_wtime();
    tp_par_lock_(s);
    s->arrive_sum += t;
    if (t > s->arrive_max) s->arrive_max = t;
    s->arrived++;
    tp_par_unlock_(s);
}
#endif /* TP_RUNTIME_LIB_PAR */

/* A barrier inside a region, its wait counted in the sample. */
TP_INLINE void tp_par_barrier(void)
{
    tp_par_state *s = tp_par_sp_;
    double t;
    if (omp_get_num_threads() < 2) return;
    t = omp_get_wtime();
    TP_PAR_PRAGMA_(omp barrier)
    t = omp_get_wtime() - t;
    tp_par_lock_(s);
    s->waited += t;
    tp_par_unlock_(s);
}

#else /* no OpenMP: one thread, nothing to adapt */

#define tp_par_team(units) ((void)(units), 1)
#define tp_par_set_width(n) ((void)(n))
#define tp_par_arrive() ((void)0)
#define tp_par_barrier() ((void)0)

#endif

#endif /* TP_PARALLEL_H */

/* Batches of multi-axis complex transforms for tp_fft.h, for one real type: tp_fft.h
 * includes this file after tp_fft_body.h with the same TPFFT_T, TPFFT_S defined. No
 * include guard, on purpose.
 *
 * The arrays of a batch run in parallel, one array at a time per thread, all its axes
 * while it stays in the core's L2. Arrays go to threads one by one as threads get free
 * (dynamic schedule): on a machine shared with other work a thread that loses its core
 * delays the call by the array it holds, not by a fixed half of the batch.
 *
 * Two axes (the 2D transforms of fft2) run fused, per array: the row pass writes each
 * block of 8 transformed rows, as the block transform leaves it (split re/im, element k
 * of row v at k 8 + v), into a per-thread scratch array; the column pass reads 8 x 8
 * tiles of it transposed in registers into blocks of 8 columns and writes the result
 * interleaved. Against running the axes one after the other through the output, this
 * saves interleaving the rows and splitting the columns again. Every line runs the same
 * block transform as the axis-by-axis path, so the results are the same bits. */
#define T TPFFT_T
#define F(name) TPFFT_CAT(name, TPFFT_S)
#define PLAN F(tp_fft_plan)
#define V8 F(tpfft_vec)

/* Values of T the fused 2D transform needs per thread: the scratch array, then a block's
 * two arrays and its work space for the longer of the two passes. */
static int64_t F(tpfft_plane2_size)(const PLAN *p0, const PLAN *p1)
{
    const int64_t b0 = F(tpfft_width)(p0), b1 = F(tpfft_width)(p1);
    const int64_t w0 = 2 * p0->n * b0 + F(tpfft_work)(p0, b0);
    const int64_t w1 = 2 * p1->n * b1 + F(tpfft_work)(p1, b1);
    return 2 * p0->n * p1->n + (w0 > w1 ? w0 : w1);
}

/* One n0 x n1 array (p0: the plan of the columns, p1: of the rows) from src to dst
 * (may be the same), times scale; ws: tpfft_plane2_size values. */
static void F(tpfft_plane2)(const PLAN *p0, const PLAN *p1, const T *src, T *dst,
                            int inverse, T scale, T *ws)
{
    const int64_t n0 = p0->n, n1 = p1->n;
    const int64_t b0 = F(tpfft_width)(p0), b1 = F(tpfft_width)(p1);
    const int sw = inverse ? 1 : 0;
    T *const s = ws, *const buf = ws + 2 * n0 * n1;
    /* rows: block r0 (rows r0 .. r0 + bw - 1) kept at s + 2 r0 n1, re then im */
    for (int64_t r0 = 0; r0 < n0; r0 += b1) {
        const int64_t bw = n0 - r0 < b1 ? n0 - r0 : b1;
        T *re = buf, *im = buf + n1 * b1;
        F(tpfft_split)(src + 2 * r0 * n1, n1, bw, 1, n1, sw, re, im);
        F(tpfft_block)(p1, bw, &re, &im, buf + 2 * n1 * b1);
        memcpy(s + 2 * r0 * n1, re, sizeof(T) * (size_t)(n1 * bw));
        memcpy(s + 2 * r0 * n1 + n1 * bw, im, sizeof(T) * (size_t)(n1 * bw));
    }
    /* columns: block c0 gathers element (r0 + v, c0 + u) of each row block */
    for (int64_t c0 = 0; c0 < n1; c0 += b0) {
        const int64_t cw = n1 - c0 < b0 ? n1 - c0 : b0;
        T *re = buf, *im = buf + n0 * b0;
        for (int64_t r0 = 0; r0 < n0; r0 += b1) {
            const int64_t bw = n0 - r0 < b1 ? n0 - r0 : b1;
            const T *sr = s + 2 * r0 * n1 + c0 * bw, *si = sr + n1 * bw;
            if (cw == 8 && bw == 8) {
                V8 xr[8], xi[8];
                for (int u = 0; u < 8; u++) {
                    memcpy(&xr[u], sr + 8 * u, sizeof(V8));
                    memcpy(&xi[u], si + 8 * u, sizeof(V8));
                }
                F(tpfft_t8)(xr); F(tpfft_t8)(xi);
                for (int v = 0; v < 8; v++) {
                    memcpy(re + (r0 + v) * 8, &xr[v], sizeof(V8));
                    memcpy(im + (r0 + v) * 8, &xi[v], sizeof(V8));
                }
            } else {
                for (int64_t v = 0; v < bw; v++)
                    for (int64_t u = 0; u < cw; u++) {
                        re[(r0 + v) * cw + u] = sr[u * bw + v];
                        im[(r0 + v) * cw + u] = si[u * bw + v];
                    }
            }
        }
        F(tpfft_block)(p0, cw, &re, &im, buf + 2 * n0 * b0);
        F(tpfft_merge)(dst + 2 * c0, n0, cw, n1, 1, sw, re, im, scale);
    }
}

/* Complex transforms of k axes (plans[i], inners[i] values after axis i) of `batch`
 * arrays of `size` complex values each (see the top of this file). */
static void F(tp_fft_batched)(PLAN *const *plans, const int64_t *inners, int k,
                              const T *src, T *dst, int64_t batch, int64_t size,
                              int inverse, T scale)
{
    /* fused when both axes run blocks (a four-step line of rows runs its own way) */
    const int fused = k == 2 && !plans[1]->n1;
    const int64_t wn = fused ? F(tpfft_plane2_size)(plans[0], plans[1]) : 0;
    const int team = tp_par_team(batch * size >= 16384 ? batch : 1);
    _Pragma("omp parallel num_threads(team)")
    {
        T *ws = fused ? (T *)malloc(sizeof(T) * (size_t)wn) : (T *)NULL;
        _Pragma("omp for schedule(dynamic, 1) nowait")
        for (int64_t b = 0; b < batch; b++) {
            if (fused) {
                F(tpfft_plane2)(plans[0], plans[1], src + 2 * b * size, dst + 2 * b * size,
                                inverse, scale, ws);
                continue;
            }
            for (int i = k - 1; i >= 0; i--) /* the contiguous lines first: a stream */
                F(tp_fft_axis)(plans[i], (i < k - 1 ? dst : src) + 2 * b * size,
                               dst + 2 * b * size, size, inners[i], inverse,
                               i == 0 ? scale : (T)1);
        }
        free(ws);
        tp_par_arrive();
    }
}

#undef V8
#undef PLAN
#undef F
#undef T

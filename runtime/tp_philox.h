/* rng_bit_generator: XLA:CPU's bit generators (transpile/lax/rng_bits.py
 * describes the layouts). The key is two 64-bit words: s0 keys the cipher, s1 is the
 * counter.
 *
 * Threefry-2x32 (tp_threefry.h) hashes counters s1 + j; Philox-4x32 (10 rounds, the key
 * raised by (0x9E3779B9, 0xBB67AE85) after each) hashes 128-bit counters (s1, s0) + v.
 * Output words are stored in the element width (narrow dtypes keep the low bits). */
#ifndef TP_PHILOX_H
#define TP_PHILOX_H

#include <stdint.h>
#include "transpile_macros.h"
#include "tp_threefry.h"

/* Ten rounds of Philox-4x32 on x, in place. */
TP_INLINE void tp_philox4x32(uint32_t *x, uint32_t k0, uint32_t k1)
{
    int r;
    for (r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)x[0] * UINT64_C(0xD2511F53);
        uint64_t p1 = (uint64_t)x[2] * UINT64_C(0xCD9E8D57);
        uint32_t y0 = (uint32_t)(p1 >> 32) ^ x[1] ^ k0;
        uint32_t y2 = (uint32_t)(p0 >> 32) ^ x[3] ^ k1;
        x[0] = y0;
        x[1] = (uint32_t)p1;
        x[2] = y2;
        x[3] = (uint32_t)p0;
        k0 += UINT32_C(0x9E3779B9);
        k1 += UINT32_C(0xBB67AE85);
    }
}

/* Element i of out (width bytes) = w. */
TP_INLINE void tp_rbg_store(void *out, int width, int64_t i, uint64_t w)
{
    switch (width) {
    case 1: ((uint8_t *)out)[i] = (uint8_t)w; break;
    case 2: ((uint16_t *)out)[i] = (uint16_t)w; break;
    case 4: ((uint32_t *)out)[i] = (uint32_t)w; break;
    default: ((uint64_t *)out)[i] = w; break;
    }
}

/* The key (uint32[4], or uint64[2] when key64) into new_key and n elements of width
 * bytes into out. Threefry with a narrow width halves (outer, length, inner) along
 * its middle dimension. */
TP_INLINE void tp_rng_bit_generator(const void *key, void *new_key, int key64, void *out,
                                    int width, int threefry, int64_t n, int64_t outer,
                                    int64_t length, int64_t inner)
{
    uint64_t s0, s1, used;
    uint32_t k0, k1;
    int64_t i;
    if (key64) {
        s0 = ((const uint64_t *)key)[0];
        s1 = ((const uint64_t *)key)[1];
    } else {
        const uint32_t *k = (const uint32_t *)key;
        s0 = (uint64_t)k[0] | (uint64_t)k[1] << 32;
        s1 = (uint64_t)k[2] | (uint64_t)k[3] << 32;
    }
    k0 = (uint32_t)s0;
    k1 = (uint32_t)(s0 >> 32);
    if (threefry && width == 8) {
        for (i = 0; i < n; i++) {
            uint64_t c = s1 + (uint64_t)i;
            uint32_t y0, y1;
            tp_threefry2x32(k0, k1, (uint32_t)c, (uint32_t)(c >> 32), &y0, &y1);
            tp_rbg_store(out, width, i, (uint64_t)y0 | (uint64_t)y1 << 32);
        }
        used = (uint64_t)n;
    } else if (threefry) {
        int64_t half = (length + 1) / 2, a, h, b;
        for (a = 0; a < outer; a++)
            for (h = 0; h < half; h++)
                for (b = 0; b < inner; b++) {
                    uint64_t c = s1 + (uint64_t)((a * half + h) * inner + b);
                    uint32_t y[2];
                    int w;
                    tp_threefry2x32(k0, k1, (uint32_t)c, (uint32_t)(c >> 32), &y[0], &y[1]);
                    for (w = 0; w < 2; w++)
                        if (2 * h + w < length)
                            tp_rbg_store(out, width, (a * length + 2 * h + w) * inner + b, y[w]);
                }
        used = (uint64_t)(outer * half * inner);
    } else {
        int64_t per = width == 8 ? 2 : 4, v, count = (n + per - 1) / per;
        for (v = 0; v < count; v++) {
            uint64_t low = s1 + (uint64_t)v, high = s0 + (low < s1 ? 1u : 0u);
            uint32_t x[4];
            int c;
            x[0] = (uint32_t)low;
            x[1] = (uint32_t)(low >> 32);
            x[2] = (uint32_t)high;
            x[3] = (uint32_t)(high >> 32);
            tp_philox4x32(x, k0, k1);
            for (c = 0; c < per && v * per + c < n; c++)
                tp_rbg_store(out, width, v * per + c,
                             width == 8 ? (uint64_t)x[2 * c] | (uint64_t)x[2 * c + 1] << 32
                                        : (uint64_t)x[c]);
        }
        used = (uint64_t)count;
    }
    s1 += used;
    if (key64) {
        ((uint64_t *)new_key)[0] = s0;
        ((uint64_t *)new_key)[1] = s1;
    } else {
        uint32_t *k = (uint32_t *)new_key;
        k[0] = (uint32_t)s0;
        k[1] = (uint32_t)(s0 >> 32);
        k[2] = (uint32_t)s1;
        k[3] = (uint32_t)(s1 >> 32);
    }
}

#endif /* TP_PHILOX_H */

/* Threefry-2x32 with 20 rounds (Salmon et al., "Parallel random numbers: as easy as
 * 1, 2, 3"), the block cipher under JAX's PRNG; generated threefry2x32 kernels call it
 * once per element.
 *
 * Everything is uint32 arithmetic, which wraps mod 2^32 as the cipher requires. There
 * are no branches and rotations are written as two shifts and an or (every amount is
 * in 1..31, so neither shift is undefined): gcc then vectorises a loop calling this
 * across elements, and recognises the pair as a rotate where the target has one. */
#ifndef TP_THREEFRY_H
#define TP_THREEFRY_H

#include <stdint.h>
#include "transpile_macros.h"

/* One round: mix x1 into x0, rotate x1 left by r, then xor in the new x0. */
#define TP_THREEFRY_ROUND(x0, x1, r) \
    do { (x0) += (x1); (x1) = ((x1) << (r)) | ((x1) >> (32 - (r))); (x1) ^= (x0); } while (0)

/* Four rounds with the rotations of group a (13, 15, 26, 6) or b (17, 29, 16, 24). */
#define TP_THREEFRY_ROUNDS_A(x0, x1) \
    do { TP_THREEFRY_ROUND(x0, x1, 13); TP_THREEFRY_ROUND(x0, x1, 15); \
         TP_THREEFRY_ROUND(x0, x1, 26); TP_THREEFRY_ROUND(x0, x1, 6); } while (0)
#define TP_THREEFRY_ROUNDS_B(x0, x1) \
    do { TP_THREEFRY_ROUND(x0, x1, 17); TP_THREEFRY_ROUND(x0, x1, 29); \
         TP_THREEFRY_ROUND(x0, x1, 16); TP_THREEFRY_ROUND(x0, x1, 24); } while (0)

/* (y0, y1) = threefry2x32((k0, k1), (x0, x1)). After each group of four rounds the
 * next key words of the schedule [k0, k1, k0 ^ k1 ^ 0x1BD11BDA] are injected, plus the
 * group's number into the second word. */
TP_INLINE void tp_threefry2x32(uint32_t k0, uint32_t k1, uint32_t x0, uint32_t x1,
                               uint32_t *y0, uint32_t *y1)
{
    const uint32_t k2 = k0 ^ k1 ^ UINT32_C(0x1BD11BDA);
    x0 += k0;
    x1 += k1;
    TP_THREEFRY_ROUNDS_A(x0, x1);
    x0 += k1;
    x1 += k2 + 1u;
    TP_THREEFRY_ROUNDS_B(x0, x1);
    x0 += k2;
    x1 += k0 + 2u;
    TP_THREEFRY_ROUNDS_A(x0, x1);
    x0 += k0;
    x1 += k1 + 3u;
    TP_THREEFRY_ROUNDS_B(x0, x1);
    x0 += k1;
    x1 += k2 + 4u;
    TP_THREEFRY_ROUNDS_A(x0, x1);
    x0 += k2;
    x1 += k0 + 5u;
    *y0 = x0;
    *y1 = x1;
}

#endif /* TP_THREEFRY_H */

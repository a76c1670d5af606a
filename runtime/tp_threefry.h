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

/* ---------------------------------------------------------------- typed keys
 * A key<fry> element is stored as one uint64_t holding the key's two words, word 0 in
 * the low half (the byte order of the uint32[2] key data on a little-endian machine),
 * so structural kernels move keys as plain 64-bit elements. The functions below are
 * JAX's partitionable-threefry stream: element i of a draw hashes the 64-bit counter i
 * as the pair (i >> 32, i & 0xFFFFFFFF). */

TP_INLINE uint64_t tp_key_pack(uint32_t w0, uint32_t w1)
{
    return (uint64_t)w0 | ((uint64_t)w1 << 32);
}

/* The two cipher words of counter `counter` under `key`. */
TP_INLINE void tp_random_words(uint64_t key, uint64_t counter, uint32_t *y0, uint32_t *y1)
{
    tp_threefry2x32((uint32_t)key, (uint32_t)(key >> 32), (uint32_t)(counter >> 32),
                    (uint32_t)counter, y0, y1);
}

/* random_bits of width 8, 16 and 32 (the narrow widths keep the low bits) ... */
TP_INLINE uint32_t tp_random_bits32(uint64_t key, uint64_t counter)
{
    uint32_t y0, y1;
    tp_random_words(key, counter, &y0, &y1);
    return y0 ^ y1;
}

/* ... and of width 64: the first word is the high half. */
TP_INLINE uint64_t tp_random_bits64(uint64_t key, uint64_t counter)
{
    uint32_t y0, y1;
    tp_random_words(key, counter, &y0, &y1);
    return ((uint64_t)y0 << 32) | y1;
}

/* random_split: new key `counter` of a split keeps both words. */
TP_INLINE uint64_t tp_random_split(uint64_t key, uint64_t counter)
{
    uint32_t y0, y1;
    tp_random_words(key, counter, &y0, &y1);
    return tp_key_pack(y0, y1);
}

/* random_fold_in: the key hashed with the counter (0, msg). */
TP_INLINE uint64_t tp_random_fold_in(uint64_t key, uint32_t msg)
{
    return tp_random_split(key, (uint64_t)msg);
}

/* random_seed: the key [seed >> 32, seed mod 2^32] of a 64-bit seed; narrower seeds
 * pass their value sign- or zero-extended to 64 bits with `wide` = 0, so the high
 * word is 0 as in JAX. */
TP_INLINE uint64_t tp_random_seed(uint64_t seed, int wide)
{
    return tp_key_pack(wide ? (uint32_t)(seed >> 32) : 0u, (uint32_t)seed);
}

#endif /* TP_THREEFRY_H */

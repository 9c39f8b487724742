/*
 * gemlab/prng.h - the seeded PRNG every model instance owns.
 *
 * xoshiro256** (Blackman & Vigna, 2018) seeded through splitmix64, so any
 * 64-bit seed (0 included) gives a full-period state.  Never rand(): a run
 * is reproducible from its seed on every machine, which is what lets a test
 * assert an exact drop sequence (netem gained `prng` seeding for this).
 */
#ifndef GEMLAB_PRNG_H
#define GEMLAB_PRNG_H

#include <stdint.h>

struct gl_prng {
    uint64_t s[4];
};

/* Seed @r from @seed; the same seed always yields the same stream. */
void gl_prng_seed(struct gl_prng *r, uint64_t seed);

/* Next 64 uniformly distributed bits. */
uint64_t gl_prng_u64(struct gl_prng *r);

/* Uniform double in [0, 1), 53 bits of resolution. */
double gl_prng_u01(struct gl_prng *r);

/* Uniform integer in [0, n) without modulo bias; returns 0 when n == 0. */
uint64_t gl_prng_below(struct gl_prng *r, uint64_t n);

/* Standard normal deviate (mean 0, sigma 1), polar Box-Muller, no cache. */
double gl_prng_normal(struct gl_prng *r);

#endif /* GEMLAB_PRNG_H */

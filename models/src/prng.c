/*
 * prng.c - xoshiro256** with splitmix64 seeding.
 * Reference: https://prng.di.unimi.it/ (public-domain algorithms; this is
 * an independent implementation of the published recurrence).
 */
#include "gemlab/prng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void gl_prng_seed(struct gl_prng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) {
        r->s[i] = splitmix64(&x);
    }
}

uint64_t gl_prng_u64(struct gl_prng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double gl_prng_u01(struct gl_prng *r)
{
    /* Top 53 bits -> [0, 1) exactly representable. */
    return (double)(gl_prng_u64(r) >> 11) * 0x1.0p-53;
}

uint64_t gl_prng_below(struct gl_prng *r, uint64_t n)
{
    if (n == 0) {
        return 0;
    }
    /* Rejection sampling: discard the partial top bucket. */
    uint64_t limit = UINT64_MAX - (UINT64_MAX % n);
    uint64_t x;
    do {
        x = gl_prng_u64(r);
    } while (x >= limit);
    return x % n;
}

double gl_prng_normal(struct gl_prng *r)
{
    double u, v, s;
    do {
        u = 2.0 * gl_prng_u01(r) - 1.0;
        v = 2.0 * gl_prng_u01(r) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    return u * sqrt(-2.0 * log(s) / s);
}

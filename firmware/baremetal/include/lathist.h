/* lathist.h - round-trip latency statistics: min/avg/max, a log2
 * histogram and exact percentiles.
 *
 * Buckets (microseconds): bucket 0 holds [0, 1), bucket k (1..LATHIST_BUCKETS-2)
 * holds [2^(k-1), 2^k), and the last bucket holds everything from
 * 2^(LATHIST_BUCKETS-2) us (about 1.05 s) up.  Bucket k's upper edge is 2^k.
 *
 * Percentiles use the nearest-rank method over the stored samples
 * (caller-owned array, sorted on demand) while every sample fits; past the
 * capacity they fall back to the upper edge of the histogram bucket that
 * holds the rank (an upper bound, documented in the result as "exact":false).
 */
#ifndef GEMLAB_LATHIST_H
#define GEMLAB_LATHIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LATHIST_BUCKETS 22

struct lathist {
    uint32_t bucket[LATHIST_BUCKETS];
    uint64_t count;
    uint64_t sum_us;
    uint32_t min_us;
    uint32_t max_us;
    uint32_t *samples;      /* caller-owned, may be NULL */
    size_t cap;
    size_t n;               /* samples stored (<= cap) */
    bool sorted;
};

void lathist_init(struct lathist *h, uint32_t *samples, size_t cap);
void lathist_add(struct lathist *h, uint32_t rtt_us);
/* Index of the bucket rtt_us falls in. */
unsigned lathist_bucket_of(uint32_t rtt_us);
/* Lower edge of bucket k in us (0 for k == 0). */
uint32_t lathist_bucket_lo(unsigned k);
/* Nearest-rank percentile pct (0 < pct <= 100) in us; 0 with no samples.
 * *exact (may be NULL) says whether every sample was kept. */
uint32_t lathist_percentile(struct lathist *h, unsigned pct, bool *exact);
/* Mean in us, rounded to the nearest, 0 with no samples. */
uint32_t lathist_avg(const struct lathist *h);

#endif /* GEMLAB_LATHIST_H */

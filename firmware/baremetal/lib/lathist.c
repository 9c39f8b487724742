/* lathist.c - latency histogram and nearest-rank percentiles. */
#include "lathist.h"

#include <string.h>

void lathist_init(struct lathist *h, uint32_t *samples, size_t cap)
{
    memset(h, 0, sizeof(*h));
    h->samples = samples;
    h->cap = samples ? cap : 0;
    h->min_us = UINT32_MAX;
}

unsigned lathist_bucket_of(uint32_t rtt_us)
{
    unsigned k = 0;
    while (rtt_us) {        /* k = bit length of rtt_us */
        k++;
        rtt_us >>= 1;
    }
    return k < LATHIST_BUCKETS ? k : LATHIST_BUCKETS - 1;
}

uint32_t lathist_bucket_lo(unsigned k)
{
    return k == 0 ? 0 : (uint32_t)1 << (k - 1);
}

void lathist_add(struct lathist *h, uint32_t rtt_us)
{
    h->bucket[lathist_bucket_of(rtt_us)]++;
    h->count++;
    h->sum_us += rtt_us;
    if (rtt_us < h->min_us)
        h->min_us = rtt_us;
    if (rtt_us > h->max_us)
        h->max_us = rtt_us;
    if (h->n < h->cap) {
        h->samples[h->n++] = rtt_us;
        h->sorted = false;
    }
}

/* Insertion sort: sample counts are small (a probe run), and it needs no
 * recursion or qsort callback on the firmware. */
static void sort_samples(struct lathist *h)
{
    for (size_t i = 1; i < h->n; i++) {
        uint32_t v = h->samples[i];
        size_t j = i;
        while (j > 0 && h->samples[j - 1] > v) {
            h->samples[j] = h->samples[j - 1];
            j--;
        }
        h->samples[j] = v;
    }
    h->sorted = true;
}

uint32_t lathist_percentile(struct lathist *h, unsigned pct, bool *exact)
{
    uint64_t rank, seen = 0;
    bool all = h->count > 0 && h->n == h->count;

    if (exact)
        *exact = all || h->count == 0;
    if (h->count == 0 || pct == 0)
        return 0;
    if (pct > 100)
        pct = 100;
    /* nearest rank: ceil(pct/100 * N), 1-based */
    rank = (pct * h->count + 99) / 100;
    if (rank == 0)
        rank = 1;
    if (all) {
        if (!h->sorted)
            sort_samples(h);
        return h->samples[rank - 1];
    }
    for (unsigned k = 0; k < LATHIST_BUCKETS; k++) {
        seen += h->bucket[k];
        if (seen >= rank) {
            /* upper edge, but never beyond the true maximum */
            uint32_t hi = k + 1 < 32 ? ((uint32_t)1 << k) : UINT32_MAX;
            return (k == LATHIST_BUCKETS - 1 || hi > h->max_us) ? h->max_us : hi;
        }
    }
    return h->max_us;
}

uint32_t lathist_avg(const struct lathist *h)
{
    /* to the nearest us: truncating read 20 probes of 6-7 us (one of 12)
     * as 6 beside a median of 7 */
    return h->count ? (uint32_t)((h->sum_us + h->count / 2) / h->count) : 0;
}

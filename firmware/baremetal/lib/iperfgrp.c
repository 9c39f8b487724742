/* iperfgrp.c - the iperf TCP server's test accounting (iperfgrp.h). */
#include "iperfgrp.h"

bool iperf_grp_joins(const struct iperf_grp *g, uint64_t now_us)
{
    return g->open == 0 || now_us - g->start_us <= IPERF_GRP_JOIN_US;
}

unsigned iperf_grp_join(struct iperf_grp *g, uint64_t now_us, bool *first)
{
    unsigned idx;
    bool fresh = g->open == 0;

    if (fresh) {
        g->n = g->reported = 0;
        g->aborted = false;
        g->start_us = g->end_us = now_us;
    }
    if (g->n < IPERF_GRP_MAX) {
        idx = g->n++;
        g->bytes[idx] = 0;
        g->counted[idx] = true;
    } else {
        idx = IPERF_GRP_MAX - 1;
    }
    g->reported++;
    g->open++;
    if (first)
        *first = fresh;
    return idx;
}

bool iperf_grp_leave(struct iperf_grp *g, unsigned idx, bool counted, uint64_t bytes,
                     bool aborted, uint64_t now_us)
{
    if (g->open == 0 || idx >= g->n)
        return false;               /* not in a test: nothing to do */
    if (counted) {
        g->bytes[idx] += bytes;
        g->end_us = now_us;
        g->aborted |= aborted;
    } else if (g->reported > 0) {
        g->counted[idx] = false;
        g->reported--;
    }
    g->open--;
    return g->open == 0 && g->reported > 0;
}

unsigned iperf_grp_sum(const struct iperf_grp *g, uint64_t *sb, uint64_t *sum, uint64_t *us)
{
    unsigned n = 0;

    *sum = 0;
    for (unsigned k = 0; k < g->n; k++) {
        if (!g->counted[k])
            continue;
        sb[n++] = g->bytes[k];
        *sum += g->bytes[k];
    }
    *us = g->end_us - g->start_us;
    return n;
}

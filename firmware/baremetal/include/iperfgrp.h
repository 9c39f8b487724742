/* iperfgrp.h - the iperf TCP server's test accounting, free of lwIP so the
 * host tests drive it (tests/unit/iperfgrp).
 *
 * An iperf 2 client with -P N opens N connections at once; the server
 * sums the connections that overlap in time into one test (iperf 2's
 * [SUM] line): the test starts with the first connection, ends when the
 * last one of the overlapping set ends, and reports the sum of their
 * bytes over that span with each connection's bytes.
 */
#ifndef GEMLAB_IPERFGRP_H
#define GEMLAB_IPERFGRP_H

#include <stdbool.h>
#include <stdint.h>

#define IPERF_GRP_MAX 8             /* per-stream entries (IPERF_MAX_PARALLEL) */

struct iperf_grp {
    uint8_t n;                      /* entries used */
    uint8_t open;                   /* connections not yet ended */
    uint8_t reported;               /* connections that report (not handed to -R) */
    bool aborted;                   /* one of them ended by error, reset or stop */
    uint64_t start_us;              /* first connection's accept */
    uint64_t end_us;                /* last counted connection's end */
    uint64_t bytes[IPERF_GRP_MAX];
    bool counted[IPERF_GRP_MAX];
};

/* A connection accepted at now_us joins the running test, or opens a new
 * one when none runs (*first set true then, if first is not NULL).
 * Returns its entry.  More connections over one test than entries: the
 * later ones add to the last entry. */
/* Whether a connection accepted at @now_us belongs to the running test:
 * yes when none runs, or when it comes within IPERF_GRP_JOIN_US of the
 * test's first one (iperf 2's -P streams connect back to back).  A later
 * one overlaps only a straggler of an earlier test (a connection whose
 * FIN a link flap lost) and is a test of its own, reported alone. */
#define IPERF_GRP_JOIN_US 1000000u
bool iperf_grp_joins(const struct iperf_grp *g, uint64_t now_us);
unsigned iperf_grp_join(struct iperf_grp *g, uint64_t now_us, bool *first);

/* Connection @idx ends at now_us having received @bytes (@counted), or
 * leaves without a report (!@counted: handed to the -R sender).  Returns
 * true when it was the last one and the test has a line to print. */
bool iperf_grp_leave(struct iperf_grp *g, unsigned idx, bool counted, uint64_t bytes,
                     bool aborted, uint64_t now_us);

/* The finished test: per-stream bytes into sb[IPERF_GRP_MAX] (the
 * counted entries, in join order), their sum and the span.  Returns the
 * number of streams. */
unsigned iperf_grp_sum(const struct iperf_grp *g, uint64_t *sb, uint64_t *sum, uint64_t *us);

#endif /* GEMLAB_IPERFGRP_H */

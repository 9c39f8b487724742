/* udpstats.c - iperf 2 style loss / out-of-order / jitter accounting. */
#include "udpstats.h"

#include <string.h>

void udpstats_init(struct udpstats *s)
{
    memset(s, 0, sizeof(*s));
}

/* The id of a datagram: gaps, reordering, the high-water mark; false
 * for id 0. */
static bool count_id(struct udpstats *s, uint64_t seq)
{
    if (seq == 0) {           /* iperf numbers from 1; 0 is not a datagram of a test */
        s->malformed++;
        return false;
    }
    if (seq != s->max_seq + 1) {
        if (seq <= s->max_seq)
            s->out_of_order++;
        else
            s->gaps += seq - s->max_seq - 1;
    }
    if (seq > s->max_seq)
        s->max_seq = seq;
    return true;
}

void udpstats_rx_fin(struct udpstats *s, uint64_t seq)
{
    (void)count_id(s, seq);
}

void udpstats_rx(struct udpstats *s, uint64_t seq, uint32_t bytes,
                 uint64_t sent_us, uint64_t recv_us)
{
    int64_t transit, d;

    if (!count_id(s, seq))
        return;
    s->received++;
    s->bytes += bytes;
    transit = (int64_t)(recv_us - sent_us);
    if (s->have_transit) {
        d = transit - s->last_transit_us;
        if (d < 0)
            d = -d;
        s->jitter_us += ((double)d - s->jitter_us) / 16.0;
    }
    s->last_transit_us = transit;
    s->have_transit = true;
}

void udpstats_malformed(struct udpstats *s)
{
    s->malformed++;
}

uint64_t udpstats_lost(const struct udpstats *s)
{
    return s->gaps > s->out_of_order ? s->gaps - s->out_of_order : 0;
}

uint64_t udpstats_expected(const struct udpstats *s)
{
    return s->max_seq;
}

double udpstats_loss_pct(const struct udpstats *s)
{
    uint64_t lost = udpstats_lost(s);

    if (s->max_seq == 0)
        return 0.0;
    if (lost >= s->max_seq)
        return 100.0;
    /* The ratio first: lost < max_seq keeps it <= 1 after rounding, so the
     * result never exceeds 100 % (100 * lost / max did, for ids above
     * 2^53; found by tests/fuzz/iperf2). */
    return 100.0 * ((double)lost / (double)s->max_seq);
}

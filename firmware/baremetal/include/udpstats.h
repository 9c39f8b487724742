/* udpstats.h - UDP receive accounting the way an iperf 2 server does it.
 *
 * Sequence numbers start at 1.  A datagram whose id is below the next
 * expected one is out-of-order (counted, never lowers the high-water mark);
 * a jump forward adds the gap to the lost count.  Reported loss is gaps
 * minus out-of-order (a late datagram first counted as lost), clamped at 0,
 * and the datagram total is the highest id seen: iperf 2.1.8
 * Reporter.c / Reports.c.
 *
 * Jitter is RFC 1889 (RFC 3550 6.4.1) interarrival jitter:
 *   D = (R_i - S_i) - (R_{i-1} - S_{i-1}),  J += (|D| - J) / 16
 * in microseconds, with S from the sender's tv_sec/tv_usec and R from the
 * local clock.  The clocks need not agree; only their rates matter.
 */
#ifndef GEMLAB_UDPSTATS_H
#define GEMLAB_UDPSTATS_H

#include <stdbool.h>
#include <stdint.h>

struct udpstats {
    uint64_t max_seq;       /* highest sequence number seen */
    uint64_t received;      /* datagrams accepted */
    uint64_t bytes;         /* UDP payload bytes accepted */
    uint64_t gaps;          /* sum of forward jumps */
    uint64_t out_of_order;
    uint64_t malformed;     /* too short, bad sequence number: ignored */
    double jitter_us;
    int64_t last_transit_us;
    bool have_transit;
};

void udpstats_init(struct udpstats *s);
/* Account one datagram: seq (>= 1), payload bytes, sender timestamp and
 * local receive time, both in microseconds. */
void udpstats_rx(struct udpstats *s, uint64_t seq, uint32_t bytes,
                 uint64_t sent_us, uint64_t recv_us);
/* Account the client's FIN by its id (made positive, as iperf 2.1.8's
 * ReadPacketID does), so the datagrams lost before it are a gap and the
 * datagram total is its id.  Its bytes and transit are not counted, where
 * iperf 2.1.8 counts both: a receiver here timestamps a batch of frames
 * with one time, the FIN usually with the last data datagram's, so its
 * bytes would add a frame without its wire time (above the line's
 * ceiling), and our senders stamp each 1 ms burst with one time (pace.h),
 * so its transit, sent alone after the train, would add the burst's own
 * queueing as a jitter sample (0.013 -> 0.074 ms at 1 Gb/s). */
void udpstats_rx_fin(struct udpstats *s, uint64_t seq);
/* Count a datagram that could not be parsed. */
void udpstats_malformed(struct udpstats *s);
/* Loss as iperf reports it: gaps - out_of_order, never negative. */
uint64_t udpstats_lost(const struct udpstats *s);
/* Datagrams the sender sent as far as we can tell: the highest seq. */
uint64_t udpstats_expected(const struct udpstats *s);
/* lost / expected in percent, 0 when nothing was expected. */
double udpstats_loss_pct(const struct udpstats *s);

#endif /* GEMLAB_UDPSTATS_H */

/* pace.h - token-bucket pacing for rate-limited UDP senders.
 *
 * The sender runs from a main-loop poll hook with a millisecond clock.
 * Each call refills rate_bps * elapsed_ms bits of credit (kept in
 * milli-bits, so no rounding loss accumulates), capped at the burst size;
 * the sender then sends datagrams while pace_take() allows.
 *
 * Granularity: credit arrives in 1 ms steps, so at rate R the sender emits
 * bursts of about R/8000 bytes once per poll-millisecond (50 Mb/s: 6250
 * bytes, about 4 datagrams of 1470 bytes).  The long-run average is exact;
 * short-term smoothness is bounded by the burst cap (default: PACE_BURST_MS
 * of credit but at least 2 datagrams).  The cap must cover the longest gap
 * between polls: the firmware's main loop sleeps in WFI between interrupts
 * and on a loaded host QEMU woke it only every ~15 ms when idle: a 2 ms cap
 * sent 28 Mb/s of 50 offered, 10 ms sent 33.  40 ms covers that; the
 * UDP client also limits one poll to 256 datagrams.  A main loop stalled longer than the
 * burst window loses that credit instead of catching up with a flood.
 * A clock reading older than the last refill (the caller sampled "now"
 * before an earlier refill) adds nothing.
 */
#ifndef GEMLAB_PACE_H
#define GEMLAB_PACE_H

#include <stdbool.h>
#include <stdint.h>

#define PACE_BURST_MS 40   /* default burst cap, in ms of credit */

struct pace {
    uint64_t rate_bps;
    uint64_t credit_mbit;   /* milli-bits */
    uint64_t burst_mbit;
    uint32_t last_ms;
};

/* rate_bps > 0; burst_bytes = 0 selects the default (PACE_BURST_MS of
 * rate, at least 2 * dgram_bytes).  The bucket starts with one datagram of credit. */
void pace_init(struct pace *p, uint64_t rate_bps, uint32_t dgram_bytes,
               uint32_t burst_bytes, uint32_t now_ms);
/* Add credit for the time since the last refill (uint32_t ms wrap safe). */
void pace_refill(struct pace *p, uint32_t now_ms);
/* The last refill of a test that ends at @deadline_ms: the credit up to
 * it, less its own instant, so that with the datagram of initial credit
 * a test of T ms at rate R sends the datagrams due at 0, 1/R', ...
 * strictly before T (iperf 2 stops writing at -t): R x T / 8 bytes when
 * that is whole datagrams.  Without it the test's last millisecond of
 * credit was never sent: 37M for 1 s gave 4 621 000 bytes, not 4 625 000.
 * A sender behind its pace (a @dgram_bytes datagram's credit left: its
 * driver or the line held it back) gets nothing: it is behind by more
 * than that millisecond, and a burst of its backlog at the end (40 ms of
 * credit at -b 1000M) only overflows the queues after it.  True when it
 * refilled: only then is there anything left to send. */
bool pace_refill_before(struct pace *p, uint32_t deadline_ms, uint32_t dgram_bytes);
/* Take credit for one datagram of bytes if there is enough: true = send. */
bool pace_take(struct pace *p, uint32_t bytes);

#endif /* GEMLAB_PACE_H */

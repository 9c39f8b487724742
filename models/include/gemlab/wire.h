/*
 * gemlab/wire.h - the link/wire model: one Ethernet cable between side A
 * and side B, two independent directions (A->B, B->A), each a pipeline
 *
 *   sender MAC serializer (negotiated line rate, tx_done_ns)
 *     -> [optional] bounded queue (frames, bytes; tail drop)
 *        in front of a rate cap below line rate (rate_bps)
 *     -> loss model (random / Gilbert-Elliott / 4-state Markov)
 *     -> duplication, reordering (netem "reorder PCT gap N")
 *     -> propagation delay + jitter (netem distributions)
 *     -> FCS errors: corruption, duplex mismatch, RGMII clock skew
 *     -> the receiver's line, one frame at a time
 *     -> receiver (gl_link_poll at or after the arrival time)
 *
 * netem (Linux sch_netem.c, iproute2 q_netem.c and netem/ tables) is the
 * reference for impairment semantics; differences are listed below.
 *
 * Time is an input (now_ns, nanoseconds on the host's clock).  Sends and
 * link changes must not go back in time per direction; a smaller value is
 * treated as the largest seen so far.  Polling never advances the clock,
 * so looking ahead with a large now_ns is harmless.  Nothing blocks: the host asks gl_link_next_deadline() when to
 * call gl_link_poll() again.  Randomness: each direction owns a
 * struct gl_prng seeded from the link seed, so the same seed and the same
 * calls give the same decisions, whatever the other direction does.
 *
 * Ethernet timing (IEEE 802.3 clause 4/35): a frame of LEN bytes as handed
 * over by the MAC (destination address to payload, no FCS) occupies
 *   max(LEN, 60) + 4 (FCS) + 8 (preamble+SFD) + 12 (IFG)  byte times,
 * a byte time being 800 / 80 / 8 ns at 10 / 100 / 1000 Mb/s, exactly.
 * The rate cap charges the same on-wire bytes at rate_bps (netem charges
 * only the packet length unless told an overhead).
 *
 * Frame ownership (the model never reads or writes payload bytes):
 *   - gl_link_send() returns a verdict.  GL_WIRE_QUEUED means the model
 *     now holds one or two references to the frame (two when duplicated);
 *     every other verdict means it holds none and the host may free the
 *     buffer at once.
 *   - Each reference comes back exactly once from gl_link_poll() with the
 *     same cookie.  The buffer may be freed after the delivery that carries
 *     GL_DELIV_LAST (the original of a duplicated frame never carries it;
 *     the duplicate always arrives after its original and does).
 *   - A delivery with GL_DELIV_DROPPED (the link went down while the frame
 *     was in flight) must not be handed to the receiving MAC; it only
 *     returns the reference.
 *   - A delivery with GL_DELIV_FCS_ERROR must be handed to the receiving
 *     MAC, which counts an FCS error and discards it (the frame is never
 *     silently dropped by the model).
 *   - The sender's MAC completes (hands its TX descriptor back) at
 *     *tx_done_ns whatever the verdict: a frame lost "on the wire" still
 *     took its time on the sender's wire, and frames sent while the link
 *     is down are serialized too (a MAC does not stop for link loss).
 *     A verdict is for the host's buffer bookkeeping, not a TX error.
 *
 * Differences from netem, by choice:
 *   - The queue sits in front of the rate cap only; with no cap the
 *     sender's MAC is paced by tx_done_ns and nothing queues in the model.
 *     A frame dropped by the queue never reaches the loss model (netem
 *     decides loss before its queue limit).
 *   - Loss is decided once per offered frame, before duplication: a lost
 *     frame is never duplicated (netem lets the duplicate survive).
 *   - A duplicate is not independently delayed: it follows its original
 *     back-to-back on the sender's wire, taking one more frame time there
 *     (the MAC's next frame waits for it) and passing the rate cap and its
 *     queue like any frame; it arrives that much after its original.
 *     Corruption, skew and duplex errors are decided per copy.
 *   - Jitter keeps frame order unless jitter_reorders is set: an in-order
 *     frame arrives no sooner than one frame time at line rate after the
 *     previous in-order frame (sch_netem, with a rate set, adds the
 *     packet's time after its ordering clamp; without one it reorders).
 *   - Link down drops what is in flight and empties the rate cap's queue
 *     of it: frames sent after the link returns do not wait behind them.  Frames picked
 *     by reorder_pct bypass latency and jitter, as netem's "sent at once".
 *   - No correlation parameters (netem's correlated random numbers do not
 *     keep the configured marginal probability); see Known limitations.
 *
 * Jitter distributions (netem tabledist: delay = latency + jitter * z,
 * where z has the shape of the table; delays below 0 are clamped to 0):
 *   uniform      integer delay uniform in [latency - jitter, latency + jitter)
 *   normal       z ~ N(0, 1), clipped to [-4, 4) like netem's s16 table
 *   pareto       z = 4/3 * (U^(-1/3) - 1.5), U uniform in (0, 1]: netem's
 *                Pareto table (alpha 3, shifted to mean 0), clipped at 4
 *   paretonormal z = (Phi^-1(q) + 3 * pareto(q)) / 4 with the SAME quantile
 *                q for both parts (netem's paretonormal.c sums the two
 *                inverse CDFs entry by entry, not two independent draws)
 * Values are generated analytically (inverse CDF on a 53-bit uniform)
 * instead of from netem's 4096-entry tables, so z has finer resolution;
 * the clipping bounds are the tables' [-32768, 32767] / 8192.
 * That formula is each frame's draw.  What a receiver measures differs
 * when frames come faster than the jitter: in order (jitter_reorders
 * off) a frame waits for the one before, so the mean delay rises (the
 * blind audit of 2026-12-05 measured +0.8 jitter for uniform, +2.1 for
 * normal at 1G line rate); with jitter_reorders on they overtake
 * instead, and the receiver's line still takes them one frame time
 * apart.  jitter is netem's "jitter": the standard deviation for
 * normal, the half-width for uniform (its standard deviation is
 * jitter / sqrt(3)).
 *
 * Loss models (probabilities compared with one uniform draw each, ranges
 * written cumulatively so they cannot leave gaps):
 *   random   each frame lost with loss_pct / 100.
 *   gemodel  Gilbert-Elliott, netem order: in state Good a frame is lost
 *            with 1-k and the state moves to Bad with p; in Bad it is lost
 *            with 1-h and moves to Good with r (the loss uses the state the
 *            frame found).  Mean loss = (r(1-k) + p(1-h)) / (p + r).
 *   state    netem's 4-state Markov (GI model, Salsano et al.): 1 = gap
 *            delivered, 2 = burst delivered, 3 = burst lost, 4 = isolated
 *            loss; 1->3 p13, 1->4 p14, 3->1 p31, 3->2 p32, 2->3 p23,
 *            4->1 always.  The frame's fate is the state it moves to.
 *
 * Half duplex (IEEE 802.3 clause 4, CSMA/CD), for a side whose PHY
 * resolved half duplex, decided when that side's MAC offers the frame:
 *   - carrier sense: it defers while the other direction's MAC is busy
 *     (the other side's contiguous transmission known so far), counted in
 *     `deferred`; a link where both sides are half duplex is then one
 *     shared medium (data and ACKs take turns);
 *   - collisions: with a transmission of the other side that is already
 *     scheduled to begin inside this frame; and, when the other side is full
 *     duplex (a duplex mismatch: it never defers), with one it has not sent
 *     yet, with probability U = the fraction of time the other direction's
 *     MAC was busy in its most recently completed GL_WIRE_DUPLEX_WINDOW_NS
 *     window when the frame is offered (the same U for every attempt), at
 *     an offset uniform in the frame (preamble included);
 *   - a collision inside the slot time (512 bit times after the preamble;
 *     4096 at 1000 Mb/s, 4.4.2 with carrier extension) jams 32 bits and retries after a
 *     truncated binary exponential backoff of r slots, 0 <= r < 2^min(n,10)
 *     (4.2.3.2.5); after 16 attempts the frame is dropped (excessive
 *     collisions, GL_WIRE_DROP_COLLISION);
 *   - a collision after the slot time is a late collision: the frame is
 *     not retried, and the receiver gets the cut frame (>= 64 bytes, bad
 *     FCS): a delivery with GL_DELIV_FCS_ERROR | GL_DELIV_DUPLEX;
 *   - early-collision fragments are runts the receiver discards uncounted
 *     (4.2.4.2.2); they are not delivered;
 *   - the other side's frames reach a half-duplex receiver intact (the two
 *     directions use separate pairs at 10/100BASE-T).
 *   Each attempt's carrier sense and backoff use the times known when the
 *   frame is offered; a transmission the other side schedules later never
 *   moves a frame already decided (the probabilistic collision stands for
 *   those on a mismatched link).  A full-duplex side never defers and never
 *   sees a collision.
 *
 * Signal faults:
 *   RGMII skew  a direction whose RGMII clock delay is wrong (the PHY
 *            model decides that from the board's PCB delays and the PHY's
 *            timing bits: gl_phy_link.rgmii_rx_skewed/_tx_skewed; the host
 *            passes it on with gl_link_set_rgmii_skew) delivers
 *            skew_crc_pct of its frames with a bad FCS, only while the link
 *            runs at 1000 Mb/s: RGMII is clocked at 125 MHz DDR only at
 *            1000; at 10/100 the 2.5/25 MHz clock leaves enough margin for
 *            a wrong delay.  A direction not marked never sees skew errors,
 *            whatever skew_crc_pct says.
 *
 * Known limitations:
 *   - Correlation (netem "loss 1% 25%") is not modelled.
 *   - CSMA/CD is decided per frame when it is offered (see Half duplex);
 *     both sides colliding on the same instant back off on the later
 *     offer only.
 *   - The rate cap rounds each frame's time on the capped server to the
 *     nanosecond but carries the remainder, so long runs are exact.
 *   - In-flight capacity is fixed at build time (GL_WIRE_INFLIGHT_MAX
 *     in-order plus GL_WIRE_OOO_MAX out-of-order frames per direction);
 *     beyond it frames are dropped and counted as dropped_store.
 */
#ifndef GEMLAB_WIRE_H
#define GEMLAB_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gemlab/err.h"
#include "gemlab/prng.h"

#include "gemlab/time.h"

/* ---- Build-time options (lwIP opt.h style: override with -D) ---- */

/* In-order frames in flight per direction (queued + propagating). */
#ifndef GL_WIRE_INFLIGHT_MAX
#define GL_WIRE_INFLIGHT_MAX 4096
#endif
/* Frames in flight per direction that arrive before an earlier-offered
 * one (reorder_pct, jitter_reorders), or that overflow the in-order FIFO. */
#ifndef GL_WIRE_OOO_MAX
#define GL_WIRE_OOO_MAX 1024
#endif
/* Largest queue_frames a configuration may ask for. */
#ifndef GL_WIRE_QUEUE_MAX
#define GL_WIRE_QUEUE_MAX 1024
#endif
/* Window over which the reverse direction's load is measured for the
 * collision probability on a duplex-mismatched link. */
#ifndef GL_WIRE_DUPLEX_WINDOW_NS
#define GL_WIRE_DUPLEX_WINDOW_NS 1000000ULL
#endif

#if (GL_WIRE_INFLIGHT_MAX & (GL_WIRE_INFLIGHT_MAX - 1)) != 0
#error "GL_WIRE_INFLIGHT_MAX must be a power of two"
#endif
#if (GL_WIRE_QUEUE_MAX & (GL_WIRE_QUEUE_MAX - 1)) != 0
#error "GL_WIRE_QUEUE_MAX must be a power of two"
#endif
#if GL_WIRE_OOO_MAX < 1 || GL_WIRE_DUPLEX_WINDOW_NS < 1
#error "GL_WIRE_OOO_MAX and GL_WIRE_DUPLEX_WINDOW_NS must be at least 1"
#endif

/* ---- Ethernet constants (IEEE 802.3 clause 3, 4) ---- */
#define GL_ETH_MIN_FRAME   60u  /* without FCS; shorter frames are padded */
#define GL_ETH_FCS         4u
#define GL_ETH_PREAMBLE    8u   /* 7 preamble + 1 SFD */
#define GL_ETH_IFG         12u
#define GL_WIRE_LEN_MAX    16383u /* largest frame length accepted (jumbo) */

/* ---- Parameters: one direction's impairments ---- */

enum gl_jitter_dist {
    GL_JITTER_UNIFORM = 0,
    GL_JITTER_NORMAL,
    GL_JITTER_PARETO,
    GL_JITTER_PARETONORMAL,
};

enum gl_loss_model {
    GL_LOSS_RANDOM = 0,  /* Bernoulli, loss_pct */
    GL_LOSS_GEMODEL,     /* Gilbert-Elliott, ge */
    GL_LOSS_4STATE,      /* 4-state Markov, mm4 */
};

/* Gilbert-Elliott, probabilities in [0, 1] (netem's "gemodel p r 1-h 1-k"
 * takes percentages and the complements of h and k). */
struct gl_wire_ge {
    double p;  /* Good -> Bad transition */
    double r;  /* Bad -> Good transition */
    double h;  /* delivery probability in Bad  (loss 1-h) */
    double k;  /* delivery probability in Good (loss 1-k) */
};

/* 4-state Markov transition probabilities in [0, 1]; p13 + p14 <= 1 and
 * p31 + p32 <= 1 (netem's "state p13 p31 p32 p23 p14" in percent). */
struct gl_wire_4state {
    double p13, p31, p32, p23, p14;
};

struct gl_wire_params {
    uint64_t latency_ns;    /* propagation delay, [0, 60 s] */
    uint64_t jitter_ns;     /* netem's jitter (normal: sigma; uniform: half-width), [0, 60 s] */
    enum gl_jitter_dist jitter_dist;
    bool jitter_reorders;   /* false: jitter never reorders (default) */
    uint64_t rate_bps;      /* 0 = no cap, else [1000, 100e9]; acts only
                               when below the negotiated line rate */
    uint32_t queue_frames;  /* queue in front of the cap, [1, GL_WIRE_QUEUE_MAX] */
    uint32_t queue_bytes;   /* same queue in on-wire bytes, [84, UINT32_MAX] */
    enum gl_loss_model loss_model;
    double loss_pct;        /* GL_LOSS_RANDOM, [0, 100] */
    struct gl_wire_ge ge;   /* GL_LOSS_GEMODEL */
    struct gl_wire_4state mm4; /* GL_LOSS_4STATE */
    double dup_pct;         /* [0, 100] */
    double corrupt_pct;     /* frames delivered with an FCS error, [0, 100] */
    double reorder_pct;     /* [0, 100], needs latency_ns > 0 */
    uint32_t reorder_gap;   /* netem gap, [1, 1e9]; 1 = any frame may jump */
    double skew_crc_pct;    /* FCS error % at 1000 Mb/s while the
                               direction's RGMII timing is wrong, [0, 100];
                               default GL_WIRE_RGMII_SKEW_PCT */
};

/* How many frames a wrong RGMII clock delay corrupts at 1000 Mb/s.  A
 * missing ~2 ns delay puts the sampling edge on the data transitions
 * (RGMII v2.0 section 3.3, TskewR 1.0-2.6 ns at the receiver), so the
 * outcome depends on the board's margins; 2 % reproduces the field report
 * summarised in docs/SOURCES.md ("a Zynq gigabit port that does not
 * fill", section 5.6: the link works, TCP falls to ~400 Mb/s with sporadic
 * loss). */
#define GL_WIRE_RGMII_SKEW_PCT 2.0

/* Fill @p with an ideal wire: no delay, no loss, queue 1000 frames
 * (netem's default limit), no byte limit (UINT32_MAX), reorder_gap 1. */
void gl_wire_params_default(struct gl_wire_params *p);

/* 0 if every field is in range, else -EINVAL and a message naming the
 * field ("wire.loss_pct: 120 is out of range [0, 100]"). */
int gl_wire_params_validate(const struct gl_wire_params *p, struct gl_err *err);

/* ---- Verdicts, deliveries, counters ---- */

enum gl_wire_verdict {
    GL_WIRE_QUEUED = 0,        /* the model holds the frame (see ownership) */
    GL_WIRE_DROP_LINK_DOWN,    /* sent while the link was down */
    GL_WIRE_DROP_QUEUE,        /* tail drop in front of the rate cap */
    GL_WIRE_DROP_LOSS,         /* the loss model took it */
    GL_WIRE_DROP_STORE,        /* in-flight store full (capacity, not a model) */
    GL_WIRE_DROP_COLLISION,    /* half duplex: 16 attempts collided (4.2.3.2.5) */
};

/* gl_delivery.flags */
#define GL_DELIV_FCS_ERROR  (1u << 0) /* bad FCS: receiver counts and discards */
#define GL_DELIV_DUPLICATE  (1u << 1) /* the extra copy of a duplicated frame */
#define GL_DELIV_LAST       (1u << 2) /* last reference: buffer may be freed */
#define GL_DELIV_DROPPED    (1u << 3) /* lost in flight (link down): do not deliver */
#define GL_DELIV_REORDERED  (1u << 4) /* picked by reorder_pct */
#define GL_DELIV_CORRUPT    (1u << 5) /* FCS error cause: corrupt_pct */
#define GL_DELIV_DUPLEX     (1u << 6) /* FCS error cause: cut by a late collision (half duplex) */
#define GL_DELIV_SKEW       (1u << 7) /* FCS error cause: RGMII skew */

struct gl_delivery {
    uint64_t cookie;      /* as given to gl_link_send */
    uint64_t arrival_ns;  /* last bit at the receiver */
    uint64_t tx_done_ns;  /* when the sender's MAC finished it */
    uint32_t len;         /* as given to gl_link_send */
    uint32_t flags;       /* GL_DELIV_* */
};

/* Per direction.  Invariant (checked by gl_link_check_invariants):
 * sent + duplicated == delivered + dropped_link_down + dropped_queue +
 *                      dropped_loss + dropped_store + dropped_collision + in_flight.
 * The CSMA/CD counters are the sender's (its MAC's statistics, UG585
 * 16.5.1 / 802.3 30.3.1.1.7-30.3.1.1.11). */
struct gl_wire_counters {
    uint64_t sent;              /* frames offered by the sender */
    uint64_t delivered;         /* copies returned by poll without DROPPED
                                   (FCS-errored ones included) */
    uint64_t dropped_link_down; /* sent while down, or in flight at link down */
    uint64_t dropped_queue;
    uint64_t dropped_loss;
    uint64_t dropped_store;
    uint64_t dropped_collision; /* excessive collisions: given up after 16 attempts */
    uint64_t duplicated;        /* extra copies made */
    uint64_t reordered;
    uint64_t corrupted;         /* copies marked by corrupt_pct */
    uint64_t duplex_errors;     /* copies cut by a late collision (delivered with FCS error) */
    uint64_t deferred;          /* frames whose first attempt waited for carrier */
    uint64_t collisions;        /* collision events (every attempt that collided) */
    uint64_t single_collision;  /* frames sent after exactly one collision */
    uint64_t multiple_collision; /* frames sent after 2..15 collisions */
    uint64_t late_collisions;   /* frames cut by a collision after the slot time */
    uint64_t skew_errors;       /* copies marked by RGMII skew */
    uint64_t fcs_errors;        /* delivered copies with GL_DELIV_FCS_ERROR */
    uint64_t bytes_sent;        /* frame bytes (len) offered */
    uint64_t bytes_delivered;   /* frame bytes (len) delivered */
    uint64_t in_flight;         /* references still to be delivered (those
                                   marked DROPPED at link down are already
                                   in dropped_link_down) */
};

/* ---- State (plain data; embed by value; fields are private) ----
 * With the default options a struct gl_link is 361,664 bytes (x86-64):
 * per direction 128 KiB FIFO + 32 KiB heap + 16 KiB queue ring.  No
 * allocation happens after gl_link_init(); nothing points outside it, so
 * it may be copied or saved as bytes. */

struct gl_wire_qslot {          /* one frame in the rate-cap queue */
    uint64_t depart_ns;         /* when it leaves the capped server */
    uint32_t wire_bytes;
    uint32_t pad;
};

struct gl_wire_slot {           /* one reference in flight */
    uint64_t arrival_ns;
    uint64_t tx_done_ns;
    uint64_t cookie;
    uint32_t seq;               /* offer order, breaks arrival ties */
    uint16_t len;
    uint16_t flags;
};

struct gl_wire {
    struct gl_wire_params p;
    /* thresholds compiled from p: a 53-bit uniform draw below t is a hit */
    uint64_t t_loss, t_dup, t_corrupt, t_reorder, t_skew;
    uint64_t t_ge_p, t_ge_r, t_ge_lose_bad, t_ge_lose_good;
    uint64_t t_p14, t_p13_14, t_p32, t_p31_32, t_p23;
    struct gl_prng rng;
    uint64_t now_ns;            /* largest now seen */
    uint64_t mac_free_ns;       /* sender MAC busy until */
    uint64_t busy_from_ns;      /* start of the MAC's contiguous busy period */
    uint64_t cap_free_ns;       /* capped server busy until */
    uint64_t cap_rem;           /* carried remainder, bit-ns units */
    uint64_t last_arrival_ns;   /* newest in-order arrival */
    uint64_t rx_free_ns;        /* end of the last frame delivered */
    uint64_t win_start_ns, win_busy_ns, prev_busy_ns; /* load window */
    uint32_t seq;
    uint32_t reorder_count;     /* netem q->counter */
    uint32_t loss_state;        /* GE: 0 good 1 bad; 4-state: 1..4 */
    uint32_t plain;             /* no impairment configured: fast path */
    uint32_t q_head, q_count;
    uint64_t q_bytes;
    uint32_t f_head, f_count;   /* in-order FIFO */
    uint32_t h_count;           /* out-of-order min-heap */
    struct gl_wire_counters c;
    struct gl_wire_qslot q[GL_WIRE_QUEUE_MAX];
    struct gl_wire_slot fifo[GL_WIRE_INFLIGHT_MAX];
    struct gl_wire_slot heap[GL_WIRE_OOO_MAX];
};

/* Directions: index 0 is A->B, 1 is B->A. */
#define GL_LINK_A_TO_B 0
#define GL_LINK_B_TO_A 1

struct gl_link {
    struct gl_wire dir[2];
    bool up;
    bool full_duplex[2];        /* side A, side B */
    bool rgmii_skewed[2];       /* per direction: RGMII clock delay wrong */
    unsigned speed_mbps;        /* 10, 100, 1000; kept while down */
};

/* ---- Link API ---- */

/* Validate both parameter sets and reset @l: link down at 1000 Mb/s full
 * duplex, empty, direction PRNGs seeded from @seed.  0 or -EINVAL. */
int gl_link_init(struct gl_link *l, const struct gl_wire_params *a_to_b,
                 const struct gl_wire_params *b_to_a, uint64_t seed,
                 struct gl_err *err);

/* Replace direction @dir's parameters at run time (QMP).  Frames in flight
 * keep their decided fate; the loss-model state restarts when the model
 * changes.  0, or -EINVAL (bad @dir or field) leaving @l unchanged. */
int gl_link_configure(struct gl_link *l, int dir, const struct gl_wire_params *p,
                      struct gl_err *err);

/* Tell the link what the PHYs resolved.  @speed_mbps must be 10, 100 or
 * 1000 when @up; 0 is accepted while down and keeps the previous speed.
 * Going down marks every frame still in flight GL_DELIV_DROPPED.
 * 0 or -EINVAL. */
int gl_link_set_phy(struct gl_link *l, bool up, unsigned speed_mbps,
                    bool a_full_duplex, bool b_full_duplex, uint64_t now_ns,
                    struct gl_err *err);

/* Tell the link which directions cross a MAC-PHY interface whose RGMII
 * clock delay is wrong (side A's PHY: TX timing for A->B, RX timing for
 * B->A; gl_phy_link.rgmii_tx_skewed / rgmii_rx_skewed).  Frames already
 * in flight keep their fate.  Initially neither. */
void gl_link_set_rgmii_skew(struct gl_link *l, bool a_to_b, bool b_to_a);

/* Offer a frame of @len bytes (no FCS, [1, GL_WIRE_LEN_MAX]) in direction
 * @dir at @now_ns.  Sets *@tx_done_ns (may be NULL) to when the sender's MAC
 * finishes serializing it.  Returns an enum gl_wire_verdict, or -EINVAL for a
 * bad @dir or @len (nothing changes then). */
int gl_link_send(struct gl_link *l, int dir, uint64_t now_ns, uint32_t len,
                 uint64_t cookie, uint64_t *tx_done_ns);

/* Pop the earliest reference whose arrival_ns <= @now_ns into @out.
 * Frames leave in order of their own arrival time, and each ends at
 * least one frame time (at the link's speed) after the frame delivered
 * before it: out->arrival_ns is that later time when frames that
 * overtook (jitter_reorders, reorder_pct) or a duplicate crowd the
 * receiver's line.
 * Returns 1 if one was popped, 0 if none is due, -EINVAL for a bad @dir. */
int gl_link_poll(struct gl_link *l, int dir, uint64_t now_ns,
                 struct gl_delivery *out);

/* Arrival time of the next reference in direction @dir as gl_link_poll()
 * would deliver it, GL_NEVER if none (also for a bad @dir). */
uint64_t gl_link_next_deadline(const struct gl_link *l, int dir);

/* Copy direction @dir's counters (zeroes for a bad @dir). */
void gl_link_get_counters(const struct gl_link *l, int dir,
                          struct gl_wire_counters *c);

/* Internal consistency check for tests and fuzzers: counter balance, heap
 * order, FIFO order, queue accounting, no reference arriving before its
 * tx_done.  0 or -EINVAL with the first broken invariant in @err. */
int gl_link_check_invariants(const struct gl_link *l, struct gl_err *err);

/* sizeof(struct gl_link): the state a link costs, for reports. */
size_t gl_link_state_size(void);

/* ---- Helpers shared with the scenario parser and QEMU properties ---- */

/* On-wire bytes of a LEN-byte frame: max(LEN, 60) + FCS + preamble + IFG. */
uint32_t gl_wire_frame_bytes(uint32_t len);

/* Time a LEN-byte frame occupies the wire at @speed_mbps (10/100/1000),
 * exact; 0 for another speed. */
uint64_t gl_wire_frame_ns(uint32_t len, unsigned speed_mbps);

/* "uniform", "normal", "pareto", "paretonormal" -> *@out.  0 or -EINVAL. */
int gl_wire_parse_jitter_dist(const char *s, enum gl_jitter_dist *out,
                              struct gl_err *err);

/* A netem-like loss spec into @p (loss_model and its fields only):
 *   "none" | "random PCT" | "PCT" | "gemodel P [R [1-H [1-K]]]" |
 *   "state P13 [P31 [P32 [P23 [P14]]]]"
 * Percentages may carry a '%'.  Omitted values take iproute2's defaults
 * (gemodel: R = 100 - P, 1-H = 100, 1-K = 0; state: P31 = 100 - P13,
 * P32 = 0, P23 = 100, P14 = 0).  0 or -EINVAL naming the bad token; @p is
 * unchanged on error. */
int gl_wire_parse_loss(const char *spec, struct gl_wire_params *p,
                       struct gl_err *err);

/* Names for reports and traces ("?" for an unknown value). */
const char *gl_wire_jitter_dist_name(enum gl_jitter_dist d);
const char *gl_wire_loss_model_name(enum gl_loss_model m);
const char *gl_wire_verdict_name(int verdict);

#endif /* GEMLAB_WIRE_H */

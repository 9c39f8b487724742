/*
 * capture.c - TCP evidence from the wire capture (see capture.h).
 *
 * Frames: Ethernet II (one 802.1Q tag skipped), IPv4 (RFC 791; every
 * fragment skipped, the first too: its length is not the segment's) or IPv6 (RFC 8200; TCP as the first next
 * header only), TCP (RFC 793 header, options MSS and window scale, RFC
 * 7323).  The payload length comes from the IP header, so a capture cut
 * by a snaplen still counts it.
 */
#include "capture.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gemlab/pcapng.h"
#include "gemlab/wire.h"

#define RTT_RING 512u
#define SEEN_RING 512u        /* data segments remembered per direction */
#define ARR_RING 4096u        /* arrivals within one RTT (6 MB at 1G, 48 ms) */
/* Wireshark's out-of-order threshold when no handshake RTT is known
 * (epan/dissectors/packet-tcp.c, tcp_analyze_sequence_number) */
#define OOO_DEFAULT_NS 3000000ull

/* RFC 1982 serial-number comparison of 32-bit sequence numbers. */
static bool seq_lt(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }
static bool seq_le(uint32_t a, uint32_t b) { return (int32_t)(a - b) <= 0; }

/* A sender's IPv4 identifications: the newest seen (16-bit serial
 * order), the last one, and how many datagrams came numbered near the
 * one before them (within 256 either way, not equal) and how many not:
 * a sender that numbers in turn, reordered or not, against one that
 * sends 0 or random values (RFC 6864 4) */
struct idseq {
    bool init;
    uint16_t newest, last;
    uint64_t newest_t;        /* when the newest arrived (ns) */
    uint64_t near, far;
};

/* One direction of a connection. */
struct half {
    bool board;               /* sent by the board (epb_flags outbound) */
    bool seen, syn, ws_ok, snd_init, una_init, syn_pending;
    bool syn_sent;            /* a SYN went out: another is a resend */
    uint8_t ws;
    uint16_t mss;
    uint32_t snd_max, una, syn_end;
    uint32_t data_max;        /* the highest data byte's end (snd_max less SYN/FIN) */
    uint64_t syn_t;
    uint64_t segments, bytes, retransmits, spurious, zero_windows, out_of_order, duplicates;
    uint64_t rwnd_max, inflight_max;
    uint64_t rtt_min_ns, rtt_samples;
    uint64_t snd_max_t;       /* when snd_max last advanced */
    unsigned dupacks;         /* the receiver's duplicate ACKs of una */
    bool isn_known;           /* isn holds the sequence number of its SYN */
    uint32_t isn;
    bool win_init;            /* win_last holds a value */
    uint16_t win_last;        /* the window this side last advertised, as sent */
    struct { uint32_t end; uint64_t t; bool retx; } ring[RTT_RING];
    unsigned head, n;
    /* the partner's data as it arrived at the tap within the last
     * handshake RTT: a window-bound sender sends at most its window per
     * round trip, so their sum is its flight size as the receiver's end
     * of the cable shows it (there snd_max - una is only what the
     * receiver has not acknowledged yet); allocated for the partner's
     * half at its first data segment, NULL in the board's */
    struct arrival { uint64_t t; uint32_t len; } *arr;
    unsigned arr_head, arr_n;
    uint64_t arr_sum;
    struct idseq ids;         /* the numbers of its data segments */
    /* the last SEEN_RING data segments: was a range sent before? */
    struct { uint32_t seq, len; int32_t ipid; uint64_t t; uint8_t kind; } seen_ring[SEEN_RING];
    unsigned seen_next, seen_n;
};

struct flow {
    uint8_t addr[2][16];      /* endpoint 0 sent the first frame seen */
    uint16_t port[2];
    uint8_t alen;             /* 4 or 16 */
    uint64_t init_rtt_ns;     /* the handshake's RTT, 0 until seen */
    bool closed;              /* a new connection took its 4-tuple */
    struct half h[2];         /* h[i]: sent by endpoint i */
};

struct tcp_seg {
    const uint8_t *src, *dst;
    uint8_t alen;
    uint16_t sport, dport, win;
    uint32_t seq, ack, len;
    int32_t ipid;             /* IPv4 identification (RFC 791), -1 for IPv6 */
    uint8_t proto;            /* 6 TCP, 17 UDP (then len is the UDP payload's) */
    uint8_t flags;
    int ws;                   /* window-scale option, -1 absent */
    int mss;                  /* -1 absent */
};

#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_RST 0x04
#define TH_ACK 0x10

static uint16_t be16(const uint8_t *b) { return (uint16_t)(b[0] << 8 | b[1]); }
static uint32_t be32(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* Parse @p (caplen bytes) into @s: 1 for a TCP segment, 2 for a whole
 * (unfragmented) UDP datagram, 0 otherwise. */
static int parse(const uint8_t *p, uint32_t caplen, struct tcp_seg *s)
{
    uint32_t off = 14, iphl, iplen, thl;
    uint16_t type;
    const uint8_t *ip, *th;

    if (caplen < 14)
        return 0;
    type = be16(p + 12);
    if (type == 0x8100) {             /* IEEE 802.1Q tag */
        if (caplen < 18)
            return 0;
        type = be16(p + 16);
        off = 18;
    }
    ip = p + off;
    if (type == 0x0800) {
        if (caplen < off + 20 || (ip[0] >> 4) != 4)
            return 0;
        iphl = (ip[0] & 0x0Fu) * 4u;
        iplen = be16(ip + 2);
        if (iphl < 20 || (ip[9] != 6 && ip[9] != 17) || (be16(ip + 6) & 0x3FFFu) || iplen < iphl ||
            caplen < off + iphl)
            return 0;
        s->proto = ip[9];
        s->src = ip + 12;
        s->dst = ip + 16;
        s->alen = 4;
        s->ipid = be16(ip + 4);
    } else if (type == 0x86DD) {
        if (caplen < off + 40 || (ip[0] >> 4) != 6 || (ip[6] != 6 && ip[6] != 17))
            return 0;
        s->proto = ip[6];
        iphl = 40;
        iplen = 40u + be16(ip + 4);
        s->src = ip + 8;
        s->dst = ip + 24;
        s->alen = 16;
        s->ipid = -1;
    } else {
        return 0;
    }
    th = ip + iphl;
    if (s->proto == 17) {
        /* RFC 768: ports, length, checksum */
        if (caplen < off + iphl + 8 || iplen < iphl + 8)
            return 0;
        s->sport = be16(th);
        s->dport = be16(th + 2);
        s->len = iplen - iphl - 8;
        return 2;
    }
    if (caplen < off + iphl + 20 || iplen < iphl + 20)
        return 0;
    thl = (th[12] >> 4) * 4u;
    if (thl < 20 || iplen < iphl + thl)
        return 0;
    s->sport = be16(th);
    s->dport = be16(th + 2);
    s->seq = be32(th + 4);
    s->ack = be32(th + 8);
    s->flags = th[13];
    s->win = be16(th + 14);
    s->len = iplen - iphl - thl;
    s->ws = -1;
    s->mss = -1;
    /* options (RFC 793 3.1, RFC 7323 2.2), only as far as captured */
    for (uint32_t i = 20; i < thl && off + iphl + i < caplen;) {
        uint8_t kind = th[i];
        uint8_t olen;
        if (kind == 0)
            break;
        if (kind == 1) {
            i++;
            continue;
        }
        if (i + 1 >= thl || off + iphl + i + 1 >= caplen)
            break;
        olen = th[i + 1];
        if (olen < 2 || i + olen > thl || off + iphl + i + olen > caplen)
            break;
        if (kind == 2 && olen == 4)
            s->mss = be16(th + i + 2);
        else if (kind == 3 && olen == 3)
            s->ws = th[i + 2] > 14 ? 14 : th[i + 2]; /* RFC 7323 2.3: at most 14 */
        i += olen;
    }
    return 1;
}

/* The flow of @s among @fl's *@nfl, or a new one (allocated here: each
 * holds two rings of SEEN_RING segments), NULL when CAP_MAX_FLOWS are
 * tracked or memory ran out. */
static struct flow *find_flow(struct flow **fl, int *nfl, const struct tcp_seg *s, int *dir)
{
    for (int i = 0; i < *nfl; i++) {
        struct flow *f = fl[i];
        if (f->alen != s->alen || f->closed)
            continue;
        for (int d = 0; d < 2; d++)
            if (f->port[d] == s->sport && f->port[!d] == s->dport && !memcmp(f->addr[d], s->src, s->alen) &&
                !memcmp(f->addr[!d], s->dst, s->alen)) {
                const struct half *h = &f->h[d];
                /* a SYN with a new initial sequence number, or one after
                 * this end sent data, opens a new connection on the same
                 * 4-tuple (RFC 793 3.3): the old one's sequence state
                 * would read every segment of it as out of window */
                if ((s->flags & (TH_SYN | TH_ACK)) == TH_SYN && (h->isn_known ? h->isn != s->seq : h->snd_init)) {
                    f->closed = true;
                    break;
                }
                *dir = d;
                return f;
            }
    }
    if (*nfl == CAP_MAX_FLOWS)
        return NULL;
    struct flow *f = calloc(1, sizeof(*f));
    if (!f)
        return NULL;
    fl[(*nfl)++] = f;
    f->alen = s->alen;
    memcpy(f->addr[0], s->src, s->alen);
    memcpy(f->addr[1], s->dst, s->alen);
    f->port[0] = s->sport;
    f->port[1] = s->dport;
    *dir = 0;
    return f;
}

static void rtt_sample(struct half *h, uint64_t sent, uint64_t now)
{
    uint64_t r = now > sent ? now - sent : 0;
    if (!h->rtt_samples || r < h->rtt_min_ns)
        h->rtt_min_ns = r;
    h->rtt_samples++;
}

enum seg_kind { SEG_NEW, SEG_RETRANSMIT, SEG_SPURIOUS, SEG_OUT_OF_ORDER, SEG_DUPLICATE };

static void seen_add(struct half *S, const struct tcp_seg *s, uint64_t t, enum seg_kind kind)
{
    S->seen_ring[S->seen_next].seq = s->seq;
    S->seen_ring[S->seen_next].len = s->len;
    S->seen_ring[S->seen_next].ipid = s->ipid;
    S->seen_ring[S->seen_next].t = t;
    S->seen_ring[S->seen_next].kind = (uint8_t)kind;
    S->seen_next = (S->seen_next + 1) % SEEN_RING;
    if (S->seen_n < SEEN_RING)
        S->seen_n++;
}

/* The sender numbers in turn: at least 16 datagrams seen after the
 * first, 9 in 10 numbered near the one before; or, before 16, every one
 * so far near the one before (two random numbers are near by chance
 * 1 time in 128, so a connection's first reordered segments are read
 * by their numbers too, not by duplicate ACKs) */
static bool idseq_rises(const struct idseq *q)
{
    return q->init && ((q->near >= 16 && q->far * 9 <= q->near) || (q->near >= 1 && q->far == 0));
}

/* @a was numbered before @b (16-bit, RFC 1982 serial arithmetic) */
static bool ipid_before(int32_t a, int32_t b)
{
    uint16_t behind = (uint16_t)((uint16_t)b - (uint16_t)a);

    return a >= 0 && b >= 0 && behind != 0 && behind < 0x8000u;
}

/* How far behind the newest number a datagram can be and still have
 * been reordered: a quarter of the 16-bit space.  A path holds a datagram
 * back by its spread of delays, and 16384 datagrams are 11 ms of
 * minimum-size frames at 1 Gb/s (1.488 Mpps), beyond any reordering a
 * path does.  A number further behind is the sender's after a gap: more
 * than half the space lost in an outage (33333 lost UDP datagrams read as
 * 16660 late ones) reads, in serial arithmetic, as behind. */
#define IPID_REORDER_MAX 0x4000u

/* How long after the newest a datagram numbered before it can still have
 * been held back on the path: its spread of delays, milliseconds (a
 * scenario's jitter is at most its latency).  One that comes later is
 * the sender's after an outage: a 300 ms flap plus 2.5 s of
 * autonegotiation lost 52 084 UDP datagrams, which put the next numbers
 * 13 452 behind the newest in serial arithmetic, inside the quarter
 * space, and 7 201 datagrams read as late. */
#define IPID_REORDER_NS 1000000000ull

/* @ipid, arriving at @t, is older than the newest seen, from a sender
 * that numbers in turn, and near enough to it, in number and in time, to
 * have been reordered */
static bool idseq_older(const struct idseq *q, int32_t ipid, uint64_t t)
{
    return idseq_rises(q) && ipid_before(ipid, q->newest) &&
           (uint16_t)(q->newest - (uint16_t)ipid) < IPID_REORDER_MAX &&
           (t < q->newest_t || t - q->newest_t <= IPID_REORDER_NS);
}

/* Note @ipid, the next datagram's number. */
static void idseq_note(struct idseq *q, int32_t ipid, uint64_t t)
{
    uint16_t id = (uint16_t)ipid, ahead = (uint16_t)(id - q->newest), step = (uint16_t)(id - q->last);

    if (ipid < 0)
        return;
    if (!q->init) {
        q->init = true;
        q->newest = q->last = id;
        q->newest_t = t;
        return;
    }
    /* The number of the datagram just before: the network's copy of it
     * (or a sender that numbers everything 0, RFC 6864 4.1, which never
     * counts as near).  It says nothing of how the sender numbers; counted
     * as far, 15 % of copies on a path stopped the copies being found
     * (9 in 10 near is the bar). */
    if (step == 0)
        return;
    if (step < 256u || step > 0xFF00u)
        q->near++;
    else
        q->far++;
    /* newer: ahead, or too far behind for reordering, in number or in
     * time (a gap) */
    if (ahead != 0 && (ahead <= 0x10000u - IPID_REORDER_MAX ||
                       (t > q->newest_t && t - q->newest_t > IPID_REORDER_NS))) {
        q->newest = id;
        q->newest_t = t;
    }
    q->last = id;
}

/*
 * A data segment below the highest sequence sent (@s->seq < snd_max),
 * as a bench engineer tells them apart in a capture at the board's port
 * (Wireshark, epan/dissectors/packet-tcp.c tcp_analyze_sequence_number):
 * - bytes seen before: a retransmission, unless it is the same IPv4
 *   datagram again (the same identification, RFC 791 3.2, sequence and
 *   length): the network copied it.  A sender numbers its datagrams
 *   (lwIP ip4.c ip_id, Linux ip_select_ident_segs), so among its last
 *   SEEN_RING segments a resent one never has an old one's number.  A
 *   sender that numbers every atomic datagram 0 (RFC 6864 4.1) leaves
 *   only time: its copy is a duplicate within a round trip of the first,
 *   sooner than the sender can learn of a loss (RFC 6298 2, RFC 5681 3.2);
 * - bytes never seen (a hole filled): a fast retransmission after two
 *   or more duplicate ACKs of it (RFC 5681 3.2), a spurious one when
 *   already acknowledged, out of order (reordered on the path) when the
 *   partner sent it and it comes less than a round trip (the
 *   handshake's; 3 ms unknown) after the stream last advanced, else a
 *   retransmission whose first copy the capture did not see intact.
 * From a sender whose new segments come numbered in rising order (lwIP
 * ip4.c ip_id, Linux ip_select_ident_segs per socket, slirp ip_id; RFC
 * 6864 4.2) the number decides a hole: one numbered before the newest
 * seen was sent before the segments above it, so the path reordered it,
 * whatever duplicate ACKs it drew; one numbered after them is a resend,
 * however soon it came.  Time and duplicate ACKs decide only for other
 * senders.
 * A retransmission of bytes the receiver had already acknowledged is
 * spurious (Wireshark's tcp.analysis.spurious_retransmission; RFC 3522):
 * the ACK was lost after the capture point, or duplicate ACKs (from
 * reordering or copies on the path) or a short RTO misled the sender.
 * So is a resend of an original the path held back past the sender's
 * duplicate-ACK threshold (RFC 5681 3.2), which lost nothing: whether
 * the late original, numbered before the resend, arrives just before it
 * (out of order itself, not yet acknowledged) or after it (then out of
 * order, and *resent is the seen resend's slot, for the caller to mark
 * spurious).
 */
static enum seg_kind classify(const struct flow *f, const struct half *S, const struct tcp_seg *s, uint64_t t,
                              int *resent)
{
    uint64_t thres = f->init_rtt_ns ? f->init_rtt_ns : OOO_DEFAULT_NS;
    uint32_t end = s->seq + s->len;
    bool acked = S->una_init && seq_le(end, S->una);
    /* the partner numbers in turn: a number tells sent-before from after */
    bool in_turn = !S->board && s->ipid >= 0 && idseq_rises(&S->ids);

    for (unsigned i = 0; i < S->seen_n; i++) {
        unsigned k = (S->seen_next + SEEN_RING - 1 - i) % SEEN_RING;   /* newest first */
        uint32_t a = S->seen_ring[k].seq, b = a + S->seen_ring[k].len;
        if (!(seq_lt(s->seq, b) && seq_lt(a, end)))
            continue;
        if (s->ipid >= 0 && S->seen_ring[k].ipid == s->ipid && a == s->seq && b == end &&
            (s->ipid != 0 || t - S->seen_ring[k].t < thres))
            return SEG_DUPLICATE;
        if (in_turn && ipid_before(s->ipid, S->seen_ring[k].ipid) &&
            (S->seen_ring[k].kind == SEG_RETRANSMIT || S->seen_ring[k].kind == SEG_SPURIOUS)) {
            *resent = (int)k;
            return SEG_OUT_OF_ORDER;
        }
        if (in_turn && ipid_before(S->seen_ring[k].ipid, s->ipid) && S->seen_ring[k].kind == SEG_OUT_OF_ORDER)
            return SEG_SPURIOUS;
        return acked ? SEG_SPURIOUS : SEG_RETRANSMIT;
    }
    if (acked)
        return SEG_SPURIOUS;
    if (in_turn) {
        /* numbered in turn: an older number was sent before the bytes
         * above it, a newer one after them */
        return idseq_older(&S->ids, s->ipid, t) ? SEG_OUT_OF_ORDER : SEG_RETRANSMIT;
    }
    if (S->dupacks >= 2 && S->una_init && S->una == s->seq)
        return SEG_RETRANSMIT;
    /* the tap is at the board's end: what the board sends it sees in the
     * order sent, so old bytes from the board are sent again, whether or
     * not their first copy is still in the ring (more than SEEN_RING
     * segments in flight at 1 Gb/s over tens of ms) */
    if (!S->board && t - S->snd_max_t < thres)
        return SEG_OUT_OF_ORDER;
    return SEG_RETRANSMIT;
}

static void segment(struct flow *f, int d, const struct tcp_seg *s, uint64_t t)
{
    struct half *S = &f->h[d], *R = &f->h[!d];
    uint32_t seg_end = s->seq + s->len + ((s->flags & TH_SYN) ? 1u : 0u) + ((s->flags & TH_FIN) ? 1u : 0u);

    S->seen = true;
    if (s->flags & TH_RST)
        return;
    if (s->flags & TH_SYN) {
        S->syn = true;
        S->isn = s->seq;
        S->isn_known = true;
        S->ws_ok = s->ws >= 0;
        S->ws = s->ws >= 0 ? (uint8_t)s->ws : 0;
        if (s->mss >= 0)
            S->mss = (uint16_t)s->mss;
        if (S->board && S->syn_sent && s->seq + 1 == S->syn_end) {
            /* a resent SYN (or SYN-ACK), the same sequence number: which
             * copy the answer is to is unknown, so the handshake gives no
             * RTT (Karn's rule, RFC 6298 3) and no out-of-order threshold */
            S->syn_pending = false;
        } else if (S->board) {
            S->syn_pending = true;
            S->syn_sent = true;
            S->syn_end = s->seq + 1;
            S->syn_t = t;
        }
    }
    /* what this segment acknowledges of the other direction */
    if (s->flags & TH_ACK) {
        if (!R->una_init || seq_lt(R->una, s->ack)) {
            R->una = s->ack;
            R->una_init = true;
            R->dupacks = 0;
        } else if (s->ack == R->una && !s->len && !(s->flags & (TH_SYN | TH_FIN)) &&
                   R->snd_init && seq_lt(R->una, R->snd_max) &&
                   S->win_init && s->win == S->win_last) {
            /* RFC 5681 2: a duplicate ACK carries no data, no SYN or FIN,
             * acknowledges una while data is outstanding, and advertises
             * the window the last ACK did; one that moves the window is a
             * window update, no sign of a hole */
            R->dupacks++;
        }
        if (R->board) {
            bool got = false;
            uint64_t sent = 0;
            if (R->syn_pending && seq_le(R->syn_end, s->ack)) {
                rtt_sample(R, R->syn_t, t);
                R->syn_pending = false;
                if (!f->init_rtt_ns)
                    f->init_rtt_ns = t > R->syn_t ? t - R->syn_t : 1;
            }
            while (R->n && seq_le(R->ring[R->head].end, s->ack)) {
                if (!R->ring[R->head].retx) {
                    got = true;
                    sent = R->ring[R->head].t;  /* the newest covered one wins */
                } else {
                    got = false;
                }
                R->head = (R->head + 1) % RTT_RING;
                R->n--;
            }
            if (got)
                rtt_sample(R, sent, t);
        }
    }
    /* the receive window this side advertises (RFC 7323 2.2: the SYN's
     * own window is never scaled; scaling needs both SYNs' option) */
    {
        bool scaled = !(s->flags & TH_SYN) && S->syn && R->syn && S->ws_ok && R->ws_ok;
        uint64_t w = (uint64_t)s->win << (scaled ? S->ws : 0);
        if (w > S->rwnd_max)
            S->rwnd_max = w;
        if (w == 0 && !(s->flags & TH_SYN))
            S->zero_windows++;
        S->win_last = s->win;
        S->win_init = true;
    }
    if (s->len) {
        enum seg_kind kind = SEG_NEW;
        int resent = -1;
        if (!S->segments || seq_lt(S->data_max, s->seq + s->len))
            S->data_max = s->seq + s->len;
        S->segments++;
        S->bytes += s->len;
        /* a keepalive repeats the last byte (RFC 1122 4.2.3.6): not a retransmission */
        if (S->snd_init && seq_lt(s->seq, S->snd_max) && !(s->len <= 1 && s->seq + 1 == S->snd_max))
            kind = classify(f, S, s, t, &resent);
        if (resent >= 0 && S->seen_ring[resent].kind == SEG_RETRANSMIT) {
            /* its original came after all: the resend was spurious */
            S->seen_ring[resent].kind = SEG_SPURIOUS;
            S->spurious++;
        }
        idseq_note(&S->ids, s->ipid, t);
        seen_add(S, s, t, kind);
        if (kind == SEG_DUPLICATE) {
            S->duplicates++;
        } else if (kind == SEG_OUT_OF_ORDER) {
            S->out_of_order++;
        } else if (kind == SEG_RETRANSMIT || kind == SEG_SPURIOUS) {
            S->retransmits++;
            S->spurious += kind == SEG_SPURIOUS;
            for (unsigned i = 0; i < S->n; i++) {
                unsigned k = (S->head + i) % RTT_RING;
                if (seq_lt(s->seq, S->ring[k].end))
                    S->ring[k].retx = true;
            }
        } else if (S->board) {
            unsigned k;
            if (S->n == RTT_RING) {
                S->head = (S->head + 1) % RTT_RING;
                S->n--;
            }
            k = (S->head + S->n) % RTT_RING;
            S->ring[k].end = seg_end;
            S->ring[k].t = t;
            S->ring[k].retx = false;
            S->n++;
        }
    } else if (s->flags & TH_FIN) {
        /* a FIN takes the next sequence number and the next IPv4 number
         * like data: the last segment numbered before it, overtaken by
         * it on the path, was sent before it, not again */
        idseq_note(&S->ids, s->ipid, t);
    }
    if (!S->snd_init || seq_lt(S->snd_max, seg_end)) {
        S->snd_max = seg_end;
        S->snd_max_t = t;
        S->snd_init = true;
    }
    if (S->board && S->una_init && seq_lt(S->una, S->snd_max)) {
        /* the board sends: the tap is at the sender's end */
        uint64_t inflight = (uint32_t)(S->snd_max - S->una);
        if (inflight > S->inflight_max)
            S->inflight_max = inflight;
    } else if (!S->board && s->len && f->init_rtt_ns &&
               (S->arr || (S->arr = calloc(ARR_RING, sizeof(*S->arr))))) {
        /* the partner sends: what arrived within one RTT (out of memory:
         * its flight is not measured) */
        while (S->arr_n && (S->arr_n == ARR_RING || t - S->arr[S->arr_head].t >= f->init_rtt_ns)) {
            S->arr_sum -= S->arr[S->arr_head].len;
            S->arr_head = (S->arr_head + 1) % ARR_RING;
            S->arr_n--;
        }
        S->arr[(S->arr_head + S->arr_n) % ARR_RING].t = t;
        S->arr[(S->arr_head + S->arr_n) % ARR_RING].len = s->len;
        S->arr_n++;
        S->arr_sum += s->len;
        if (S->arr_sum > S->inflight_max)
            S->inflight_max = S->arr_sum;
    }
}

static void endpoint(char *buf, size_t len, const uint8_t *a, uint8_t alen, uint16_t port)
{
    if (alen == 4) {
        snprintf(buf, len, "%u.%u.%u.%u:%u", a[0], a[1], a[2], a[3], port);
    } else {
        size_t n = 0;
        n += (size_t)snprintf(buf + n, len - n, "[");
        for (int i = 0; i < 16 && n < len; i += 2)
            n += (size_t)snprintf(buf + n, len - n, "%s%x", i ? ":" : "", be16(a + i));
        snprintf(buf + n, n < len ? len - n : 0, "]:%u", port);
    }
}

/*
 * A hole the board was still acknowledging when the capture ended, as
 * the partner's sequence space from it to the highest data byte that
 * arrived: the board's last ACK stops at una, data up to data_max
 * arrived, and no segment covering una did (Wireshark's "previous
 * segment not captured" that nothing filled; a FIN the run ended before
 * the board acknowledged is no hole).  The path lost
 * that segment and every resend of it that reached the tap; a receiver
 * that stopped acknowledging leaves no hole (the bytes at una arrived).
 * 0 for the board's own direction, which the tap sees as sent.
 */
static uint32_t hole_at_end(const struct half *h)
{
    if (h->board || !h->segments || !h->una_init || !seq_lt(h->una, h->data_max))
        return 0;
    for (unsigned i = 0; i < h->seen_n; i++) {
        uint32_t a = h->seen_ring[i].seq;
        if (seq_le(a, h->una) && seq_lt(h->una, a + h->seen_ring[i].len))
            return 0;
    }
    return h->data_max - h->una;
}

/* @hole: hole_at_end(@h), which the caller sums too */
static cJSON *half_json(const struct half *h, const struct half *other, uint32_t hole)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "sender", h->board ? "board" : "partner");
    cJSON_AddNumberToObject(o, "segments", (double)h->segments);
    cJSON_AddNumberToObject(o, "bytes", (double)h->bytes);
    cJSON_AddNumberToObject(o, "retransmits", (double)h->retransmits);
    cJSON_AddNumberToObject(o, "spurious_retransmits", (double)h->spurious);
    cJSON_AddNumberToObject(o, "out_of_order", (double)h->out_of_order);
    cJSON_AddNumberToObject(o, "duplicates", (double)h->duplicates);
    cJSON_AddNumberToObject(o, "inflight_max_bytes", (double)h->inflight_max);
    /* the window the receiver offered this sender */
    cJSON_AddNumberToObject(o, "peer_rwnd_max_bytes", (double)other->rwnd_max);
    cJSON_AddNumberToObject(o, "peer_zero_windows", (double)other->zero_windows);
    cJSON_AddBoolToObject(o, "window_scale_known", h->syn && other->syn);
    if (!h->board)
        cJSON_AddNumberToObject(o, "hole_at_end_bytes", (double)hole);
    if (h->mss)
        cJSON_AddNumberToObject(o, "mss", h->mss);
    if (h->rtt_samples) {
        cJSON_AddNumberToObject(o, "rtt_min_us", (double)h->rtt_min_ns / 1000.0);
        cJSON_AddNumberToObject(o, "rtt_samples", (double)h->rtt_samples);
    }
    return o;
}

int cap_analyse(const char *path, cJSON **out, FILE *err)
{
    FILE *f = fopen(path, "rb");
    int rc;

    *out = NULL;
    if (!f) {
        rc = -errno;
        fprintf(err, "%s: %s\n", path, strerror(errno));
        return rc;
    }
    rc = cap_analyse_stream(f, path, out, err);
    fclose(f);
    return rc;
}

/*
 * The tap's order.  QEMU writes a sent frame when the wire delivers it,
 * stamped with the time it left the MAC (gemlab_link.c), so with latency
 * and reordering the file is in arrival order at the far end, not in the
 * order the board's end of the cable saw.  TCP segments go through a
 * min-heap on (timestamp, file position) and are analysed in timestamp
 * order: exact while no segment is displaced by more than REORDER_MAX
 * TCP segments in the file (95 MB of full-size segments in flight).
 */
#define REORDER_MAX 65536u

struct pending {
    uint64_t t, n;            /* timestamp (ns), position in the file */
    uint32_t len;             /* the frame's original length (no FCS) */
    bool outbound;            /* epb_flags: sent by the board */
    struct tcp_seg s;         /* s.src, s.dst point into src, dst on pop */
    uint8_t src[16], dst[16];
};

struct reorder {
    struct pending *e;
    size_t n, cap;
};

static bool pend_lt(const struct pending *a, const struct pending *b)
{
    return a->t < b->t || (a->t == b->t && a->n < b->n);
}

static void pend_swap(struct pending *a, struct pending *b)
{
    struct pending t = *a;
    *a = *b;
    *b = t;
}

/* Push a copy of @p (its addresses copied too); -ENOMEM. */
static int reorder_push(struct reorder *h, const struct pending *p)
{
    size_t i;
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 256;
        struct pending *e = realloc(h->e, cap * sizeof(*e));
        if (!e)
            return -ENOMEM;
        h->e = e;
        h->cap = cap;
    }
    i = h->n++;
    h->e[i] = *p;
    while (i && pend_lt(&h->e[i], &h->e[(i - 1) / 2])) {
        pend_swap(&h->e[i], &h->e[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    return 0;
}

/* Pop the earliest into @out (h->n > 0). */
static void reorder_pop(struct reorder *h, struct pending *out)
{
    size_t i = 0;
    *out = h->e[0];
    h->e[0] = h->e[--h->n];
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && pend_lt(&h->e[l], &h->e[m]))
            m = l;
        if (r < h->n && pend_lt(&h->e[r], &h->e[m]))
            m = r;
        if (m == i)
            break;
        pend_swap(&h->e[i], &h->e[m]);
        i = m;
    }
    out->s.src = out->src;
    out->s.dst = out->dst;
}

/*
 * The path into the board, from how close together the partner's
 * full-size frames arrive (packet dispersion: Dovrolis, Ramanathan and
 * Moore, "What do packet dispersion techniques measure?", IEEE INFOCOM
 * 2001).  Two frames that leave the narrowest link on the path back to
 * back arrive no closer than that link takes to send the second; a
 * sender with a window's worth to send sends bursts, so most pairs
 * leave it back to back.  Each pair of consecutive frames of at least
 * DISP_MIN_LEN bytes to the board gives the rate (the second's bits on
 * the wire, FCS, preamble and IFG included: gl_wire_frame_bytes) over
 * the time between their stamps; the 90th percentile of those rates is
 * the path's: on a link at line rate it is the link's, behind a slower
 * hop that hop's.  A sender that paces itself (iperf's UDP -b) spaces
 * its frames too: the diagnosis compares with its offered rate.
 */
#define DISP_MIN_LEN 1000u
#define DISP_PERCENTILE 0.9

struct dispersion {
    uint64_t last_t;
    bool last_large;          /* the partner's last frame was full-size */
    double *bps;              /* one rate per pair */
    size_t n, cap;
};

static int disp_note(struct dispersion *d, const struct pending *p)
{
    const bool large = p->len >= DISP_MIN_LEN;

    if (p->outbound)
        return 0;
    if (large && d->last_large && p->t > d->last_t) {
        if (d->n == d->cap) {
            size_t cap = d->cap ? d->cap * 2 : 1024;
            double *b = realloc(d->bps, cap * sizeof(*b));
            if (!b)
                return -ENOMEM;
            d->bps = b;
            d->cap = cap;
        }
        d->bps[d->n++] = 8e9 * gl_wire_frame_bytes(p->len) / (double)(p->t - d->last_t);
    }
    d->last_large = large;
    d->last_t = p->t;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The 90th percentile of the pairs' rates (sorts d->bps). */
static double disp_bps(struct dispersion *d)
{
    qsort(d->bps, d->n, sizeof(*d->bps), cmp_double);
    return d->bps[(size_t)(DISP_PERCENTILE * (double)(d->n - 1))];
}

/*
 * UDP datagrams the partner sent, as they arrived at the board's end of
 * the cable, per flow (addresses and ports).  An application's own
 * sequence numbers are its business (iperf's are in its payload); the
 * IPv4 identification is the network's, and what a capture shows
 * (Wireshark's ip.id): the same number and length again is the network's
 * copy (a sender never reuses one so soon, RFC 6864 4.2), and from a
 * sender that numbers in turn a number older than the newest seen was
 * sent before datagrams that arrived first: reordered on the path.
 */
#define UDP_RING 64u          /* datagrams remembered per flow for copies */

struct udp_flow {
    uint8_t addr[2][16];
    uint16_t port[2];
    uint8_t alen;
    uint64_t datagrams, duplicates, out_of_order;
    struct idseq ids;
    struct { uint16_t id, len; } ring[UDP_RING];
    unsigned ring_next, ring_n;
};

static void udp_datagram(struct udp_flow *u, int *nu, const struct tcp_seg *s, uint64_t t)
{
    struct udp_flow *f = NULL;
    bool dup = false, late;

    for (int i = 0; i < *nu && !f; i++)
        if (u[i].alen == s->alen && u[i].port[0] == s->sport && u[i].port[1] == s->dport &&
            !memcmp(u[i].addr[0], s->src, s->alen) && !memcmp(u[i].addr[1], s->dst, s->alen))
            f = &u[i];
    if (!f) {
        if (*nu == CAP_MAX_FLOWS)
            return;
        f = &u[(*nu)++];
        memset(f, 0, sizeof(*f));
        f->alen = s->alen;
        memcpy(f->addr[0], s->src, s->alen);
        memcpy(f->addr[1], s->dst, s->alen);
        f->port[0] = s->sport;
        f->port[1] = s->dport;
    }
    f->datagrams++;
    if (s->ipid < 0)
        return;
    /* a sender that sends 0 (or random numbers) repeats one: no copy
     * can be told by its number */
    if (idseq_rises(&f->ids))
        for (unsigned i = 0; i < f->ring_n && !dup; i++)
            dup = f->ring[i].id == (uint16_t)s->ipid && f->ring[i].len == (uint16_t)s->len;
    late = !dup && idseq_older(&f->ids, s->ipid, t);
    f->duplicates += dup;
    f->out_of_order += late;
    idseq_note(&f->ids, s->ipid, t);
    if (dup)
        return;
    f->ring[f->ring_next].id = (uint16_t)s->ipid;
    f->ring[f->ring_next].len = (uint16_t)s->len;
    f->ring_next = (f->ring_next + 1) % UDP_RING;
    if (f->ring_n < UDP_RING)
        f->ring_n++;
}

static void free_flows(struct flow **fl, int n)
{
    for (int i = 0; i < n; i++) {
        free(fl[i]->h[0].arr);
        free(fl[i]->h[1].arr);
        free(fl[i]);
    }
    free(fl);
}

/*
 * QEMU writes a frame the partner sent and the wire then lost (loss model,
 * full queue, link down) with a "dropped: ..." comment, stamped when it
 * was sent (gemlab_link.c), so a simulation's capture shows every wire
 * decision.  A tap at the board's end of the cable never sees such a
 * frame: it is no evidence (read as one, it made the partner's next
 * segments look out of order).  A frame the board sent and the wire lost
 * did pass that tap and stays.
 */
static bool lost_before_board(const struct gl_pcapng_packet *pk)
{
    static const char tag[] = "dropped:";

    return (pk->flags & 3u) == GL_PCAPNG_FLAG_INBOUND && pk->comment &&
           pk->comment_len >= sizeof(tag) - 1 && !memcmp(pk->comment, tag, sizeof(tag) - 1);
}

int cap_analyse_stream(FILE *f, const char *name, cJSON **out, FILE *err)
{
    struct gl_pcapng_reader *r = malloc(sizeof(*r));
    struct flow **fl = calloc(CAP_MAX_FLOWS, sizeof(*fl));
    struct udp_flow *uf = calloc(CAP_MAX_FLOWS, sizeof(*uf));
    struct gl_pcapng_packet pk;
    struct gl_err e = { "" };
    uint64_t frames = 0, crc = 0, crc_out = 0, tcp = 0, retx = 0, spur = 0, ooo = 0, dups = 0, rtt_min = 0, rtt_n = 0, untracked = 0;
    struct reorder heap = { 0 };
    struct dispersion disp = { 0 };
    struct pending p;
    uint64_t udp = 0, udp_dups = 0, udp_ooo = 0;
    /* TCP segments with data that reached the board after the last TCP
     * frame it sent: what it never answered (a FIN the run ended before
     * it answered is no sign of anything) */
    uint64_t unanswered = 0, hole = 0;
    int nfl = 0, nuf = 0, rc;
    cJSON *o, *a;

    *out = NULL;
    if (!r || !fl || !uf) {
        free(r);
        free(fl);
        free(uf);
        return -ENOMEM;
    }
    gl_pcapng_read_open(r, f, NULL);
    for (bool eof = false;;) {
        struct flow *fw;
        int d;
        rc = eof ? 0 : gl_pcapng_read_next(r, &pk, &e);
        if (rc == 1) {
            frames++;
            if (pk.flags & GL_PCAPNG_FLAG_CRC_ERR) {
                crc++;
                /* inbound: the board's MAC discards it, no TCP evidence
                 * in it; outbound: the tap is at the board's end, so the
                 * board sent it whole and the wire garbled it after
                 * (gemlab_link.c writes the frame's bytes as sent) */
                if ((pk.flags & 3u) != GL_PCAPNG_FLAG_OUTBOUND)
                    continue;
                crc_out++;
            }
            if (lost_before_board(&pk))
                continue;
            int kind = parse(pk.data, pk.caplen, &p.s);
            /* UDP: what the partner sent, as it arrived (the board's own
             * leave in the order sent: nothing to read in them) */
            if (kind == 0 || (kind == 2 && (pk.flags & 3u) == GL_PCAPNG_FLAG_OUTBOUND))
                continue;
            tcp += kind == 1;
            p.t = pk.t_ns;
            p.n = frames;
            p.len = pk.len;
            p.outbound = (pk.flags & 3u) == GL_PCAPNG_FLAG_OUTBOUND;
            memcpy(p.src, p.s.src, p.s.alen);
            memcpy(p.dst, p.s.dst, p.s.alen);
            if (reorder_push(&heap, &p)) {
                rc = -ENOMEM;
                e = (struct gl_err){ "out of memory" };
                break;
            }
            if (heap.n <= REORDER_MAX)
                continue;
        } else if (rc < 0 || !heap.n) {
            break;
        } else {
            eof = true;         /* drain the heap */
        }
        reorder_pop(&heap, &p);
        if (disp_note(&disp, &p)) {
            rc = -ENOMEM;
            e = (struct gl_err){ "out of memory" };
            break;
        }
        if (p.s.proto == 17) {
            udp_datagram(uf, &nuf, &p.s, p.t);
            continue;
        }
        if (p.outbound)
            unanswered = 0;
        else if (p.s.len > 0)
            unanswered++;
        fw = find_flow(fl, &nfl, &p.s, &d);
        if (!fw) {
            untracked++;
            continue;
        }
        if (!fw->h[d].seen)
            fw->h[d].board = p.outbound;
        segment(fw, d, &p.s, p.t);
    }
    free(heap.e);
    if (rc < 0) {
        free(disp.bps);
        fprintf(err, "%s: %s\n", name, e.msg);
        free(r);
        free(uf);
        free_flows(fl, nfl);
        return rc;
    }
    for (int i = 0; i < nuf; i++) {
        udp += uf[i].datagrams;
        udp_dups += uf[i].duplicates;
        udp_ooo += uf[i].out_of_order;
    }
    free(uf);
    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", CAP_FILE);
    cJSON_AddNumberToObject(o, "frames", (double)frames);
    cJSON_AddNumberToObject(o, "crc_errors", (double)crc);
    cJSON_AddNumberToObject(o, "crc_errors_out", (double)crc_out);
    cJSON_AddNumberToObject(o, "tcp_segments", (double)tcp);
    if (untracked)
        cJSON_AddNumberToObject(o, "tcp_segments_untracked", (double)untracked);
    a = cJSON_AddArrayToObject(o, "tcp_flows");
    for (int i = 0; i < nfl; i++) {
        struct flow *fw = fl[i];
        char ep[64];
        cJSON *e2 = cJSON_CreateObject(), *dirs = cJSON_AddArrayToObject(e2, "directions");
        endpoint(ep, sizeof(ep), fw->addr[0], fw->alen, fw->port[0]);
        cJSON_AddStringToObject(e2, "a", ep);
        endpoint(ep, sizeof(ep), fw->addr[1], fw->alen, fw->port[1]);
        cJSON_AddStringToObject(e2, "b", ep);
        for (int d = 0; d < 2; d++) {
            struct half *h = &fw->h[d];
            if (!h->seen)
                continue;
            uint32_t hb = hole_at_end(h);
            cJSON_AddItemToArray(dirs, half_json(h, &fw->h[!d], hb));
            retx += h->retransmits;
            hole += hb;
            spur += h->spurious;
            ooo += h->out_of_order;
            dups += h->duplicates;
            if (h->rtt_samples && (!rtt_n || h->rtt_min_ns < rtt_min))
                rtt_min = h->rtt_min_ns;
            rtt_n += h->rtt_samples;
        }
        cJSON_AddItemToArray(a, e2);
    }
    cJSON_AddNumberToObject(o, "tcp_retransmits", (double)retx);
    cJSON_AddNumberToObject(o, "tcp_spurious_retransmits", (double)spur);
    cJSON_AddNumberToObject(o, "tcp_out_of_order", (double)ooo);
    cJSON_AddNumberToObject(o, "tcp_duplicates", (double)dups);
    cJSON_AddNumberToObject(o, "tcp_unanswered", (double)unanswered);
    cJSON_AddNumberToObject(o, "tcp_hole_at_end_bytes", (double)hole);
    cJSON_AddNumberToObject(o, "udp_datagrams", (double)udp);
    cJSON_AddNumberToObject(o, "udp_duplicates", (double)udp_dups);
    cJSON_AddNumberToObject(o, "udp_out_of_order", (double)udp_ooo);
    if (rtt_n) {
        cJSON_AddNumberToObject(o, "rtt_min_us", (double)rtt_min / 1000.0);
        cJSON_AddNumberToObject(o, "rtt_samples", (double)rtt_n);
    }
    cJSON_AddNumberToObject(o, "path_in_pairs", (double)disp.n);
    if (disp.n)
        cJSON_AddNumberToObject(o, "path_in_bps", round(disp_bps(&disp)));
    free(disp.bps);
    free(r);
    free_flows(fl, nfl);
    *out = o;
    return 0;
}

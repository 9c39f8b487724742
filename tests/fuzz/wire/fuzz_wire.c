/*
 * fuzz_wire.c - libFuzzer target: the wire model's configuration and
 * frame sequences.
 *
 * Input: a seed byte, two parameter sets (A->B, B->A) built field by field
 * from bytes (out-of-range values, NaN and infinities included), then
 * 4-byte operations [op, arg, value lo, value hi]: send, poll, drain,
 * set_phy, configure, counters, jump to the next deadline, bursts.  The
 * high nibble of op advances one monotonic clock shared by every call.
 *
 * Checked, besides gl_link_check_invariants() after every operation:
 *  - a configuration call accepts exactly what gl_wire_params_validate()
 *    accepts; a rejected one returns -EINVAL and changes nothing;
 *  - send: -EINVAL for a bad direction or length (nothing changes), else
 *    a verdict; the MAC serializes back to back at the current line rate:
 *    tx_done = max(now, previous tx_done) + frame time;
 *  - every reference of a QUEUED frame comes back exactly once (two for a
 *    duplicate, GL_DELIV_LAST on the last one), with its cookie, length
 *    and tx_done, never before its tx_done nor after the poll's now, and
 *    each at least its frame time after the one before in its direction
 *    (the receiver's line);
 *  - after a poll returns 0, the next deadline lies after now;
 *  - the counters agree with what the host saw (sent, delivered, bytes).
 * At the end everything is drained and nothing may be left in flight.
 */
#include "gemlab/wire.h"

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FRAMES 65536u

struct shadow {
    uint64_t tx_done;
    uint32_t len;
    uint8_t dir;
    uint8_t refs;       /* references still to come back */
    uint8_t queued;     /* the verdict was GL_WIRE_QUEUED */
    uint8_t dup_next;   /* the original of a duplicate came back */
};

static struct gl_link link_;

/* What a rejected call must leave alone: each direction's state up to its
 * frame stores (counters, clocks, PRNG, store heads and counts) and the
 * link's own fields.  Copying the whole 361 KB link per call would halve
 * the execution rate; a store write without a count change is caught by
 * gl_link_check_invariants anyway. */
struct snap {
    uint8_t dir[2][offsetof(struct gl_wire, q)];
    bool up, full_duplex[2];
    unsigned speed_mbps;
};
static struct snap saved;

static void snapshot(struct snap *sn)
{
    memset(sn, 0, sizeof(*sn));
    for (int d = 0; d < 2; d++) {
        memcpy(sn->dir[d], &link_.dir[d], sizeof(sn->dir[d]));
    }
    sn->up = link_.up;
    sn->full_duplex[0] = link_.full_duplex[0];
    sn->full_duplex[1] = link_.full_duplex[1];
    sn->speed_mbps = link_.speed_mbps;
}
static struct shadow frames[MAX_FRAMES];
static unsigned nframes;
static uint64_t now;
static uint64_t last_arrival[2], last_tx_done[2];
static uint64_t sent[2], delivered[2], bytes_sent[2], bytes_delivered[2];
static unsigned speed = 1000;
static bool trace;      /* FUZZ_TRACE=1: print every call (replaying a crash) */

static void trace_params(const char *what, int dir, const struct gl_wire_params *p)
{
    if (trace) {
        fprintf(stderr, "%s dir %d: latency %llu jitter %llu/%d/%d rate %llu "
                "queue %u/%u loss %d %g ge %g/%g/%g/%g mm4 %g/%g/%g/%g/%g "
                "dup %g corrupt %g reorder %g gap %u skew %g\n", what, dir,
                (unsigned long long)p->latency_ns,
                (unsigned long long)p->jitter_ns, p->jitter_dist,
                p->jitter_reorders, (unsigned long long)p->rate_bps,
                p->queue_frames, p->queue_bytes, p->loss_model, p->loss_pct,
                p->ge.p, p->ge.r, p->ge.h, p->ge.k, p->mm4.p13, p->mm4.p31,
                p->mm4.p32, p->mm4.p23, p->mm4.p14, p->dup_pct,
                p->corrupt_pct, p->reorder_pct, p->reorder_gap,
                p->skew_crc_pct);
    }
}

/* Field by field, each from a selector so most values are sensible and
 * some are not (a raw memcpy would put invalid bools into the struct). */
static void params_from(struct fz *f, struct gl_wire_params *p)
{
    uint16_t mask = fz_u16(f);

    gl_wire_params_default(p);
    if (mask & 0x0001u) {
        p->latency_ns = fz_u8(f) & 0x80u ? fz_u64(f) :
                        (uint64_t)fz_u16(f) * GL_NS_PER_US;
    }
    if (mask & 0x0002u) {
        p->jitter_ns = fz_u8(f) & 0x80u ? fz_u64(f) :
                       (uint64_t)fz_u16(f) * 100u;
        p->jitter_dist = (enum gl_jitter_dist)(fz_u8(f) % 5u);
        p->jitter_reorders = fz_bool(f);
    }
    if (mask & 0x0004u) {
        uint8_t k = fz_u8(f);
        p->rate_bps = k & 0x80u ? fz_u64(f) : (uint64_t)fz_u16(f) * 100000u;
        p->queue_frames = k & 0x40u ? fz_u32(f) : fz_u8(f);
        p->queue_bytes = k & 0x20u ? fz_u32(f) : UINT32_MAX;
    }
    if (mask & 0x0008u) {
        p->loss_model = (enum gl_loss_model)(fz_u8(f) % 4u);
        p->loss_pct = fz_double(f, 100.0);
    }
    if (mask & 0x0010u) {
        p->ge.p = fz_double(f, 1.0);
        p->ge.r = fz_double(f, 1.0);
        p->ge.h = fz_double(f, 1.0);
        p->ge.k = fz_double(f, 1.0);
    }
    if (mask & 0x0020u) {
        p->mm4.p13 = fz_double(f, 1.0);
        p->mm4.p31 = fz_double(f, 1.0);
        p->mm4.p32 = fz_double(f, 1.0);
        p->mm4.p23 = fz_double(f, 1.0);
        p->mm4.p14 = fz_double(f, 1.0);
    }
    if (mask & 0x0040u) {
        p->dup_pct = fz_double(f, 100.0);
    }
    if (mask & 0x0080u) {
        p->corrupt_pct = fz_double(f, 100.0);
    }
    if (mask & 0x0100u) {
        p->reorder_pct = fz_double(f, 100.0);
        p->reorder_gap = fz_u8(f) & 0x80u ? fz_u32(f) : fz_u8(f);
    }
    if (mask & 0x0200u) {
        p->skew_crc_pct = fz_double(f, 100.0);
    }
}

static void check_link(const char *after)
{
    struct gl_err err;

    if (gl_link_check_invariants(&link_, &err) != 0) {
        fz_fail("after %s at %llu: %s", after, (unsigned long long)now,
                err.msg);
    }
}

static void unchanged(const char *what)
{
    struct snap now_state;

    snapshot(&now_state);
    if (memcmp(&now_state, &saved, sizeof(saved)) != 0) {
        fz_fail("%s: rejected call changed the link", what);
    }
}

static void do_send(int dir, uint32_t len)
{
    uint64_t done = 0;
    unsigned idx = nframes;
    bool bad = dir < 0 || dir > 1 || len == 0 || len > GL_WIRE_LEN_MAX;

    if (idx >= MAX_FRAMES) {
        return;             /* cookies must stay unique */
    }
    if (bad) {
        snapshot(&saved);
    }
    struct gl_wire_counters c0, c1;
    if (!bad) {
        gl_link_get_counters(&link_, dir, &c0);
    }
    int v = gl_link_send(&link_, dir, now, len, idx, &done);
    if (trace) {
        fprintf(stderr, "%llu send dir %d len %u cookie %u -> %d tx_done %llu\n",
                (unsigned long long)now, dir, len, idx, v,
                (unsigned long long)done);
    }
    if (bad) {
        if (v != -EINVAL) {
            fz_fail("send dir %d len %u: %d, want -EINVAL", dir, len, v);
        }
        unchanged("send");
        return;
    }
    /* a half-duplex sender (CSMA/CD) may defer, back off, or end a frame
     * early (late collision, 16 attempts); a full-duplex one serializes
     * exactly */
    const bool half = link_.up && !link_.full_duplex[dir];
    if (v < GL_WIRE_QUEUED || v > (half ? GL_WIRE_DROP_COLLISION : GL_WIRE_DROP_STORE)) {
        fz_fail("send: verdict %d out of range", v);
    }
    uint64_t start = now > last_tx_done[dir] ? now : last_tx_done[dir];
    if (half ? done <= start : done != start + gl_wire_frame_ns(len, speed)) {
        fz_fail("send dir %d len %u at %llu: tx_done %llu, want %llu + %llu",
                dir, len, (unsigned long long)now, (unsigned long long)done,
                (unsigned long long)start,
                (unsigned long long)gl_wire_frame_ns(len, speed));
    }
    last_tx_done[dir] = done;
    /* a duplicate is a second frame on the sender's line, right after
     * its original: the next send starts after it */
    gl_link_get_counters(&link_, dir, &c1);
    if (c1.duplicated != c0.duplicated) {
        last_tx_done[dir] = done + gl_wire_frame_ns(len, speed);
    }
    sent[dir]++;
    bytes_sent[dir] += len;
    frames[idx] = (struct shadow){
        .tx_done = done, .len = len, .dir = (uint8_t)dir,
        .refs = v == GL_WIRE_QUEUED ? 1 : 0,
        .queued = v == GL_WIRE_QUEUED,
    };
    nframes++;
}

/* One poll; returns what gl_link_poll returned. */
static int do_poll(int dir, uint64_t at)
{
    struct gl_delivery d;
    int r = gl_link_poll(&link_, dir, at, &d);
    if (trace) {
        fprintf(stderr, "%llu poll dir %d at %llu -> %d", (unsigned long long)now,
                dir, (unsigned long long)at, r);
        if (r == 1) {
            fprintf(stderr, " cookie %llu arrival %llu flags 0x%x",
                    (unsigned long long)d.cookie,
                    (unsigned long long)d.arrival_ns, d.flags);
        }
        fputc('\n', stderr);
    }

    if (dir < 0 || dir > 1) {
        if (r != -EINVAL) {
            fz_fail("poll dir %d: %d", dir, r);
        }
        return r;
    }
    if (r == 0) {
        uint64_t next = gl_link_next_deadline(&link_, dir);
        if (next != GL_NEVER && next <= at) {
            fz_fail("poll dir %d: nothing due at %llu but deadline %llu",
                    dir, (unsigned long long)at, (unsigned long long)next);
        }
        return 0;
    }
    if (r != 1) {
        fz_fail("poll dir %d: %d", dir, r);
    }
    if (d.cookie >= nframes) {
        fz_fail("poll: unknown cookie %llu", (unsigned long long)d.cookie);
    }
    struct shadow *s = &frames[d.cookie];
    if (!s->queued || s->dir != dir || d.len != s->len ||
        d.tx_done_ns != s->tx_done) {
        fz_fail("poll dir %d: cookie %llu does not match its send (queued %d "
                "dir %d len %u/%u tx_done %llu/%llu)", dir,
                (unsigned long long)d.cookie, s->queued, s->dir, d.len,
                s->len, (unsigned long long)d.tx_done_ns,
                (unsigned long long)s->tx_done);
    }
    if (s->refs == 0) {
        fz_fail("poll: cookie %llu delivered once too often",
                (unsigned long long)d.cookie);
    }
    if (d.arrival_ns > at) {
        fz_fail("poll at %llu returned arrival %llu",
                (unsigned long long)at, (unsigned long long)d.arrival_ns);
    }
    if (!(d.flags & GL_DELIV_DROPPED)) {
        if (d.arrival_ns < d.tx_done_ns) {
            fz_fail("delivery at %llu before its tx_done %llu",
                    (unsigned long long)d.arrival_ns,
                    (unsigned long long)d.tx_done_ns);
        }
        /* the receiver's line carries one frame at a time, at the
         * speed in force when the frame is handed over */
        if (last_arrival[dir] && d.arrival_ns < last_arrival[dir] + gl_wire_frame_ns(d.len, speed)) {
            fz_fail("dir %d: arrival %llu less than a %u-byte frame time after one at %llu",
                    dir, (unsigned long long)d.arrival_ns, d.len,
                    (unsigned long long)last_arrival[dir]);
        }
        last_arrival[dir] = d.arrival_ns;
        delivered[dir]++;
        bytes_delivered[dir] += d.len;
    }
    bool last = d.flags & GL_DELIV_LAST;
    if (!(d.flags & GL_DELIV_DUPLICATE) && !last) {
        /* The original of a duplicated frame: its duplicate follows and
         * carries GL_DELIV_LAST. */
        if (s->dup_next) {
            fz_fail("cookie %llu: two originals", (unsigned long long)d.cookie);
        }
        s->dup_next = 1;
        return 1;
    }
    if ((d.flags & GL_DELIV_DUPLICATE) && !s->dup_next) {
        fz_fail("cookie %llu: duplicate before its original",
                (unsigned long long)d.cookie);
    }
    s->refs--;
    if (!last || s->refs != 0) {
        fz_fail("cookie %llu: LAST flag %d with %u references left",
                (unsigned long long)d.cookie, last, s->refs);
    }
    return 1;
}

static void drain(int dir, uint64_t at)
{
    for (unsigned i = 0; i < 3 * MAX_FRAMES && do_poll(dir, at) == 1; i++) {
    }
}

static void check_counters(void)
{
    for (int dir = 0; dir < 2; dir++) {
        struct gl_wire_counters c;
        gl_link_get_counters(&link_, dir, &c);
        if (c.sent != sent[dir] || c.bytes_sent != bytes_sent[dir] ||
            c.delivered != delivered[dir] ||
            c.bytes_delivered != bytes_delivered[dir]) {
            fz_fail("dir %d counters: sent %llu/%llu delivered %llu/%llu",
                    dir, (unsigned long long)c.sent,
                    (unsigned long long)sent[dir],
                    (unsigned long long)c.delivered,
                    (unsigned long long)delivered[dir]);
        }
        if (c.fcs_errors > c.delivered ||
            c.corrupted + c.duplex_errors + c.skew_errors < c.fcs_errors) {
            fz_fail("dir %d: FCS error counters inconsistent", dir);
        }
    }
}

static const uint64_t steps_ns[16] = {
    0, 0, 50, 500, 1000, 5000, 12304, 50000, 100000, 500000,
    GL_NS_PER_MS, 5 * GL_NS_PER_MS, 10 * GL_NS_PER_MS, 50 * GL_NS_PER_MS,
    100 * GL_NS_PER_MS, GL_NS_PER_S,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned speeds[8] = { 1000, 100, 10, 1000, 0, 7, 10000, 100 };
    struct gl_wire_params pa, pb;
    struct gl_err err;
    struct fz f;

    fz_init(&f, data, size);
    trace = getenv("FUZZ_TRACE") != NULL;
    nframes = 0;
    now = 0;
    speed = 1000;
    memset(last_arrival, 0, sizeof(last_arrival));
    memset(last_tx_done, 0, sizeof(last_tx_done));
    memset(sent, 0, sizeof(sent));
    memset(delivered, 0, sizeof(delivered));
    memset(bytes_sent, 0, sizeof(bytes_sent));
    memset(bytes_delivered, 0, sizeof(bytes_delivered));

    uint64_t seed = fz_u8(&f);
    params_from(&f, &pa);
    params_from(&f, &pb);
    bool valid = gl_wire_params_validate(&pa, NULL) == 0 &&
                 gl_wire_params_validate(&pb, NULL) == 0;
    trace_params("init", 0, &pa);
    trace_params("init", 1, &pb);
    int rc = gl_link_init(&link_, &pa, &pb, seed, &err);
    if (!valid) {
        if (rc != -EINVAL || err.msg[0] == '\0') {
            fz_fail("init: invalid params gave %d", rc);
        }
        return 0;
    }
    if (rc != 0) {
        fz_fail("init: valid params rejected: %s", err.msg);
    }
    check_link("init");

    while (!fz_empty(&f)) {
        uint8_t op = fz_u8(&f), a = fz_u8(&f);
        uint16_t v = fz_u16(&f);
        int dir = a & 1u;

        now += steps_ns[op >> 4];
        switch (op & 0xFu) {
        case 0:
        case 1:
        case 2:
            do_send(dir, 1u + v % 1600u);           /* common sizes */
            break;
        case 3:
            /* Any length, 0 and > GL_WIRE_LEN_MAX included; any dir. */
            do_send((a & 2u) ? (int)(int8_t)a : dir, v);
            break;
        case 4:
        case 5:
            do_poll((a & 0x80u) ? (int)(int8_t)a : dir, now);
            break;
        case 6:
            drain(dir, now);
            break;
        case 7: {
            unsigned sp = speeds[(a >> 1) & 7u];
            bool up = v & 1u;
            bool ok = sp == 10 || sp == 100 || sp == 1000 || (!up && sp == 0);
            if (!ok) {
                snapshot(&saved);
            }
            rc = gl_link_set_phy(&link_, up, sp, v & 2u, v & 4u, now, &err);
            if (trace) {
                fprintf(stderr, "%llu set_phy up %d speed %u duplex %d/%d -> %d\n",
                        (unsigned long long)now, up, sp, !!(v & 2u),
                        !!(v & 4u), rc);
            }
            if (!ok) {
                if (rc != -EINVAL) {
                    fz_fail("set_phy %u up %d: %d", sp, up, rc);
                }
                unchanged("set_phy");
            } else if (rc != 0) {
                fz_fail("set_phy %u up %d rejected: %s", sp, up, err.msg);
            } else if (sp) {
                speed = sp;
            }
            if (ok) {
                /* and which directions cross a wrong RGMII delay */
                gl_link_set_rgmii_skew(&link_, v & 8u, v & 16u);
            }
            break;
        }
        case 8: {
            struct gl_wire_params p;
            int d = (a & 2u) ? (int)(int8_t)a : dir;
            params_from(&f, &p);
            bool ok = (d == 0 || d == 1) &&
                      gl_wire_params_validate(&p, NULL) == 0;
            if (!ok) {
                snapshot(&saved);
            }
            rc = gl_link_configure(&link_, d, &p, &err);
            trace_params("configure", d, &p);
            if (!ok) {
                if (rc != -EINVAL) {
                    fz_fail("configure dir %d: invalid params gave %d", d, rc);
                }
                unchanged("configure");
            } else if (rc != 0) {
                fz_fail("configure: valid params rejected: %s", err.msg);
            }
            break;
        }
        case 9:
            check_counters();
            break;
        case 10: {
            uint64_t n = gl_link_next_deadline(&link_, dir);
            if (n != GL_NEVER && n > now && n - now < 10 * GL_NS_PER_S) {
                now = n;
            }
            do_poll(dir, now);
            break;
        }
        case 11:
            for (unsigned i = 0; i < (a >> 2) + 1u; i++) {
                do_send(dir, 1u + (v + i * 97u) % GL_WIRE_LEN_MAX);
            }
            break;
        default:
            drain(0, now);
            drain(1, now);
            break;
        }
        check_link("op");
    }

    /* Everything comes back: drain far beyond any delay or queue. */
    drain(0, GL_NEVER - 1);
    drain(1, GL_NEVER - 1);
    check_link("final drain");
    check_counters();
    for (int dir = 0; dir < 2; dir++) {
        struct gl_wire_counters c;
        gl_link_get_counters(&link_, dir, &c);
        if (c.in_flight != 0 || gl_link_next_deadline(&link_, dir) != GL_NEVER) {
            fz_fail("dir %d: %llu still in flight after the final drain",
                    dir, (unsigned long long)c.in_flight);
        }
    }
    for (unsigned i = 0; i < nframes; i++) {
        if (frames[i].refs != 0) {
            fz_fail("cookie %u: %u references never came back", i,
                    frames[i].refs);
        }
    }
    return 0;
}

/*
 * gemlab_link.c - the model PHY, speed-true MAC timing and the wire
 * between a cadence_gem (side A) and its netdev (side B, the "link
 * partner").  cadence_gem.c calls the hooks below only when the GEM's
 * "gemlab" property is on (include/hw/net/gemlab_link.h).
 *
 * The PHY is models/src/phy*.c (a Marvell 88E1116R), the cable is
 * models/src/wire*.c.  Time is QEMU_CLOCK_VIRTUAL in nanoseconds.
 *
 *   TX: TSTART starts the DMA; stock gem_transmit() gathers one frame and
 *       hands it to gemlab_link_tx_frame(), which offers it to the wire
 *       (A->B).  Its descriptor comes back, with TXCMPL, when the wire
 *       says the last bit left the MAC (tx_timer); then the DMA goes on.
 *       The frame reaches the netdev at its arrival time (wire_timer).
 *   RX: a frame from the netdev is serialized by the partner's MAC at
 *       line rate (B->A) and reaches the DMA at its arrival time; with
 *       no free descriptor it is dropped as on silicon (rx-backpressure=on
 *       restores QEMU's back-pressure: the wire is then bypassed).
 *   The MAC must be programmed (NWCFG speed, gigabit, duplex) to what the
 *   PHY resolved; otherwise frames in both directions are garbled: the
 *   partner discards ours, ours count FCS errors.
 *
 * Known limitations:
 *   - One frame in the TX pipeline; the DMA does not prefetch.
 *   - Half duplex: the wire model runs CSMA/CD (models/include/gemlab/
 *     wire.h); our side's collisions go into 0x138..0x148.
 *   - The PHY interrupt pin is not wired (Zynq boards poll the PHY).
 *   - Model state is not migrated: realize registers a migration blocker.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-events-net.h"
#include "qemu/log.h"
#include "migration/blocker.h"
#include "hw/qdev-core.h"
#include "exec/address-spaces.h"
#include "net/eth.h"
#include "net/net.h"

#include "gemlab_internal.h"

uint64_t gemlab_now(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void gemlab_timer_at(QEMUTimer *t, uint64_t deadline)
{
    if (deadline == GL_NEVER) {
        timer_del(t);
    } else {
        timer_mod(t, MIN(deadline, (uint64_t)INT64_MAX));
    }
}

/*
 * A frame of @len bytes.  The buffer is never shorter than a minimum
 * Ethernet frame and is zero-filled past @len, so nothing that reads a
 * short frame's header or pad can reach other heap memory.
 */
static GemlabFrame *gemlab_frame_new(const uint8_t *buf, size_t len)
{
    GemlabFrame *f = g_malloc0(sizeof(*f) + MAX(len, ETH_ZLEN + 4));

    f->len = len;
    memcpy(f->data, buf, len);
    return f;
}

/* ---- PHY -------------------------------------------------------------- */

static unsigned gemlab_mac_speed(CadenceGEMState *s)
{
    uint32_t cfg = s->regs[R_GL_NWCFG];

    if (FIELD_EX32(cfg, GL_NWCFG, GIGE_EN)) {
        return 1000;
    }
    return FIELD_EX32(cfg, GL_NWCFG, SPEED) ? 100 : 10;
}

/* True when the MAC runs at the speed and duplex the PHY resolved. */
bool gemlab_mac_matches_phy(GemlabLink *g)
{
    const struct gl_phy_link *lk = &g->link;

    if (!lk->up) {
        return true;
    }
    return gemlab_mac_speed(g->gem) == lk->speed_mbps &&
           !!FIELD_EX32(g->gem->regs[R_GL_NWCFG], GL_NWCFG, FDX) ==
           lk->full_duplex;
}

/*
 * After anything that may have changed the PHY: advance it, re-arm its
 * timer, tell the wire what the PHYs resolved and QMP what changed.
 */
void gemlab_phy_sync(GemlabLink *g)
{
    uint64_t now = gemlab_now();
    uint64_t deadline = gl_phy_step(&g->phy, now);
    struct gl_phy_link lk;
    bool wire_up, was_up;

    gl_phy_get_link(&g->phy, &lk);
    /* the PHY decides from its timing bits and the board's delays */
    gl_link_set_rgmii_skew(g->wire, lk.rgmii_tx_skewed, lk.rgmii_rx_skewed);
    wire_up = lk.up && lk.partner_up;
    was_up = g->link.up && g->link.partner_up;
    if (wire_up != was_up || lk.speed_mbps != g->link.speed_mbps ||
        lk.full_duplex != g->link.full_duplex ||
        lk.partner_full_duplex != g->link.partner_full_duplex) {
        gl_link_set_phy(g->wire, wire_up, wire_up ? lk.speed_mbps : 0,
                        lk.full_duplex, lk.partner_full_duplex, now, NULL);
        gemlab_wire_arm(g);
    }
    if (lk.up != g->link.up ||
        (lk.up && (lk.speed_mbps != g->link.speed_mbps ||
                   lk.full_duplex != g->link.full_duplex))) {
        g_autofree char *path = object_get_canonical_path(OBJECT(g->gem));

        qapi_event_send_gemlab_link_change(path, lk.up,
                                           lk.up ? lk.speed_mbps : 0,
                                           lk.up && lk.full_duplex);
    }
    g->link = lk;
    gemlab_timer_at(g->phy_timer, deadline);
}

static void gemlab_phy_timer_cb(void *opaque)
{
    gemlab_phy_sync(opaque);
}

/* QMP set_link and the "link" property force the cable's line down. */
void gemlab_link_update(CadenceGEMState *s)
{
    GemlabLink *g = s->gl;
    bool down = qemu_get_queue(s->nic)->link_down || !g->link_prop_up;

    gl_phy_set_link_forced_down(&g->phy, down, gemlab_now());
    gemlab_phy_sync(g);
}

/* PHY hardware reset (the GEM's reset also resets the board's PHY). */
void gemlab_link_phy_reset(CadenceGEMState *s)
{
    gl_phy_reset(&s->gl->phy, gemlab_now());
    gemlab_link_update(s);
}

/* MDIO register access: the PHY model, at the current virtual time. */
uint16_t gemlab_link_phy_read(CadenceGEMState *s, unsigned reg)
{
    uint16_t val = gl_phy_read(&s->gl->phy, reg, gemlab_now());

    gemlab_phy_sync(s->gl);
    return val;
}

void gemlab_link_phy_write(CadenceGEMState *s, unsigned reg, uint16_t val)
{
    gl_phy_write(&s->gl->phy, reg, val, gemlab_now());
    gemlab_phy_sync(s->gl);
}

/* ---- DMA from timers ---------------------------------------------------- */

/*
 * docs/SECURITY.md Q4.  The timers below do DMA outside any MMIO access
 * or netdev delivery, so nothing has engaged the device's
 * MemReentrancyGuard (the CVE-2023-3019 mitigation: system/memory.c
 * access_with_adjusted_size() sets it for MMIO, net/net.c
 * qemu_deliver_packet_iov() for ->receive).  They engage it themselves: a
 * descriptor or buffer the guest placed on the GEM's own registers then
 * gets MEMTX_ACCESS_ERROR ("Blocked re-entrant IO") instead of running
 * gem_write() in the middle of a frame.  If it is already engaged the
 * callback is deferred by 1 ns.
 */
static bool gemlab_dma_guard_enter(GemlabLink *g, QEMUTimer *t)
{
    MemReentrancyGuard *guard = &DEVICE(g->gem)->mem_reentrancy_guard;

    if (guard->engaged_in_io) {
        timer_mod(t, gemlab_now() + 1);
        return false;
    }
    guard->engaged_in_io = true;
    return true;
}

static void gemlab_dma_guard_leave(GemlabLink *g)
{
    DEVICE(g->gem)->mem_reentrancy_guard.engaged_in_io = false;
}

/* ---- RX ----------------------------------------------------------------- */

/* A frame that crossed the wire (or the loopback) reaches the MAC. */
static void gemlab_rx_frame(GemlabLink *g, const uint8_t *buf, size_t size)
{
    CadenceGEMState *s = g->gem;

    if (!FIELD_EX32(s->regs[R_GL_NWCTRL], GL_NWCTRL, RXEN)) {
        /* receiver off: the MAC ignores the frame; no GEM counter moves */
        g->cnt.rx_disabled_drops++;
        return;
    }
    cadence_gem_rx_frame(s, buf, size, false);
}

static bool gemlab_rx_desc_available(CadenceGEMState *s)
{
    int i;

    for (i = 0; i < s->num_priority_queues; i++) {
        if (!(s->rx_desc[i][0] & GL_RX_DESC_0_OWNED)) {
            return true;
        }
    }
    return false;
}

/* The partner's transmit queue has room at @now (it forgets frames sent). */
static bool gemlab_partner_txq_room(GemlabLink *g, uint64_t now)
{
    while (g->ptx_len && g->ptx_done_ns[g->ptx_head] <= now) {
        g->ptx_head = (g->ptx_head + 1) % GEMLAB_PARTNER_TXQ;
        g->ptx_len--;
    }
    return g->ptx_len < GEMLAB_PARTNER_TXQ;
}

/*
 * rx-backpressure=on (stock): only while a descriptor is free.
 * Otherwise while the partner's transmit queue into the wire has room;
 * frames that then find no descriptor are dropped.
 */
bool gemlab_link_can_receive(CadenceGEMState *s)
{
    GemlabLink *g = s->gl;

    if (g->rx_backpressure) {
        return gemlab_rx_desc_available(s);
    }
    return gemlab_partner_txq_room(g, gemlab_now());
}

/*
 * A frame from the netdev: the partner's MAC serializes it onto the wire
 * (B->A); gemlab_wire_timer_cb delivers it when it arrives.
 */
ssize_t gemlab_link_receive(CadenceGEMState *s, const uint8_t *buf,
                            size_t size)
{
    GemlabLink *g = s->gl;
    GemlabFrame *f;
    uint64_t now = gemlab_now(), tx_done;
    int verdict;

    if (g->rx_backpressure) {
        return cadence_gem_rx_frame(s, buf, size, true);
    }
    if (size == 0 || size > GL_WIRE_LEN_MAX) {
        return size;
    }
    /*
     * docs/SECURITY.md Q7.  The partner's transmit queue is full: 0 makes
     * QEMU queue this frame and stop delivering until the wire timer
     * flushes the queue.  qemu_flush_queued_packets() does not ask
     * can_receive, so without this it pushed the whole netdev queue onto
     * the wire.  The wire timer flushes when the oldest frame is sent.
     */
    if (!gemlab_partner_txq_room(g, now)) {
        gemlab_wire_arm(g);
        return 0;
    }
    f = gemlab_frame_new(buf, size);
    verdict = gl_link_send(g->wire, GL_LINK_B_TO_A, now, size,
                           (uintptr_t)f, &tx_done);
    /* a frame the wire then loses was still serialized by the partner */
    if (verdict >= 0) {
        g->ptx_done_ns[(g->ptx_head + g->ptx_len) % GEMLAB_PARTNER_TXQ] = tx_done;
        g->ptx_len++;
    }
    if (verdict != GL_WIRE_QUEUED) {
        char why[48];

        snprintf(why, sizeof(why), "dropped: %s",
                 verdict < 0 ? "invalid" : gl_wire_verdict_name(verdict));
        gemlab_pcap_frame(g, gemlab_now(), true, f, false, why);
        g_free(f);
        return size;
    }
    gemlab_wire_arm(g);
    return size;
}

bool gemlab_link_rx_starved(CadenceGEMState *s)
{
    return gemlab_now() < s->gl->rx_starve_until_ns;
}

void gemlab_link_rx_dropped(CadenceGEMState *s, GemlabRxDrop why)
{
    GemlabCounters *c = &s->gl->cnt;

    switch (why) {
    case GEMLAB_RX_DROP_RUNT:
        c->rx_runt_drops++;
        break;
    case GEMLAB_RX_DROP_QUEUE:
        c->rx_queue_drops++;
        break;
    case GEMLAB_RX_DROP_CSUM:
        c->rx_csum_drops++;
        break;
    case GEMLAB_RX_DROP_STARVED:
        c->rx_starve_drops++;
        c->rx_resource_drops++;
        break;
    case GEMLAB_RX_DROP_RESOURCE:
        c->rx_resource_drops++;
        break;
    default:
        g_assert_not_reached();
    }
}

/* After anything that may have turned can_receive true. */
void gemlab_rx_flush(GemlabLink *g)
{
    NetClientState *nc;

    if (!g->realized || !g->gem->nic) {
        return;
    }
    nc = qemu_get_queue(g->gem->nic);
    if (FIELD_EX32(g->gem->regs[R_GL_NWCTRL], GL_NWCTRL, RXEN) &&
        gemlab_link_can_receive(g->gem)) {
        qemu_flush_queued_packets(nc);
    }
}

/* ---- TX ----------------------------------------------------------------- */

bool gemlab_link_tx_start(CadenceGEMState *s)
{
    s->gl->tx_go = true;
    return !s->gl->tx_busy;
}

void gemlab_link_tx_idle(CadenceGEMState *s)
{
    s->gl->tx_go = false;   /* every queue is empty: the DMA stops */
}

/*
 * NWCTRL transmit halt (UG585 B.18 bit 10): the DMA fetches no further
 * frame; the one on the wire finishes and is handed back as usual.  Linux
 * halts so before rewriting its ring (macb_tx_error_task, macb_halt_tx).
 */
void gemlab_link_tx_halt(CadenceGEMState *s)
{
    s->gl->tx_go = false;
}

/*
 * TXSTATUS transmit go (bit 3): from TSTART until the DMA reads a used
 * descriptor, or a halt lets the frame on the wire finish.
 */
bool gemlab_link_tx_active(CadenceGEMState *s)
{
    return s->gl->tx_go || s->gl->tx_busy;
}

/*
 * Transmit disabled: the DMA stops at once and the frame in the pipeline
 * is not handed back (its bits already on the wire stay there).
 */
void gemlab_link_tx_stop(CadenceGEMState *s)
{
    GemlabLink *g = s->gl;

    g->tx_go = false;
    g->tx_busy = false;
    timer_del(g->tx_timer);
    g_free(g->tx_loop);
    g->tx_loop = NULL;
}

/*
 * The last bit of the frame in the TX pipeline left the MAC: hand the
 * descriptor back (only word 1, see cadence_gem's gem_tx_desc_set_used),
 * raise TXCMPL and let the DMA go on.
 */
static bool gemlab_tx_complete(GemlabLink *g)
{
    CadenceGEMState *s = g->gem;

    if (!g->tx_busy) {
        return false;
    }
    cadence_gem_tx_done(s, g->tx_q, g->tx_first_desc, g->tx_next_desc);
    g->cnt.tx_frames++;
    g->tx_busy = false;
    if (g->tx_loop) {
        GemlabFrame *f = g->tx_loop;

        g->tx_loop = NULL;
        gemlab_pcap_frame(g, gemlab_now(), true, f, false, "loopback");
        gemlab_rx_frame(g, f->data, f->len);
        g_free(f);
    }
    cadence_gem_update_irq(s);
    if (g->tx_go) {
        g->tx_chained = true;
        cadence_gem_transmit(s);
        g->tx_chained = false;
    }
    return true;
}

/*
 * The timer fires late when the host is busy (a wakeup costs tens of µs,
 * a 64-byte frame takes 0.67 µs at 1000 Mb/s): hand back every frame of
 * the burst that has left by now, not one per wakeup, or the line rate
 * becomes the host's timer rate.  Each frame still starts exactly when
 * the previous one finished (tx_chained).
 */
static void gemlab_tx_timer_cb(void *opaque)
{
    GemlabLink *g = opaque;
    unsigned n = 0;

    if (!gemlab_dma_guard_enter(g, g->tx_timer)) {
        return;
    }
    while (g->tx_busy && g->tx_done_ns <= gemlab_now() &&
           n < GEMLAB_TX_BATCH) {
        n++;
        if (!gemlab_tx_complete(g)) {
            break;
        }
    }
    gemlab_dma_guard_leave(g);
    if (g->tx_busy) {
        /* a backlog left after a full batch: yield, continue in 1 ns */
        gemlab_timer_at(g->tx_timer, n == GEMLAB_TX_BATCH ?
                        MAX(g->tx_done_ns, gemlab_now() + 1) : g->tx_done_ns);
    }
}

/*
 * Half duplex: what CSMA/CD did to the frame just offered (the wire model
 * decides it, IEEE 802.3 4.2.3.2) goes into the GEM's collision statistics
 * (UG585 appendix B: 0x138 single, 0x13C multiple, 0x140 excessive, 0x144
 * late collision frames, 0x148 deferred), which the drivers read (Linux
 * macb: ethtool -S tx_*_collision*).
 */
static void gemlab_count_collisions(CadenceGEMState *s,
                                    const struct gl_wire_counters *c0,
                                    const struct gl_wire_counters *c1)
{
    s->regs[R_GL_SINGLECOLLCNT] += c1->single_collision -
                                   c0->single_collision;
    s->regs[R_GL_MULTCOLLCNT] += c1->multiple_collision -
                                 c0->multiple_collision;
    s->regs[R_GL_EXCESSCOLLCNT] += c1->dropped_collision -
                                   c0->dropped_collision;
    s->regs[R_GL_LATECOLLCNT] += c1->late_collisions - c0->late_collisions;
    s->regs[R_GL_DEFERTXCNT] += c1->deferred - c0->deferred;
}

/* Offer the gathered frame in s->tx_packet to the wire (or loop it). */
static void gemlab_tx_start_frame(GemlabLink *g, unsigned len)
{
    CadenceGEMState *s = g->gem;
    uint64_t now = gemlab_now();
    uint64_t done;
    GemlabFrame *f = gemlab_frame_new(s->tx_packet, len);
    struct gl_wire_counters c0, c1;
    int verdict;

    if (g->tx_chained && g->tx_done_ns < now) {
        now = g->tx_done_ns;        /* back to back with the previous one */
    }

    if (g->link.loopback ||
        FIELD_EX32(s->regs[R_GL_NWCTRL], GL_NWCTRL, LOOPBACK_LOCAL)) {
        unsigned speed = g->link.loopback ? g->link.speed_mbps
                                          : gemlab_mac_speed(s);

        g->tx_loop = f;
        done = now + gl_wire_frame_ns(len, speed ? speed : 1000);
        if (++g->loop_run > GEMLAB_LOOP_RUN_MAX) {
            if (g->loop_run == GEMLAB_LOOP_RUN_MAX + 1) {
                qemu_log_mask(LOG_GUEST_ERROR, "cadence_gem: %u loopback "
                              "frames without a register access: paced to "
                              "one per %u ns\n", GEMLAB_LOOP_RUN_MAX,
                              GEMLAB_LOOP_PACE_NS);
            }
            done = MAX(done, now + GEMLAB_LOOP_PACE_NS);
        }
    } else {
        f->garbled = !gemlab_mac_matches_phy(g);
        if (f->garbled) {
            g->cnt.tx_mismatch_drops++;
        }
        gl_link_get_counters(g->wire, GL_LINK_A_TO_B, &c0);
        verdict = gl_link_send(g->wire, GL_LINK_A_TO_B, now, len,
                               (uintptr_t)f, &done);
        gl_link_get_counters(g->wire, GL_LINK_A_TO_B, &c1);
        gemlab_count_collisions(s, &c0, &c1);
        if (verdict != GL_WIRE_QUEUED) {
            char why[48];

            if (verdict < 0) {
                done = now + gl_wire_frame_ns(len, gemlab_mac_speed(s));
            }
            snprintf(why, sizeof(why), "dropped: %s",
                     verdict < 0 ? "invalid" : gl_wire_verdict_name(verdict));
            /*
             * Stamped, like a frame the wire carries, when its last bit
             * left our MAC (gemlab_wire_timer_cb): stamped at its first,
             * it sat level with the frame before it, which the capture
             * writes later, at its delivery.
             */
            gemlab_pcap_frame(g, done, false, f, false, why);
            g_free(f);
        }
        gemlab_wire_arm(g);
    }
    g->tx_busy = true;
    g->tx_done_ns = done;
    gemlab_timer_at(g->tx_timer, done);
}

void gemlab_link_tx_frame(CadenceGEMState *s, int q, hwaddr first_desc,
                          hwaddr next_desc, uint32_t last_desc_word1,
                          unsigned len)
{
    GemlabLink *g = s->gl;

    /*
     * Unless the descriptor says "no CRC" (word 1 bit 16, UG585 16.3.7),
     * the MAC appends the FCS and pads a short frame with zeros to the
     * 64-byte minimum (IEEE 802.3 clause 4.2.3.3); Linux's macb
     * macb_pad_and_fcs() pads itself only when it sets that bit.  QEMU
     * frames carry no FCS: 60 bytes.
     */
    if (len < ETH_ZLEN && !(last_desc_word1 & GL_TX_DESC_1_NOCRC)) {
        memset(s->tx_packet + len, 0, ETH_ZLEN - len);
        len = ETH_ZLEN;
    }
    cadence_gem_tx_stats(s, s->tx_packet, len);
    g->tx_q = q;
    g->tx_first_desc = first_desc;
    g->tx_next_desc = next_desc;
    gemlab_tx_start_frame(g, len);
}

/* ---- The wire: deliveries in both directions ---------------------------- */

/*
 * The next arrival in either direction, or, while the partner's queue is
 * full, when its oldest frame is sent (the netdev queue then flushes).
 */
void gemlab_wire_arm(GemlabLink *g)
{
    uint64_t a = gl_link_next_deadline(g->wire, GL_LINK_A_TO_B);
    uint64_t b = gl_link_next_deadline(g->wire, GL_LINK_B_TO_A);
    uint64_t t = MIN(a, b);

    if (g->ptx_len == GEMLAB_PARTNER_TXQ) {
        t = MIN(t, g->ptx_done_ns[g->ptx_head]);
    }
    gemlab_timer_at(g->wire_timer, t);
}

static const char *gemlab_deliv_why(uint32_t flags)
{
    if (flags & GL_DELIV_DROPPED) {
        return "dropped: link down";
    }
    if (flags & GL_DELIV_CORRUPT) {
        return "fcs error: corrupt";
    }
    if (flags & GL_DELIV_DUPLEX) {
        return "fcs error: cut by a late collision";
    }
    if (flags & GL_DELIV_SKEW) {
        return "fcs error: rgmii skew";
    }
    if (flags & GL_DELIV_FCS_ERROR) {
        return "fcs error";
    }
    return flags & GL_DELIV_DUPLICATE ? "duplicate" : NULL;
}

static void gemlab_wire_timer_cb(void *opaque)
{
    GemlabLink *g = opaque;
    CadenceGEMState *s = g->gem;
    uint64_t now = gemlab_now();
    struct gl_delivery d;
    int dir;

    if (!gemlab_dma_guard_enter(g, g->wire_timer)) {
        return;
    }
    for (dir = GL_LINK_A_TO_B; dir <= GL_LINK_B_TO_A; dir++) {
        while (gl_link_poll(g->wire, dir, now, &d) == 1) {
            GemlabFrame *f = (GemlabFrame *)(uintptr_t)d.cookie;
            bool bad = (d.flags & GL_DELIV_FCS_ERROR) || f->garbled;
            const char *why = f->garbled ? "garbled: mac/phy speed mismatch"
                                         : gemlab_deliv_why(d.flags);

            /*
             * The capture is the board's end of the cable: a frame we sent
             * is stamped when its last bit left our MAC, one we receive
             * when its last bit arrives, so the time between our segment
             * and the partner's answer is the whole round trip.
             */
            gemlab_pcap_frame(g, dir == GL_LINK_A_TO_B ? d.tx_done_ns
                                                       : d.arrival_ns,
                              dir == GL_LINK_B_TO_A, f,
                              bad && !(d.flags & GL_DELIV_DROPPED), why);
            if (d.flags & GL_DELIV_DROPPED) {
                /* lost in flight */
            } else if (dir == GL_LINK_A_TO_B) {
                if (bad) {
                    g->cnt.tx_partner_fcs_drops++;
                } else {
                    qemu_send_packet(qemu_get_queue(s->nic), f->data, f->len);
                }
            } else if (!FIELD_EX32(s->regs[R_GL_NWCTRL], GL_NWCTRL, RXEN)) {
                /* receiver off: ignored (no GEM counter), counted here */
                g->cnt.rx_disabled_drops++;
            } else if (!gemlab_mac_matches_phy(g)) {
                g->cnt.rx_mismatch_drops++;
                s->regs[R_GL_RXFCSCNT]++;
            } else if (bad) {
                g->cnt.rx_fcs_drops++;
                s->regs[R_GL_RXFCSCNT]++;
            } else {
                gemlab_rx_frame(g, f->data, f->len);
            }
            if (d.flags & GL_DELIV_LAST) {
                g_free(f);
            }
        }
    }
    gemlab_dma_guard_leave(g);
    cadence_gem_update_irq(s);
    if (gemlab_partner_txq_room(g, now)) {
        qemu_flush_queued_packets(qemu_get_queue(s->nic));
    }
    gemlab_wire_arm(g);
}

/* ---- CPU access, reset, lifecycle --------------------------------------- */

void gemlab_link_cpu_access(CadenceGEMState *s)
{
    s->gl->loop_run = 0;    /* the CPU is involved (GEMLAB_LOOP_RUN_MAX) */
}

/* Device reset: the TX pipeline stops; the wire keeps its frames. */
void gemlab_link_reset(CadenceGEMState *s)
{
    gemlab_link_tx_stop(s);
}

/* ---- the gemlab-link object ---------------------------------------- */

static void gemlab_link_obj_init(Object *obj)
{
    GemlabLink *g = GEMLAB_LINK(obj);

    /* model defaults; properties may change them until the GEM realizes */
    gl_phy_params_default(&g->phy_params);
    gl_wire_params_default(&g->wire_params[GL_LINK_A_TO_B]);
    gl_wire_params_default(&g->wire_params[GL_LINK_B_TO_A]);
    g->wire_seed = 1;
    g->link_prop_up = true;
    g->pcap_max_bytes = GL_PCAPNG_MAX_DEFAULT;
    g->pcap_snaplen = GL_PCAPNG_SNAPLEN;
}

/* What realize allocated: the wire and its frames, timers, capture. */
static void gemlab_link_detach(GemlabLink *g)
{
    struct gl_delivery d;
    int dir;

    if (g->wire) {
        /* frames still on the wire: each is freed at its last delivery */
        for (dir = GL_LINK_A_TO_B; dir <= GL_LINK_B_TO_A; dir++) {
            while (gl_link_poll(g->wire, dir, UINT64_MAX, &d) == 1) {
                if (d.flags & GL_DELIV_LAST) {
                    g_free((GemlabFrame *)(uintptr_t)d.cookie);
                }
            }
        }
        g_free(g->wire);
        g->wire = NULL;
    }
    timer_free(g->phy_timer);
    timer_free(g->tx_timer);
    timer_free(g->wire_timer);
    g->phy_timer = g->tx_timer = g->wire_timer = NULL;
    gemlab_pcap_close(g);
    if (g->migration_blocker) {
        migrate_del_blocker(&g->migration_blocker);
    }
    g_free(g->tx_loop);
    g->tx_loop = NULL;
    g->realized = false;
}

static void gemlab_link_obj_finalize(Object *obj)
{
    GemlabLink *g = GEMLAB_LINK(obj);

    gemlab_link_detach(g);
    g_free(g->pcap_path);
}

static void gemlab_link_obj_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->desc = "gemlab link model of a cadence_gem: PHY, MAC timing, wire";
    /* a GEM creates its own; -global gemlab-link.NAME=VALUE configures it */
    dc->user_creatable = false;
    gemlab_props_class_init(oc);
}

static const TypeInfo gemlab_link_info = {
    .name = TYPE_GEMLAB_LINK,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(GemlabLink),
    .instance_init = gemlab_link_obj_init,
    .instance_finalize = gemlab_link_obj_finalize,
    .class_init = gemlab_link_obj_class_init,
};

static void gemlab_link_register_types(void)
{
    type_register_static(&gemlab_link_info);
}

type_init(gemlab_link_register_types);

/* ---- the GEM's side ------------------------------------------------- */

/*
 * Every GEM creates its link here, so -global gemlab-link.NAME reaches it
 * (qdev device_post_init) before the GEM's realize reads it.  Only a GEM
 * running gemlab makes it its child "gemlab-link" and realizes it: every
 * device in the QOM tree must be realized (qdev_assert_realized_properly),
 * and a gemlab=off GEM never calls our realize.  The GEM holds a
 * reference of its own until its instance_finalize.
 */
void gemlab_link_instance_init(CadenceGEMState *s)
{
    s->gl = GEMLAB_LINK(object_new(TYPE_GEMLAB_LINK));
    s->gl->gem = s;
}

bool gemlab_link_realize(CadenceGEMState *s, Error **errp)
{
    GemlabLink *g = s->gl;
    struct gl_err err = { { 0 } };

    object_property_add_child(OBJECT(s), "gemlab-link", OBJECT(g));
    if (!qdev_realize(DEVICE(g), NULL, errp)) {
        return false;
    }
    /* MDIO frames take their time (cadence_gem's mdio-timing) */
    s->mdio_timing = true;
    if (gl_phy_init(&g->phy, &g->phy_params, &err) < 0) {
        error_setg(errp, "gemlab-link: %s", err.msg);
        return false;
    }
    g->wire = g_new0(struct gl_link, 1);
    if (gl_link_init(g->wire, &g->wire_params[GL_LINK_A_TO_B],
                     &g->wire_params[GL_LINK_B_TO_A], g->wire_seed,
                     &err) < 0) {
        error_setg(errp, "gemlab-link: %s", err.msg);
        return false;
    }
    gemlab_pcap_open(g, errp);
    if (g->pcap_path && *g->pcap_path && !g->pcap) {
        return false;
    }
    error_setg(&g->migration_blocker, "gemlab-link: the gemlab PHY and "
               "wire model state is not migrated");
    if (migrate_add_blocker(&g->migration_blocker, errp) < 0) {
        return false;
    }
    g->phy_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, gemlab_phy_timer_cb, g);
    g->tx_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, gemlab_tx_timer_cb, g);
    g->wire_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, gemlab_wire_timer_cb, g);
    g->realized = true;
    return true;
}

/*
 * Drop the GEM's reference to its link; the link frees what realize
 * allocated.  QMP device-list-properties creates and destroys an
 * unrealized GEM on every call (docs/SECURITY.md Q7).
 */
void gemlab_link_finalize(CadenceGEMState *s)
{
    GemlabLink *g = s->gl;

    if (!g) {
        return;
    }
    gemlab_link_detach(g);
    g->gem = NULL;
    s->gl = NULL;
    object_unref(OBJECT(g));
}

/* The GEM itself gets no property: the model's are on its child. */
void gemlab_link_class_init(ObjectClass *oc)
{
}

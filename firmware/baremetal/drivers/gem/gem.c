/* gem.c - Zynq GEM driver.  See gem.h; registers in gem_regs.h.
 *
 * Stock QEMU 7.2 quirks handled here (its hw/net/cadence_gem.c: gem_write(),
 * gem_receive(), gem_transmit(); each shown by tests/qemu/baremetal), all
 * harmless on silicon:
 *  - the RX engine re-reads a descriptor it found in use only when NWCTRL
 *    is written with RX enabled: after re-arming we rewrite NWCTRL;
 *  - the RX buffer size resets to 128 B: DMACFG is always written;
 *  - the MAC address filter only activates on the SPADDR1H write: we write
 *    SPADDR1L, then SPADDR1H (the TRM order anyway);
 *  - TX write-back covers 24 bytes from a frame's first descriptor: the TX
 *    ring has two spare (inert) descriptors after its end;
 *  - ISR latches only enabled causes: IER is set before use;
 *  - stock QEMU statistics never clear on read: see gem_stats.h.
 *  - not fixable here: when the ring is full QEMU queues frames, and the
 *    flush triggered by our NWCTRL write delivers only as many as there are
 *    free descriptors and drops the rest (net/queue.c frees a packet when
 *    gem_receive() returns -1).  With GEM_RXBD=4 a host->guest TCP stream
 *    collapses to ~4 Mb/s (retransmission timeouts); 64 descriptors hold a
 *    full 64 KiB slirp window.  Keep GEM_RXBD >= 48 on stock QEMU.
 */
#include <errno.h>
#include <string.h>
#include "gem.h"
#include "gem_regs.h"
#include "gem_ring.h"
#include "mdio.h"
#include "bsp.h"
#include "board.h"

#define GEM_IRQ_PRIO     0x80
/* Interrupt causes.  The RX causes are masked in the ISR and unmasked by
 * gem_rx_poll() once the ring is drained (NAPI style: one interrupt per
 * burst, not per frame).  That includes "used bit read" and overrun, which
 * on silicon fire for every frame that finds the ring full: under overload
 * they would otherwise storm.  The MAC's rx_resource_errors/rx_overrun
 * counters still count every dropped frame; the driver counts episodes.
 * TX completion raises no interrupt: descriptors are reclaimed from the
 * main loop and when the ring is full; TX errors still interrupt. */
#define GEM_IRQ_RX       (GEM_IXR_RX_COMPLETE | GEM_IXR_RX_USED_READ | GEM_IXR_RX_OVERRUN)
#define GEM_IRQ_CAUSES   (GEM_IRQ_RX | GEM_IXR_TX_UNDERRUN | GEM_IXR_RETRY_EX_LATE | \
                          GEM_IXR_TX_CORRUPT_AHB | GEM_IXR_RESP_NOT_OK)
#define GEM_TX_PAD_BD    2u

static struct gem_bd rx_bd[GEM_RXBD] __attribute__((section(".dma_nc"), aligned(64)));
static struct gem_bd tx_bd[GEM_TXBD + GEM_TX_PAD_BD] __attribute__((section(".dma_nc"), aligned(64)));
static uint8_t rx_buf[GEM_RXBD][GEM_BUF_SIZE] __attribute__((section(".dma_buf"), aligned(64)));
static uint8_t tx_buf[GEM_TXBD][GEM_BUF_SIZE] __attribute__((section(".dma_buf"), aligned(64)));

static struct gem_rx_ring rxr;
static struct gem_tx_ring txr;
static struct gem_sw_stats st;
static volatile uint32_t isr_pending;
static uint32_t nwctrl;          /* shadow: MDEN | RX_EN | TX_EN */
static unsigned link_speed = 1000;  /* what NWCFG is programmed for */
static bool link_full = true;
static unsigned phy_speed;          /* last PHY result (0: none yet) */
static bool phy_full;
static int mac_mode = GEM_MAC_SPEED_AUTO;
static unsigned rx_armed = GEM_RXBD; /* RX descriptors in the ring */


static inline uint32_t rd(uint32_t off) { return *(volatile uint32_t *)(BOARD_GEM_BASE + off); }
static inline void wr(uint32_t off, uint32_t v) { *(volatile uint32_t *)(BOARD_GEM_BASE + off) = v; }
static uint32_t rd_stat(uint32_t off) { return rd(off); }
/* Read only through gem_stats.c: the registers clear on read.  No
 * accessor here reads an arbitrary offset, so none can take a count
 * from under it. */
static struct gem_stats hw_stats = GEM_STATS_INIT(rd_stat);

uint32_t gem_imr(void) { return rd(GEM_IMR); }

static void gem_isr(void *arg)
{
    (void)arg;
    uint32_t s = rd(GEM_ISR);
    wr(GEM_ISR, s);                     /* write-1-to-clear on silicon */
    st.irqs++;
    if (s & GEM_IRQ_RX)
        wr(GEM_IDR, GEM_IRQ_RX);        /* until gem_rx_poll() drains the ring */
    if (s & GEM_IXR_RX_USED_READ) {
        st.rx_used_read++;
        wr(GEM_RXSR, GEM_RXSR_BUFFER_NOT_AVAIL);
    }
    if (s & GEM_IXR_RX_OVERRUN) {
        st.rx_overrun++;
        wr(GEM_RXSR, GEM_RXSR_RX_OVERRUN);
    }
    if (s & GEM_IXR_TX_UNDERRUN)
        st.tx_underrun++;
    if (s & GEM_IXR_TX_CORRUPT_AHB)
        st.tx_ahb_err++;
    if (s & GEM_IXR_RESP_NOT_OK)
        st.hresp_not_ok++;
    isr_pending |= s;
}

bool gem_work_pending(void)
{
    return isr_pending != 0 || (rxr.bd && (rxr.bd[rxr.head].word0 & GEM_RXBD_OWN_SW));
}

/* Build the RX ring from the first @n descriptors and buffers (the wrap
 * bit on descriptor n-1; the rest are never reached). */
static int rx_ring_setup(unsigned n)
{
    uint32_t rx_addrs[GEM_RXBD];
    for (unsigned i = 0; i < n; i++) {
        rx_addrs[i] = (uint32_t)(uintptr_t)rx_buf[i];
        dcache_invalidate_range(rx_buf[i], GEM_BUF_SIZE);
    }
    int err = gem_rx_ring_init(&rxr, rx_bd, n, rx_addrs);
    if (err == 0)
        rx_armed = n;
    return err;
}

int gem_init(const uint8_t mac[6])
{
    int err;

    gic_disable(BOARD_GEM_IRQ);
    wr(GEM_NWCTRL, 0);
    wr(GEM_NWCTRL, GEM_NWCTRL_CLEAR_STATS);
    wr(GEM_IDR, GEM_IXR_ALL);
    (void)rd(GEM_ISR);
    wr(GEM_ISR, GEM_IXR_ALL);
    wr(GEM_TXSR, GEM_TXSR_CLEAR_ALL);
    wr(GEM_RXSR, GEM_RXSR_CLEAR_ALL);
    wr(GEM_RXQBASE, 0);
    wr(GEM_TXQBASE, 0);

    /* MDC first: the PHY state machine starts right after us. */
    if ((err = mdio_init(BOARD_GEM_BASE, BOARD_CPU1X_HZ)) != 0)
        return err;

    uint32_t cfg = rd(GEM_NWCFG) & GEM_NWCFG_MDC_DIV_MASK;
    cfg |= GEM_NWCFG_GIGE_EN | GEM_NWCFG_FDEN | GEM_NWCFG_RX_1536 | GEM_NWCFG_FCS_REMOVE;
#if GEM_CSUM_OFFLOAD
    cfg |= GEM_NWCFG_RX_CSUM_EN;
#endif
#if GEM_JUMBO
    cfg |= GEM_NWCFG_JUMBO;
    wr(GEM_JUMBO_MAX_LEN, GEM_BUF_SIZE);
#endif
    wr(GEM_NWCFG, cfg);

    wr(GEM_SPADDR1L, (uint32_t)mac[0] | ((uint32_t)mac[1] << 8) |
                     ((uint32_t)mac[2] << 16) | ((uint32_t)mac[3] << 24));
    wr(GEM_SPADDR1H, (uint32_t)mac[4] | ((uint32_t)mac[5] << 8));

    uint32_t dma = GEM_DMACFG_BLEN_INCR16 | GEM_DMACFG_RXSIZE_FULL | GEM_DMACFG_TXSIZE_FULL |
                   ((GEM_BUF_SIZE / GEM_DMACFG_RXBUF_UNIT) << GEM_DMACFG_RXBUF_SHIFT);
#if GEM_CSUM_OFFLOAD
    dma |= GEM_DMACFG_TX_CSUM_OFFLOAD;
#endif
    wr(GEM_DMACFG, dma);

    if ((err = rx_ring_setup(rx_armed)) != 0)
        return err;
    if ((err = gem_tx_ring_init(&txr, tx_bd, GEM_TXBD)) != 0)
        return err;
    for (unsigned i = GEM_TXBD; i < GEM_TXBD + GEM_TX_PAD_BD; i++) {
        tx_bd[i].word0 = 0;
        tx_bd[i].word1 = GEM_TXBD_USED | GEM_TXBD_WRAP;
    }
    dsb();
    wr(GEM_RXQBASE, (uint32_t)(uintptr_t)rx_bd);
    wr(GEM_TXQBASE, (uint32_t)(uintptr_t)tx_bd);

    (void)slcr_gem_set_clock(1000);
    isr_pending = 0;
    wr(GEM_IER, GEM_IRQ_CAUSES);
    gic_enable(BOARD_GEM_IRQ, gem_isr, 0, GEM_IRQ_PRIO);
    nwctrl = GEM_NWCTRL_MGMT_PORT_EN | GEM_NWCTRL_RX_EN | GEM_NWCTRL_TX_EN;
    wr(GEM_NWCTRL, nwctrl);
    return 0;
}

static unsigned tx_reclaim(bool kick);

/* Write NWCFG speed/duplex/gigabit and the reference clock. */
static int program_link(unsigned speed_mbps, bool full_duplex)
{
    uint32_t cfg = rd(GEM_NWCFG) & ~(GEM_NWCFG_SPEED100 | GEM_NWCFG_GIGE_EN | GEM_NWCFG_FDEN);
    switch (speed_mbps) {
    case 1000: cfg |= GEM_NWCFG_GIGE_EN; break;
    case 100:  cfg |= GEM_NWCFG_SPEED100; break;
    case 10:   break;
    default:   return -EINVAL;
    }
    if (full_duplex)
        cfg |= GEM_NWCFG_FDEN;
    /* Change speed with RX/TX disabled, clock first.  Disabling TX resets
     * the GEM's TX queue pointer to TXQBASE (UG585 16.3.8; QEMU does the
     * same), so the ring restarts at 0: unfinished frames are dropped. */
    wr(GEM_NWCTRL, nwctrl & ~(GEM_NWCTRL_RX_EN | GEM_NWCTRL_TX_EN));
    /* no re-kick here: it would write nwctrl with RX/TX on while the
     * queue base and the clock change (TXQBASE writes while transmit runs
     * are ignored, Linux macb_tx_error_task halts first) */
    (void)tx_reclaim(false);
    st.tx_errors += txr.count;
    (void)gem_tx_ring_init(&txr, tx_bd, GEM_TXBD);
    dsb();
    wr(GEM_TXQBASE, (uint32_t)(uintptr_t)tx_bd);
    int err = slcr_gem_set_clock(speed_mbps);
    wr(GEM_NWCFG, cfg);
    wr(GEM_NWCTRL, nwctrl);
    link_speed = speed_mbps;
    link_full = full_duplex;
    return err;
}

/* What NWCFG should say for the PHY's result under the current mode. */
static int apply_mac_mode(void)
{
    if (mac_mode == GEM_MAC_SPEED_UNPROGRAMMED) {
        /* the bring-up bug: NWCFG keeps what gem_init() wrote */
        if (link_speed == 1000 && link_full)
            return 0;
        return program_link(1000, true);
    }
    if (mac_mode == GEM_MAC_SPEED_AUTO) {
        if (!phy_speed)
            return 0;
        return program_link(phy_speed, phy_full);
    }
    return program_link((unsigned)mac_mode, phy_speed ? phy_full : true);
}

int gem_set_link(unsigned speed_mbps, bool full_duplex)
{
    if (speed_mbps != 10 && speed_mbps != 100 && speed_mbps != 1000)
        return -EINVAL;
    phy_speed = speed_mbps;
    phy_full = full_duplex;
    if (mac_mode != GEM_MAC_SPEED_AUTO)
        return 0;               /* debug switch: NWCFG does not follow the PHY */
    return program_link(speed_mbps, full_duplex);
}

int gem_set_mac_speed_mode(int mode)
{
    if (mode != GEM_MAC_SPEED_AUTO && mode != GEM_MAC_SPEED_UNPROGRAMMED &&
        mode != 10 && mode != 100 && mode != 1000)
        return -EINVAL;
    mac_mode = mode;
    return apply_mac_mode();
}

int gem_mac_speed_mode(void) { return mac_mode; }
bool gem_link_full_duplex(void) { return link_full; }

int gem_set_rx_bds(unsigned n)
{
    if (n < 2 || n > GEM_RXBD)
        return -EINVAL;
    /* Stop the receiver: on silicon and in QEMU the RX queue pointer goes
     * back to RXQBASE while RX is disabled.  Frames already in the ring
     * and not yet passed up are discarded (counted in rx_reinit_drops). */
    wr(GEM_IDR, GEM_IRQ_RX);
    wr(GEM_NWCTRL, nwctrl & ~GEM_NWCTRL_RX_EN);
    dsb();
    for (unsigned i = 0; i < rx_armed; i++)
        if (rx_bd[i].word0 & GEM_RXBD_OWN_SW)
            st.rx_reinit_drops++;
    int err = rx_ring_setup(n);
    dsb();
    wr(GEM_RXQBASE, (uint32_t)(uintptr_t)rx_bd);
    wr(GEM_RXSR, GEM_RXSR_CLEAR_ALL);
    isr_pending &= ~(GEM_IXR_RX_COMPLETE | GEM_IXR_RX_USED_READ | GEM_IXR_RX_OVERRUN);
    wr(GEM_NWCTRL, nwctrl);
    wr(GEM_IER, GEM_IRQ_RX);
    return err;
}

unsigned gem_rx_bds(void) { return rx_armed; }

unsigned gem_link_speed(void) { return link_speed; }

unsigned gem_rx_poll(gem_rx_fn fn, void *ctx, unsigned budget)
{
    unsigned n = 0;
    uint32_t idx, w1;

    isr_pending &= ~(GEM_IXR_RX_COMPLETE | GEM_IXR_RX_USED_READ | GEM_IXR_RX_OVERRUN);
    while (n < budget && gem_rx_ring_peek(&rxr, &idx, &w1)) {
        uint32_t len = w1 & (GEM_JUMBO ? GEM_RXBD_LEN_MASK_JUMBO : GEM_RXBD_LEN_MASK);
        if ((w1 & (GEM_RXBD_SOF | GEM_RXBD_EOF)) != (GEM_RXBD_SOF | GEM_RXBD_EOF) ||
            len == 0 || len > GEM_BUF_SIZE) {
            st.rx_bad_bd++;
        } else {
            dcache_invalidate_range(rx_buf[idx], len);
            if (fn(rx_buf[idx], len, (w1 & GEM_RXBD_CSUM_MASK) >> GEM_RXBD_CSUM_SHIFT, ctx)) {
                st.rx_frames++;
                st.rx_bytes += len;
            } else {
                st.rx_dropped++;
            }
        }
        gem_rx_ring_rearm(&rxr);
        n++;
    }
    if (n) {
        dsb();
        wr(GEM_NWCTRL, nwctrl);     /* QEMU: re-read the descriptor */
        st.rx_kicks++;
        if (n > st.max_rx_batch)
            st.max_rx_batch = n;
    }
    /* Ring drained: unmask RX completion.  A frame that lands between the
     * last peek and the unmask raises no interrupt (QEMU latches only
     * unmasked causes), but gem_work_pending() checks the ring head, so the
     * main loop does not sleep on it. */
    if (n < budget)
        wr(GEM_IER, GEM_IRQ_RX);
    return n;
}

static unsigned tx_reclaim(bool kick)
{
    struct gem_tx_done d;
    unsigned n = 0;
    isr_pending &= ~(GEM_IXR_TX_COMPLETE | GEM_IXR_TX_UNDERRUN | GEM_IXR_RETRY_EX_LATE |
                     GEM_IXR_TX_CORRUPT_AHB | GEM_IXR_RESP_NOT_OK);
    while (gem_tx_ring_reclaim(&txr, &d)) {
        if (d.status & GEM_TXBD_ERR_MASK)
            st.tx_errors++;
        n++;
    }
    /* Frames in flight but the transmitter idle: our START_TX raced with the
     * GEM stopping on a descriptor it read just before we handed it over
     * (silicon only; QEMU transmits inside the START_TX write). */
    if (kick && txr.count && !(rd(GEM_TXSR) & GEM_TXSR_TX_GO)) {
        wr(GEM_NWCTRL, nwctrl | GEM_NWCTRL_START_TX);
        st.tx_restarts++;
    }
    return n;
}

unsigned gem_tx_reclaim(void)
{
    return tx_reclaim(true);
}

uint8_t *gem_tx_buffer(void)
{
    if (gem_tx_ring_space(&txr) == 0)
        (void)gem_tx_reclaim();
    if (gem_tx_ring_space(&txr) == 0) {
        st.tx_ring_full++;
        return 0;
    }
    return tx_buf[txr.head];
}

int gem_tx_submit(uint32_t len)
{
    if (len == 0 || len > GEM_BUF_SIZE)
        return -EINVAL;
    dcache_clean_range(tx_buf[txr.head], len);
    int idx = gem_tx_ring_enqueue(&txr, (uint32_t)(uintptr_t)tx_buf[txr.head], len);
    if (idx < 0)
        return idx;
    dsb();
    wr(GEM_NWCTRL, nwctrl | GEM_NWCTRL_START_TX);
    st.tx_frames++;
    st.tx_bytes += len;
    /* we never set GEM_TXBD_NO_CRC, so the MAC pads to the 60-byte minimum */
    if (len < GEM_MIN_FRAME_NOFCS)
        st.tx_pad_bytes += GEM_MIN_FRAME_NOFCS - len;
    return 0;
}

unsigned gem_tx_inflight(void) { return txr.count; }

const struct gem_sw_stats *gem_sw_stats(void) { return &st; }

uint64_t gem_counter_read(unsigned i) { return gem_stats_counter(&hw_stats, i); }

void gem_octets(uint64_t *tx, uint64_t *rx) { gem_stats_octets(&hw_stats, tx, rx); }

void gem_octets_raw(uint32_t *tx_lo, uint32_t *tx_hi, uint32_t *rx_lo, uint32_t *rx_hi)
{
    const uint32_t *h = hw_stats.octets_raw;
    *tx_lo = h[GEM_OCT_TX_BOT];
    *tx_hi = h[GEM_OCT_TX_TOP];
    *rx_lo = h[GEM_OCT_RX_BOT];
    *rx_hi = h[GEM_OCT_RX_TOP];
}

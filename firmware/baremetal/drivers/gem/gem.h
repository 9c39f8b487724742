/* gem.h - Zynq GEM MAC driver (one controller, one queue).
 *
 * Interrupt-driven completion: the ISR only latches the interrupt status;
 * the main loop calls gem_rx_poll()/gem_tx_reclaim() (lwIP NO_SYS runs in
 * one context).  Buffers are copied (not zero-copy): RX frames into pbufs by
 * the caller, TX frames into per-descriptor DMA buffers.
 *
 * Build-time options (Makefile): GEM_RXBD, GEM_TXBD (descriptor counts),
 * GEM_CSUM_OFFLOAD (0/1), GEM_JUMBO (0/1).
 *
 * Known limitations:
 *  - one descriptor per frame (RX buffers are sized for the largest frame);
 *  - no multicast hash, no pause frames, no PTP;
 *  - jumbo frames: the Zynq-7000 PS GEM (rev 0x00020118) has no jumbo
 *    support on silicon (1536-byte frames max); GEM_JUMBO=1 is for QEMU
 *    (and GEM IP that has it).
 */
#ifndef GEM_H
#define GEM_H

#include <stdbool.h>
#include <stdint.h>
#include "gem_stats.h"

#ifndef GEM_RXBD
#define GEM_RXBD 64
#endif
#ifndef GEM_TXBD
#define GEM_TXBD 64
#endif
#ifndef GEM_CSUM_OFFLOAD
#define GEM_CSUM_OFFLOAD 0
#endif
#ifndef GEM_JUMBO
#define GEM_JUMBO 0
#endif
#if GEM_RXBD < 2 || GEM_RXBD > 1024 || GEM_TXBD < 2 || GEM_TXBD > 1024
#error "GEM_RXBD and GEM_TXBD must be in 2..1024"
#endif

#if GEM_JUMBO
#define GEM_MTU          8000u
#define GEM_BUF_SIZE     8064u    /* MTU + header + FCS, multiple of 64 */
#else
#define GEM_MTU          1500u
#define GEM_BUF_SIZE     1536u    /* DMACFG RX buffer size 0x18 x 64 B (UG585 B.18 dma_cfg) */
#endif
#define GEM_MAX_FRAME    (GEM_MTU + 14u)

/* Driver-side counters (the MAC's own counters are read separately). */
struct gem_sw_stats {
    uint32_t irqs;
    uint32_t rx_frames, rx_bytes;
    uint32_t rx_bad_bd;         /* not SOF+EOF in one descriptor */
    uint32_t rx_dropped;        /* deliver callback refused (no pbuf) */
    uint32_t rx_used_read;      /* ISR: RX ring exhausted (episodes, not frames) */
    uint32_t rx_overrun;        /* ISR: RX FIFO overrun (episodes) */
    uint32_t rx_kicks;          /* NWCTRL re-arm writes */
    uint32_t tx_frames, tx_bytes;
    uint32_t tx_pad_bytes;      /* zeros the MAC adds to frames under 60 bytes
                                 * (IEEE 802.3 4.2.3.3; no_crc clear), which the
                                 * octets-transmitted counter includes */
    uint32_t tx_ring_full;      /* gem_tx_buffer() found no free descriptor */
    uint32_t tx_errors;         /* descriptors written back with error bits */
    uint32_t tx_underrun, tx_ahb_err, hresp_not_ok;
    uint32_t tx_restarts;       /* START_TX re-issued for an idle transmitter */
    uint32_t max_rx_batch;
    uint32_t rx_reinit_drops;   /* frames discarded by gem_set_rx_bds() */
};

/* Reset and start the MAC with `mac`, rings empty, link assumed 1000FD.
 * Returns 0 or a negative errno. */
int gem_init(const uint8_t mac[6]);
/* The PHY's result: program NWCFG speed/duplex/gigabit and the reference
 * clock (unless the MAC speed mode below says otherwise).  0 or -EINVAL. */
int gem_set_link(unsigned speed_mbps, bool full_duplex);

/* Debug switch (shell `gem macspeed`): what NWCFG follows.
 *  GEM_MAC_SPEED_AUTO          the PHY result (normal operation);
 *  GEM_MAC_SPEED_UNPROGRAMMED  nothing: NWCFG keeps gem_init()'s 1000/full,
 *                              the classic bring-up bug of a driver that
 *                              never updates the MAC after autoneg;
 *  10, 100, 1000               that speed, whatever the PHY resolved.
 * Takes effect at once.  0 or -EINVAL. */
#define GEM_MAC_SPEED_AUTO          0
#define GEM_MAC_SPEED_UNPROGRAMMED  (-1)
int gem_set_mac_speed_mode(int mode);
int gem_mac_speed_mode(void);
bool gem_link_full_duplex(void);      /* NWCFG duplex */

/* Arm only the first @n (2..GEM_RXBD) RX descriptors: the runtime
 * equivalent of a smaller GEM_RXBD (XEMACPS_RXBUFCNT).  Stops the receiver,
 * rebuilds the ring and restarts it; frames received but not yet passed up
 * are dropped, so use it while traffic is stopped.  0 or -EINVAL. */
int gem_set_rx_bds(unsigned n);
unsigned gem_rx_bds(void);
/* True when the ISR has latched work for the main loop. */
bool gem_work_pending(void);

typedef bool (*gem_rx_fn)(const uint8_t *frame, uint32_t len, uint32_t csum_status, void *ctx);
/* Deliver up to `budget` received frames to `fn`, re-arm their descriptors
 * and kick the receiver.  Returns the number of frames handled. */
unsigned gem_rx_poll(gem_rx_fn fn, void *ctx, unsigned budget);
/* A free TX buffer of GEM_BUF_SIZE bytes, or NULL when the ring is full. */
uint8_t *gem_tx_buffer(void);
/* Send `len` bytes written into the buffer from gem_tx_buffer().
 * Returns 0, -EINVAL (bad length) or -ENOSPC. */
int gem_tx_submit(uint32_t len);
/* Reclaim finished TX descriptors; returns how many. */
unsigned gem_tx_reclaim(void);

const struct gem_sw_stats *gem_sw_stats(void);
/* Read one hardware counter, accumulated across clear-on-read (silicon) or
 * taken as is (stock QEMU's counters never clear; detected at run time). */
uint64_t gem_counter_read(unsigned index);
/* 48-bit octet counters, accumulated like gem_counter_read(); call after
 * at least one gem_counter_read() so the clear-on-read mode is known. */
void gem_octets(uint64_t *tx, uint64_t *rx);
/* The raw halves the last gem_octets() read (stock QEMU swaps them).
 * No register access: a second read of a clear-on-read counter would
 * take bytes that arrived since gem_octets() out of its total. */
void gem_octets_raw(uint32_t *tx_lo, uint32_t *tx_hi, uint32_t *rx_lo, uint32_t *rx_hi);
/* The interrupt mask (UG585 B.18 intr_mask, 0x30): 1 = masked. */
uint32_t gem_imr(void);
unsigned gem_tx_inflight(void);
unsigned gem_link_speed(void);
#endif

/*
 * gemlab link: the model PHY (88E1116R), the speed-true MAC timing and the
 * impaired wire between a cadence_gem and its netdev.
 *
 * This is the seam between stock hw/net/cadence_gem.c and gemlab's code
 * (hw/net/gemlab/).  cadence_gem.c calls the gemlab_link_*() hooks only
 * when gemlab_on(): the GEM's "gemlab" property is off by default, so a
 * board that does not set it runs the stock device.  The functions
 * cadence_gem_*() are the stock GEM code the link calls back into.
 * See docs/QEMU_SEAM.md in the gemlab repository.
 */
#ifndef HW_NET_GEMLAB_LINK_H
#define HW_NET_GEMLAB_LINK_H

#include "hw/net/cadence_gem.h"

/*
 * The link is a QOM object of its own, a bus-less device that every GEM
 * creates as its child "gemlab-link" (QOM path GEM/gemlab-link, e.g.
 * /machine/gem0/gemlab-link): the model's properties are its own, set
 * with -global gemlab-link.NAME=VALUE before the GEM realizes and with
 * QMP qom-set afterwards.  The GEM has none of them.
 */
#define TYPE_GEMLAB_LINK "gemlab-link"
typedef struct GemlabLink GemlabLink;

/* Why a frame was dropped where no GEM register counts it. */
typedef enum GemlabRxDrop {
    GEMLAB_RX_DROP_RUNT,      /* shorter than an Ethernet header */
    GEMLAB_RX_DROP_QUEUE,     /* screened to a queue the GEM lacks */
    GEMLAB_RX_DROP_CSUM,      /* receive checksum offload discard */
    GEMLAB_RX_DROP_RESOURCE,  /* no free RX descriptor */
    GEMLAB_RX_DROP_STARVED,   /* rx-starve-ns burst (also RESOURCE) */
} GemlabRxDrop;

static inline bool gemlab_on(const CadenceGEMState *s)
{
    return s->gemlab;
}

/* ---- Hooks: cadence_gem.c calls these when gemlab_on(s) -------------- */

/* class_init (nothing: the link has the properties); instance init
 * creates the link; finalize drops it */
void gemlab_link_class_init(ObjectClass *oc);
void gemlab_link_instance_init(CadenceGEMState *s);
void gemlab_link_finalize(CadenceGEMState *s);
/* realize (before the NIC exists); false with @errp set on failure */
bool gemlab_link_realize(CadenceGEMState *s, Error **errp);
/* device reset: the TX pipeline and MDIO stop, the wire keeps its frames */
void gemlab_link_reset(CadenceGEMState *s);

/* PHY: hardware reset, link forced by set_link, MDIO register access */
void gemlab_link_phy_reset(CadenceGEMState *s);
void gemlab_link_update(CadenceGEMState *s);
uint16_t gemlab_link_phy_read(CadenceGEMState *s, unsigned reg);
void gemlab_link_phy_write(CadenceGEMState *s, unsigned reg, uint16_t val);

/* RX: netdev side */
bool gemlab_link_can_receive(CadenceGEMState *s);
ssize_t gemlab_link_receive(CadenceGEMState *s, const uint8_t *buf,
                            size_t size);
bool gemlab_link_rx_starved(CadenceGEMState *s);
void gemlab_link_rx_dropped(CadenceGEMState *s, GemlabRxDrop why);

/*
 * TX: TSTART (false: a frame is in the pipeline, its completion goes on);
 * a gathered frame in s->tx_packet of @len bytes whose first descriptor
 * is at @first_desc, @next_desc the one after its last; the DMA found no
 * more frames; transmit disabled; transmit halt (NWCTRL bit 10); whether
 * the DMA runs (TXSTATUS bit 3, transmit go).
 */
bool gemlab_link_tx_start(CadenceGEMState *s);
void gemlab_link_tx_frame(CadenceGEMState *s, int q, hwaddr first_desc,
                          hwaddr next_desc, uint32_t last_desc_word1,
                          unsigned len);
void gemlab_link_tx_idle(CadenceGEMState *s);
void gemlab_link_tx_stop(CadenceGEMState *s);
void gemlab_link_tx_halt(CadenceGEMState *s);
bool gemlab_link_tx_active(CadenceGEMState *s);

/* A register access from the CPU (docs/SECURITY.md Q6) */
void gemlab_link_cpu_access(CadenceGEMState *s);

static inline void gemlab_rx_drop(CadenceGEMState *s, GemlabRxDrop why)
{
    if (gemlab_on(s)) {
        gemlab_link_rx_dropped(s, why);
    }
}

/* ---- Stock cadence_gem.c functions the link calls -------------------- */

/* Fit a frame into the RX ring; see gem_rx_frame() */
ssize_t cadence_gem_rx_frame(CadenceGEMState *s, const uint8_t *buf,
                             size_t size, bool can_hold);
/* Continue the TX DMA (as TSTART does) */
void cadence_gem_transmit(CadenceGEMState *s);
/* A frame has left: hand its first descriptor back, TXCMPL, advance */
void cadence_gem_tx_done(CadenceGEMState *s, int q, hwaddr first_desc,
                         hwaddr next_desc);
/* Count a transmitted frame in the statistics registers */
void cadence_gem_tx_stats(CadenceGEMState *s, const uint8_t *p,
                          unsigned len);
/* Raise or lower the interrupt lines from ISR */
void cadence_gem_update_irq(CadenceGEMState *s);

#endif

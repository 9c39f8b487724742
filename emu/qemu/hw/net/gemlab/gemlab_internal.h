/*
 * gemlab_internal.h - the state of a gemlab link attached to a cadence_gem
 * (include/hw/net/gemlab_link.h is the hook API).  Shared by
 * gemlab_link.c, gemlab_props.c and gemlab_pcap.c only.
 */
#ifndef HW_NET_GEMLAB_INTERNAL_H
#define HW_NET_GEMLAB_INTERNAL_H

#include "hw/net/gemlab_link.h"
#include "hw/registerfields.h"
#include "qemu/timer.h"
#include "hw/qdev-core.h"
#include "exec/memory.h"

/* gemlab models (models/include in the gemlab repository) */
#include "gemlab/pcapng.h"
#include "gemlab/phy.h"
#include "gemlab/wire.h"

/*
 * The GEM register bits the link reads (UG585 appendix B.18, gem
 * registers), named GL_ so they do not collide with cadence_gem.c's.
 */
REG32(GL_NWCTRL, 0x000)
    FIELD(GL_NWCTRL, LOOPBACK_LOCAL, 1, 1)
    FIELD(GL_NWCTRL, RXEN, 2, 1)
    FIELD(GL_NWCTRL, TXEN, 3, 1)
REG32(GL_NWCFG, 0x004)
    FIELD(GL_NWCFG, SPEED, 0, 1)            /* 1: 100 Mb/s, 0: 10 Mb/s */
    FIELD(GL_NWCFG, FDX, 1, 1)              /* full duplex */
    FIELD(GL_NWCFG, GIGE_EN, 10, 1)         /* 1000 Mb/s (overrides SPEED) */
REG32(GL_RXFCSCNT, 0x190)                   /* frame check sequence errors */
/* half duplex: collision statistics (UG585 appendix B) */
REG32(GL_SINGLECOLLCNT, 0x138)              /* single_collisn_frames */
REG32(GL_MULTCOLLCNT, 0x13c)                /* multi_collisn_frames */
REG32(GL_EXCESSCOLLCNT, 0x140)              /* excessive_collisns */
REG32(GL_LATECOLLCNT, 0x144)                /* late_collisns */
REG32(GL_DEFERTXCNT, 0x148)                 /* deferred_tx_frames */

/* RX descriptor word 0 bit 0: owned by software (UG585 16.3.6) */
#define GL_RX_DESC_0_OWNED   (1u << 0)
/* TX descriptor word 1 bit 16: no CRC appended (UG585 16.3.7) */
#define GL_TX_DESC_1_NOCRC   (1u << 16)

/* From gemlab/mii.h (QEMU's net/mii.h uses the same names). */
#define GL_MII_BMCR          0u
#define GL_BMCR_LOOPBACK     (1u << 14)

/*
 * The partner's MAC transmit queue (B->A), frames: those it holds until
 * their last bit is on the wire (gl_link_send's tx_done).  QEMU's net
 * queue holds what does not fit.  Frames already on the wire do not
 * count: a real cable holds latency x rate of them whatever the queue.
 */
#define GEMLAB_PARTNER_TXQ 64
/*
 * Frames the TX timer hands back per call before it yields to the main
 * loop (it re-arms 1 ns later), so QMP and the other fds are served
 * between batches of a backlog.
 */
#define GEMLAB_TX_BATCH 256
/*
 * docs/SECURITY.md Q6: a guest can build a loopback DMA "quine", a frame
 * that, looped back into an RX buffer laid over its own TX descriptor,
 * hands that descriptor back to the DMA, so frames keep going with no CPU.
 * Loopback frames sent since the CPU last accessed a GEM register are
 * counted; past GEMLAB_LOOP_RUN_MAX (more than any TX ring a driver fills
 * between two register accesses: Linux's macb writes TSTART per frame)
 * each further one takes at least GEMLAB_LOOP_PACE_NS.
 */
#define GEMLAB_LOOP_RUN_MAX 4096
#define GEMLAB_LOOP_PACE_NS (1000 * 1000)

/* One frame on the wire; the wire model holds it through its cookie. */
typedef struct GemlabFrame {
    uint32_t len;
    bool garbled;       /* MAC/PHY speed mismatch: line carries garbage */
    uint8_t data[];
} GemlabFrame;

/* Counters no GEM register holds (read-only properties stat-*) */
typedef struct GemlabCounters {
    uint64_t rx_resource_drops;  /* frames dropped: no RX descriptor */
    uint64_t rx_fcs_drops;       /* frames dropped with a bad FCS */
    uint64_t rx_csum_drops;      /* frames dropped: RX checksum offload */
    uint64_t rx_mismatch_drops;  /* RX frames garbled by MAC/PHY mismatch */
    uint64_t tx_mismatch_drops;  /* TX frames garbled by MAC/PHY mismatch */
    uint64_t tx_partner_fcs_drops; /* TX frames the partner discarded */
    uint64_t tx_frames;          /* frames handed back to the guest */
    uint64_t rx_starve_drops;    /* of rx_resource_drops: rx-starve-ns */
    uint64_t rx_disabled_drops;  /* frames arriving while NWCTRL RXEN is 0 */
    uint64_t rx_queue_drops;     /* screened to a queue this GEM lacks */
    uint64_t rx_runt_drops;      /* shorter than an Ethernet header */
} GemlabCounters;

typedef struct GemlabPcap GemlabPcap;

/*
 * A gemlab-link (TYPE_GEMLAB_LINK), a bus-less device each GEM creates as
 * its child: the configuration lives from creation, the PHY, wire and
 * timers from the GEM's realize until the GEM is finalized.
 */
struct GemlabLink {
    DeviceState parent_obj;
    CadenceGEMState *gem;        /* its GEM */
    /*
     * Configuration: what the properties hold.  phy_params also carries
     * the partner and the cable; wire_params[GL_LINK_A_TO_B] is our TX.
     */
    struct gl_phy_params phy_params;
    struct gl_wire_params wire_params[2];
    uint64_t wire_seed;
    bool link_prop_up;           /* "link" property */
    bool rx_backpressure;
    char *pcap_path;
    uint64_t pcap_max_bytes;     /* "pcap-max-bytes" */
    uint32_t pcap_snaplen;       /* "pcap-snaplen" */
    /* rx-starve-ns: no RX descriptor counts as free until this time */
    uint64_t rx_starve_until_ns;

    bool realized;
    struct gl_phy phy;
    struct gl_link *wire;
    struct gl_phy_link link;     /* last link pushed to the wire */
    QEMUTimer *phy_timer, *tx_timer, *wire_timer;

    /* TX DMA: tx_go from TSTART until the DMA finds no frame. */
    bool tx_go, tx_busy;
    int tx_q;
    hwaddr tx_first_desc, tx_next_desc;
    GemlabFrame *tx_loop;        /* loopback frame, delivered at tx done */
    /*
     * When the frame in the pipeline finishes; the next frame of a burst
     * starts then even if the timer fired late, so the line stays busy.
     */
    uint64_t tx_done_ns;
    bool tx_chained;
    /* tx_done of the partner's queued frames, oldest at ptx_head */
    uint64_t ptx_done_ns[GEMLAB_PARTNER_TXQ];
    unsigned ptx_head, ptx_len;
    unsigned loop_run;           /* loopback frames since a CPU access */

    GemlabPcap *pcap;            /* the open capture, or NULL */
    GemlabCounters cnt;
    Error *migration_blocker;
};

OBJECT_DECLARE_SIMPLE_TYPE(GemlabLink, GEMLAB_LINK)

/* gemlab_link.c */
uint64_t gemlab_now(void);
bool gemlab_mac_matches_phy(GemlabLink *g);
void gemlab_phy_sync(GemlabLink *g);
void gemlab_wire_arm(GemlabLink *g);
void gemlab_rx_flush(GemlabLink *g);

/* gemlab_pcap.c: open (errp set on failure), close, one frame */
void gemlab_pcap_open(GemlabLink *g, Error **errp);
void gemlab_pcap_close(GemlabLink *g);
void gemlab_pcap_frame(GemlabLink *g, uint64_t t_ns, bool inbound,
                       const GemlabFrame *f, bool bad_fcs,
                       const char *comment);

/* gemlab_props.c */
void gemlab_props_class_init(ObjectClass *oc);

#endif

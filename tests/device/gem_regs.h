/*
 * gem_regs.h - the GEM0 registers and descriptor bits the device tests
 * drive (Zynq-7000 TRM UG585 chapter 16 and appendix B.18).
 */
#ifndef GEMLAB_TESTS_DEVICE_GEM_REGS_H
#define GEMLAB_TESTS_DEVICE_GEM_REGS_H

#define BITU(n) (1u << (n))

#define GEM0_BASE          0xE000B000u
#define GEM0_QOM           "/machine/gem0"
#define GEM0_PHY_ADDR      7u

/* net_ctrl: 10 tx halt | 9 tx start | 7 statistics write enable |
 * 6 increment statistics | 5 clear statistics | 4 MDIO enable |
 * 3 tx enable | 2 rx enable | 1 local loopback */
#define GEM_NWCTRL         0x000u
#define GEM_NWCTRL_THALT   BITU(10)
#define GEM_NWCTRL_TSTART  BITU(9)
#define GEM_NWCTRL_WESTAT  BITU(7)
#define GEM_NWCTRL_INCSTAT BITU(6)
#define GEM_NWCTRL_CLRSTAT BITU(5)
#define GEM_NWCTRL_MDEN    BITU(4)
#define GEM_NWCTRL_TXEN    BITU(3)
#define GEM_NWCTRL_RXEN    BITU(2)
#define GEM_NWCTRL_LOOPBACK_LOCAL BITU(1)

/* net_cfg: 20:18 MDC divisor | 17 FCS remove | 10 gigabit | 4 copy all |
 * 1 full duplex | 0 speed 100 */
#define GEM_NWCFG          0x004u
#define GEM_NWCFG_FCS_REMOVE BITU(17)
#define GEM_NWCFG_MDC_DIV32 (2u << 18)
#define GEM_NWCFG_RX_CSUM  BITU(24)  /* receive checksum offload enable */
#define GEM_NWCFG_GIGE     BITU(10)
#define GEM_NWCFG_PROMISC  BITU(4)
#define GEM_NWCFG_FDX      BITU(1)
#define GEM_NWCFG_SPEED100 BITU(0)

/* net_status: 2 PHY management idle */
#define GEM_NWSR           0x008u
#define GEM_NWSR_MGMT_IDLE BITU(2)

/* dma_cfg: 30 64-bit addressing | 23:16 RX buffer size in 64-byte units */
#define GEM_DMACFG         0x010u
#define GEM_DMACFG_ADDR64  BITU(30)
#define GEM_DMACFG_TX_CSUM BITU(11)  /* TX checksum generation offload */
#define GEM_DMACFG_RXBUF_1536 (0x18u << 16)

/* tx_status: 3 transmit go */
#define GEM_TXSR           0x014u
#define GEM_TXSR_TGO       BITU(3)
#define GEM_RXQBASE        0x018u
#define GEM_TXQBASE        0x01Cu

/* rx_status: 2 overrun | 1 frame received | 0 buffer not available */
#define GEM_RXSR           0x020u
#define GEM_RXSR_BNA       BITU(0)
#define GEM_RXSR_FRAMERX   BITU(1)

#define GEM_ISR            0x024u
#define GEM_IER            0x028u   /* interrupt enable (write 1s) */
#define GEM_IDR            0x02Cu   /* interrupt disable (write 1s) */
#define GEM_IMR            0x030u   /* interrupt mask, bits 26:0 */
#define GEM_ISR_MGMT_DONE  BITU(0)
#define GEM_ISR_RX_USED    BITU(2)
#define GEM_ISR_TX_AHB_ERR BITU(6)  /* Linux macb: TXERR */
#define GEM_ISR_TX_COMPLETE BITU(7)

/* phy_maint: 30 clause 22 | 29:28 op | 27:23 phy | 22:18 reg | 17:16 10b |
 * 15:0 data */
#define GEM_PHYMNTNC       0x034u
#define GEM_PHYMNTNC_C22   BITU(30)
#define GEM_PHYMNTNC_OP_RD (2u << 28)
#define GEM_PHYMNTNC_OP_WR (1u << 28)
#define GEM_PHYMNTNC_PHY(a) ((uint32_t)(a) << 23)
#define GEM_PHYMNTNC_REG(r) ((uint32_t)(r) << 18)
#define GEM_PHYMNTNC_MUST10 (2u << 16)

/* statistics (B.18, 0x100..0x1B0) */
#define GEM_OCTETS_TX_LO   0x100u    /* bits 31:0 */
#define GEM_OCTETS_TX_HI   0x104u    /* bits 47:32 */
#define GEM_FRAMES_TX      0x108u
#define GEM_MCAST_TX       0x110u
#define GEM_OCTETS_RX_LO   0x150u    /* bits 31:0 */
#define GEM_OCTETS_RX_HI   0x154u    /* bits 47:32 */
#define GEM_FRAMES_RX      0x158u
#define GEM_MCAST_RX       0x160u
#define GEM_OVERSIZE_RX    0x188u
#define GEM_FCS_ERRORS     0x190u
#define GEM_RX_RESOURCE_ERRORS 0x1A0u
#define GEM_RX_OVERRUN_ERRORS  0x1A4u
#define GEM_RX_IP_CSUM_ERRORS  0x1A8u
#define GEM_RX_TCP_CSUM_ERRORS 0x1ACu
#define GEM_RX_UDP_CSUM_ERRORS 0x1B0u

/* type 1 screener 0 (priority queueing): 29 UDP port match enable |
 * 28 DS/TC match enable | 11:4 DS/TC value (IPv4 byte 1) | 3:0 queue */
#define GEM_SCREEN_T1_0    0x500u
#define GEM_SCREEN_T1_DSTC_EN BITU(28)
#define GEM_SCREEN_T1_DSTC(v) ((uint32_t)(v) << 4)
/* screening_type_2_register_0 and type2_compare ethertype 0 (UG585
 * B.18; the QEMU generic-fuzz seeds, tests/fuzz/qemu/mkseeds.py, program
 * them: 12 ethertype compare enable | 11:9 compare index | 3:0 queue) */
#define GEM_SCREEN_T2_0    0x540u
#define GEM_SCREEN_T2_ETHT_EN BITU(12)
#define GEM_SCREEN_T2_ETHTYPE_0 0x6E0u

/* Descriptors (16.3.5 / 16.3.6), 2 words (4 with 64-bit addressing). */
#define RXD_W0_WRAP        BITU(1)
#define RXD_W0_OWNED_SW    BITU(0)   /* "used": the buffer holds a frame */
#define RXD_W1_LEN_MASK    0x1FFFu
/* With GEM_NWCFG_RX_CSUM: 0 none checked, 1 IP header, 2 + TCP, 3 + UDP */
#define RXD_W1_CSUM(w1)    (((w1) >> 22) & 3u)
#define TXD_W1_USED        BITU(31)
#define TXD_W1_WRAP        BITU(30)
#define TXD_W1_LAST        BITU(15)

/* SLCR A9_CPU_RST_CTRL (B.28) */
#define SLCR_BASE          0xF8000000u
#define SLCR_UNLOCK        0x008u
#define SLCR_UNLOCK_KEY    0xDF0Du

#endif /* GEMLAB_TESTS_DEVICE_GEM_REGS_H */

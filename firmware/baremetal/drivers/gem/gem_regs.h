/* gem_regs.h - Cadence GEM as integrated in the Zynq-7000 PS.
 *
 * Source: Zynq-7000 TRM UG585 v1.13, chapter 16 (Gigabit Ethernet
 * Controller) and appendix B.18 (gem register details).  Names follow the
 * TRM: GEM_<REG>_<FIELD>.  Offsets are from the controller base
 * (GEM0 0xE000B000, GEM1 0xE000C000).
 */
#ifndef GEM_REGS_H
#define GEM_REGS_H

#define GEM_BIT(n) (1u << (n))

/* net_ctrl 0x000
 *  31..19 res | 18 flush_next_rx_dpram_pkt | 17..13 pfc/pause/zero-q | 12 tx_pause
 *  11 pause | 10 tx_halt | 9 start_tx | 8 back_pressure | 7 stats_write_en
 *  6 incr_stats | 5 clear_stats | 4 mgmt_port_en | 3 tx_en | 2 rx_en
 *  1 loopback_local | 0 res */
#define GEM_NWCTRL                0x000u
#define GEM_NWCTRL_LOOPBACK_LOCAL GEM_BIT(1)
#define GEM_NWCTRL_RX_EN          GEM_BIT(2)
#define GEM_NWCTRL_TX_EN          GEM_BIT(3)
#define GEM_NWCTRL_MGMT_PORT_EN   GEM_BIT(4)   /* "MDEN" */
#define GEM_NWCTRL_CLEAR_STATS    GEM_BIT(5)
#define GEM_NWCTRL_START_TX       GEM_BIT(9)   /* "TSTART" */
#define GEM_NWCTRL_TX_HALT        GEM_BIT(10)

/* net_cfg 0x004
 *  30 ignore_ipg_rx_er | 29 bad_preamb | 28 ipg_stretch_en | 27 sgmii_en
 *  26 ignore_rx_fcs | 25 rx_hd_while_tx | 24 rx_chksum_offld_en
 *  23 dis_cp_pause_frame | 22..21 dbus_width | 20..18 mdc_clk_div
 *  17 fcs_remove | 16 len_err_frame_disc | 15..14 rx_buf_offset | 13 pause_en
 *  12 retry_test | 11 pcs_sel | 10 gige_en | 9 ext_addr_match_en
 *  8 rx_1536_byte_frames | 7 uni_hash_en | 6 multi_hash_en | 5 no_broadcast
 *  4 copy_all | 3 (jumbo frames on GEM IP with jumbo support) | 2 disc_non_vlan
 *  1 full_duplex | 0 speed (1 = 100 Mb/s) */
#define GEM_NWCFG                 0x004u
#define GEM_NWCFG_SPEED100        GEM_BIT(0)
#define GEM_NWCFG_FDEN            GEM_BIT(1)
#define GEM_NWCFG_JUMBO           GEM_BIT(3)
#define GEM_NWCFG_COPY_ALL        GEM_BIT(4)
#define GEM_NWCFG_NO_BROADCAST    GEM_BIT(5)
#define GEM_NWCFG_MULTI_HASH_EN   GEM_BIT(6)
#define GEM_NWCFG_RX_1536         GEM_BIT(8)
#define GEM_NWCFG_GIGE_EN         GEM_BIT(10)
#define GEM_NWCFG_PAUSE_EN        GEM_BIT(13)
#define GEM_NWCFG_RXOFFS_SHIFT    14
#define GEM_NWCFG_RXOFFS_MASK     (0x3u << 14)
#define GEM_NWCFG_FCS_REMOVE      GEM_BIT(17)
#define GEM_NWCFG_MDC_DIV_SHIFT   18
#define GEM_NWCFG_MDC_DIV_MASK    (0x7u << 18)
#define GEM_NWCFG_DBUS_WIDTH_SHIFT 21
#define GEM_NWCFG_DBUS_WIDTH_MASK (0x3u << 21)   /* 00 = 32 bit (Zynq) */
#define GEM_NWCFG_RX_CSUM_EN      GEM_BIT(24)
/* mdc_clk_div: MDC = cpu_1x / N, N = 8,16,32,48,64,96,128,224 for 0..7 */

/* net_status 0x008: 2 phy_mgmt_idle | 1 mdio_in | 0 res */
#define GEM_NWSR                  0x008u
#define GEM_NWSR_MGMT_IDLE        GEM_BIT(2)

/* dma_cfg 0x010
 *  24 disc_when_no_ahb | 23..16 ahb_mem_rx_buf_size (x64 bytes)
 *  11 csum_gen_offload_en | 10 tx_pktbuf_memsz_sel | 9..8 rx_pktbuf_memsz_sel
 *  7 ahb_endian_swp_pkt_en | 6 ahb_endian_swp_mgmt_en | 4..0 ahb_fixed_burst_len */
#define GEM_DMACFG                0x010u
#define GEM_DMACFG_BLEN_SHIFT     0
#define GEM_DMACFG_BLEN_MASK      0x1Fu
#define GEM_DMACFG_BLEN_INCR16    0x10u
#define GEM_DMACFG_RXSIZE_FULL    (0x3u << 8)   /* use full 8 KiB RX packet buffer */
#define GEM_DMACFG_TXSIZE_FULL    GEM_BIT(10)   /* use full 4 KiB TX packet buffer */
#define GEM_DMACFG_TX_CSUM_OFFLOAD GEM_BIT(11)
#define GEM_DMACFG_RXBUF_SHIFT    16
#define GEM_DMACFG_RXBUF_MASK     (0xFFu << 16)
#define GEM_DMACFG_RXBUF_UNIT     64u
#define GEM_DMACFG_DISC_NO_AHB    GEM_BIT(24)

/* tx_status 0x014 (write 1 to clear)
 *  8 hresp_not_ok | 7 late_collision | 6 tx_under_run | 5 tx_complete
 *  4 tx_corr_ahb_err | 3 tx_go (ro) | 2 retry_limit_exceeded | 1 collision
 *  0 used_bit_read */
#define GEM_TXSR                  0x014u
#define GEM_TXSR_USED_READ        GEM_BIT(0)
#define GEM_TXSR_COLLISION        GEM_BIT(1)
#define GEM_TXSR_RETRY_LIMIT      GEM_BIT(2)
#define GEM_TXSR_TX_GO            GEM_BIT(3)
#define GEM_TXSR_AHB_ERR          GEM_BIT(4)
#define GEM_TXSR_TX_COMPLETE      GEM_BIT(5)
#define GEM_TXSR_UNDERRUN         GEM_BIT(6)
#define GEM_TXSR_LATE_COLLISION   GEM_BIT(7)
#define GEM_TXSR_HRESP_NOT_OK     GEM_BIT(8)
#define GEM_TXSR_CLEAR_ALL        0x1F7u

#define GEM_RXQBASE               0x018u   /* rx_qbar: [31:2] address */
#define GEM_TXQBASE               0x01Cu   /* tx_qbar: [31:2] address */

/* rx_status 0x020 (write 1 to clear)
 *  3 hresp_not_ok | 2 rx_overrun | 1 frame_recd | 0 buffer_not_avail */
#define GEM_RXSR                  0x020u
#define GEM_RXSR_BUFFER_NOT_AVAIL GEM_BIT(0)
#define GEM_RXSR_FRAME_RECD       GEM_BIT(1)
#define GEM_RXSR_RX_OVERRUN       GEM_BIT(2)
#define GEM_RXSR_HRESP_NOT_OK     GEM_BIT(3)
#define GEM_RXSR_CLEAR_ALL        0xFu

/* intr_status 0x024 / intr_en 0x028 / intr_dis 0x02C / intr_mask 0x030
 *  11 resp_not_ok | 10 rx_overrun | 9 link_chng | 7 tx_complete
 *  6 tx_corrupt_ahb_err | 5 retry_ex_late_collisn | 4 tx_underrun
 *  3 tx_used_read | 2 rx_used_read | 1 rx_complete | 0 mgmt_done */
#define GEM_ISR                   0x024u
#define GEM_IER                   0x028u
#define GEM_IDR                   0x02Cu
#define GEM_IMR                   0x030u
#define GEM_IXR_MGMT_DONE         GEM_BIT(0)
#define GEM_IXR_RX_COMPLETE       GEM_BIT(1)
#define GEM_IXR_RX_USED_READ      GEM_BIT(2)
#define GEM_IXR_TX_USED_READ      GEM_BIT(3)
#define GEM_IXR_TX_UNDERRUN       GEM_BIT(4)
#define GEM_IXR_RETRY_EX_LATE     GEM_BIT(5)
#define GEM_IXR_TX_CORRUPT_AHB    GEM_BIT(6)
#define GEM_IXR_TX_COMPLETE       GEM_BIT(7)
#define GEM_IXR_RX_OVERRUN        GEM_BIT(10)
#define GEM_IXR_RESP_NOT_OK       GEM_BIT(11)
#define GEM_IXR_ALL               0x03FFFEFFu

/* phy_maint 0x034
 *  31 must be 0 | 30 clause_22 (1) | 29..28 operation (01 write, 10 read)
 *  27..23 phy_addr | 22..18 reg_addr | 17..16 must be 10 | 15..0 data */
#define GEM_PHYMNTNC              0x034u
#define GEM_PHYMNTNC_CLAUSE22     GEM_BIT(30)
#define GEM_PHYMNTNC_OP_SHIFT     28
#define GEM_PHYMNTNC_OP_WRITE     (0x1u << 28)
#define GEM_PHYMNTNC_OP_READ      (0x2u << 28)
#define GEM_PHYMNTNC_ADDR_SHIFT   23
#define GEM_PHYMNTNC_ADDR_MASK    (0x1Fu << 23)
#define GEM_PHYMNTNC_REG_SHIFT    18
#define GEM_PHYMNTNC_REG_MASK     (0x1Fu << 18)
#define GEM_PHYMNTNC_MUST10       (0x2u << 16)
#define GEM_PHYMNTNC_DATA_MASK    0xFFFFu

#define GEM_JUMBO_MAX_LEN         0x048u   /* GEM revisions with jumbo support */
#define GEM_HASHL                 0x080u
#define GEM_HASHH                 0x084u
/* spec_addr1_bot 0x088: MAC bytes 0..3 (byte 0 in [7:0]);
 * spec_addr1_top 0x08C: bytes 4..5.  Writing _bot disables the filter entry
 * until _top is written (and stock QEMU only matches after the _top write). */
#define GEM_SPADDR1L              0x088u
#define GEM_SPADDR1H              0x08Cu
#define GEM_MODID                 0x0FCu   /* module_id: 0x00020118 on Zynq */

/* Statistics (UG585 B.18, 0x100..0x1B0): 32-bit, clear on read on silicon
 * (stock QEMU's hw/net/cadence_gem.c gem_read() does not clear them).
 * octets_* are 48 bit: _bot + _top. */
#define GEM_OCTTXL                0x100u
#define GEM_OCTTXH                0x104u
#define GEM_OCTRXL                0x150u
#define GEM_OCTRXH                0x154u
#define GEM_STAT_FIRST            0x108u
#define GEM_STAT_LAST             0x1B0u

/* Buffer descriptors (UG585 sec. 16.3.7, tables 16-2 / 16-3): two words. */
/* RX word0: [31:2] buffer address | 1 wrap | 0 ownership (1 = used by SW) */
#define GEM_RXBD_ADDR_MASK        0xFFFFFFFCu
#define GEM_RXBD_WRAP             GEM_BIT(1)
#define GEM_RXBD_OWN_SW           GEM_BIT(0)
/* RX word1: 31 bcast | 30 mcast hash | 29 ucast hash | 27 spec addr match
 *  26..25 which spec addr | 23..22 checksum status (with rx_chksum_offld_en:
 *  00 none, 01 IP ok, 10 IP+TCP ok, 11 IP+UDP ok) | 15 EOF | 14 SOF
 *  13 FCS/bit 13 of length (jumbo) | 12..0 length */
#define GEM_RXBD_LEN_MASK         0x1FFFu
#define GEM_RXBD_LEN_MASK_JUMBO   0x3FFFu
#define GEM_RXBD_SOF              GEM_BIT(14)
#define GEM_RXBD_EOF              GEM_BIT(15)
#define GEM_RXBD_CSUM_SHIFT       22
#define GEM_RXBD_CSUM_MASK        (0x3u << 22)
/* values of that field (gem_rx_poll passes it shifted down) */
#define GEM_RX_CSUM_NONE          0x0u
#define GEM_RX_CSUM_IP            0x1u
#define GEM_RX_CSUM_IP_TCP        0x2u
#define GEM_RX_CSUM_IP_UDP        0x3u
#define GEM_RXBD_BCAST            GEM_BIT(31)
/* TX word1: 31 used (1 = SW owns) | 30 wrap | 29 retry limit exceeded
 *  27 AHB error | 26 late collision | 22..20 checksum gen error
 *  16 no_crc | 15 last buffer | 13..0 length */
#define GEM_TXBD_LEN_MASK         0x3FFFu
#define GEM_TXBD_LAST             GEM_BIT(15)
#define GEM_TXBD_NO_CRC           GEM_BIT(16)
/* Shortest frame the MAC sends without FCS: it zero-pads shorter ones unless
 * no_crc is set (IEEE 802.3 4.2.3.3, minFrameSize 64 octets with FCS). */
#define GEM_MIN_FRAME_NOFCS       60u
#define GEM_TXBD_CSUM_ERR_MASK    (0x7u << 20)
#define GEM_TXBD_LATE_COLL        GEM_BIT(26)
#define GEM_TXBD_AHB_ERR          GEM_BIT(27)
#define GEM_TXBD_RETRY_LIMIT      GEM_BIT(29)
#define GEM_TXBD_WRAP             GEM_BIT(30)
#define GEM_TXBD_USED             GEM_BIT(31)
#define GEM_TXBD_ERR_MASK         (GEM_TXBD_RETRY_LIMIT | GEM_TXBD_AHB_ERR | GEM_TXBD_LATE_COLL)

#endif /* GEM_REGS_H */

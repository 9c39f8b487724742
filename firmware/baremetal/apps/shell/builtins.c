/* builtins.c - platform commands: help, ip, dhcp, phy, stats, reboot. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lwip/dhcp.h"
#include "lwip/ip4_addr.h"
#include "lwip/memp.h"
#include "lwip/netif.h"
#include "lwip/stats.h"
#include "shell.h"
#include "shell_priv.h"
#include "fw.h"
#include "bsp.h"
#include "gem.h"
#include "gem_regs.h"
#include "mdio.h"
#include "phy.h"
#include "phy_regs.h"

/* newlib-nano's printf has no %llu: format 64-bit values ourselves. */
static const char *u64str(uint64_t v, char buf[21])
{
    char *p = buf + 20;
    *p = '\0';
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return p;
}

static int cmd_help(int argc, char **argv)
{
    (void)argc; (void)argv;
    const struct shell_cmd *const *c;
    unsigned n = shell_commands(&c);
    for (unsigned i = 0; i < n; i++)
        printf("  %-10s %s\n", c[i]->name, c[i]->usage ? c[i]->usage : "");
    return 0;
}

static void print_ip(void)
{
    struct netif *nif = fw_netif();
    char ip[16], mask[16], gw[16];
    ip4addr_ntoa_r(netif_ip4_addr(nif), ip, sizeof ip);
    ip4addr_ntoa_r(netif_ip4_netmask(nif), mask, sizeof mask);
    ip4addr_ntoa_r(netif_ip4_gw(nif), gw, sizeof gw);
    printf(FW_JSON_HEAD("ip") ",\"ip\":\"%s\",\"netmask\":\"%s\",\"gw\":\"%s\","
           "\"link\":%s,\"mtu\":%u,\"dhcp\":%s}\n", ip, mask, gw,
           netif_is_link_up(nif) ? "true" : "false", (unsigned)nif->mtu,
           dhcp_supplied_address(nif) ? "true" : "false");
    printf("ip %s netmask %s gw %s link %s mtu %u\n", ip, mask, gw,
           netif_is_link_up(nif) ? "up" : "down", (unsigned)nif->mtu);
}

static int cmd_ip(int argc, char **argv)
{
    if (argc == 1) {
        print_ip();
        return 0;
    }
    if (argc != 4 || fw_set_ip(argv[1], argv[2], argv[3]) != 0)
        return -1;
    print_ip();
    return 0;
}

static int cmd_dhcp(int argc, char **argv)
{
    (void)argv;
    if (argc != 1)
        return -1;
    if (fw_start_dhcp() != 0) {
        printf("dhcp: could not start\n");
        return 1;
    }
    printf("dhcp: started; 'ip' shows the lease once bound\n");
    return 0;
}

static void phy_dump(struct phy *phy)
{
    uint16_t r[32];
    printf(FW_JSON_HEAD("phy_regs") ",\"addr\":%u,\"id\":\"0x%08" PRIx32 "\",\"regs\":[",
           phy->addr, phy->id);
    for (unsigned i = 0; i < 32; i++) {
        /* Reg 19 (Marvell interrupt status) clears on read on silicon:
         * dump it anyway, it is what the user asked for. */
        if (mdio_read(phy->addr, (uint8_t)i, &r[i]) != 0)
            r[i] = 0xFFFF;
        printf("%s%u", i ? "," : "", r[i]);
    }
    printf("]}\n");
    printf("PHY at MDIO %u, id 0x%08" PRIx32 " (%s), state %s\n", phy->addr, phy->id,
           phy->drv ? phy->drv->name : "none", phy_state_name(phy->state));
    for (unsigned i = 0; i < 32; i += 8) {
        printf("  %2u:", i);
        for (unsigned j = i; j < i + 8; j++)
            printf(" %04x", r[j]);
        printf("\n");
    }
}

/* phy downshift off | on [N]: what the PHY driver configures (88E1116R reg
 * 20 Extended PHY Specific Control, downshift enable bit 8 and counter
 * 11:9 [MII_M1111_PHY_EXT_CR_DOWNSHIFT_*], Linux drivers/net/phy/marvell.c).
 * The PHY is only reset when the register does not already hold that, so
 * a setting that the power-on strap already has does not drop the link. */
static int phy_downshift(struct phy *phy, int argc, char **argv)
{
    bool en;
    unsigned long n = PHY_DOWNSHIFT_ATTEMPTS;
    uint16_t scr = 0;
    if (strcmp(argv[2], "off") == 0 && argc == 3) {
        en = false;
    } else if (strcmp(argv[2], "on") == 0) {
        en = true;
        if (argc == 4) {
            char *end;
            n = strtoul(argv[3], &end, 10);
            if (*end != '\0' || n < 1 || n > PHY_DOWNSHIFT_ATTEMPTS_MAX)
                return -1;
        }
    } else {
        return -1;
    }
    /* Before the PHY is found (the shell is up before the scan ends) the
     * request waits for the driver's first configure. */
    bool pending = !phy->drv, same = true;
    if (phy->drv && (!(phy->drv->flags & PHY_F_DOWNSHIFT) || mdio_read(phy->addr, MRVL_PSCR, &scr) != 0)) {
        printf("phy: downshift: no PHY with downshift control (%s)\n", phy->drv->name);
        return 1;
    }
    if (!pending)
        same = en ? (scr & MRVL_PSCR_DOWNSHIFT_EN) &&
                        ((scr & MRVL_PSCR_DOWNSHIFT_CNT_MASK) >> MRVL_PSCR_DOWNSHIFT_CNT_SHIFT) == n - 1u
                  : !(scr & MRVL_PSCR_DOWNSHIFT_EN);
    if (phy_cmd_downshift(phy, en, (unsigned)n, !same) != 0)
        return -1;
    printf(FW_JSON_HEAD("phy_downshift") ",\"enabled\":%s,\"attempts\":%lu,\"pending\":%s,"
           "\"restart\":%s}\n", en ? "true" : "false", en ? n : 0ul, pending ? "true" : "false",
           same ? "false" : "true");
    printf("phy: downshift %s%s\n", en ? "on" : "off",
           pending ? " (at the PHY's first configure)" : same ? " (already set)" : ", PHY reset");
    return 0;
}

/* phy rgmii MODE: the interface mode the PHY driver is given (as Linux
 * takes phy-mode from the device tree), hence which RGMII clock delays the
 * 88E1116R adds (page 2 register 21 bits 5/4, phy_cmd_rgmii).  The PHY is
 * reset only when the register does not already hold that. */
static int phy_rgmii(struct phy *phy, const char *arg)
{
    int mode = phy_rgmii_parse(arg);
    uint16_t want, mscr = 0;
    bool pending = !phy->drv, same = true;

    if (mode < 0)
        return -1;
    want = phy_rgmii_mscr_bits((unsigned)mode);
    if (!pending) {
        bool ok = phy->drv->config && mdio_write(phy->addr, MRVL_PAGE, MRVL_MSCR2_PAGE) == 0 &&
                  mdio_read(phy->addr, MRVL_MSCR2, &mscr) == 0;
        (void)mdio_write(phy->addr, MRVL_PAGE, 0);
        if (!ok) {
            printf("phy: rgmii: no PHY with RGMII delay control (%s)\n", phy->drv->name);
            return 1;
        }
        same = (mscr & (MRVL_MSCR2_RGMII_RX_DELAY | MRVL_MSCR2_RGMII_TX_DELAY)) == want;
    }
    if (phy_cmd_rgmii(phy, (unsigned)mode, !same) != 0)
        return -1;
    printf(FW_JSON_HEAD("phy_rgmii") ",\"mode\":\"%s\",\"rx_delay\":%s,\"tx_delay\":%s,"
           "\"pending\":%s,\"restart\":%s}\n", phy_rgmii_name((unsigned)mode),
           (want & MRVL_MSCR2_RGMII_RX_DELAY) ? "true" : "false",
           (want & MRVL_MSCR2_RGMII_TX_DELAY) ? "true" : "false", pending ? "true" : "false",
           same ? "false" : "true");
    printf("phy: %s%s\n", phy_rgmii_name((unsigned)mode),
           pending ? " (at the PHY's first configure)" : same ? " (already set)" : ", PHY reset");
    return 0;
}

static int cmd_phy(int argc, char **argv)
{
    struct phy *phy = fw_phy();
    if (argc == 1 || (argc == 2 && strcmp(argv[1], "dump") == 0)) {
        if (!phy->drv) {
            printf("phy: no PHY found (state %s)\n", phy_state_name(phy->state));
            return 1;
        }
        phy_dump(phy);
        return 0;
    }
    if (argc == 2 && (strcmp(argv[1], "restart") == 0 || strcmp(argv[1], "aneg") == 0)) {
        phy_cmd_autoneg(phy);
        printf("phy: autonegotiation restart requested\n");
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "advertise") == 0) {
        /* like `ethtool -s eth0 advertise ...`: ANAR (reg 4) and reg 9 are
         * written and autoneg restarted by the state machine's next step */
        unsigned modes;
        uint16_t anar, c1000;
        if (phy_parse_advertise(argv[2], &modes) != 0 || phy_cmd_advertise(phy, modes) != 0)
            return -1;
        phy_advertise_regs(modes, &anar, &c1000);
        printf(FW_JSON_HEAD("phy_advertise") ",\"modes\":%u,\"anar\":%u,\"ctrl1000\":%u,\"t_ms\":%" PRIu32 "}\n",
               modes, anar, c1000, timer_now_ms());
        printf("phy: advertising %s (ANAR 0x%04x, 1000BASE-T control 0x%04x); autonegotiation restart requested\n",
               argv[2], anar, c1000);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "force") == 0) {
        char *end;
        unsigned long speed = strtoul(argv[2], &end, 10);
        bool full;
        if (*end != '\0')
            return -1;
        if (strcmp(argv[3], "full") == 0)
            full = true;
        else if (strcmp(argv[3], "half") == 0)
            full = false;
        else
            return -1;
        if (phy_cmd_force(phy, (unsigned)speed, full) != 0)
            return -1;
        printf("phy: forcing %lu/%s\n", speed, full ? "full" : "half");
        return 0;
    }
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "downshift") == 0)
        return phy_downshift(phy, argc, argv);
    if (argc == 3 && strcmp(argv[1], "rgmii") == 0)
        return phy_rgmii(phy, argv[2]);
    return -1;
}

static const char *mac_mode_str(int mode)
{
    switch (mode) {
    case GEM_MAC_SPEED_AUTO:         return "auto";
    case GEM_MAC_SPEED_UNPROGRAMMED: return "unprogrammed";
    case 10:                         return "10";
    case 100:                        return "100";
    default:                         return "1000";
    }
}

static void gem_config_print(void)
{
    printf(FW_JSON_HEAD("gem_config") ",\"rxbd\":%u,\"rxbd_max\":%u,\"txbd\":%u,"
           "\"mac_speed\":\"%s\",\"nwcfg_speed_mbps\":%u,\"nwcfg_duplex\":\"%s\",\"t_ms\":%" PRIu32 "}\n",
           gem_rx_bds(), (unsigned)GEM_RXBD, (unsigned)GEM_TXBD, mac_mode_str(gem_mac_speed_mode()),
           gem_link_speed(), gem_link_full_duplex() ? "full" : "half", timer_now_ms());
    printf("gem: %u of %u RX descriptors armed, %u TX; MAC speed %s (NWCFG %u/%s)\n",
           gem_rx_bds(), (unsigned)GEM_RXBD, (unsigned)GEM_TXBD, mac_mode_str(gem_mac_speed_mode()),
           gem_link_speed(), gem_link_full_duplex() ? "full" : "half");
}

/* gem                       show the runtime configuration
 * gem rxbd N                arm only N (2..GEM_RXBD) RX descriptors
 * gem macspeed MODE         auto | off | unprogrammed | 10 | 100 | 1000 */
static int cmd_gem(int argc, char **argv)
{
    if (argc == 1) {
        gem_config_print();
        return 0;
    }
    if (argc != 3)
        return -1;
    char *end;
    if (strcmp(argv[1], "rxbd") == 0) {
        unsigned long n = strtoul(argv[2], &end, 10);
        if (end == argv[2] || *end != '\0' || argv[2][0] == '-' || n < 2 || n > GEM_RXBD)
            return -1;
        if (gem_set_rx_bds((unsigned)n) != 0)
            return -1;
        gem_config_print();
        return 0;
    }
    if (strcmp(argv[1], "macspeed") == 0) {
        int mode;
        if (strcmp(argv[2], "auto") == 0)
            mode = GEM_MAC_SPEED_AUTO;
        else if (strcmp(argv[2], "off") == 0 || strcmp(argv[2], "unprogrammed") == 0)
            mode = GEM_MAC_SPEED_UNPROGRAMMED;
        else if (strcmp(argv[2], "10") == 0 || strcmp(argv[2], "100") == 0 ||
                 strcmp(argv[2], "1000") == 0)
            mode = atoi(argv[2]);
        else
            return -1;
        if (gem_set_mac_speed_mode(mode) != 0)
            return -1;
        gem_config_print();
        return 0;
    }
    return -1;
}

static void json_mem(const char *name, const struct stats_mem *m, bool *first)
{
    printf("%s{\"name\":\"%s\",\"avail\":%u,\"used\":%u,\"max\":%u,\"err\":%u,\"illegal\":%u}",
           *first ? "" : ",", name, (unsigned)m->avail, (unsigned)m->used,
           (unsigned)m->max, (unsigned)m->err, (unsigned)m->illegal);
    *first = false;
}

static void json_proto(const char *name, const struct stats_proto *p, bool last)
{
    /* STAT_COUNTER is u32_t (LWIP_STATS_LARGE, port/lwipopts.h) */
    printf("\"%s\":{\"xmit\":%" PRIu32 ",\"recv\":%" PRIu32 ",\"fw\":%" PRIu32 ",\"drop\":%" PRIu32
           ",\"chkerr\":%" PRIu32 ",\"lenerr\":%" PRIu32 ",\"memerr\":%" PRIu32 ",\"rterr\":%" PRIu32
           ",\"proterr\":%" PRIu32 ",\"opterr\":%" PRIu32 ",\"err\":%" PRIu32 "}%s",
           name, p->xmit, p->recv, p->fw, p->drop, p->chkerr, p->lenerr, p->memerr,
           p->rterr, p->proterr, p->opterr, p->err, last ? "" : ",");
}

static int cmd_stats(int argc, char **argv)
{
    (void)argv;
    if (argc != 1)
        return -1;
    struct phy *phy = fw_phy();
    const struct gem_sw_stats *s = gem_sw_stats();
    uint64_t hw[64];
    unsigned nhw = gem_counter_count < 64 ? gem_counter_count : 64;
    for (unsigned i = 0; i < nhw; i++)
        hw[i] = gem_counter_read(i);
    uint32_t otl, oth, orl, orh;
    char nb[21];
    uint64_t oct_tx, oct_rx;
    gem_octets(&oct_tx, &oct_rx);
    gem_octets_raw(&otl, &oth, &orl, &orh);

    /* One JSON line: lwip, gem (hw + driver), phy. */
    printf(FW_JSON_HEAD("stats") ",\"t_ms\":%" PRIu32 ",\"ticks\":%" PRIu32
           ",\"console\":{\"tx_drops\":%" PRIu32 ",\"rx_overruns\":%" PRIu32 "},\"lwip\":{\"mem\":[",
           timer_now_ms(), timer_tick_count(), uart_tx_drops(), uart_rx_overruns());
    bool first = true;
    json_mem("heap", &lwip_stats.mem, &first);
    printf("],\"memp\":[");
    first = true;
    for (unsigned i = 0; i < MEMP_MAX; i++)
        if (lwip_stats.memp[i])
            json_mem(lwip_stats.memp[i]->name ? lwip_stats.memp[i]->name : "?",
                     lwip_stats.memp[i], &first);
    printf("],");
    json_proto("link", &lwip_stats.link, false);
    json_proto("etharp", &lwip_stats.etharp, false);
    json_proto("ip", &lwip_stats.ip, false);
    json_proto("icmp", &lwip_stats.icmp, false);
    json_proto("udp", &lwip_stats.udp, false);
    json_proto("tcp", &lwip_stats.tcp, true);
    printf("},\"gem\":{\"hw\":{");
    for (unsigned i = 0; i < nhw; i++)
        printf("%s\"%s\":%s", i ? "," : "", gem_counters[i].name, u64str(hw[i], nb));
    printf(",\"octets_tx\":%s", u64str(oct_tx, nb));
    printf(",\"octets_rx\":%s", u64str(oct_rx, nb));
    printf(",\"octets_tx_bot\":%" PRIu32 ",\"octets_tx_top\":%" PRIu32
           ",\"octets_rx_bot\":%" PRIu32 ",\"octets_rx_top\":%" PRIu32 "},", otl, oth, orl, orh);
    printf("\"drv\":{\"irqs\":%" PRIu32 ",\"rx_frames\":%" PRIu32 ",\"rx_bytes\":%" PRIu32
           ",\"rx_bad_bd\":%" PRIu32 ",\"rx_dropped\":%" PRIu32 ",\"rx_used_read\":%" PRIu32
           ",\"rx_overrun\":%" PRIu32 ",\"rx_kicks\":%" PRIu32 ",\"max_rx_batch\":%" PRIu32
           ",\"tx_frames\":%" PRIu32 ",\"tx_bytes\":%" PRIu32 ",\"tx_pad_bytes\":%" PRIu32 ",\"tx_ring_full\":%" PRIu32
           ",\"tx_errors\":%" PRIu32 ",\"tx_underrun\":%" PRIu32 ",\"tx_ahb_err\":%" PRIu32
           ",\"hresp_not_ok\":%" PRIu32 ",\"tx_restarts\":%" PRIu32 ",\"tx_inflight\":%u,\"rxbd\":%u,\"rxbd_max\":%u,\"rx_reinit_drops\":%" PRIu32 ",\"txbd\":%u,"
           "\"mac_speed\":\"%s\",\"nwcfg_speed_mbps\":%u,"
           "\"csum_offload\":%s,\"jumbo\":%s,\"mdio_timeouts\":%" PRIu32 ",\"mdio_max_wait_us\":%" PRIu32 ",\"imr\":%" PRIu32 "}},",
           s->irqs, s->rx_frames, s->rx_bytes, s->rx_bad_bd, s->rx_dropped, s->rx_used_read,
           s->rx_overrun, s->rx_kicks, s->max_rx_batch, s->tx_frames, s->tx_bytes, s->tx_pad_bytes,
           s->tx_ring_full, s->tx_errors, s->tx_underrun, s->tx_ahb_err, s->hresp_not_ok,
           s->tx_restarts,
           gem_tx_inflight(), gem_rx_bds(), (unsigned)GEM_RXBD, s->rx_reinit_drops, (unsigned)GEM_TXBD,
           mac_mode_str(gem_mac_speed_mode()), gem_link_speed(),
           GEM_CSUM_OFFLOAD ? "true" : "false", GEM_JUMBO ? "true" : "false", mdio_timeouts(), mdio_max_wait_us(),
           gem_imr());

    static const uint8_t phy_regs[] = { MII_BMCR, MII_BMSR, MII_PHYSID1, MII_PHYSID2,
        MII_ADVERTISE, MII_LPA, MII_EXPANSION, MII_CTRL1000, MII_STAT1000, MII_ESTATUS,
        MRVL_PSCR, MRVL_PSSR, MRVL_ECR };
    uint16_t pv[sizeof phy_regs];
    for (unsigned i = 0; i < sizeof phy_regs; i++)
        if (!phy->drv || mdio_read(phy->addr, phy_regs[i], &pv[i]) != 0)
            pv[i] = 0xFFFF;
    printf("\"phy\":{\"state\":\"%s\",\"addr\":%u,\"id\":\"0x%08" PRIx32 "\",\"name\":\"%s\","
           "\"link\":%s,\"speed_mbps\":%u,\"duplex\":\"%s\",\"autoneg\":%s,\"downshift\":%s,"
           "\"link_changes\":%" PRIu32 ",\"inconsistencies\":%" PRIu32 ",\"an_restarts\":%" PRIu32
           ",\"mdio_errors\":%" PRIu32 ",\"mdio_replays\":%" PRIu32 ",\"regs\":{",
           phy_state_name(phy->state), phy->addr, phy->id, phy->drv ? phy->drv->name : "none",
           phy->link.up ? "true" : "false", phy->link.speed_mbps,
           phy->link.full_duplex ? "full" : "half", phy->link.autoneg ? "true" : "false",
           phy->link.downshift ? "true" : "false", phy->link_changes, phy->inconsistencies,
           phy->an_restarts, phy->mdio_errors, phy->mdio_replays);
    for (unsigned i = 0; i < sizeof phy_regs; i++)
        printf("%s\"%u\":%u", i ? "," : "", phy_regs[i], pv[i]);
    printf("}");
    /* 88E1116R RGMII timing: page 2 reg 21 bits 5 (RX) / 4 (TX) add the
     * clock delay in the PHY (m88e1116r_config sets both; Linux's
     * m88e1121_config_aneg_rgmii_delays() follows the DT phy-mode).  Read
     * for the diagnosis (emu/runner/RESULTS.md PHY_RGMII_DELAY), page 0
     * restored. */
    if (phy->drv && (phy->drv->flags & PHY_F_DOWNSHIFT)) {
        uint16_t mscr2;
        bool ok = mdio_write(phy->addr, MRVL_PAGE, MRVL_MSCR2_PAGE) == 0 &&
                  mdio_read(phy->addr, MRVL_MSCR2, &mscr2) == 0;
        mdio_write(phy->addr, MRVL_PAGE, 0);
        if (ok)
            printf(",\"rgmii_delay\":{\"rx\":%s,\"tx\":%s,\"page2_reg21\":%u}",
                   (mscr2 & MRVL_MSCR2_RGMII_RX_DELAY) ? "true" : "false",
                   (mscr2 & MRVL_MSCR2_RGMII_TX_DELAY) ? "true" : "false", mscr2);
    }
    printf("}}\n");

    /* Human summary. */
    printf("lwIP: heap used %u/%u (max %u, err %u); tcp xmit %" PRIu32 " recv %" PRIu32 " drop %" PRIu32
           "; link xmit %" PRIu32 " recv %" PRIu32 " drop %" PRIu32 " memerr %" PRIu32 "\n",
           (unsigned)lwip_stats.mem.used, (unsigned)lwip_stats.mem.avail,
           (unsigned)lwip_stats.mem.max, (unsigned)lwip_stats.mem.err,
           lwip_stats.tcp.xmit, lwip_stats.tcp.recv, lwip_stats.tcp.drop,
           lwip_stats.link.xmit, lwip_stats.link.recv, lwip_stats.link.drop,
           lwip_stats.link.memerr);
    for (unsigned i = 0; i < MEMP_MAX; i++) {
        const struct stats_mem *m = lwip_stats.memp[i];
        if (m && (m->used || m->max || m->err))
            printf("  memp %-16s used %u max %u avail %u err %u\n", m->name ? m->name : "?",
                   (unsigned)m->used, (unsigned)m->max, (unsigned)m->avail, (unsigned)m->err);
    }
    printf("GEM: rx %" PRIu32 " frames, tx %" PRIu32 " frames, irqs %" PRIu32
           ", rx_used_read %" PRIu32 ", overrun %" PRIu32 ", tx_ring_full %" PRIu32 "\n",
           s->rx_frames, s->tx_frames, s->irqs, s->rx_used_read, s->rx_overrun, s->tx_ring_full);
    for (unsigned i = 0; i < nhw; i++)
        if (hw[i])
            printf("  %-22s %s\n", gem_counters[i].name, u64str(hw[i], nb));
    printf("PHY: %s, %s %u/%s%s\n", phy_state_name(phy->state),
           phy->link.up ? "link up" : "link down", phy->link.speed_mbps,
           phy->link.full_duplex ? "full" : "half", phy->link.autoneg ? " (autoneg)" : "");
    return 0;
}

static int cmd_reboot(int argc, char **argv)
{
    (void)argv;
    if (argc != 1)
        return -1;
    printf("rebooting\n");
    bsp_reboot();
}

static const struct shell_cmd builtins[] = {
    { "help",   "help                       list commands", cmd_help },
    { "ip",     "ip [ADDR NETMASK GW]       show or set the static IPv4 address", cmd_ip },
    { "dhcp",   "dhcp                       get an address by DHCP", cmd_dhcp },
    { "phy",    "phy [dump|restart|aneg|force 10|100|1000 full|half|advertise 1000FD,100FD,...|downshift off|on [1-8]|rgmii rgmii|rgmii-id|rgmii-rxid|rgmii-txid]", cmd_phy },
    { "gem",    "gem [rxbd N|macspeed auto|off|10|100|1000] (RX BDs armed; MAC speed debug)", cmd_gem },
    { "stats",  "stats                      lwIP, GEM and PHY counters", cmd_stats },
    { "reboot", "reboot                     soft-reset the PS", cmd_reboot },
};

void shell_builtins_register(void)
{
    for (unsigned i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        shell_register(&builtins[i]);
}

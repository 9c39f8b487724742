/* main.c - gemlab bare-metal firmware: bring-up and the main loop.
 *
 * Boot: BSP (startup.S -> bsp_early_init), lwIP, GEM + netif, PHY state
 * machine, shell.  Then prints the ready line and loops forever:
 *   RX/TX completion -> lwIP timeouts -> PHY step -> shell input -> app polls
 *   -> WFI until the next interrupt (1 kHz tick, GEM, UART).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "lwip/dhcp.h"
#include "lwip/init.h"
#include "lwip/ip4_addr.h"
#include "lwip/netif.h"
#include "lwip/timeouts.h"
#include "netif/ethernet.h"
#include "board.h"
#include "bsp.h"
#include "fw.h"
#include "gem.h"
#include "netif_gem.h"
#include "phy.h"
#include "shell.h"
#include "shell_priv.h"

#ifndef GEMLAB_FW_VERSION
#define GEMLAB_FW_VERSION "unknown"
#endif

static struct netif nif;
static struct phy phy;
static uint8_t mac[6] = BOARD_MAC;

struct netif *fw_netif(void) { return &nif; }
struct phy *fw_phy(void) { return &phy; }
const char *fw_version(void) { return GEMLAB_FW_VERSION; }
const char *fw_board(void) { return BOARD_NAME; }

/* Default when apps/apps.c is absent: no apps. */
__attribute__((weak)) void apps_register_all(void)
{
}

int fw_set_ip(const char *ip, const char *mask, const char *gw)
{
    ip4_addr_t a, m, g;
    if (!ip4addr_aton(ip, &a) || !ip4addr_aton(mask, &m) || !ip4addr_aton(gw, &g))
        return -EINVAL;
    dhcp_release_and_stop(&nif);
    netif_set_addr(&nif, &a, &m, &g);
    return 0;
}

int fw_start_dhcp(void)
{
    return dhcp_start(&nif) == ERR_OK ? 0 : -ENOMEM;
}

static void phy_event(struct phy *p, enum phy_event ev, void *ctx)
{
    (void)ctx;
    uint32_t t = timer_now_ms();
    switch (ev) {
    case PHY_EVENT_FOUND:
        printf(FW_JSON_HEAD("phy") ",\"addr\":%u,\"id\":\"0x%08" PRIx32 "\",\"name\":\"%s\",\"t_ms\":%" PRIu32 "}\n",
               p->addr, p->id, p->drv->name, t);
        printf("PHY: %s (id 0x%08" PRIx32 ") at MDIO address %u\n", p->drv->name, p->id, p->addr);
        break;
    case PHY_EVENT_NOT_FOUND:
        printf(FW_JSON_HEAD("phy_error") ",\"err\":%d,\"what\":\"no PHY on MDIO\",\"t_ms\":%" PRIu32 "}\n", p->err, t);
        break;
    case PHY_EVENT_ERROR:
        printf(FW_JSON_HEAD("phy_error") ",\"err\":%d,\"state\":\"%s\",\"t_ms\":%" PRIu32 "}\n",
               p->err, phy_state_name(p->state), t);
        break;
    case PHY_EVENT_LINK_UP:
    case PHY_EVENT_LINK_DOWN:
        netif_gem_link(&nif, &p->link);
        if (p->link.up) {
            printf(FW_JSON_HEAD("link") ",\"up\":true,\"speed_mbps\":%u,\"duplex\":\"%s\",\"autoneg\":%s,"
                   "\"downshift\":%s,\"t_ms\":%" PRIu32 "}\n",
                   p->link.speed_mbps, p->link.full_duplex ? "full" : "half",
                   p->link.autoneg ? "true" : "false", p->link.downshift ? "true" : "false", t);
            printf("link up: %u Mb/s %s duplex%s\n", p->link.speed_mbps,
                   p->link.full_duplex ? "full" : "half", p->link.autoneg ? " (autoneg)" : " (forced)");
        } else {
            printf(FW_JSON_HEAD("link") ",\"up\":false,\"t_ms\":%" PRIu32 "}\n", t);
            printf("link down\n");
        }
        break;
    case PHY_EVENT_INCONSISTENT:
        printf(FW_JSON_HEAD("phy_inconsistent") ",\"reg17\":%u,\"used\":\"standard\",\"t_ms\":%" PRIu32 "}\n",
               p->inconsistent_ssr, t);
        printf("PHY warning: vendor status reg 17 = 0x%04x disagrees with the standard registers; using %s\n",
               p->inconsistent_ssr, (p->drv->flags & PHY_F_SSR_TRUSTED) ? "reg 17" : "the standard registers");
        break;
    case PHY_EVENT_DOWNSHIFT:
        printf(FW_JSON_HEAD("downshift") ",\"speed_mbps\":%u,\"t_ms\":%" PRIu32 "}\n", p->link.speed_mbps, t);
        printf("PHY: downshifted to %u Mb/s (cable?)\n", p->link.speed_mbps);
        break;
    default:
        break;
    }
}

/* Address changes (DHCP bound, `ip` command) as one "ip" line. */
static void netif_status(struct netif *n)
{
    char ip[16], mask[16], gw[16];
    ip4addr_ntoa_r(netif_ip4_addr(n), ip, sizeof ip);
    ip4addr_ntoa_r(netif_ip4_netmask(n), mask, sizeof mask);
    ip4addr_ntoa_r(netif_ip4_gw(n), gw, sizeof gw);
    printf(FW_JSON_HEAD("ip") ",\"ip\":\"%s\",\"netmask\":\"%s\",\"gw\":\"%s\",\"dhcp\":%s,\"t_ms\":%" PRIu32 "}\n",
           ip, mask, gw, dhcp_supplied_address(n) ? "true" : "false", timer_now_ms());
    printf("address %s/%s gw %s%s\n", ip, mask, gw, dhcp_supplied_address(n) ? " (dhcp)" : "");
}

static bool awake;

void fw_keep_awake(void)
{
    awake = true;
}

static bool work_pending(void)
{
    bool w = awake || gem_work_pending() || uart_rx_pending();
    awake = false;
    return w;
}

int main(void)
{
    ip4_addr_t ip, mask, gw;

    setvbuf(stdout, NULL, _IOLBF, 256);
    printf("\ngemlab bare-metal firmware %s, board %s\n", GEMLAB_FW_VERSION, BOARD_NAME);

    lwip_init();
    ip4addr_aton(BOARD_IP_ADDR, &ip);
    ip4addr_aton(BOARD_IP_NETMASK, &mask);
    ip4addr_aton(BOARD_IP_GW, &gw);
    if (!netif_add(&nif, &ip, &mask, &gw, mac, netif_gem_init, ethernet_input)) {
        printf(FW_JSON_HEAD("error") ",\"what\":\"gem init failed\"}\n");
    }
    netif_set_default(&nif);
    netif_set_up(&nif);
    netif_set_status_callback(&nif, netif_status);
    phy_init(&phy, BOARD_PHY_ADDR, phy_event, NULL, timer_now_ms());

    shell_builtins_register();
    apps_register_all();

    char ipstr[16];
    ip4addr_ntoa_r(&ip, ipstr, sizeof ipstr);
    printf(FW_JSON_HEAD("ready") ",\"ip\":\"%s\",\"mac\":\"%02x:%02x:%02x:%02x:%02x:%02x\","
           "\"board\":\"%s\",\"fw\":\"%s\",\"rxbd\":%u,\"txbd\":%u,\"csum_offload\":%s,\"jumbo\":%s,"
           "\"tcp_wnd\":%u,\"tcp_mss\":%u,\"pbufs\":%u}\n",
           ipstr, mac[0], mac[1], mac[2], mac[3], mac[4], mac[5], BOARD_NAME, GEMLAB_FW_VERSION,
           (unsigned)GEM_RXBD, (unsigned)GEM_TXBD, GEM_CSUM_OFFLOAD ? "true" : "false",
           GEM_JUMBO ? "true" : "false", (unsigned)TCP_WND, (unsigned)TCP_MSS,
           (unsigned)PBUF_POOL_SIZE);
    printf("ready: %s on %s, MAC %02x:%02x:%02x:%02x:%02x:%02x; type 'help'\n", ipstr,
           BOARD_NAME, mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
    shell_prompt();

    uint32_t phy_due = 0;
    for (;;) {
        uint32_t now = timer_now_ms();
        (void)netif_gem_poll(&nif);
        sys_check_timeouts();
        if ((int32_t)(now - phy_due) >= 0 || phy.reconfigure)   /* commands act at once */
            phy_due = phy_step(&phy, now);
        shell_poll_input();
        shell_run_polls(now);
        bsp_idle(work_pending);
    }
}

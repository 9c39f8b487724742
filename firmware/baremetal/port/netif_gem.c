/* netif_gem.c - lwIP netif over the GEM (copying driver).
 *
 * Buffer ownership: on RX the GEM's buffer is copied into a PBUF_POOL chain
 * that is handed to netif->input (lwIP owns it from then on, or we free it
 * when input fails).  On TX lwIP keeps ownership of the pbuf; we copy it
 * into a TX DMA buffer and return.
 */
#include <string.h>
#include "lwip/etharp.h"
#include "lwip/pbuf.h"
#include "lwip/stats.h"
#include "netif/ethernet.h"
#include "netif_gem.h"
#include "gem.h"

#define RX_BUDGET 64u

static err_t gem_linkoutput(struct netif *netif, struct pbuf *p)
{
    (void)netif;
    if (p->tot_len > GEM_MAX_FRAME) {
        LINK_STATS_INC(link.lenerr);
        LINK_STATS_INC(link.drop);
        return ERR_VAL;
    }
    uint8_t *buf = gem_tx_buffer();
    if (!buf) {
        LINK_STATS_INC(link.memerr);
        LINK_STATS_INC(link.drop);
        return ERR_MEM;
    }
    uint16_t n = pbuf_copy_partial(p, buf, p->tot_len, 0);
    if (gem_tx_submit(n) != 0) {
        LINK_STATS_INC(link.err);
        return ERR_IF;
    }
    LINK_STATS_INC(link.xmit);
    return ERR_OK;
}

static bool deliver(const uint8_t *frame, uint32_t len, uint32_t csum, void *ctx)
{
    struct netif *netif = ctx;
    (void)csum;
    struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16_t)len, PBUF_POOL);
    if (!p) {
        LINK_STATS_INC(link.memerr);
        LINK_STATS_INC(link.drop);
        return false;
    }
    (void)pbuf_take(p, frame, (u16_t)len);
    LINK_STATS_INC(link.recv);
    if (netif->input(p, netif) != ERR_OK) {
        pbuf_free(p);
        LINK_STATS_INC(link.drop);
        return false;
    }
    return true;
}

unsigned netif_gem_poll(struct netif *netif)
{
    unsigned n = gem_rx_poll(deliver, netif, RX_BUDGET);
    (void)gem_tx_reclaim();
    return n;
}

err_t netif_gem_init(struct netif *netif)
{
    const uint8_t *mac = netif->state;
    netif->name[0] = 'e';
    netif->name[1] = '0';
    netif->hwaddr_len = ETH_HWADDR_LEN;
    memcpy(netif->hwaddr, mac, ETH_HWADDR_LEN);
    netif->mtu = GEM_MTU;
    netif->flags = NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET |
                   NETIF_FLAG_IGMP;
    netif->output = etharp_output;
    netif->linkoutput = gem_linkoutput;
    return gem_init(mac) == 0 ? ERR_OK : ERR_IF;
}

void netif_gem_link(struct netif *netif, const struct phy_link *link)
{
    if (link->up) {
        (void)gem_set_link(link->speed_mbps, link->full_duplex);
        netif_set_link_up(netif);
    } else {
        netif_set_link_down(netif);
    }
}

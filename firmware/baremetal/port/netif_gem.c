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
#include "gem_regs.h"

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

#if GEM_CSUM_OFFLOAD
/* lwIP's per-netif checksum switches for one received frame, from the
 * GEM's RX checksum status (RX descriptor word 1 bits 23:22, UG585 ch. 16
 * "Receive Buffer Descriptor Entry"; with rx_chksum_offld_en the GEM has
 * already discarded frames whose checked sums were wrong):
 *   00  nothing checked (not IP, VLAN tag with CFI, SNAP, a header
 *       it cannot parse, ...)               -> lwIP checks everything
 *   01  IPv4 header checked, TCP/UDP not (a fragment, other protocols,
 *       UDP without checksum)               -> lwIP checks TCP/UDP
 *   10  IP header and TCP checked           -> lwIP checks all but those
 *   11  IP header and UDP checked           -> likewise
 * Linux's macb likewise trusts only 10/11 (GEM_RX_CSUM_CHECKED_MASK,
 * drivers/net/ethernet/cadence/macb_main.c).  Only the RX checks switch:
 * the TX generators of IP/UDP/TCP are compiled out (the GEM inserts those
 * sums) and ICMP's stay on. */
static u16_t rx_csum_flags(uint32_t status)
{
    u16_t off;

    switch (status) {
    case GEM_RX_CSUM_IP:
        off = NETIF_CHECKSUM_CHECK_IP;
        break;
    case GEM_RX_CSUM_IP_TCP:
        off = NETIF_CHECKSUM_CHECK_IP | NETIF_CHECKSUM_CHECK_TCP;
        break;
    case GEM_RX_CSUM_IP_UDP:
        off = NETIF_CHECKSUM_CHECK_IP | NETIF_CHECKSUM_CHECK_UDP;
        break;
    default:
        off = 0;
        break;
    }
    return (u16_t)(NETIF_CHECKSUM_ENABLE_ALL & ~off);
}
#endif

static bool deliver(const uint8_t *frame, uint32_t len, uint32_t csum, void *ctx)
{
    struct netif *netif = ctx;
#if GEM_CSUM_OFFLOAD
    /* NO_SYS: netif->input() below runs the whole stack for this frame
     * (ethernet -> IP -> reassembly -> UDP/TCP) before it returns, so the
     * switches set here apply to this frame only.  A reassembled datagram
     * is checked under the status of the fragment that completed it: a
     * fragment is never reported 10/11. */
    NETIF_SET_CHECKSUM_CTRL(netif, rx_csum_flags(csum));
#else
    (void)csum;
#endif
    struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16_t)len, PBUF_POOL);
    if (!p) {
        LINK_STATS_INC(link.memerr);
        LINK_STATS_INC(link.drop);
        return false;
    }
    (void)pbuf_take(p, frame, (u16_t)len);
    LINK_STATS_INC(link.recv);
    err_t err = netif->input(p, netif);
#if GEM_CSUM_OFFLOAD
    /* sends from outside an input (apps' poll hooks) see the defaults */
    NETIF_SET_CHECKSUM_CTRL(netif, NETIF_CHECKSUM_ENABLE_ALL);
#endif
    if (err != ERR_OK) {
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

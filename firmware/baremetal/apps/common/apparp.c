/* apparp.c - is the Ethernet next hop to an IPv4 address resolved?
 *
 * lwIP queues at most ARP_QUEUE_LEN (3) packets per unresolved neighbour
 * (lwIP 2.1.3 src/core/ipv4/etharp.c, etharp_query()) and frees the oldest
 * beyond that while still returning ERR_OK, so a paced UDP sender that
 * starts before the first ARP reply (RFC 826) silently loses its first
 * datagrams, which the server then reports as loss.  A sender asks here
 * first.  Kept out of appnet.c, which the host unit tests link against
 * stub lwIP headers without ARP.
 */
#include <stdbool.h>

#include "lwip/etharp.h"
#include "lwip/ip4.h"
#include "lwip/netif.h"

#include "appnet.h"

bool app_nexthop_ready(const ip_addr_t *dst, bool request)
{
    const ip4_addr_t *d = ip_2_ip4(dst), *hop = d, *ip_ret;
    struct eth_addr *eth_ret;
    struct netif *nif = ip4_route(d);

    /* no route, no ARP on the interface, broadcast or multicast: nothing
     * to resolve (the send itself reports a missing route) */
    if (!nif || !(nif->flags & NETIF_FLAG_ETHARP) ||
        ip4_addr_isbroadcast(d, nif) || ip4_addr_ismulticast(d))
        return true;
    /* off-link destinations go through the gateway (etharp_output()) */
    if (!ip4_addr_netcmp(d, netif_ip4_addr(nif), netif_ip4_netmask(nif)) &&
        !ip4_addr_islinklocal(d) && !ip4_addr_isany(netif_ip4_gw(nif)))
        hop = netif_ip4_gw(nif);
    if (etharp_find_addr(nif, hop, &eth_ret, &ip_ret) >= 0)
        return true;
    if (request)
        etharp_request(nif, hop);
    return false;
}

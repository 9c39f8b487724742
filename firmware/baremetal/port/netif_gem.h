/* netif_gem.h - lwIP network interface over the GEM driver. */
#ifndef NETIF_GEM_H
#define NETIF_GEM_H

#include "lwip/netif.h"
#include "phy.h"

/* netif_add() init callback: MAC address from netif->state (uint8_t[6]). */
err_t netif_gem_init(struct netif *netif);
/* Main loop: deliver received frames, reclaim TX.  Returns frames handled. */
unsigned netif_gem_poll(struct netif *netif);
/* Apply a PHY result: MAC speed/duplex + clock, lwIP link state. */
void netif_gem_link(struct netif *netif, const struct phy_link *link);

#endif

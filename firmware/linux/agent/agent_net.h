/* agent_net.h - link, PHY and NIC counters through the ethtool and MII
 * ioctls (the same calls `ethtool`, `ethtool -S` and `mii-tool` make).
 *
 * Known limitations: only page 0 of the PHY register file is read (Marvell
 * pages through reg 22; the agent never switches pages); GLINKSETTINGS masks
 * beyond AGENT_LINK_NWORDS words are ignored.
 */
#ifndef GEMLAB_AGENT_NET_H
#define GEMLAB_AGENT_NET_H

#include <stdbool.h>
#include <stdint.h>

#define AGENT_LINK_NWORDS 3     /* 96 link-mode bits: all of the 1G modes */

struct agent_link {
    bool up;                    /* ETHTOOL_GLINK */
    bool settings_valid;        /* GLINKSETTINGS or GSET answered */
    uint32_t speed_mbps;        /* 0 when unknown (SPEED_UNKNOWN) */
    int duplex;                 /* DUPLEX_HALF/FULL/UNKNOWN */
    bool autoneg;
    int port;                   /* PORT_TP, PORT_MII, ... */
    int phy_addr;
    uint32_t supported[AGENT_LINK_NWORDS];
    uint32_t advertising[AGENT_LINK_NWORDS];
    uint32_t lp_advertising[AGENT_LINK_NWORDS];
};

/* Read iface's link.  Returns 0 or a negative errno (no such interface). */
int agent_link_get(const char *iface, struct agent_link *l);

/* Name of link-mode bit `bit` as ethtool prints it, or NULL if the agent
 * does not name it. */
const char *agent_link_mode_name(unsigned bit);

/* Read PHY registers 0..31 through SIOCGMIIPHY/SIOCGMIIREG.  Returns 0 and
 * *phy_addr, or a negative errno. */
int agent_mii_read_all(const char *iface, int *phy_addr, uint16_t regs[32]);

/* The driver's `ethtool -S` counters.  On success *names is n * 32 bytes of
 * ETH_GSTRING_LEN strings and *values n counters, both malloc'd and owned by
 * the caller.  Returns n >= 0 or a negative errno. */
int agent_ethtool_stats(const char *iface, char **names, uint64_t **values);

/* IPv4 address (dotted, >= 16 bytes) and MAC ("aa:bb:..", >= 18 bytes) of
 * iface (SIOCGIFADDR, SIOCGIFHWADDR).  Returns 0 or a negative errno. */
int agent_if_addr(const char *iface, char *ip, char *mac);

/* Driver name and bus info (ETHTOOL_GDRVINFO); each buffer >= 32 bytes. */
int agent_drvinfo(const char *iface, char *driver, char *bus_info);

/* Descriptor ring sizes, as `ethtool -g IFACE` shows them (ETHTOOL_GRINGPARAM):
 * the current and the driver's maximum RX/TX.  Returns 0 or -errno. */
struct agent_ring {
    unsigned rx, tx, rx_max, tx_max;
};
int agent_ring_get(const char *iface, struct agent_ring *r);

/* `ethtool -G IFACE rx RX tx TX` (ETHTOOL_SRINGPARAM); 0 keeps that ring.
 * The driver may round or clamp (macb: 64..8192 RX, 64..4096 TX, up to a
 * power of two, macb_set_ringparam): read back with agent_ring_get.
 * Returns 0 or -errno. */
int agent_ring_set(const char *iface, unsigned rx, unsigned tx);

/* The PHY's downshift as `ethtool --set-phy-tunable IFACE downshift
 * on count N|off` sets it (ETHTOOL_PHY_STUNABLE, ETHTOOL_PHY_DOWNSHIFT;
 * @count 0 = off).  The Marvell driver writes the bits and soft-resets the
 * PHY (marvell.c m88e1011_set_downshift).  Returns 0 or -errno. */
int agent_downshift_set(const char *iface, unsigned count);
/* Its current value (ETHTOOL_PHY_GTUNABLE): the attempt count, 0 = off. */
int agent_downshift_get(const char *iface, unsigned *count);

#endif /* GEMLAB_AGENT_NET_H */

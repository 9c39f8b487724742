/* agent_net.c - ethtool and MII ioctls (see agent_net.h). */
#include "agent_net.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/mii.h>
#include <linux/sockios.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* One ioctl on a throwaway datagram socket.  Returns 0 or -errno. */
static int net_ioctl(const char *iface, unsigned long req, struct ifreq *ifr)
{
    int fd, rc = 0;

    strncpy(ifr->ifr_name, iface, IFNAMSIZ - 1);
    ifr->ifr_name[IFNAMSIZ - 1] = '\0';
    fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        return -errno;
    if (ioctl(fd, req, ifr) < 0)
        rc = -errno;
    close(fd);
    return rc;
}

static int ethtool_cmd_ioctl(const char *iface, void *cmd)
{
    struct ifreq ifr;

    memset(&ifr, 0, sizeof(ifr));
    ifr.ifr_data = cmd;
    return net_ioctl(iface, SIOCETHTOOL, &ifr);
}

/* GLINKSETTINGS: the kernel first answers a request with nwords = 0 by
 * putting -(its nwords) there (include/uapi/linux/ethtool.h, "handshake"). */
static int link_ksettings(const char *iface, struct agent_link *l)
{
    struct {
        struct ethtool_link_settings s;
        uint32_t masks[3 * 32];
    } req;
    int rc, nwords;

    memset(&req, 0, sizeof(req));
    req.s.cmd = ETHTOOL_GLINKSETTINGS;
    rc = ethtool_cmd_ioctl(iface, &req);
    if (rc != 0)
        return rc;
    nwords = -req.s.link_mode_masks_nwords;
    if (nwords <= 0 || nwords > 32)
        return -EPROTO;
    memset(&req, 0, sizeof(req));
    req.s.cmd = ETHTOOL_GLINKSETTINGS;
    req.s.link_mode_masks_nwords = (int8_t)nwords;
    rc = ethtool_cmd_ioctl(iface, &req);
    if (rc != 0)
        return rc;
    l->speed_mbps = req.s.speed == (uint32_t)SPEED_UNKNOWN ? 0 : req.s.speed;
    l->duplex = req.s.duplex;
    l->autoneg = req.s.autoneg == AUTONEG_ENABLE;
    l->port = req.s.port;
    l->phy_addr = req.s.phy_address;
    for (int i = 0; i < AGENT_LINK_NWORDS && i < nwords; i++) {
        l->supported[i] = req.masks[i];
        l->advertising[i] = req.masks[nwords + i];
        l->lp_advertising[i] = req.masks[2 * nwords + i];
    }
    return 0;
}

/* The legacy GSET, for drivers without ksettings. */
static int link_gset(const char *iface, struct agent_link *l)
{
    struct ethtool_cmd c;
    uint32_t speed;
    int rc;

    memset(&c, 0, sizeof(c));
    c.cmd = ETHTOOL_GSET;
    rc = ethtool_cmd_ioctl(iface, &c);
    if (rc != 0)
        return rc;
    speed = ethtool_cmd_speed(&c);
    l->speed_mbps = speed == (uint32_t)SPEED_UNKNOWN ? 0 : speed;
    l->duplex = c.duplex;
    l->autoneg = c.autoneg == AUTONEG_ENABLE;
    l->port = c.port;
    l->phy_addr = c.phy_address;
    l->supported[0] = c.supported;
    l->advertising[0] = c.advertising;
    l->lp_advertising[0] = c.lp_advertising;
    return 0;
}

int agent_link_get(const char *iface, struct agent_link *l)
{
    struct ethtool_value v = { .cmd = ETHTOOL_GLINK };
    int rc;

    memset(l, 0, sizeof(*l));
    l->duplex = DUPLEX_UNKNOWN;
    rc = ethtool_cmd_ioctl(iface, &v);
    if (rc != 0)
        return rc;
    l->up = v.data != 0;
    l->settings_valid = link_ksettings(iface, l) == 0 || link_gset(iface, l) == 0;
    return 0;
}

static const struct {
    unsigned bit;
    const char *name;
} mode_names[] = {
    { ETHTOOL_LINK_MODE_10baseT_Half_BIT, "10baseT/Half" },
    { ETHTOOL_LINK_MODE_10baseT_Full_BIT, "10baseT/Full" },
    { ETHTOOL_LINK_MODE_100baseT_Half_BIT, "100baseT/Half" },
    { ETHTOOL_LINK_MODE_100baseT_Full_BIT, "100baseT/Full" },
    { ETHTOOL_LINK_MODE_1000baseT_Half_BIT, "1000baseT/Half" },
    { ETHTOOL_LINK_MODE_1000baseT_Full_BIT, "1000baseT/Full" },
    { ETHTOOL_LINK_MODE_Autoneg_BIT, "Autoneg" },
    { ETHTOOL_LINK_MODE_TP_BIT, "TP" },
    { ETHTOOL_LINK_MODE_MII_BIT, "MII" },
    { ETHTOOL_LINK_MODE_Pause_BIT, "Pause" },
    { ETHTOOL_LINK_MODE_Asym_Pause_BIT, "Asym_Pause" },
    { ETHTOOL_LINK_MODE_1000baseX_Full_BIT, "1000baseX/Full" },
};

const char *agent_link_mode_name(unsigned bit)
{
    for (size_t i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++)
        if (mode_names[i].bit == bit)
            return mode_names[i].name;
    return NULL;
}

int agent_mii_read_all(const char *iface, int *phy_addr, uint16_t regs[32])
{
    struct ifreq ifr;
    struct mii_ioctl_data *mii = (struct mii_ioctl_data *)&ifr.ifr_ifru;
    int rc;

    memset(&ifr, 0, sizeof(ifr));
    rc = net_ioctl(iface, SIOCGMIIPHY, &ifr);
    if (rc != 0)
        return rc;
    *phy_addr = mii->phy_id;
    for (unsigned r = 0; r < 32; r++) {
        uint16_t id = mii->phy_id;

        memset(&ifr, 0, sizeof(ifr));
        mii->phy_id = id;
        mii->reg_num = (uint16_t)r;
        rc = net_ioctl(iface, SIOCGMIIREG, &ifr);
        if (rc != 0)
            return rc;
        regs[r] = mii->val_out;
    }
    return 0;
}

int agent_if_addr(const char *iface, char *ip, char *mac)
{
    struct ifreq ifr;
    const unsigned char *hw;
    int rc;

    memset(&ifr, 0, sizeof(ifr));
    ifr.ifr_addr.sa_family = AF_INET;
    rc = net_ioctl(iface, SIOCGIFADDR, &ifr);
    if (rc != 0)
        return rc;
    if (inet_ntop(AF_INET, &((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr,
                  ip, INET_ADDRSTRLEN) == NULL)
        return -errno;
    memset(&ifr, 0, sizeof(ifr));
    rc = net_ioctl(iface, SIOCGIFHWADDR, &ifr);
    if (rc != 0)
        return rc;
    hw = (const unsigned char *)ifr.ifr_hwaddr.sa_data;
    snprintf(mac, 18, "%02x:%02x:%02x:%02x:%02x:%02x",
             hw[0], hw[1], hw[2], hw[3], hw[4], hw[5]);
    return 0;
}

int agent_drvinfo(const char *iface, char *driver, char *bus_info)
{
    struct ethtool_drvinfo di;
    int rc;

    memset(&di, 0, sizeof(di));
    di.cmd = ETHTOOL_GDRVINFO;
    rc = ethtool_cmd_ioctl(iface, &di);
    if (rc != 0)
        return rc;
    memcpy(driver, di.driver, 31);
    driver[31] = '\0';
    memcpy(bus_info, di.bus_info, 31);
    bus_info[31] = '\0';
    return 0;
}

int agent_ethtool_stats(const char *iface, char **names, uint64_t **values)
{
    struct {
        struct ethtool_sset_info hdr;
        uint32_t len;
    } sset;
    struct ethtool_gstrings *gs = NULL;
    struct ethtool_stats *st = NULL;
    uint32_t n;
    int rc;

    *names = NULL;
    *values = NULL;
    memset(&sset, 0, sizeof(sset));
    sset.hdr.cmd = ETHTOOL_GSSET_INFO;
    sset.hdr.sset_mask = 1ULL << ETH_SS_STATS;
    rc = ethtool_cmd_ioctl(iface, &sset);
    if (rc != 0)
        return rc;
    n = sset.hdr.sset_mask ? sset.len : 0;
    if (n == 0)
        return 0;
    gs = calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN);
    st = calloc(1, sizeof(*st) + (size_t)n * sizeof(uint64_t));
    if (gs == NULL || st == NULL) {
        rc = -ENOMEM;
        goto out;
    }
    gs->cmd = ETHTOOL_GSTRINGS;
    gs->string_set = ETH_SS_STATS;
    gs->len = n;
    rc = ethtool_cmd_ioctl(iface, gs);
    if (rc != 0)
        goto out;
    st->cmd = ETHTOOL_GSTATS;
    st->n_stats = n;
    rc = ethtool_cmd_ioctl(iface, st);
    if (rc != 0)
        goto out;
    *names = malloc((size_t)n * ETH_GSTRING_LEN);
    *values = malloc((size_t)n * sizeof(uint64_t));
    if (*names == NULL || *values == NULL) {
        free(*names);
        free(*values);
        *names = NULL;
        *values = NULL;
        rc = -ENOMEM;
        goto out;
    }
    memcpy(*names, gs->data, (size_t)n * ETH_GSTRING_LEN);
    for (uint32_t i = 0; i < n; i++)
        (*names)[(i + 1) * ETH_GSTRING_LEN - 1] = '\0';
    memcpy(*values, st->data, (size_t)n * sizeof(uint64_t));
    rc = (int)n;
out:
    free(gs);
    free(st);
    return rc;
}

int agent_ring_get(const char *iface, struct agent_ring *r)
{
    struct ethtool_ringparam rp;
    int rc;

    memset(&rp, 0, sizeof(rp));
    rp.cmd = ETHTOOL_GRINGPARAM;
    rc = ethtool_cmd_ioctl(iface, &rp);
    if (rc)
        return rc;
    r->rx = rp.rx_pending;
    r->tx = rp.tx_pending;
    r->rx_max = rp.rx_max_pending;
    r->tx_max = rp.tx_max_pending;
    return 0;
}

int agent_ring_set(const char *iface, unsigned rx, unsigned tx)
{
    struct ethtool_ringparam rp;
    int rc;

    /* as ethtool -G does: the current values, the asked ones over them */
    memset(&rp, 0, sizeof(rp));
    rp.cmd = ETHTOOL_GRINGPARAM;
    rc = ethtool_cmd_ioctl(iface, &rp);
    if (rc)
        return rc;
    if (rx)
        rp.rx_pending = rx;
    if (tx)
        rp.tx_pending = tx;
    rp.cmd = ETHTOOL_SRINGPARAM;
    return ethtool_cmd_ioctl(iface, &rp);
}

/* struct ethtool_tunable ends in a flexible data[]: the value follows the
 * header (include/uapi/linux/ethtool.h, net/ethtool/ioctl.c
 * ethtool_phy_tunable_valid: len 1 for ETHTOOL_PHY_DOWNSHIFT). */
static int phy_tunable(const char *iface, uint32_t cmd, uint8_t *val)
{
    union {
        struct ethtool_tunable t;
        uint8_t raw[sizeof(struct ethtool_tunable) + 8];
    } req;
    int rc;

    memset(&req, 0, sizeof(req));
    req.t.cmd = cmd;
    req.t.id = ETHTOOL_PHY_DOWNSHIFT;
    req.t.type_id = ETHTOOL_TUNABLE_U8;
    req.t.len = 1;
    req.raw[sizeof(struct ethtool_tunable)] = *val;
    rc = ethtool_cmd_ioctl(iface, &req);
    if (rc == 0)
        *val = req.raw[sizeof(struct ethtool_tunable)];
    return rc;
}

int agent_downshift_set(const char *iface, unsigned count)
{
    uint8_t v = (uint8_t)count;

    if (count > 255)
        return -EINVAL;
    return phy_tunable(iface, ETHTOOL_PHY_STUNABLE, &v);
}

int agent_downshift_get(const char *iface, unsigned *count)
{
    uint8_t v = 0;
    int rc = phy_tunable(iface, ETHTOOL_PHY_GTUNABLE, &v);

    if (rc == 0)
        *count = v;
    return rc;
}

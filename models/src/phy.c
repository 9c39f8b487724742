/*
 * phy.c - configuration, environment and observation of the PHY model.
 *
 * Every configuration entry point validates its input and returns -EINVAL
 * with a message naming the field and the allowed range (gemlab/err.h);
 * nothing here asserts on user input.  The register file lives in
 * phy_regs.c, the state machine in phy_aneg.c.
 */
#include "phy_internal.h"

#include <stdio.h>
#include <string.h>

#define ANEG_NS_MIN   (1ULL * GL_NS_PER_MS)
#define ANEG_NS_MAX   (60ULL * GL_NS_PER_S)
#define TRAIN_NS_MAX  (60ULL * GL_NS_PER_S)

void gl_phy_partner_default(struct gl_phy_partner *partner)
{
    memset(partner, 0, sizeof(*partner));
    partner->autoneg = true;
    partner->abilities = GL_ABIL_ALL_SPEEDS;
    partner->forced_speed_mbps = 100;
    partner->forced_full_duplex = true;
    partner->ms = GL_MS_PREFER_MASTER;
}

void gl_phy_params_default(struct gl_phy_params *p)
{
    memset(p, 0, sizeof(*p));
    p->aneg_ns = 1500ULL * GL_NS_PER_MS;
    p->train_1000_ns = 1000ULL * GL_NS_PER_MS;
    p->phy_rev = 0;
    p->downshift_enable = false;
    p->downshift_attempts = 4;
    p->seed = 1;
    gl_phy_partner_default(&p->partner);
    p->cable = GL_CABLE_4PAIR;
    p->max_speed_mbps = 1000;
}

int gl_phy_partner_validate(const struct gl_phy_partner *partner,
                            struct gl_err *err)
{
    if (!partner) {
        return gl_err_set(err, -EINVAL, "phy.partner: is NULL");
    }
    if (partner->abilities & ~(uint32_t)GL_ABIL_ALL_MASK) {
        return gl_err_set(err, -EINVAL,
                          "phy.partner.abilities: 0x%x has bits outside the "
                          "allowed mask 0x%x", (unsigned)partner->abilities,
                          (unsigned)GL_ABIL_ALL_MASK);
    }
    if (!partner->autoneg && partner->forced_speed_mbps != 10 &&
        partner->forced_speed_mbps != 100) {
        return gl_err_set(err, -EINVAL,
                          "phy.partner.forced_speed_mbps: %u is not allowed "
                          "without autoneg (10 or 100; 1000BASE-T needs "
                          "autonegotiation, IEEE 802.3 40.5.1)",
                          partner->forced_speed_mbps);
    }
    if ((unsigned)partner->ms >= GL_MS__COUNT) {
        return gl_err_set(err, -EINVAL,
                          "phy.partner.ms: %u is out of range [0, %u] "
                          "(prefer-slave, prefer-master, master, slave)",
                          (unsigned)partner->ms, (unsigned)GL_MS__COUNT - 1);
    }
    return 0;
}

static int check_cable(enum gl_cable cable, struct gl_err *err)
{
    if ((unsigned)cable >= GL_CABLE__COUNT) {
        return gl_err_set(err, -EINVAL,
                          "phy.cable: %u is out of range [0, %u] "
                          "(none, 4pair, 2pair)",
                          (unsigned)cable, (unsigned)GL_CABLE__COUNT - 1);
    }
    return 0;
}

static int check_max_speed(unsigned mbps, struct gl_err *err)
{
    if (mbps != 100 && mbps != 1000) {
        return gl_err_set(err, -EINVAL,
                          "phy.max_speed_mbps: %u is not allowed (100 or 1000)",
                          mbps);
    }
    return 0;
}

int gl_phy_params_validate(const struct gl_phy_params *p, struct gl_err *err)
{
    int rc;

    if (!p) {
        return gl_err_set(err, -EINVAL, "phy: params is NULL");
    }
    if ((rc = gl_check_u64(err, "phy.aneg_ns", p->aneg_ns, ANEG_NS_MIN,
                           ANEG_NS_MAX, "ns")) ||
        (rc = gl_check_u64(err, "phy.train_1000_ns", p->train_1000_ns, 0,
                           TRAIN_NS_MAX, "ns")) ||
        (rc = gl_check_u64(err, "phy.phy_rev", p->phy_rev, 0,
                           PHYSID2_REV_MASK, NULL)) ||
        (rc = gl_check_u64(err, "phy.downshift_attempts",
                           p->downshift_attempts, 1,
                           M88E1116R_DS_ATTEMPTS_MAX, NULL)) ||
        (rc = check_cable(p->cable, err)) ||
        (rc = check_max_speed(p->max_speed_mbps, err)) ||
        (rc = gl_phy_partner_validate(&p->partner, err))) {
        return rc;
    }
    return 0;
}

int gl_phy_init(struct gl_phy *phy, const struct gl_phy_params *p,
                struct gl_err *err)
{
    int rc;

    if (!phy) {
        return gl_err_set(err, -EINVAL, "phy: model is NULL");
    }
    memset(phy, 0, sizeof(*phy));
    phy->state = GL_PHY_ST_POWER_DOWN;
    phy->deadline = GL_NEVER;
    rc = gl_phy_params_validate(p, err);
    if (rc) {
        return rc;
    }
    phy->p = *p;
    gl_prng_seed(&phy->prng, p->seed);
    gl_phy_reset(phy, 0);
    return 0;
}

void gl_phy_reset(struct gl_phy *phy, uint64_t now_ns)
{
    if (phy->up) {
        phy->link_changes++;    /* the link drops with the reset */
    }
    phy->up = phy->partner_up = phy->partner_full_duplex = false;
    phy->full_duplex = phy->master = false;
    phy->tx_pause = phy->rx_pause = phy->downshifted = false;
    phy->pages_rcvd = false;
    phy->speed_mbps = phy->last_speed_mbps = 0;
    phy->last_full_duplex = false;
    phy->lp_1000 = 0;
    phy->attempts_1000 = 0;
    phy->ms_fault = 0;
    gl_phy__regs_power_on(phy);
    gl_phy__restart(phy, now_ns);
}

/* Environment changes apply to the line; loopback and power down keep the
 * line out of the picture until they end. */
static void line_changed(struct gl_phy *phy, uint64_t now_ns)
{
    if (phy->state != GL_PHY_ST_LOOPBACK &&
        phy->state != GL_PHY_ST_POWER_DOWN) {
        gl_phy__restart(phy, now_ns);
    }
}

int gl_phy_set_partner(struct gl_phy *phy, const struct gl_phy_partner *partner,
                       uint64_t now_ns, struct gl_err *err)
{
    int rc;

    if (!phy) {
        return gl_err_set(err, -EINVAL, "phy: model is NULL");
    }
    rc = gl_phy_partner_validate(partner, err);
    if (rc) {
        return rc;
    }
    gl_phy_step(phy, now_ns);
    phy->p.partner = *partner;
    line_changed(phy, now_ns);
    return 0;
}

int gl_phy_set_cable(struct gl_phy *phy, enum gl_cable cable, uint64_t now_ns,
                     struct gl_err *err)
{
    int rc;

    if (!phy) {
        return gl_err_set(err, -EINVAL, "phy: model is NULL");
    }
    rc = check_cable(cable, err);
    if (rc) {
        return rc;
    }
    gl_phy_step(phy, now_ns);
    phy->p.cable = cable;
    line_changed(phy, now_ns);
    return 0;
}

void gl_phy_set_link_forced_down(struct gl_phy *phy, bool down,
                                 uint64_t now_ns)
{
    gl_phy_step(phy, now_ns);
    if (phy->forced_down == down) {
        return;
    }
    phy->forced_down = down;
    line_changed(phy, now_ns);
}

void gl_phy_get_link(const struct gl_phy *phy, struct gl_phy_link *out)
{
    memset(out, 0, sizeof(*out));
    out->up = phy->up;
    out->speed_mbps = phy->up ? phy->speed_mbps : 0;
    out->full_duplex = phy->up && phy->full_duplex;
    out->partner_up = phy->partner_up;
    out->partner_full_duplex = phy->partner_up && phy->partner_full_duplex;
    out->duplex_mismatch = out->up && out->partner_up &&
                           out->full_duplex != out->partner_full_duplex;
    out->loopback = phy->state == GL_PHY_ST_LOOPBACK;
    out->downshifted = phy->up && phy->downshifted;
    out->master = phy->up && phy->speed_mbps == 1000 && phy->master;
    out->tx_pause = phy->up && phy->tx_pause;
    out->rx_pause = phy->up && phy->rx_pause;
    out->link_changes = phy->link_changes;
    out->aneg_rounds = phy->aneg_rounds;
    out->rgmii_rx_delay = gl_phy__mscr(phy) & M88E1116R_MSCR_RX_DELAY;
    out->rgmii_tx_delay = gl_phy__mscr(phy) & M88E1116R_MSCR_TX_DELAY;
    if (phy->p.rgmii_timing) {
        /* one delay per direction: none puts the sampling edge on the
         * data transitions, two a half bit period late (RGMII v2.0 3.3) */
        out->rgmii_rx_skewed = (unsigned)phy->p.pcb_rx_delay + out->rgmii_rx_delay != 1;
        out->rgmii_tx_skewed = (unsigned)phy->p.pcb_tx_delay + out->rgmii_tx_delay != 1;
    }
}

enum gl_phy_state gl_phy_state(const struct gl_phy *phy)
{
    return (enum gl_phy_state)phy->state;
}

const char *gl_phy_state_name(enum gl_phy_state st)
{
    switch (st) {
    case GL_PHY_ST_POWER_DOWN:  return "power-down";
    case GL_PHY_ST_NO_SIGNAL:   return "no-signal";
    case GL_PHY_ST_ANEG:        return "aneg";
    case GL_PHY_ST_TRAIN_1000:  return "train-1000";
    case GL_PHY_ST_FORCED_WAIT: return "forced-wait";
    case GL_PHY_ST_LINK_UP:     return "link-up";
    case GL_PHY_ST_LOOPBACK:    return "loopback";
    default:                    return "?";
    }
}

static const char *const cable_names[GL_CABLE__COUNT] = {
    [GL_CABLE_NONE] = "none",
    [GL_CABLE_4PAIR] = "4pair",
    [GL_CABLE_2PAIR] = "2pair",
};

static const char *const ms_names[GL_MS__COUNT] = {
    [GL_MS_PREFER_SLAVE] = "prefer-slave",
    [GL_MS_PREFER_MASTER] = "prefer-master",
    [GL_MS_FORCE_MASTER] = "master",
    [GL_MS_FORCE_SLAVE] = "slave",
};

const char *gl_phy_cable_name(enum gl_cable cable)
{
    return (unsigned)cable < GL_CABLE__COUNT ? cable_names[cable] : "?";
}

const char *gl_phy_ms_name(enum gl_phy_ms ms)
{
    return (unsigned)ms < GL_MS__COUNT ? ms_names[ms] : "?";
}

/* ---- Parsing -------------------------------------------------------------*/

static const struct {
    const char *name;
    uint32_t bit;
} abil_tokens[] = {
    { "10HD", GL_ABIL_10HD },     { "10FD", GL_ABIL_10FD },
    { "100HD", GL_ABIL_100HD },   { "100FD", GL_ABIL_100FD },
    { "100T4", GL_ABIL_100T4 },   { "1000HD", GL_ABIL_1000HD },
    { "1000FD", GL_ABIL_1000FD }, { "PAUSE", GL_ABIL_PAUSE },
    { "ASYM_PAUSE", GL_ABIL_ASYM_PAUSE },
};
#define ABIL_TOKEN_COUNT (sizeof(abil_tokens) / sizeof(abil_tokens[0]))
#define ABIL_ALLOWED "10HD, 10FD, 100HD, 100FD, 100T4, 1000HD, 1000FD, " \
                     "PAUSE, ASYM_PAUSE, or none"

static char ascii_lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Case-insensitive match of s[0..n) against the whole of @word. */
static bool token_is(const char *s, size_t n, const char *word)
{
    size_t i;

    for (i = 0; i < n && word[i]; i++) {
        if (ascii_lower(s[i]) != ascii_lower(word[i])) {
            return false;
        }
    }
    return i == n && word[i] == '\0';
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}

int gl_phy_parse_abilities(const char *s, uint32_t *out, struct gl_err *err)
{
    uint32_t v = 0;
    bool none = false;
    unsigned count = 0;

    if (!s || !out) {
        return gl_err_set(err, -EINVAL, "abilities: string or result is NULL");
    }
    for (const char *p = s;;) {
        const char *end = p;
        while (*end && *end != ',') {
            end++;
        }
        const char *b = p, *e = end;
        while (b < e && is_space(*b)) {
            b++;
        }
        while (e > b && is_space(e[-1])) {
            e--;
        }
        size_t n = (size_t)(e - b);
        unsigned i;
        if (n == 0) {
            return gl_err_set(err, -EINVAL,
                              "abilities: empty token in \"%s\" (allowed: "
                              ABIL_ALLOWED ")", s);
        }
        if (token_is(b, n, "none")) {
            none = true;
        } else {
            for (i = 0; i < ABIL_TOKEN_COUNT; i++) {
                if (token_is(b, n, abil_tokens[i].name)) {
                    v |= abil_tokens[i].bit;
                    break;
                }
            }
            if (i == ABIL_TOKEN_COUNT) {
                return gl_err_set(err, -EINVAL,
                                  "abilities: unknown token \"%.*s\" "
                                  "(allowed: " ABIL_ALLOWED ")",
                                  (int)(n > 40 ? 40 : n), b);
            }
        }
        count++;
        if (*end == '\0') {
            break;
        }
        p = end + 1;
    }
    if (none && count > 1) {
        return gl_err_set(err, -EINVAL,
                          "abilities: \"none\" cannot be combined with other "
                          "tokens in \"%s\"", s);
    }
    *out = v;
    return 0;
}

static int parse_name(const char *what, const char *s,
                      const char *const *names, unsigned count,
                      unsigned *out, struct gl_err *err)
{
    if (!s || !out) {
        return gl_err_set(err, -EINVAL, "%s: string or result is NULL", what);
    }
    size_t n = strlen(s);
    for (unsigned i = 0; i < count; i++) {
        if (token_is(s, n, names[i])) {
            *out = i;
            return 0;
        }
    }
    char allowed[96] = "";
    size_t used = 0;
    for (unsigned i = 0; i < count && used < sizeof(allowed); i++) {
        int w = snprintf(allowed + used, sizeof(allowed) - used, "%s%s",
                         i ? ", " : "", names[i]);
        if (w < 0) {
            break;
        }
        used += (size_t)w;
    }
    return gl_err_set(err, -EINVAL, "%s: unknown value \"%.40s\" (allowed: %s)",
                      what, s, allowed);
}

int gl_phy_parse_cable(const char *s, enum gl_cable *out, struct gl_err *err)
{
    unsigned v = 0;
    int rc = parse_name("cable", s, cable_names, GL_CABLE__COUNT,
                        out ? &v : NULL, err);
    if (rc == 0) {
        *out = (enum gl_cable)v;
    }
    return rc;
}

int gl_phy_parse_ms(const char *s, enum gl_phy_ms *out, struct gl_err *err)
{
    unsigned v = 0;
    int rc = parse_name("ms", s, ms_names, GL_MS__COUNT, out ? &v : NULL,
                        err);
    if (rc == 0) {
        *out = (enum gl_phy_ms)v;
    }
    return rc;
}

int gl_phy_format_abilities(uint32_t abil, char *buf, size_t len)
{
    size_t need = 0;

    if (len > 0) {
        buf[0] = '\0';
    }
    if ((abil & GL_ABIL_ALL_MASK) == 0) {
        need = strlen("none");
        if (len > 0) {
            snprintf(buf, len, "none");
        }
        return (int)need;
    }
    for (unsigned i = 0; i < ABIL_TOKEN_COUNT; i++) {
        if (!(abil & abil_tokens[i].bit)) {
            continue;
        }
        const char *sep = need ? "," : "";
        if (need < len) {
            snprintf(buf + need, len - need, "%s%s", sep, abil_tokens[i].name);
        }
        need += strlen(sep) + strlen(abil_tokens[i].name);
    }
    return (int)need;
}

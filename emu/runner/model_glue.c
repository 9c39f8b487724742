/* model_glue.c - see model_glue.h. */
#include "model_glue.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <gemlab/phy.h>
#include <gemlab/wire.h>

#include "scenario.h"

/* The models prefix their messages with the field they checked ("loss:
 * ...", "abilities: ...", "wire.mm4: ...").  The scenario reader already
 * names the key, so the label is dropped: each error reads once as
 * FILE:LINE: [section] key: message. */
static const char *drop_label(const char *m)
{
    size_t n = strspn(m, "abcdefghijklmnopqrstuvwxyz0123456789._[] ");

    return n > 0 && n <= 32 && m[n] == ':' && m[n + 1] == ' ' ? m + n + 2 : m;
}

int mg_check(enum mg_kind kind, const char *text, char *msg, size_t len)
{
    struct gl_err err = { { 0 } };
    struct gl_wire_params wp;
    uint32_t abil;
    enum gl_cable cable;
    enum gl_jitter_dist jd;
    enum gl_phy_ms ms;
    int rc;

    switch (kind) {
    case MG_ABILITIES:
        rc = gl_phy_parse_abilities(text, &abil, &err);
        break;
    case MG_LOSS:
        gl_wire_params_default(&wp);
        rc = gl_wire_parse_loss(text, &wp, &err);
        if (!rc)
            rc = gl_wire_params_validate(&wp, &err);
        break;
    case MG_CABLE:
        rc = gl_phy_parse_cable(text, &cable, &err);
        break;
    case MG_JITTER_DIST:
        rc = gl_wire_parse_jitter_dist(text, &jd, &err);
        break;
    case MG_MS:
        rc = gl_phy_parse_ms(text, &ms, &err);
        break;
    default:
        rc = -EINVAL;
        snprintf(err.msg, sizeof(err.msg), "unknown model value kind");
        break;
    }
    if (rc && !err.msg[0])
        snprintf(err.msg, sizeof(err.msg), "'%.40s' is not accepted by the model", text);
    if (rc)
        snprintf(msg, len, "%s", drop_label(err.msg));
    return rc;
}

unsigned mg_abilities(const char *text)
{
    uint32_t abil = 0;

    return gl_phy_parse_abilities(text, &abil, NULL) ? 0 : abil;
}

int mg_validate_link(const struct scenario *s, char *msg, size_t len)
{
    const struct scn_val *v = s->v;
    struct gl_err err = { { 0 } };
    struct gl_phy_params pp;
    struct gl_wire_params wp;
    int rc;

    gl_phy_params_default(&pp);
    gl_wire_params_default(&wp);
    if (v[SK_LINK_PARTNER].set)
        gl_phy_parse_abilities(v[SK_LINK_PARTNER].s, &pp.partner.abilities, NULL);
    pp.partner.autoneg = v[SK_LINK_PARTNER_AUTONEG].b;
    if (v[SK_LINK_PARTNER_SPEED].set)
        pp.partner.forced_speed_mbps = scn_enum_num(s, SK_LINK_PARTNER_SPEED);
    if (v[SK_LINK_PARTNER_DUPLEX].set)
        pp.partner.forced_full_duplex = v[SK_LINK_PARTNER_DUPLEX].e == 0;
    if (v[SK_LINK_PARTNER_MS].set)
        gl_phy_parse_ms(v[SK_LINK_PARTNER_MS].s, &pp.partner.ms, NULL);
    if (v[SK_LINK_CABLE].set)
        gl_phy_parse_cable(v[SK_LINK_CABLE].s, &pp.cable, NULL);
    if (v[SK_LINK_DOWNSHIFT].set)
        pp.downshift_enable = v[SK_LINK_DOWNSHIFT].b;
    if (v[SK_LINK_DOWNSHIFT_ATTEMPTS].set)
        pp.downshift_attempts = (unsigned)v[SK_LINK_DOWNSHIFT_ATTEMPTS].u;
    if (v[SK_LINK_ANEG_TIME].set)
        pp.aneg_ns = v[SK_LINK_ANEG_TIME].u;
    pp.seed = v[SK_LINK_SEED].u;

    if (v[SK_LINK_LOSS].set)
        gl_wire_parse_loss(v[SK_LINK_LOSS].s, &wp, NULL);
    wp.latency_ns = v[SK_LINK_LATENCY].u;
    wp.jitter_ns = v[SK_LINK_JITTER].u;
    if (v[SK_LINK_JITTER_DIST].set)
        gl_wire_parse_jitter_dist(v[SK_LINK_JITTER_DIST].s, &wp.jitter_dist, NULL);
    if (v[SK_LINK_JITTER_REORDERS].set)
        wp.jitter_reorders = v[SK_LINK_JITTER_REORDERS].b;
    if (v[SK_LINK_RATE].set)
        wp.rate_bps = (uint64_t)v[SK_LINK_RATE].d;
    if (v[SK_LINK_QUEUE_FRAMES].set)
        wp.queue_frames = (uint32_t)v[SK_LINK_QUEUE_FRAMES].u;
    wp.dup_pct = v[SK_LINK_DUPLICATE].d;
    wp.corrupt_pct = v[SK_LINK_CORRUPT].d;
    wp.reorder_pct = v[SK_LINK_REORDER].d;
    if (v[SK_LINK_REORDER_GAP].set)
        wp.reorder_gap = (uint32_t)v[SK_LINK_REORDER_GAP].u;
    wp.skew_crc_pct = v[SK_LINK_RGMII_SKEW].d;

    rc = gl_phy_params_validate(&pp, &err);
    if (!rc)
        rc = gl_wire_params_validate(&wp, &err);
    if (rc)
        snprintf(msg, len, "%s", err.msg[0] ? err.msg : "rejected by the model");
    return rc;
}

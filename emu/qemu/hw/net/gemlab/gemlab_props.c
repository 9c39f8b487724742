/*
 * gemlab_props.c - the QOM properties of a gemlab-link object.
 *
 * Every model parameter is a property, settable before the GEM realizes
 * (-global gemlab-link.NAME=VALUE) and afterwards (QMP qom-set
 * GEM/gemlab-link NAME; e.g. /machine/gem0/gemlab-link).  Values
 * are validated by the models themselves; a bad value is rejected with
 * "gemlab-link.NAME: <model message naming the field and its range>":
 * at startup QEMU exits, at run time QMP answers the error and nothing
 * changes.  Every property is a row of models/include/gemlab/link_props.h
 * (settable: PHY and partner, the wire's fields for both directions and
 * each, the control rows; read-only: the link's state and the counters),
 * the one description the runner names them from too.  The names are
 * those of gemlab's QEMU 7.2 patch, where they sat on the NIC.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"

#include "gemlab_internal.h"
#include "gemlab/link_props.h"

typedef enum GemlabPropKind {
    GP_PHY,        /* a field of struct gl_phy_params (stored for reset) */
    GP_PARTNER,    /* a field of struct gl_phy_partner (renegotiates) */
    GP_WIRE_TX,    /* a field of struct gl_wire_params, A->B */
    GP_WIRE_RX,    /* a field of struct gl_wire_params, B->A */
    GP_WIRE_BOTH,  /* the same field in both directions */
} GemlabPropKind;

typedef enum GemlabPropType {
    GPT_U64, GPT_U32, GPT_UINT, GPT_BOOL, GPT_DOUBLE,
    GPT_ABIL, GPT_MS, GPT_JITTER, GPT_LOSS,
} GemlabPropType;

typedef struct GemlabProp {
    const char *name;
    GemlabPropKind kind;
    GemlabPropType type;
    size_t off;
    const char *desc;
} GemlabProp;

/* The rows of models/include/gemlab/link_props.h, the one description */
#define GEMLAB_OFF_PHY(f) offsetof(struct gl_phy_params, f)
#define GEMLAB_OFF_PARTNER(f) offsetof(struct gl_phy_partner, f)
#define GEMLAB_PHY_ROW(name, st, field, t, desc) \
    { name, GP_##st, GPT_##t, GEMLAB_OFF_##st(field), desc },
#define GEMLAB_WIRE_ROW(name, field, t, desc) \
    { name, GP_WIRE_BOTH, GPT_##t, offsetof(struct gl_wire_params, field), \
      desc },

static const GemlabProp gemlab_props[] = {
    GL_LINK_PHY_PROPS(GEMLAB_PHY_ROW)
};

/* The wire fields; each becomes wire-NAME (both), tx-NAME and rx-NAME. */
static const GemlabProp gemlab_wire_fields[] = {
    GL_LINK_WIRE_FIELDS(GEMLAB_WIRE_ROW)
};

static void *gemlab_prop_field(void *base, const GemlabProp *gp)
{
    return (uint8_t *)base + gp->off;
}

/* Visit a value of @gp's type in @field (get: from it, set: into it). */
static bool gemlab_prop_visit(Visitor *v, const char *name,
                              const GemlabProp *gp, void *field,
                              struct gl_wire_params *wp, bool set,
                              Error **errp)
{
    struct gl_err err = { { 0 } };
    char buf[128];
    char *str = NULL;
    bool ok = true;
    int rc = 0;

    switch (gp->type) {
    case GPT_U64:
        return visit_type_uint64(v, name, field, errp);
    case GPT_U32:
        return visit_type_uint32(v, name, field, errp);
    case GPT_UINT: {
        uint32_t u = *(unsigned *)field;

        ok = visit_type_uint32(v, name, &u, errp);
        *(unsigned *)field = u;
        return ok;
    }
    case GPT_BOOL:
        return visit_type_bool(v, name, field, errp);
    case GPT_DOUBLE:
        return visit_type_number(v, name, field, errp);
    case GPT_ABIL:
        if (!set) {
            gl_phy_format_abilities(*(uint32_t *)field, buf, sizeof(buf));
            str = buf;
            return visit_type_str(v, name, &str, errp);
        }
        if (!visit_type_str(v, name, &str, errp)) {
            return false;
        }
        rc = gl_phy_parse_abilities(str, field, &err);
        break;
    case GPT_MS:
        if (!set) {
            str = (char *)gl_phy_ms_name(*(enum gl_phy_ms *)field);
            return visit_type_str(v, name, &str, errp);
        }
        if (!visit_type_str(v, name, &str, errp)) {
            return false;
        }
        rc = gl_phy_parse_ms(str, field, &err);
        break;
    case GPT_JITTER:
        if (!set) {
            str = (char *)gl_wire_jitter_dist_name(
                *(enum gl_jitter_dist *)field);
            return visit_type_str(v, name, &str, errp);
        }
        if (!visit_type_str(v, name, &str, errp)) {
            return false;
        }
        rc = gl_wire_parse_jitter_dist(str, field, &err);
        break;
    case GPT_LOSS:
        if (!set) {
            switch (wp->loss_model) {
            case GL_LOSS_GEMODEL:
                snprintf(buf, sizeof(buf), "gemodel %g %g %g %g",
                         wp->ge.p * 100, wp->ge.r * 100,
                         (1 - wp->ge.h) * 100, (1 - wp->ge.k) * 100);
                break;
            case GL_LOSS_4STATE:
                snprintf(buf, sizeof(buf), "state %g %g %g %g %g",
                         wp->mm4.p13 * 100, wp->mm4.p31 * 100,
                         wp->mm4.p32 * 100, wp->mm4.p23 * 100,
                         wp->mm4.p14 * 100);
                break;
            default:
                snprintf(buf, sizeof(buf), "random %g", wp->loss_pct);
                break;
            }
            str = buf;
            return visit_type_str(v, name, &str, errp);
        }
        if (!visit_type_str(v, name, &str, errp)) {
            return false;
        }
        rc = gl_wire_parse_loss(str, wp, &err);
        break;
    default:
        g_assert_not_reached();
    }
    if (rc < 0) {
        error_setg(errp, "gemlab-link.%s: %s", name, err.msg);
        ok = false;
    }
    g_free(str);
    return ok;
}

static void gemlab_prop_get(Object *obj, Visitor *v, const char *name,
                            void *opaque, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);
    const GemlabProp *gp = opaque;
    struct gl_wire_params *wp;

    switch (gp->kind) {
    case GP_PHY:
        gemlab_prop_visit(v, name, gp, gemlab_prop_field(&g->phy_params, gp),
                       NULL, false, errp);
        return;
    case GP_PARTNER:
        gemlab_prop_visit(v, name, gp,
                       gemlab_prop_field(&g->phy_params.partner, gp),
                       NULL, false, errp);
        return;
    case GP_WIRE_TX:
    case GP_WIRE_BOTH:
        wp = &g->wire_params[GL_LINK_A_TO_B];
        break;
    case GP_WIRE_RX:
        wp = &g->wire_params[GL_LINK_B_TO_A];
        break;
    default:
        g_assert_not_reached();
    }
    gemlab_prop_visit(v, name, gp, gemlab_prop_field(wp, gp), wp, false, errp);
}


static void gemlab_prop_set(Object *obj, Visitor *v, const char *name,
                            void *opaque, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);
    const GemlabProp *gp = opaque;
    struct gl_err err = { { 0 } };
    struct gl_phy_params pp = g->phy_params;
    struct gl_wire_params wp[2] = { g->wire_params[0], g->wire_params[1] };
    int dir, rc = 0;

    switch (gp->kind) {
    case GP_PHY:
        if (!gemlab_prop_visit(v, name, gp, gemlab_prop_field(&pp, gp), NULL,
                            true, errp)) {
            return;
        }
        rc = gl_phy_params_validate(&pp, &err);
        if (rc == 0 && g->realized) {
            /*
             * Timing, downshift and seed act from the next PHY reset:
             * gl_phy has no setter for them, so its stored params are
             * replaced (FIXME: a gl_phy_set_params() in the model API).
             */
            g->phy.p = pp;
        }
        break;
    case GP_PARTNER:
        if (!gemlab_prop_visit(v, name, gp, gemlab_prop_field(&pp.partner, gp),
                            NULL, true, errp)) {
            return;
        }
        rc = gl_phy_partner_validate(&pp.partner, &err);
        if (rc == 0 && g->realized) {
            rc = gl_phy_set_partner(&g->phy, &pp.partner, gemlab_now(), &err);
        }
        break;
    case GP_WIRE_TX:
    case GP_WIRE_RX:
    case GP_WIRE_BOTH:
        dir = gp->kind == GP_WIRE_RX ? GL_LINK_B_TO_A : GL_LINK_A_TO_B;
        if (!gemlab_prop_visit(v, name, gp, gemlab_prop_field(&wp[dir], gp),
                            &wp[dir], true, errp)) {
            return;
        }
        if (gp->kind == GP_WIRE_BOTH) {
            /* copy the one field (or the loss model) to the other side */
            if (gp->type == GPT_LOSS) {
                wp[1].loss_model = wp[0].loss_model;
                wp[1].loss_pct = wp[0].loss_pct;
                wp[1].ge = wp[0].ge;
                wp[1].mm4 = wp[0].mm4;
            } else {
                size_t n = gp->type == GPT_U64 ? 8 :
                           gp->type == GPT_DOUBLE ? sizeof(double) :
                           gp->type == GPT_BOOL ? sizeof(bool) : 4;
                memcpy(gemlab_prop_field(&wp[1], gp),
                       gemlab_prop_field(&wp[0], gp), n);
            }
        }
        for (dir = 0; dir < 2 && rc == 0; dir++) {
            rc = gl_wire_params_validate(&wp[dir], &err);
        }
        for (dir = 0; dir < 2 && rc == 0 && g->realized; dir++) {
            rc = gl_link_configure(g->wire, dir, &wp[dir], &err);
        }
        break;
    default:
        g_assert_not_reached();
    }
    if (rc < 0) {
        error_setg(errp, "gemlab-link.%s: %s", name, err.msg);
        return;
    }
    g->phy_params = pp;
    g->wire_params[0] = wp[0];
    g->wire_params[1] = wp[1];
    if (g->realized) {
        gemlab_phy_sync(g);
        gemlab_wire_arm(g);
        gemlab_rx_flush(g);
    }
}

/* "cable": none | 4pair | 2pair; re-plugging renegotiates. */
static char *gemlab_get_cable(Object *obj, Error **errp)
{
    return g_strdup(gl_phy_cable_name(GEMLAB_LINK(obj)->phy_params.cable));
}

static void gemlab_set_cable(Object *obj, const char *value, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);
    struct gl_err err = { { 0 } };
    enum gl_cable c;

    if (gl_phy_parse_cable(value, &c, &err) < 0 ||
        (g->realized &&
         gl_phy_set_cable(&g->phy, c, gemlab_now(), &err) < 0)) {
        error_setg(errp, "gemlab-link.cable: %s", err.msg);
        return;
    }
    g->phy_params.cable = c;
    if (g->realized) {
        gemlab_phy_sync(g);
    }
}

/* "link": on, or off = the cable model's line forced down (as set_link). */
static bool gemlab_get_link(Object *obj, Error **errp)
{
    return GEMLAB_LINK(obj)->link_prop_up;
}

static void gemlab_set_link(Object *obj, bool value, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);

    g->link_prop_up = value;
    if (g->realized) {
        gemlab_link_update(g->gem);
    }
}

/* "phy-loopback": BMCR bit 14, as firmware would set it over MDIO. */
static bool gemlab_get_phy_loopback(Object *obj, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);

    return g->realized &&
           (gl_phy_peek(&g->phy, GL_MII_BMCR) & GL_BMCR_LOOPBACK);
}

static void gemlab_set_phy_loopback(Object *obj, bool value, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);
    uint16_t bmcr;

    if (!g->realized) {
        error_setg(errp, "gemlab-link.phy-loopback: settable at run time "
                   "only (it is a PHY register bit)");
        return;
    }
    bmcr = gl_phy_peek(&g->phy, GL_MII_BMCR) & ~GL_BMCR_LOOPBACK;
    gl_phy_write(&g->phy, GL_MII_BMCR,
                 bmcr | (value ? GL_BMCR_LOOPBACK : 0),
                 gemlab_now());
    gemlab_phy_sync(g);
}

static bool gemlab_get_rx_backpressure(Object *obj, Error **errp)
{
    return GEMLAB_LINK(obj)->rx_backpressure;
}

static void gemlab_set_rx_backpressure(Object *obj, bool value, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);

    g->rx_backpressure = value;
    gemlab_rx_flush(g);
}

/*
 * rx-starve-ns: for the next N ns of guest time the RX DMA finds no free
 * descriptor, whatever the ring holds.  Frames arriving meanwhile are
 * dropped and counted as on silicon with an exhausted ring (RXSTATUS BNA,
 * ISR "RX used", 0x1A0; also with rx-backpressure=on).  Setting it again
 * restarts the burst from now; 0 ends it.  Reads give what is left.
 */
static void gemlab_get_rx_starve_ns(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);
    uint64_t now = g->realized ? gemlab_now() : 0;
    uint64_t left = g->rx_starve_until_ns > now ?
                    g->rx_starve_until_ns - now : 0;

    visit_type_uint64(v, name, &left, errp);
}

static void gemlab_set_rx_starve_ns(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);
    uint64_t ns, now;

    if (!visit_type_uint64(v, name, &ns, errp)) {
        return;
    }
    if (ns > 3600 * NANOSECONDS_PER_SECOND) {
        error_setg(errp, "gemlab-link.%s: %" PRIu64 " is out of range "
                   "[0, 3600000000000] (ns)", name, ns);
        return;
    }
    now = g->realized ? gemlab_now() : 0;
    g->rx_starve_until_ns = ns ? now + ns : 0;
}

static char *gemlab_get_pcap(Object *obj, Error **errp)
{
    return g_strdup(GEMLAB_LINK(obj)->pcap_path ?: "");
}

static void gemlab_set_pcap(Object *obj, const char *value, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);

    g_free(g->pcap_path);
    g->pcap_path = g_strdup(value);
    if (g->realized) {
        gemlab_pcap_open(g, errp);
    }
}

static void gemlab_get_pcap_max(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    visit_type_uint64(v, name, &GEMLAB_LINK(obj)->pcap_max_bytes, errp);
}

static void gemlab_set_pcap_max(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    uint64_t n;

    if (!visit_type_uint64(v, name, &n, errp)) {
        return;
    }
    if (n < GL_PCAPNG_MAX_MIN || n > GL_PCAPNG_MAX_MAX) {
        error_setg(errp, "gemlab-link.%s: %" PRIu64 " is out of range "
                   "[%llu, %llu] (bytes)", name, n, GL_PCAPNG_MAX_MIN,
                   GL_PCAPNG_MAX_MAX);
        return;
    }
    GEMLAB_LINK(obj)->pcap_max_bytes = n;
}

static void gemlab_get_pcap_snaplen(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    visit_type_uint32(v, name, &GEMLAB_LINK(obj)->pcap_snaplen, errp);
}

static void gemlab_set_pcap_snaplen(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    uint32_t n;

    if (!visit_type_uint32(v, name, &n, errp)) {
        return;
    }
    if (n < GL_PCAPNG_SNAPLEN_MIN || n > GL_PCAPNG_SNAPLEN) {
        error_setg(errp, "gemlab-link.%s: %" PRIu32 " is out of range "
                   "[%u, %u] (bytes)", name, n, GL_PCAPNG_SNAPLEN_MIN,
                   GL_PCAPNG_SNAPLEN);
        return;
    }
    GEMLAB_LINK(obj)->pcap_snaplen = n;
}

static void gemlab_get_wire_seed(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    visit_type_uint64(v, name, &GEMLAB_LINK(obj)->wire_seed, errp);
}

static void gemlab_set_wire_seed(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);

    if (g->realized) {
        error_setg(errp, "gemlab-link.wire-seed: settable before realize "
                   "only (use -global gemlab-link.wire-seed=N)");
        return;
    }
    visit_type_uint64(v, name, &g->wire_seed, errp);
}

/* ---- read-only state ---- */

static char *gemlab_get_phy_state(Object *obj, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);

    return g_strdup(g->realized ? gl_phy_state_name(gl_phy_state(&g->phy))
                                : "unrealized");
}

static void gemlab_get_link_info(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);
    const char *what = opaque;
    struct gl_phy_link lk = { 0 };
    uint32_t u;
    bool b;

    /*
     * No gemlab_phy_sync() here: a read must not advance the PHY or emit
     * events.  The PHY timer syncs at every deadline the model reports,
     * so the stored link is current.
     */
    if (g->realized) {
        lk = g->link;
    }
    if (!strcmp(what, "speed")) {
        u = lk.up ? lk.speed_mbps : 0;
        visit_type_uint32(v, name, &u, errp);
        return;
    }
    if (!strcmp(what, "changes")) {
        u = lk.link_changes;
        visit_type_uint32(v, name, &u, errp);
        return;
    }
    b = !strcmp(what, "up") ? lk.up :
        !strcmp(what, "full_duplex") ? lk.up && lk.full_duplex :
        !strcmp(what, "master") ? lk.master :
        !strcmp(what, "downshifted") ? lk.downshifted :
        !strcmp(what, "mac_matches") ? gemlab_mac_matches_phy(g) : false;
    visit_type_bool(v, name, &b, errp);
}

typedef struct GemlabCounterProp {
    const char *name;
    int dir;          /* -1: GemlabCounters, else wire direction */
    size_t off;
} GemlabCounterProp;

#define GEMLAB_COUNTER_ROW(name, field) \
    { name, -1, offsetof(GemlabCounters, field) },
#define GEMLAB_WIRE_COUNTER_ROW(name, field) \
    { name, 0, offsetof(struct gl_wire_counters, field) },
static const GemlabCounterProp gemlab_counter_props[] = {
    GL_LINK_COUNTERS(GEMLAB_COUNTER_ROW)
};

/* Wire counters; each becomes stat-tx-wire-NAME and stat-rx-wire-NAME. */
static const GemlabCounterProp gemlab_wire_counters[] = {
    GL_LINK_WIRE_COUNTERS(GEMLAB_WIRE_COUNTER_ROW)
};

static void gemlab_get_counter(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    GemlabLink *g = GEMLAB_LINK(obj);
    const GemlabCounterProp *cp = opaque;
    struct gl_wire_counters wc = { 0 };
    uint64_t val;

    if (cp->dir < 0) {
        memcpy(&val, (uint8_t *)&g->cnt + cp->off, sizeof(val));
    } else {
        if (g->realized) {
            gl_link_get_counters(g->wire, cp->dir, &wc);
        }
        memcpy(&val, (uint8_t *)&wc + cp->off, sizeof(val));
    }
    visit_type_uint64(v, name, &val, errp);
}

typedef struct GemlabWireSide {
    const char *prefix;
    GemlabPropKind kind;
    const char *what;
} GemlabWireSide;

static const GemlabWireSide gemlab_wire_sides[] = {
    { GL_LINK_WIRE_BOTH, GP_WIRE_BOTH, "both directions" },
    { GL_LINK_WIRE_TX, GP_WIRE_TX, "GEM->partner" },
    { GL_LINK_WIRE_RX, GP_WIRE_RX, "partner->GEM" },
};

static const char *gemlab_prop_type_name(const GemlabProp *gp)
{
    switch (gp->type) {
    case GPT_U64:
        return "uint64";
    case GPT_U32:
    case GPT_UINT:
        return "uint32";
    case GPT_BOOL:
        return "bool";
    case GPT_DOUBLE:
        return "number";
    default:
        return "str";
    }
}

/* Adders for the control and state rows, by their type (link_props.h) */
#define GEMLAB_ADD_STR(oc, name, get, set) \
    object_class_property_add_str(oc, name, get, set)
#define GEMLAB_ADD_BOOL(oc, name, get, set) \
    object_class_property_add_bool(oc, name, get, set)
#define GEMLAB_ADD_U64(oc, name, get, set) \
    object_class_property_add(oc, name, "uint64", get, set, NULL, NULL)
#define GEMLAB_ADD_U32(oc, name, get, set) \
    object_class_property_add(oc, name, "uint32", get, set, NULL, NULL)
#define GEMLAB_CONTROL_ADD(name, ident, t, desc) \
    GEMLAB_ADD_##t(oc, name, gemlab_get_##ident, gemlab_set_##ident); \
    object_class_property_set_description(oc, name, desc);
#define GEMLAB_STATE_STR(oc, name, what) \
    object_class_property_add_str(oc, name, gemlab_get_phy_##what, NULL)
#define GEMLAB_STATE_BOOL(oc, name, what) \
    object_class_property_add(oc, name, "bool", gemlab_get_link_info, NULL, \
                              NULL, (void *)#what)
#define GEMLAB_STATE_U32(oc, name, what) \
    object_class_property_add(oc, name, "uint32", gemlab_get_link_info, \
                              NULL, NULL, (void *)#what)
#define GEMLAB_STATE_ADD(name, what, t) GEMLAB_STATE_##t(oc, name, what);

void gemlab_props_class_init(ObjectClass *oc)
{
    const size_t nfields = ARRAY_SIZE(gemlab_wire_fields);
    size_t i;

    for (i = 0; i < ARRAY_SIZE(gemlab_props); i++) {
        const GemlabProp *gp = &gemlab_props[i];

        object_class_property_add(oc, gp->name, gemlab_prop_type_name(gp),
                                  gemlab_prop_get, gemlab_prop_set, NULL,
                                  (void *)gp);
        object_class_property_set_description(oc, gp->name, gp->desc);
    }
    GL_LINK_CONTROL_PROPS(GEMLAB_CONTROL_ADD)
    GL_LINK_STATE_PROPS(GEMLAB_STATE_ADD)
    for (i = 0; i < ARRAY_SIZE(gemlab_counter_props); i++) {
        object_class_property_add(oc, gemlab_counter_props[i].name, "uint64",
                                  gemlab_get_counter, NULL, NULL,
                                  (void *)&gemlab_counter_props[i]);
    }
    /* Per-direction copies live as long as the class: never freed. */
    for (i = 0; i < ARRAY_SIZE(gemlab_wire_sides) * nfields; i++) {
        const GemlabWireSide *side = &gemlab_wire_sides[i / nfields];
        GemlabProp *gp = g_new(GemlabProp, 1);

        *gp = gemlab_wire_fields[i % nfields];
        gp->kind = side->kind;
        gp->name = g_strconcat(side->prefix, gp->name, NULL);
        gp->desc = g_strdup_printf("%s: %s", side->what, gp->desc);
        object_class_property_add(oc, gp->name, gemlab_prop_type_name(gp),
                                  gemlab_prop_get, gemlab_prop_set, NULL, gp);
        object_class_property_set_description(oc, gp->name, gp->desc);
    }
    for (i = 0; i < 2 * ARRAY_SIZE(gemlab_wire_counters); i++) {
        GemlabCounterProp *cp = g_new(GemlabCounterProp, 1);

        *cp = gemlab_wire_counters[i % ARRAY_SIZE(gemlab_wire_counters)];
        cp->dir = i < ARRAY_SIZE(gemlab_wire_counters) ? GL_LINK_A_TO_B
                                                     : GL_LINK_B_TO_A;
        cp->name = g_strconcat(cp->dir == GL_LINK_A_TO_B ? GL_LINK_WIRE_CNT_TX
                                                         : GL_LINK_WIRE_CNT_RX,
                               cp->name, NULL);
        object_class_property_add(oc, cp->name, "uint64", gemlab_get_counter,
                                  NULL, NULL, cp);
    }
}


/* model_glue.c - see model_glue.h. */
#include "model_glue.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <gemlab/phy.h>
#include <gemlab/wire.h>

#include "link_keys.h"
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

int glue_check(enum glue_kind kind, const char *text, char *msg, size_t len)
{
    struct gl_err err = { { 0 } };
    struct gl_wire_params wp;
    uint32_t abil;
    enum gl_cable cable;
    enum gl_jitter_dist jd;
    enum gl_phy_ms ms;
    int rc;

    switch (kind) {
    case GLUE_ABILITIES:
        rc = gl_phy_parse_abilities(text, &abil, &err);
        break;
    case GLUE_LOSS:
        gl_wire_params_default(&wp);
        rc = gl_wire_parse_loss(text, &wp, &err);
        if (!rc)
            rc = gl_wire_params_validate(&wp, &err);
        break;
    case GLUE_CABLE:
        rc = gl_phy_parse_cable(text, &cable, &err);
        break;
    case GLUE_JITTER_DIST:
        rc = gl_wire_parse_jitter_dist(text, &jd, &err);
        break;
    case GLUE_MS:
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

unsigned glue_abilities(const char *text)
{
    uint32_t abil = 0;

    return gl_phy_parse_abilities(text, &abil, NULL) ? 0 : abil;
}

/* link_keys.h's "into the model" column: @dst is the struct, @f the field,
 * @k the key.  The parsers' errors were reported when the file was read
 * (glue_check), so a value that reaches here parses. */
#define INTO_U(dst, f, k) ((dst).f = v[k].u)
#define INTO_D(dst, f, k) ((dst).f = v[k].d)
#define INTO_B(dst, f, k) ((dst).f = v[k].b)
#define INTO_RATE(dst, f, k) ((dst).f = (uint64_t)v[k].d)
#define INTO_ENUM_NUM(dst, f, k) ((dst).f = scn_enum_num(s, k))
#define INTO_FULL(dst, f, k) ((dst).f = v[k].e == 0)
#define INTO_ABIL(dst, f, k) gl_phy_parse_abilities(v[k].s, &(dst).f, NULL)
#define INTO_CABLE(dst, f, k) gl_phy_parse_cable(v[k].s, &(dst).f, NULL)
#define INTO_MS(dst, f, k) gl_phy_parse_ms(v[k].s, &(dst).f, NULL)
#define INTO_JDIST(dst, f, k) gl_wire_parse_jitter_dist(v[k].s, &(dst).f, NULL)
#define INTO_LOSS(dst, f, k) gl_wire_parse_loss(v[k].s, &(dst), NULL)   /* sets several fields */

/* Does @msg name model field @field ("wire.queue_frames: ...")? */
static bool names_field(const char *msg, const char *field)
{
    size_t n = strlen(field);

    return !strncmp(msg, field, n) && (msg[n] == ':' || msg[n] == ' ');
}

int glue_validate_link(const struct scenario *s, char *msg, size_t len, int *key)
{
    const struct scn_val *v = s->v;
    struct gl_err err = { { 0 } };
    struct gl_phy_params pp;
    struct gl_wire_params wp;
    int rc;

    gl_phy_params_default(&pp);
    gl_wire_params_default(&wp);
    /* each key given in the file, or with a scenario default, over the
     * model's defaults */
#define STRUCT_PHY pp
#define STRUCT_PARTNER pp.partner
#define STRUCT_WIRE wp
#define INTO_MODEL(a, id, word, type, min, max, words, def, prop, prop2, qv, st, field, into) \
    if (v[SK_LINK_##id].set || (def) != NULL)                                                \
        INTO_##into(STRUCT_##st, field, SK_LINK_##id);
    LINK_KEYS(INTO_MODEL, _)
#undef INTO_MODEL

    rc = gl_phy_params_validate(&pp, &err);
    if (!rc)
        rc = gl_wire_params_validate(&wp, &err);
    if (rc)
        snprintf(msg, len, "%s", err.msg[0] ? err.msg : "rejected by the model");
    if (rc && key) {
        /* the validators name a field as "phy.aneg_ns" or "wire.rate_bps" */
#define FIELD_PHY "phy."
#define FIELD_PARTNER "phy.partner."
#define FIELD_WIRE "wire."
#define WHICH_KEY(a, id, word, type, min, max, words, def, prop, prop2, qv, st, field, into) \
        if (*key < 0 && names_field(err.msg, FIELD_##st #field))                                \
            *key = SK_LINK_##id;
        *key = -1;
        LINK_KEYS(WHICH_KEY, _)
#undef WHICH_KEY
    }
    return rc;
}

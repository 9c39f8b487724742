/*
 * fuzz_model_parsers.c - libFuzzer target: the model library's string
 * parsers (scenario files and QEMU properties feed them user text).
 *
 * Input: one selector byte, then the text (copied into an exactly sized
 * heap buffer so ASan sees any read past its NUL).  Checked:
 *  - the result is 0 or -EINVAL; on -EINVAL the message is non-empty and
 *    the output is untouched;
 *  - gl_phy_parse_abilities: only known bits; gl_phy_format_abilities of
 *    the result parses back to it, for every buffer size (snprintf rules);
 *  - cable / ms / jitter_dist: the value is in its enum and its name parses
 *    back to it;
 *  - gl_wire_parse_loss: what it accepts passes gl_wire_params_validate()
 *    and only the loss fields change.
 */
#include "gemlab/phy.h"
#include "gemlab/wire.h"

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(int rc, const struct gl_err *err, const char *what,
                      const char *s)
{
    if (rc != -EINVAL) {
        fz_fail("%s(\"%s\"): %d", what, s, rc);
    }
    if (err->msg[0] == '\0' || memchr(err->msg, '\0', sizeof(err->msg)) ==
        NULL) {
        fz_fail("%s(\"%s\"): no error message", what, s);
    }
}

static void abilities(const char *s)
{
    struct gl_err err = { { 0 } };
    uint32_t v = 0xDEADBEEFu, back = 0;
    char buf[160];

    int rc = gl_phy_parse_abilities(s, &v, &err);
    if (rc != 0) {
        check_err(rc, &err, "parse_abilities", s);
        if (v != 0xDEADBEEFu) {
            fz_fail("parse_abilities(\"%s\") failed but wrote", s);
        }
        return;
    }
    if (v & ~GL_ABIL_ALL_MASK) {
        fz_fail("parse_abilities(\"%s\") = 0x%x: unknown bits", s, v);
    }
    int need = gl_phy_format_abilities(v, buf, sizeof(buf));
    if (need < 0 || (size_t)need >= sizeof(buf) || strlen(buf) != (size_t)need) {
        fz_fail("format_abilities(0x%x) = %d", v, need);
    }
    if (gl_phy_parse_abilities(buf, &back, NULL) != 0 || back != v) {
        fz_fail("format/parse round trip: 0x%x -> \"%s\" -> 0x%x", v, buf,
                back);
    }
    /* Every shorter buffer: same return, NUL-terminated prefix. */
    for (size_t len = 0; len <= (size_t)need; len++) {
        char small[160];
        memset(small, 'X', sizeof(small));
        if (gl_phy_format_abilities(v, small, len) != need) {
            fz_fail("format_abilities(0x%x, len %zu) changed its answer", v,
                    len);
        }
        if (len && (memchr(small, '\0', len) == NULL ||
                    strncmp(small, buf, strlen(small)) != 0)) {
            fz_fail("format_abilities(0x%x, len %zu): bad truncation", v,
                    len);
        }
        if (small[len] != 'X' && len < sizeof(small)) {
            fz_fail("format_abilities(0x%x, len %zu) wrote past len", v, len);
        }
    }
}

static void cable(const char *s)
{
    struct gl_err err = { { 0 } };
    enum gl_cable v = (enum gl_cable)77, back;

    int rc = gl_phy_parse_cable(s, &v, &err);
    if (rc != 0) {
        check_err(rc, &err, "parse_cable", s);
        if (v != (enum gl_cable)77) {
            fz_fail("parse_cable(\"%s\") failed but wrote", s);
        }
        return;
    }
    if ((unsigned)v >= GL_CABLE__COUNT ||
        gl_phy_parse_cable(gl_phy_cable_name(v), &back, NULL) != 0 ||
        back != v) {
        fz_fail("parse_cable(\"%s\") = %u does not round-trip", s, v);
    }
}

static void ms(const char *s)
{
    struct gl_err err = { { 0 } };
    enum gl_phy_ms v = (enum gl_phy_ms)77, back;

    int rc = gl_phy_parse_ms(s, &v, &err);
    if (rc != 0) {
        check_err(rc, &err, "parse_ms", s);
        if (v != (enum gl_phy_ms)77) {
            fz_fail("parse_ms(\"%s\") failed but wrote", s);
        }
        return;
    }
    if ((unsigned)v >= GL_MS__COUNT ||
        gl_phy_parse_ms(gl_phy_ms_name(v), &back, NULL) != 0 || back != v) {
        fz_fail("parse_ms(\"%s\") = %u does not round-trip", s, v);
    }
}

static void jitter_dist(const char *s)
{
    struct gl_err err = { { 0 } };
    enum gl_jitter_dist v = (enum gl_jitter_dist)77, back;

    int rc = gl_wire_parse_jitter_dist(s, &v, &err);
    if (rc != 0) {
        check_err(rc, &err, "parse_jitter_dist", s);
        if (v != (enum gl_jitter_dist)77) {
            fz_fail("parse_jitter_dist(\"%s\") failed but wrote", s);
        }
        return;
    }
    if ((unsigned)v > GL_JITTER_PARETONORMAL ||
        gl_wire_parse_jitter_dist(gl_wire_jitter_dist_name(v), &back,
                                  NULL) != 0 || back != v) {
        fz_fail("parse_jitter_dist(\"%s\") = %u does not round-trip", s, v);
    }
}

static void loss(const char *s, uint8_t base)
{
    struct gl_err err = { { 0 } };
    struct gl_wire_params p, before;
    struct gl_err verr;

    gl_wire_params_default(&p);
    if (base & 1u) {        /* start from a non-default model */
        p.loss_model = GL_LOSS_4STATE;
        p.loss_pct = 3.0;
        p.latency_ns = GL_NS_PER_MS;
    }
    memcpy(&before, &p, sizeof(p));
    int rc = gl_wire_parse_loss(s, &p, &err);
    if (rc != 0) {
        check_err(rc, &err, "parse_loss", s);
        if (memcmp(&p, &before, sizeof(p)) != 0) {
            fz_fail("parse_loss(\"%s\") failed but wrote", s);
        }
        return;
    }
    if (gl_wire_params_validate(&p, &verr) != 0) {
        fz_fail("parse_loss(\"%s\") accepted what validate rejects: %s", s,
                verr.msg);
    }
    /* Only the loss fields may change. */
    before.loss_model = p.loss_model;
    before.loss_pct = p.loss_pct;
    before.ge = p.ge;
    before.mm4 = p.mm4;
    if (memcmp(&p, &before, sizeof(p)) != 0) {
        fz_fail("parse_loss(\"%s\") changed a non-loss field", s);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    uint8_t sel = data[0];
    char *s = malloc(size);         /* size - 1 bytes of text + NUL */
    if (!s) {
        return 0;
    }
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';

    switch (sel % 5u) {
    case 0:
        abilities(s);
        break;
    case 1:
        cable(s);
        break;
    case 2:
        ms(s);
        break;
    case 3:
        jitter_dist(s);
        break;
    default:
        loss(s, sel);
        break;
    }
    /* Names of any enum value are printable strings. */
    if (!gl_phy_cable_name((enum gl_cable)sel) ||
        !gl_phy_ms_name((enum gl_phy_ms)sel) ||
        !gl_wire_jitter_dist_name((enum gl_jitter_dist)sel) ||
        !gl_wire_loss_model_name((enum gl_loss_model)sel) ||
        !gl_wire_verdict_name(sel - 2) ||
        !gl_phy_state_name((enum gl_phy_state)sel)) {
        fz_fail("a name function returned NULL for %u", sel);
    }
    free(s);
    return 0;
}

/*
 * wire_params.c - parameters of the wire model: defaults, validation,
 * names and the netem-like string parsers shared by the scenario parser
 * and the QEMU properties (see gemlab/wire.h for the semantics).
 */
#include "gemlab/wire.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LATENCY_MAX_NS  60000000000ULL   /* 60 s */
#define RATE_MIN_BPS    1000ULL
#define RATE_MAX_BPS    100000000000ULL  /* 100 Gb/s */
#define GAP_MAX         1000000000ULL
/* Smallest sensible byte limit: one minimum frame on the wire. */
#define QUEUE_BYTES_MIN (GL_ETH_MIN_FRAME + GL_ETH_FCS + GL_ETH_PREAMBLE + GL_ETH_IFG)

void gl_wire_params_default(struct gl_wire_params *p)
{
    memset(p, 0, sizeof(*p));
    p->jitter_dist = GL_JITTER_UNIFORM;
    p->queue_frames = 1000;            /* netem's default limit */
    p->queue_bytes = UINT32_MAX;       /* no byte limit */
    p->loss_model = GL_LOSS_RANDOM;
    p->ge.r = 1.0;                     /* a harmless Gilbert-Elliott: */
    p->ge.h = 1.0;                     /* never leaves Good, never loses */
    p->ge.k = 1.0;
    p->mm4.p31 = 1.0;                  /* iproute2's defaults for p13 = 0 */
    p->mm4.p23 = 1.0;
    p->reorder_gap = 1;
    p->skew_crc_pct = GL_WIRE_RGMII_SKEW_PCT;
}

static int check_prob(struct gl_err *err, const char *field, double v)
{
    return gl_check_double(err, field, v, 0.0, 1.0, NULL);
}

static int check_pct(struct gl_err *err, const char *field, double v)
{
    return gl_check_double(err, field, v, 0.0, 100.0, "%");
}

int gl_wire_params_validate(const struct gl_wire_params *p, struct gl_err *err)
{
    int rc;

    if (!p) {
        return gl_err_set(err, -EINVAL, "wire: no parameters given");
    }
    if ((rc = gl_check_u64(err, "wire.latency_ns", p->latency_ns, 0, LATENCY_MAX_NS, "ns")) ||
        (rc = gl_check_u64(err, "wire.jitter_ns", p->jitter_ns, 0, LATENCY_MAX_NS, "ns"))) {
        return rc;
    }
    switch (p->jitter_dist) {
    case GL_JITTER_UNIFORM:
    case GL_JITTER_NORMAL:
    case GL_JITTER_PARETO:
    case GL_JITTER_PARETONORMAL:
        break;
    default:
        return gl_err_set(err, -EINVAL,
                          "wire.jitter_dist: %d is not one of uniform, normal, pareto, paretonormal",
                          (int)p->jitter_dist);
    }
    if (p->rate_bps != 0 &&
        (rc = gl_check_u64(err, "wire.rate_bps", p->rate_bps, RATE_MIN_BPS, RATE_MAX_BPS,
                           "b/s (or 0 for no cap)"))) {
        return rc;
    }
    if ((rc = gl_check_u64(err, "wire.queue_frames", p->queue_frames, 1, GL_WIRE_QUEUE_MAX, "frames")) ||
        (rc = gl_check_u64(err, "wire.queue_bytes", p->queue_bytes, QUEUE_BYTES_MIN, UINT32_MAX, "bytes"))) {
        return rc;
    }
    switch (p->loss_model) {
    case GL_LOSS_RANDOM:
    case GL_LOSS_GEMODEL:
    case GL_LOSS_4STATE:
        break;
    default:
        return gl_err_set(err, -EINVAL,
                          "wire.loss_model: %d is not one of random, gemodel, state",
                          (int)p->loss_model);
    }
    if ((rc = check_pct(err, "wire.loss_pct", p->loss_pct)) ||
        (rc = check_prob(err, "wire.ge.p", p->ge.p)) ||
        (rc = check_prob(err, "wire.ge.r", p->ge.r)) ||
        (rc = check_prob(err, "wire.ge.h", p->ge.h)) ||
        (rc = check_prob(err, "wire.ge.k", p->ge.k)) ||
        (rc = check_prob(err, "wire.mm4.p13", p->mm4.p13)) ||
        (rc = check_prob(err, "wire.mm4.p31", p->mm4.p31)) ||
        (rc = check_prob(err, "wire.mm4.p32", p->mm4.p32)) ||
        (rc = check_prob(err, "wire.mm4.p23", p->mm4.p23)) ||
        (rc = check_prob(err, "wire.mm4.p14", p->mm4.p14))) {
        return rc;
    }
    /* Outgoing probabilities of one state must not exceed 1. */
    if (p->mm4.p13 + p->mm4.p14 > 1.0) {
        return gl_err_set(err, -EINVAL, "wire.mm4: p13 + p14 = %g exceeds 1",
                          p->mm4.p13 + p->mm4.p14);
    }
    if (p->mm4.p31 + p->mm4.p32 > 1.0) {
        return gl_err_set(err, -EINVAL, "wire.mm4: p31 + p32 = %g exceeds 1",
                          p->mm4.p31 + p->mm4.p32);
    }
    if ((rc = check_pct(err, "wire.dup_pct", p->dup_pct)) ||
        (rc = check_pct(err, "wire.corrupt_pct", p->corrupt_pct)) ||
        (rc = check_pct(err, "wire.reorder_pct", p->reorder_pct)) ||
        (rc = gl_check_u64(err, "wire.reorder_gap", p->reorder_gap, 1, GAP_MAX, "frames")) ||
        (rc = check_pct(err, "wire.skew_crc_pct", p->skew_crc_pct))) {
        return rc;
    }
    /* netem reorders by letting a frame skip the delay: without a delay
     * there is nothing to overtake (iproute2 refuses this too). */
    if (p->reorder_pct > 0.0 && p->latency_ns == 0) {
        return gl_err_set(err, -EINVAL,
                          "wire.reorder_pct: %g needs latency_ns > 0 (a reordered frame skips the delay)",
                          p->reorder_pct);
    }
    return 0;
}

/* ---- Names ---- */

static const char *const jitter_names[] = {
    [GL_JITTER_UNIFORM] = "uniform",
    [GL_JITTER_NORMAL] = "normal",
    [GL_JITTER_PARETO] = "pareto",
    [GL_JITTER_PARETONORMAL] = "paretonormal",
};

static const char *const loss_names[] = {
    [GL_LOSS_RANDOM] = "random",
    [GL_LOSS_GEMODEL] = "gemodel",
    [GL_LOSS_4STATE] = "state",
};

static const char *const verdict_names[] = {
    [GL_WIRE_QUEUED] = "queued",
    [GL_WIRE_DROP_LINK_DOWN] = "drop-link-down",
    [GL_WIRE_DROP_QUEUE] = "drop-queue",
    [GL_WIRE_DROP_LOSS] = "drop-loss",
    [GL_WIRE_DROP_STORE] = "drop-store",
    [GL_WIRE_DROP_COLLISION] = "drop-excessive-collisions",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *gl_wire_jitter_dist_name(enum gl_jitter_dist d)
{
    return (unsigned)d < ARRAY_SIZE(jitter_names) ? jitter_names[d] : "?";
}

const char *gl_wire_loss_model_name(enum gl_loss_model m)
{
    return (unsigned)m < ARRAY_SIZE(loss_names) ? loss_names[m] : "?";
}

const char *gl_wire_verdict_name(int verdict)
{
    return verdict >= 0 && (unsigned)verdict < ARRAY_SIZE(verdict_names)
               ? verdict_names[verdict] : "?";
}

/* ---- Parsers ---- */

int gl_wire_parse_jitter_dist(const char *s, enum gl_jitter_dist *out,
                              struct gl_err *err)
{
    if (!s || !out) {
        return gl_err_set(err, -EINVAL, "jitter distribution: no string given");
    }
    for (unsigned i = 0; i < ARRAY_SIZE(jitter_names); i++) {
        if (strcmp(s, jitter_names[i]) == 0) {
            *out = (enum gl_jitter_dist)i;
            return 0;
        }
    }
    return gl_err_set(err, -EINVAL,
                      "jitter distribution: '%s' is not one of uniform, normal, pareto, paretonormal",
                      s);
}

#define SPEC_MAX   256
#define TOKENS_MAX 8

/* Split @spec on blanks into @tok (pointers into @buf). Returns the count,
 * or -1 when there are too many tokens. */
static int tokenize(char *buf, char **tok)
{
    int n = 0;
    char *s = buf;

    for (;;) {
        while (*s && isspace((unsigned char)*s)) {
            s++;
        }
        if (!*s) {
            return n;
        }
        if (n == TOKENS_MAX) {
            return -1;
        }
        tok[n++] = s;
        while (*s && !isspace((unsigned char)*s)) {
            s++;
        }
        if (*s) {
            *s++ = '\0';
        }
    }
}

/* A percentage token ("1", "1.5%", "0.25%", ".5") -> probability in
 * [0, 1].  Plain decimal only, as every other number of a scenario
 * (emu/runner/units.c): strtod alone would also take "0x10", "1e1" and
 * "0x1p-3". */
static int parse_pct_token(const char *tok, const char *what, double *out,
                           struct gl_err *err)
{
    const char *c = tok;
    char *end;
    double v;
    int digits = 0;

    while (isdigit((unsigned char)*c)) {
        c++;
        digits++;
    }
    if (*c == '.') {
        c++;
        while (isdigit((unsigned char)*c)) {
            c++;
            digits++;
        }
    }
    v = strtod(tok, &end);
    if (!digits || end != c || (*end && strcmp(end, "%") != 0)) {
        return gl_err_set(err, -EINVAL, "loss: %s '%s' is not a percentage", what, tok);
    }
    if (!(v >= 0.0 && v <= 100.0)) {
        return gl_err_set(err, -EINVAL, "loss: %s '%s' is out of range [0, 100] %%", what, tok);
    }
    *out = v / 100.0;
    return 0;
}

int gl_wire_parse_loss(const char *spec, struct gl_wire_params *p, struct gl_err *err)
{
    static const char *const ge_names[] = { "gemodel p", "gemodel r", "gemodel 1-h", "gemodel 1-k" };
    static const char *const mm4_names[] = { "state p13", "state p31", "state p32",
                                             "state p23", "state p14" };
    char buf[SPEC_MAX];
    char *tok[TOKENS_MAX];
    double v[5];
    int n, rc;
    struct gl_wire_params out;

    if (!spec || !p) {
        return gl_err_set(err, -EINVAL, "loss: no spec given");
    }
    if (strlen(spec) >= sizeof(buf)) {
        return gl_err_set(err, -EINVAL, "loss: spec longer than %d characters", SPEC_MAX - 1);
    }
    strcpy(buf, spec);
    n = tokenize(buf, tok);
    if (n < 0) {
        return gl_err_set(err, -EINVAL, "loss: more than %d tokens in '%s'", TOKENS_MAX, spec);
    }
    if (n == 0) {
        return gl_err_set(err, -EINVAL, "loss: empty spec (expected none, random, gemodel or state)");
    }
    out = *p;

    if (strcmp(tok[0], "none") == 0) {
        if (n > 1) {
            return gl_err_set(err, -EINVAL, "loss: unexpected token '%s' after none", tok[1]);
        }
        out.loss_model = GL_LOSS_RANDOM;
        out.loss_pct = 0.0;
    } else if (strcmp(tok[0], "random") == 0 || isdigit((unsigned char)tok[0][0]) ||
               tok[0][0] == '.') {
        /* "random PCT" or netem's old bare "PCT" */
        int i = isdigit((unsigned char)tok[0][0]) || tok[0][0] == '.' ? 0 : 1;
        if (i >= n) {
            return gl_err_set(err, -EINVAL, "loss: random needs a percentage");
        }
        if ((rc = parse_pct_token(tok[i], "random", &v[0], err))) {
            return rc;
        }
        if (i + 1 < n) {
            return gl_err_set(err, -EINVAL,
                              "loss: unexpected token '%s' (correlation is not supported)",
                              tok[i + 1]);
        }
        out.loss_model = GL_LOSS_RANDOM;
        out.loss_pct = v[0] * 100.0;
    } else if (strcmp(tok[0], "gemodel") == 0) {
        if (n < 2) {
            return gl_err_set(err, -EINVAL, "loss: gemodel needs at least p");
        }
        if (n > 5) {
            return gl_err_set(err, -EINVAL, "loss: unexpected token '%s' after gemodel's 4 values",
                              tok[5]);
        }
        for (int i = 1; i < n; i++) {
            if ((rc = parse_pct_token(tok[i], ge_names[i - 1], &v[i - 1], err))) {
                return rc;
            }
        }
        /* iproute2 defaults: r = 1 - p, 1-h = 1, 1-k = 0 */
        if (n < 3) {
            v[1] = 1.0 - v[0];
        }
        if (n < 4) {
            v[2] = 1.0;
        }
        if (n < 5) {
            v[3] = 0.0;
        }
        out.loss_model = GL_LOSS_GEMODEL;
        out.ge.p = v[0];
        out.ge.r = v[1];
        out.ge.h = 1.0 - v[2];
        out.ge.k = 1.0 - v[3];
    } else if (strcmp(tok[0], "state") == 0) {
        if (n < 2) {
            return gl_err_set(err, -EINVAL, "loss: state needs at least p13");
        }
        if (n > 6) {
            return gl_err_set(err, -EINVAL, "loss: unexpected token '%s' after state's 5 values",
                              tok[6]);
        }
        for (int i = 1; i < n; i++) {
            if ((rc = parse_pct_token(tok[i], mm4_names[i - 1], &v[i - 1], err))) {
                return rc;
            }
        }
        /* iproute2 defaults: p31 = 1 - p13, p32 = 0, p23 = 1, p14 = 0 */
        if (n < 3) {
            v[1] = 1.0 - v[0];
        }
        if (n < 4) {
            v[2] = 0.0;
        }
        if (n < 5) {
            v[3] = 1.0;
        }
        if (n < 6) {
            v[4] = 0.0;
        }
        out.loss_model = GL_LOSS_4STATE;
        out.mm4.p13 = v[0];
        out.mm4.p31 = v[1];
        out.mm4.p32 = v[2];
        out.mm4.p23 = v[3];
        out.mm4.p14 = v[4];
    } else {
        return gl_err_set(err, -EINVAL,
                          "loss: unknown model '%s' (expected none, random, gemodel or state)",
                          tok[0]);
    }
    /* Cross-field limits (p13 + p14 <= 1 ...) are the validator's. */
    if ((rc = gl_wire_params_validate(&out, err))) {
        return rc;
    }
    *p = out;
    return 0;
}

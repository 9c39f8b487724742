/*
 * scenario.c - scenario loading and validation (format: scenarios/README.md).
 *
 * inih splits "key = value" lines and strips comments; everything else is
 * ours.  inih reports only the first syntax error, so our line reader
 * (scn_reader) sees each physical line first, counts lines, and turns
 * every malformed line into a reported error plus an empty line for
 * inih.  The handler therefore always knows the current line number and
 * never stops parsing: every problem in a file is reported in one pass.
 *
 * Abilities and loss specs are validated by the model library's own
 * parsers (model_glue.c) so the runner never keeps a second copy of the
 * model's tables.
 *
 * Known limitations:
 *  - An event's [link] key is validated on its own; cross-key rules
 *    (partner_speed needs partner_autoneg = off) apply to [link] only.
 */
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <cjson/cJSON.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gemlab/err.h>

#include <gemlab/phy.h>

#include "model_glue.h"
#include "units.h"
#include "util.h"

enum scn_type {
    T_STR,      /* identifier-like text */
    T_TEXT,     /* free printable text */
    T_ENUM,
    T_BOOL,
    T_COUNT,    /* plain integer */
    T_TIME,     /* ns */
    T_RATE,     /* bit/s */
    T_BYTES,
    T_PCT,
    T_ABIL,     /* model: gl_phy abilities list */
    T_LOSS,     /* model: loss spec */
    T_CABLE,    /* model: cable name */
    T_JDIST,    /* model: jitter distribution name */
    T_MS,       /* model: MASTER-SLAVE preference */
    T_BYTELIST, /* comma list of byte counts */
    T_COUNTLIST, /* comma list of counts (parallel_sweep) */
    T_CODES,    /* comma list of diagnosis codes */
    T_EVENT,    /* timeline event */
    T_CMD,      /* firmware command line */
};

static const char *const e_firmware[] = { "baremetal", "linux", NULL };
static const char *const e_profile[] = { "zc702", "zc706", "zedboard", "zc702-100m", NULL };

/* What each [board] profile says about the board, in e_profile's order.
 * The PHY model decides what these mean (models/include/gemlab/phy.h
 * max_speed_mbps, rgmii_timing/pcb_*_delay); the runner only passes them
 * on (qemu.c).  The upstream device trees (arch/arm/boot/dts/zynq-zc702.dts,
 * zynq-zc706.dts, zynq-zed.dts) all give the GEM phy-mode "rgmii-id": the
 * PHY adds both RGMII delays because the traces add none. */
static const struct scn_board_profile board_profiles[] = {
    { "zc702", "Xilinx ZC702 (88E1116R, UG850)", 1000, false, false, 500 },
    { "zc706", "Xilinx ZC706 (88E1116R, UG954)", 1000, false, false, 500 },
    { "zedboard", "Avnet ZedBoard (88E1518 modelled as the 88E1116R)", 1000, false, false, 500 },
    /* a PHY without 1000BASE-T, as the LAN8742A of ST's NUCLEO-H743ZI2
     * (UM2407; the board's best is 100 Mb/s): BMSR bit 8 clear (IEEE 802.3
     * 22.2.4.2) */
    { "zc702-100m", "ZC702 with a 10/100 PHY (as an STM32H743 NUCLEO board)", 100, false, false, 500 },
};
_Static_assert(sizeof(board_profiles) / sizeof(board_profiles[0]) ==
               sizeof(e_profile) / sizeof(e_profile[0]) - 1, "one profile per [board] profile word");

const struct scn_board_profile *scn_board_profile(const struct scenario *s)
{
    int e = s ? s->v[SK_BOARD_PROFILE].e : 0;

    if (e < 0 || (size_t)e >= sizeof(board_profiles) / sizeof(board_profiles[0]))
        e = 0;
    return &board_profiles[e];
}
static const char *const e_irq[] = { "all", "cpu0", "cpu1", NULL };
static const char *const e_mac_speed[] = { "auto", "unprogrammed", "10", "100", "1000", NULL };
static const char *const e_phy_mode[] = { "rgmii-id", "rgmii", "rgmii-rxid", "rgmii-txid", NULL };
static const char *const e_peer[] = { "host", "baremetal", NULL };
static const char *const e_clock[] = { "real", "virtual", NULL };
static const char *const e_speed[] = { "10", "100", "1000", NULL };
static const char *const e_duplex[] = { "full", "half", NULL };
static const char *const e_tool[] = { "auto", "iperf3", "iperf2", NULL };
static const char *const e_proto[] = { "tcp", "udp", NULL };
static const char *const e_updown[] = { "up", "down", NULL };
static const char *const e_okfail[] = { "ok", "fail", NULL };
static const char *const e_client[] = { "auto", "board", "peer", NULL };

struct scn_keydef {
    const char *section;
    const char *name;
    enum scn_type type;
    double min, max;          /* numeric types, in the stored unit */
    const char *const *words; /* T_ENUM */
    const char *def;          /* default as text, parsed at init; NULL = none */
    bool repeat;              /* may appear more than once */
};

#define NS(x) ((x) * 1e9)
static const struct scn_keydef keydefs[SK_COUNT] = {
    [SK_SCENARIO_NAME] = { "scenario", "name", T_STR, 1, SCN_NAME_MAX, NULL, NULL, false },
    [SK_SCENARIO_DESCRIPTION] = { "scenario", "description", T_TEXT, 0, 190, NULL, NULL, false },
    [SK_SCENARIO_SOURCE] = { "scenario", "source", T_TEXT, 0, 190, NULL, NULL, false },
    [SK_SCENARIO_TODO] = { "scenario", "todo", T_TEXT, 1, 190, NULL, NULL, false },
    [SK_BOARD_FIRMWARE] = { "board", "firmware", T_ENUM, 0, 0, e_firmware, "baremetal", false },
    [SK_BOARD_PROFILE] = { "board", "profile", T_ENUM, 0, 0, e_profile, "zc702", false },
    [SK_BOARD_CPUS] = { "board", "cpus", T_COUNT, 1, 2, NULL, "1", false },
    [SK_BOARD_RX_BDS] = { "board", "rx_bds", T_COUNT, 2, 1024, NULL, "64", false },
    [SK_BOARD_TX_BDS] = { "board", "tx_bds", T_COUNT, 2, 1024, NULL, "64", false },
    [SK_BOARD_PBUFS] = { "board", "pbufs", T_COUNT, 4, 4096, NULL, "512", false },
    [SK_BOARD_IRQ_AFFINITY] = { "board", "irq_affinity", T_ENUM, 0, 0, e_irq, "all", false },
    [SK_BOARD_MAC_SPEED] = { "board", "mac_speed", T_ENUM, 0, 0, e_mac_speed, "auto", false },
    [SK_BOARD_PHY_MODE] = { "board", "phy_mode", T_ENUM, 0, 0, e_phy_mode, "rgmii-id", false },
    /* host: the host's iperf over --net user|tap; baremetal: a second
     * bare-metal board over --net pair */
    [SK_BOARD_PEER] = { "board", "peer", T_ENUM, 0, 0, e_peer, "host", false },
    /* our own advertisement (ethtool -s eth0 advertise); [link] partner's words */
    [SK_BOARD_ADVERTISE] = { "board", "advertise", T_ABIL, 0, 0, NULL, NULL, false },
    /* real: QEMU runs as fast as the host lets it; virtual: -icount
     * mips=N,sleep=off (docs/VIRTUAL_TIME.md) */
    [SK_BOARD_CLOCK] = { "board", "clock", T_ENUM, 0, 0, e_clock, "real", false },
    /* the guest CPU's speed in virtual time; unset = the profile's
     * default (scn_board_mips).  The bounds are QEMU's -icount mips=. */
    [SK_BOARD_MIPS] = { "board", "mips", T_COUNT, 1, 1000000, NULL, NULL, false },
    /* parallel virtual time for cpus = 2: the vCPUs run in rounds of this
     * much virtual time, each on its own count (our QEMU patch 0045,
     * -icount quantum=NS); unset: scn_board_quantum_ns()'s default.
     * The bounds are the patch's. */
    [SK_BOARD_QUANTUM] = { "board", "quantum", T_TIME, 1000, 100000000, NULL, NULL, false },
    /* virtual time: what a core waits for each 32-byte line the GEM wrote
     * by DMA, at its first load of it (-icount dmaline=NS, our QEMU patch
     * 0046); unset or 0: nothing.  The bounds are the patch's. */
    [SK_BOARD_DMA_LINE] = { "board", "dma_line", T_TIME, 0, 100000, NULL, NULL, false },
    /* [link]: link_keys.h */
#define LINK_KEYDEF(a, id, word, type, min, max, words, def, ...) \
    [SK_LINK_##id] = { "link", word, type, min, max, words, def, false },
    LINK_KEYS(LINK_KEYDEF, _)
#undef LINK_KEYDEF
    [SK_TIMELINE_AT] = { "timeline", "at", T_EVENT, 0, 0, NULL, NULL, true },
    [SK_TRAFFIC_TOOL] = { "traffic", "tool", T_ENUM, 0, 0, e_tool, "auto", false },
    [SK_TRAFFIC_BOARD_TOOL] = { "traffic", "board_tool", T_ENUM, 0, 0, e_tool, "auto", false },
    [SK_TRAFFIC_PROTOCOL] = { "traffic", "protocol", T_ENUM, 0, 0, e_proto, "tcp", false },
    [SK_TRAFFIC_PARALLEL] = { "traffic", "parallel", T_COUNT, 1, 128, NULL, "1", false },
    [SK_TRAFFIC_REVERSE] = { "traffic", "reverse", T_BOOL, 0, 0, NULL, "no", false },
    [SK_TRAFFIC_BIDIR] = { "traffic", "bidir", T_BOOL, 0, 0, NULL, "no", false },
    [SK_TRAFFIC_CLIENT] = { "traffic", "client", T_ENUM, 0, 0, e_client, "auto", false },
    [SK_TRAFFIC_BANDWIDTH] = { "traffic", "bandwidth", T_RATE, 1e3, 1e10, NULL, NULL, false },
    [SK_TRAFFIC_WINDOW] = { "traffic", "window", T_BYTES, 2048, 16 << 20, NULL, NULL, false },
    [SK_TRAFFIC_LENGTH] = { "traffic", "length", T_BYTES, 16, 1 << 20, NULL, NULL, false },
    [SK_TRAFFIC_OMIT] = { "traffic", "omit", T_TIME, 0, NS(60), NULL, "0", false },
    [SK_TRAFFIC_DURATION] = { "traffic", "duration", T_TIME, NS(1), NS(3600), NULL, "10s", false },
    [SK_TRAFFIC_INTERVAL] = { "traffic", "interval", T_TIME, NS(0.1), NS(60), NULL, "1s", false },
    [SK_TRAFFIC_SWEEP] = { "traffic", "sweep", T_BYTELIST, 16, 65507, NULL, NULL, false },
    [SK_TRAFFIC_PARALLEL_SWEEP] = { "traffic", "parallel_sweep", T_COUNTLIST, 1, 128, NULL, NULL, false },
    [SK_TRAFFIC_FW_CMD] = { "traffic", "fw_cmd", T_CMD, 1, 120, NULL, NULL, true },
    [SK_EXPECT_LINK] = { "expect", "link", T_ENUM, 0, 0, e_updown, "up", false },
    [SK_EXPECT_SPEED] = { "expect", "speed", T_ENUM, 0, 0, e_speed, NULL, false },
    [SK_EXPECT_DUPLEX] = { "expect", "duplex", T_ENUM, 0, 0, e_duplex, NULL, false },
    [SK_EXPECT_THROUGHPUT_MIN] = { "expect", "throughput_min", T_RATE, 0, 1e10, NULL, NULL, false },
    [SK_EXPECT_THROUGHPUT_MAX] = { "expect", "throughput_max", T_RATE, 0, 1e10, NULL, NULL, false },
    [SK_EXPECT_REFERENCE] = { "expect", "reference", T_RATE, 1e3, 1e10, NULL, NULL, false },
    [SK_EXPECT_LOSS_MIN] = { "expect", "loss_min", T_PCT, 0, 100, NULL, NULL, false },
    [SK_EXPECT_LOSS_MAX] = { "expect", "loss_max", T_PCT, 0, 100, NULL, NULL, false },
    [SK_EXPECT_RETRANSMITS_MAX] = { "expect", "retransmits_max", T_COUNT, 0, 1e12, NULL, NULL, false },
    [SK_EXPECT_FLAPS] = { "expect", "flaps", T_COUNT, 0, 1000, NULL, NULL, false },
    [SK_EXPECT_JITTER_MAX] = { "expect", "jitter_max", T_TIME, 0, NS(10), NULL, NULL, false },
    [SK_EXPECT_DIAG] = { "expect", "diag", T_CODES, 0, 0, NULL, NULL, true },
    [SK_EXPECT_DIAG_ABSENT] = { "expect", "diag_absent", T_CODES, 0, 0, NULL, NULL, true },
    [SK_EXPECT_TRAFFIC] = { "expect", "traffic", T_ENUM, 0, 0, e_okfail, NULL, false },
};

static const char *const sections[] = {
    "scenario", "board", "link", "timeline", "traffic", "expect", "control", NULL,
};

/* ---- parsing context ---------------------------------------------------- */

struct scn_ctx {
    struct scenario *s;
    const char *name;   /* file name for messages */
    FILE *errs;
    /* reader state */
    FILE *fp;           /* file input, or */
    const char *text;   /* string input */
    int line;
    char section[64];
    bool section_ok;    /* keys under an unknown/broken section are skipped */
    int link_line;      /* the [link] header, for the model's verdict */
    int nsections;      /* section headers seen */
    int nerr;
    int nerr_link;      /* of them, about a [link] key (the message says "[link]") */
    int err_line[SCN_MAX_ERRORS];   /* the line of each error reported */
    int events_over;    /* [timeline] events past SCN_MAX_EVENTS */
};

static void __attribute__((format(printf, 3, 4)))
scn_error(struct scn_ctx *c, int line, const char *fmt, ...)
{
    char msg[1024], clean[3 * sizeof(msg) + 1];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    c->nerr_link += strncmp(msg, "[link]", 6) == 0;
    if (c->nerr < SCN_MAX_ERRORS)
        c->err_line[c->nerr] = line;
    c->nerr++;
    if (!c->errs || c->nerr > SCN_MAX_ERRORS)
        return;
    if (c->nerr == SCN_MAX_ERRORS) {
        fprintf(c->errs, "%s: too many errors, giving up reporting\n", c->name);
        return;
    }
    /* the message quotes the file's own text: no escape sequence or
     * invalid UTF-8 of it reaches the terminal (docs/SECURITY.md R7) */
    runner_clean_text(clean, sizeof(clean), msg, strlen(msg), false);
    if (line > 0)
        fprintf(c->errs, "%s:%d: %s\n", c->name, line, clean);
    else
        fprintf(c->errs, "%s: %s\n", c->name, clean);
}

const char *scn_key_section(enum scn_key k)
{
    return (unsigned)k < SK_COUNT ? keydefs[k].section : "?";
}

const char *scn_key_name(enum scn_key k)
{
    return (unsigned)k < SK_COUNT ? keydefs[k].name : "?";
}

int scn_key_lookup(const char *section, const char *name)
{
    for (int k = 0; k < SK_COUNT; k++)
        if (strcmp(keydefs[k].section, section) == 0 && strcmp(keydefs[k].name, name) == 0)
            return k;
    return -1;
}

static bool section_known(const char *name)
{
    for (int i = 0; sections[i]; i++)
        if (strcmp(sections[i], name) == 0)
            return true;
    return false;
}

static void list_words(const char *const *w, char *buf, size_t len)
{
    size_t off = 0;

    buf[0] = '\0';
    for (int i = 0; w[i] && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "|" : "", w[i]);
}

/* @section's keys, but @except (-1: none), comma-separated into @buf */
static void list_keys(const char *section, int except, char *buf, size_t len)
{
    size_t off = 0;

    buf[0] = '\0';
    for (int k = 0; k < SK_COUNT && off < len; k++)
        if (k != except && strcmp(keydefs[k].section, section) == 0)
            off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", keydefs[k].name);
}

/* Text keys: identifiers are [A-Za-z0-9_.-]; free text is printable ASCII
 * or valid UTF-8, never a C0 or C1 control character.  It goes into
 * results.json, which strict JSON readers take as UTF-8 only (RFC 8259
 * section 8.1).  The UTF-8 rules are runner_clean_text()'s (util.h, RFC
 * 3629): text it would change is refused.  A value is shorter than a
 * line (197 bytes), so 256 bounds it. */
static bool text_ok(const char *v, bool ident)
{
    char clean[3 * 256 + 1];
    size_t n = strlen(v);

    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        if (ident && !(isalnum(*p) || *p == '_' || *p == '.' || *p == '-'))
            return false;
        if (*p < 0x20 || *p == 0x7f)
            return false;
    }
    return n < 256 && runner_clean_text(clean, sizeof(clean), v, n, false) == n && !memcmp(clean, v, n);
}

/* @ns in the largest of s, ms, us, ns that keeps it whole ("100us"). */
static void fmt_time_ns(double ns, char *buf, size_t len)
{
    static const struct { const char *unit; double ns; } u[] = {
        { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
    };
    for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
        if (ns != 0 && fmod(ns, u[i].ns) == 0) {
            snprintf(buf, len, "%g%s", ns / u[i].ns, u[i].unit);
            return;
        }
    }
    snprintf(buf, len, "%gns", ns);
}

static void fmt_range(const struct scn_keydef *d, char *buf, size_t len)
{
    char lo[32], hi[32];

    switch (d->type) {
    case T_TIME:
        fmt_time_ns(d->min, lo, sizeof(lo));
        fmt_time_ns(d->max, hi, sizeof(hi));
        snprintf(buf, len, "[%s, %s]", lo, hi);
        break;
    case T_RATE:
        snprintf(buf, len, "[%g, %g] bit/s", d->min, d->max);
        break;
    case T_BYTES:
    case T_BYTELIST:
        snprintf(buf, len, "[%.0f, %.0f] bytes", d->min, d->max);
        break;
    case T_COUNTLIST:
        snprintf(buf, len, "[%.0f, %.0f]", d->min, d->max);
        break;
    case T_PCT:
        snprintf(buf, len, "[%g, %g] %%", d->min, d->max);
        break;
    default:
        if (d->max >= 18446744073709551615.0)     /* UINT64_MAX rounds up to 2^64 as a double */
            snprintf(buf, len, "[%.0f, 18446744073709551615]", d->min);
        else
            snprintf(buf, len, "[%.0f, %.0f]", d->min, d->max);
        break;
    }
}

/* Parse @text as a scalar of key @k into @out.  Returns 0 or -EINVAL /
 * -ERANGE with a message in @msg.  Repeatable/compound types are handled
 * by the caller. */
static int parse_value(enum scn_key k, const char *text, struct scn_val *out, char *msg, size_t msglen);

/* Parse into a copy so a rejected value never reaches @out. */
int scn_parse_value(enum scn_key k, const char *text, struct scn_val *out,
                    char *msg, size_t msglen)
{
    struct scn_val tmp = *out;
    int rc = parse_value(k, text, &tmp, msg, msglen);

    if (!rc)
        *out = tmp;
    return rc;
}

static int parse_value(enum scn_key k, const char *text, struct scn_val *out,
                       char *msg, size_t msglen)
{
    const struct scn_keydef *d;
    char range[96], words[128];
    double x = 0;
    int rc = 0;

    if ((unsigned)k >= SK_COUNT) {
        snprintf(msg, msglen, "no such key");
        return -EINVAL;
    }
    d = &keydefs[k];
    fmt_range(d, range, sizeof(range));
    switch (d->type) {
    case T_STR:
    case T_TEXT:
    case T_CMD:
        if (strlen(text) < (size_t)d->min || strlen(text) > (size_t)d->max) {
            snprintf(msg, msglen, "length %zu is out of range [%.0f, %.0f]",
                     strlen(text), d->min, d->max);
            return -ERANGE;
        }
        if (!text_ok(text, d->type == T_STR)) {
            snprintf(msg, msglen, d->type == T_STR ? "'%.40s' may only hold letters, digits, '_', '.', '-'"
                                                   : "'%.40s' holds a control character or is not UTF-8", text);
            return -EINVAL;
        }
        if (d->type == T_CMD && strstr(text, "@gemlab")) {
            /* the console echoes what is typed: the runner would read the
             * echo as one of the firmware's own @gemlab lines */
            snprintf(msg, msglen, "holds '@gemlab', the mark of the firmware's own JSON lines");
            return -EINVAL;
        }
        snprintf(out->s, sizeof(out->s), "%s", text);
        return 0;
    case T_ENUM:
        for (int i = 0; d->words[i]; i++) {
            if (strcmp(d->words[i], text) == 0) {
                out->e = i;
                return 0;
            }
        }
        list_words(d->words, words, sizeof(words));
        snprintf(msg, msglen, "'%.40s' is not one of %s", text, words);
        return -EINVAL;
    case T_BOOL:
        if (un_parse_bool(text, &out->b)) {
            snprintf(msg, msglen, "'%.40s' is not a boolean (yes|no|on|off|true|false|1|0)", text);
            return -EINVAL;
        }
        return 0;
    case T_COUNT:
        rc = un_parse_u64(text, &out->u);
        x = (double)out->u;
        if (rc == -EINVAL) {
            snprintf(msg, msglen, "'%.40s' is not a whole number in %s", text, range);
            return rc;
        }
        break;
    case T_TIME:
        rc = un_parse_time_ns(text, &out->u);
        x = (double)out->u;
        if (rc == -EINVAL) {
            snprintf(msg, msglen, "'%.40s' is not a duration (number with ns|us|ms|s)", text);
            return rc;
        }
        break;
    case T_RATE:
        rc = un_parse_rate_bps(text, &out->d);
        x = out->d;
        if (rc == -EINVAL) {
            snprintf(msg, msglen, "'%.40s' is not a rate in bits per second (e.g. 200M, 941.5Mb/s, 1Gbps)", text);
            return rc;
        }
        /* a bare number is bit/s, as iperf -b reads it; beside [expect]
         * speed (Mb/s) "throughput_min = 900" reads as 900 Mb/s and was
         * a bar of 900 bit/s that every run passed: a rate needs its unit */
        if (!rc && x != 0 && strspn(text, "+-0123456789.") == strlen(text)) {
            snprintf(msg, msglen, "'%.40s' has no unit: write %.30sM for Mb/s, %.30sG for Gb/s or %.30sbps for bit/s",
                     text, text, text, text);
            return -EINVAL;
        }
        break;
    case T_BYTES:
        rc = un_parse_bytes(text, &out->u);
        x = (double)out->u;
        if (rc == -EINVAL) {
            snprintf(msg, msglen, "'%.40s' is not a byte count (e.g. 1470, 256K)", text);
            return rc;
        }
        break;
    case T_PCT:
        rc = un_parse_pct(text, &out->d);
        x = out->d;
        if (rc == -EINVAL) {
            snprintf(msg, msglen, "'%.40s' is not a percentage (e.g. 1%%, 0.5)", text);
            return rc;
        }
        break;
    case T_ABIL:
    case T_LOSS:
    case T_CABLE:
    case T_JDIST:
    case T_MS: {
        char merr[GL_ERR_MSG_MAX];
        rc = glue_check(d->type == T_ABIL ? GLUE_ABILITIES : d->type == T_LOSS ? GLUE_LOSS
                      : d->type == T_CABLE ? GLUE_CABLE : d->type == T_JDIST ? GLUE_JITTER_DIST
                      : GLUE_MS, text, merr, sizeof(merr));
        if (rc) {
            snprintf(msg, msglen, "%s", merr);
            return rc;
        }
        if (strlen(text) >= sizeof(out->s)) {
            snprintf(msg, msglen, "value is too long");
            return -ERANGE;
        }
        snprintf(out->s, sizeof(out->s), "%s", text);
        return 0;
    }
    default:
        snprintf(msg, msglen, "not a scalar key");
        return -EINVAL;
    }
    if (rc == -ERANGE || x < d->min || x > d->max) {
        snprintf(msg, msglen, "'%.40s' is out of range %s", text, range);
        return -ERANGE;
    }
    return rc;
}

/* ---- compound values ------------------------------------------------------ */

/* A comma list ("64, 128,256") with an empty item: a leading, trailing
 * or doubled comma.  strtok would skip it, and "1,,2" is more likely a
 * lost value than a wish for two. */
static bool list_has_empty_item(const char *v)
{
    bool item = false;

    for (; *v; v++) {
        if (*v == ',') {
            if (!item)
                return true;
            item = false;
        } else if (*v != ' ' && *v != '\t') {
            item = true;
        }
    }
    return !item;
}

static void parse_bytelist(struct scn_ctx *c, enum scn_key k, const char *value)
{
    const struct scn_keydef *d = &keydefs[k];
    bool counts = d->type == T_COUNTLIST;
    unsigned *n = counts ? &c->s->npsweep : &c->s->nsweep;
    char buf[SCN_STR_MAX], *save = NULL, *tok;

    if (strlen(value) >= sizeof(buf)) {
        scn_error(c, c->line, "[%s] %s: list is too long", d->section, d->name);
        return;
    }
    if (list_has_empty_item(value)) {
        scn_error(c, c->line, "[%s] %s: '%.60s' has an empty item", d->section, d->name, value);
        return;
    }
    strcpy(buf, value);
    *n = 0;
    for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        uint64_t b = 0;
        int rc = counts ? un_parse_u64(tok, &b) : un_parse_bytes(tok, &b);
        if (rc || b < d->min || b > d->max) {
            scn_error(c, c->line, "[%s] %s: '%.40s' is not a %s in [%.0f, %.0f]", d->section, d->name, tok,
                      counts ? "count" : "byte count", d->min, d->max);
            return;
        }
        if (*n == SCN_MAX_SWEEP) {
            scn_error(c, c->line, "[%s] %s: more than %d %s", d->section, d->name, SCN_MAX_SWEEP,
                      counts ? "values" : "sizes");
            return;
        }
        if (counts)
            c->s->psweep[(*n)++] = (unsigned)b;
        else
            c->s->sweep[(*n)++] = b;
    }
    if (!*n)
        scn_error(c, c->line, "[%s] %s: empty list", d->section, d->name);
}

static void parse_codes(struct scn_ctx *c, enum scn_key k, const char *value)
{
    const struct scn_keydef *d = &keydefs[k];
    bool *set = k == SK_EXPECT_DIAG ? c->s->diag : c->s->diag_absent;
    char buf[SCN_STR_MAX], *save = NULL, *tok;
    int n = 0;

    if (strlen(value) >= sizeof(buf)) {
        scn_error(c, c->line, "[%s] %s: list is too long", d->section, d->name);
        return;
    }
    if (list_has_empty_item(value)) {
        scn_error(c, c->line, "[%s] %s: '%.60s' has an empty item", d->section, d->name, value);
        return;
    }
    strcpy(buf, value);
    for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        int code = dg_code_lookup(tok);
        n++;
        if (code < 0) {
            scn_error(c, c->line, "[%s] %s: unknown diagnosis code '%.48s' (see emu/runner/codes.h)",
                      d->section, d->name, tok);
            continue;
        }
        set[code] = true;
    }
    if (!n)
        scn_error(c, c->line, "[%s] %s: empty list", d->section, d->name);
}

/* "TIME ACTION ARGS" - see scenarios/README.md [timeline]. */
static void parse_event(struct scn_ctx *c, const char *value)
{
    struct scn_event ev;
    char buf[SCN_STR_MAX], *save = NULL, *tok[6];
    char msg[256];
    int n = 0;

    memset(&ev, 0, sizeof(ev));
    ev.line = c->line;
    if (strlen(value) >= sizeof(buf)) {
        scn_error(c, c->line, "[timeline] at: event is too long");
        return;
    }
    if (c->s->nevents == SCN_MAX_EVENTS) {
        /* said once, at the first event too many: one line per event
         * past it would bury every other error */
        if (!c->events_over++)
            scn_error(c, c->line, "[timeline] at: more than %d events (from this line on)", SCN_MAX_EVENTS);
        return;
    }
    strcpy(buf, value);
    snprintf(ev.text, sizeof(ev.text), "%s", value);
    /* The firmware command keeps the rest of the line verbatim. */
    for (char *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == 6) {
            scn_error(c, c->line, "[timeline] at: too many words in '%.60s'", value);
            return;
        }
        tok[n++] = t;
        if (n == 2 && strcmp(t, "fw") == 0)
            break;
        if (n == 3 && strcmp(tok[1], "set") == 0)
            break;      /* VALUE may have words: "set loss random 1%" */
    }
    if (n < 2) {
        scn_error(c, c->line, "[timeline] at: expected 'TIME ACTION [ARGS]', got '%.60s'", value);
        return;
    }
    if (un_parse_time_ns(tok[0], &ev.t_ns) || ev.t_ns > (uint64_t)NS(3600)) {
        scn_error(c, c->line, "[timeline] at: '%.40s' is not a time in [0s, 3600s] (use ns|us|ms|s)", tok[0]);
        return;
    }
    if (strcmp(tok[1], "fw") == 0) {
        const char *rest = save ? save : "";
        while (*rest == ' ' || *rest == '\t')
            rest++;
        ev.act = SCN_ACT_FW;
        if (!*rest || strlen(rest) > 120 || !text_ok(rest, false)) {
            scn_error(c, c->line, "[timeline] at: fw needs a command of 1..120 printable characters");
            return;
        }
        snprintf(ev.text, sizeof(ev.text), "%s", rest);
        c->s->events[c->s->nevents++] = ev;
        return;
    }
    if (strcmp(tok[1], "link") == 0 && n == 3 && (!strcmp(tok[2], "up") || !strcmp(tok[2], "down"))) {
        ev.act = strcmp(tok[2], "up") == 0 ? SCN_ACT_LINK_UP : SCN_ACT_LINK_DOWN;
    } else if (strcmp(tok[1], "restart-aneg") == 0 && n == 2) {
        ev.act = SCN_ACT_RESTART_ANEG;
    } else if (strcmp(tok[1], "starve-rx") == 0 && n == 3) {
        ev.act = SCN_ACT_STARVE_RX;
        if (un_parse_time_ns(tok[2], &ev.dur_ns) || ev.dur_ns == 0 || ev.dur_ns > (uint64_t)NS(60)) {
            scn_error(c, c->line, "[timeline] at: starve-rx duration '%.40s' is not in (0s, 60s]", tok[2]);
            return;
        }
    } else if (strcmp(tok[1], "flap") == 0 && n >= 3 && n <= 5) {
        uint64_t cnt = 1;
        ev.act = SCN_ACT_FLAP;
        if (un_parse_time_ns(tok[2], &ev.dur_ns) || ev.dur_ns == 0 || ev.dur_ns > (uint64_t)NS(60)) {
            scn_error(c, c->line, "[timeline] at: flap down-time '%.40s' is not in (0s, 60s]", tok[2]);
            return;
        }
        if (n >= 4 && (un_parse_u64(tok[3], &cnt) || cnt < 1 || cnt > 1000)) {
            scn_error(c, c->line, "[timeline] at: flap count '%.40s' is not in [1, 1000]", tok[3]);
            return;
        }
        ev.count = (unsigned)cnt;
        if (n == 5 && (un_parse_time_ns(tok[4], &ev.period_ns) || ev.period_ns <= ev.dur_ns ||
                       ev.period_ns > (uint64_t)NS(600))) {
            scn_error(c, c->line, "[timeline] at: flap period '%.40s' must exceed the down-time and be <= 600s", tok[4]);
            return;
        }
        if (cnt > 1 && n < 5) {
            scn_error(c, c->line, "[timeline] at: flap with a count needs a period: 'flap DOWN COUNT PERIOD'");
            return;
        }
    } else if (strcmp(tok[1], "set") == 0 && n == 3 && save && save[strspn(save, " \t")]) {
        int k = scn_key_lookup("link", tok[2]);
        tok[3] = save + strspn(save, " \t");
        ev.act = SCN_ACT_SET;
        if (k < 0 || k == SK_LINK_SEED) {
            char keys[512];
            list_keys("link", SK_LINK_SEED, keys, sizeof(keys));
            scn_error(c, c->line, "[timeline] at: set: '%.40s' is not a settable [link] key (%s; the seed is "
                                  "fixed for the run)", tok[2], keys);
            return;
        }
        ev.key = (enum scn_key)k;
        if (scn_parse_value(ev.key, tok[3], &ev.val, msg, sizeof(msg))) {
            scn_error(c, c->line, "[timeline] at: set %s: %s", tok[2], msg);
            return;
        }
        ev.val.set = true;
        ev.val.line = c->line;
    } else {
        scn_error(c, c->line,
                  "[timeline] at: unknown or malformed action '%.60s' (link up|down, flap DOWN [COUNT PERIOD], "
                  "set KEY VALUE, restart-aneg, starve-rx DUR, fw CMD)", value);
        return;
    }
    c->s->events[c->s->nevents++] = ev;
}

/* ---- inih callbacks ------------------------------------------------------- */

/* [control] unset = SECTION.KEY, ...   (or "timeline": every event)
 * [control] set = SECTION.KEY VALUE     (repeatable)
 * Only what the negative control changes; [scenario] and [expect] keys
 * are not allowed (the control's expectations are derived). */
static int control_key(struct scn_ctx *c, const char *text, int *key)
{
    char sec[32], nm[48];
    const char *dot = strchr(text, '.');
    int k;

    if (!dot || (size_t)(dot - text) >= sizeof(sec) || strlen(dot + 1) >= sizeof(nm)) {
        scn_error(c, c->line, "[control] '%.60s' is not SECTION.KEY", text);
        return -1;
    }
    memcpy(sec, text, (size_t)(dot - text));
    sec[dot - text] = '\0';
    snprintf(nm, sizeof(nm), "%s", dot + 1);
    if (!strcmp(sec, "scenario") || !strcmp(sec, "expect") || !strcmp(sec, "control")) {
        scn_error(c, c->line, "[control] %s: [%s] keys cannot be changed (the control's [expect] is derived)",
                  text, sec);
        return -1;
    }
    k = scn_key_lookup(sec, nm);
    if (k < 0) {
        char keys[512];
        list_keys(sec, -1, keys, sizeof(keys));
        scn_error(c, c->line, "[control] unknown key '%.60s'%s%s%s", text, keys[0] ? " (known in [" : "",
                  keys[0] ? sec : "", keys[0] ? "]: see scenarios/README.md)" : "");
        return -1;
    }
    *key = k;
    return 0;
}

/* Is key @k (-1: the timeline) already changed by the control?  Each key
 * is unset or set once: a second word for it would silently win. */
static bool control_has(const struct scenario *s, int k)
{
    for (unsigned i = 0; i < s->nctl_unset; i++)
        if (s->ctl_unset[i] == k)
            return true;
    for (unsigned i = 0; i < s->nctl_set; i++)
        if (s->ctl_set[i].key == k)
            return true;
    return false;
}

static int control_entry(struct scn_ctx *c, const char *name, const char *value)
{
    struct scenario *s = c->s;

    if (!s->control_line)
        s->control_line = c->line;
    if (!strcmp(name, "unset")) {
        char buf[SCN_STR_MAX], *save = NULL;
        bool any = false;
        snprintf(buf, sizeof(buf), "%s", value);
        for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
            int k = -1;
            any = true;
            if (s->nctl_unset == SCN_MAX_CONTROL) {
                scn_error(c, c->line, "[control] unset: more than %d entries", SCN_MAX_CONTROL);
                return 1;
            }
            if (strcmp(t, "timeline") && control_key(c, t, &k))
                return 1;
            if (control_has(s, k)) {
                scn_error(c, c->line, "[control] unset: %.60s is already changed by the control", t);
                return 1;
            }
            s->ctl_unset_line[s->nctl_unset] = c->line;
            s->ctl_unset[s->nctl_unset++] = k;
        }
        if (!any)
            scn_error(c, c->line, "[control] unset: no SECTION.KEY given");
        return 1;
    }
    if (!strcmp(name, "set")) {
        char key[96], msg[256];
        const char *sp = strpbrk(value, " \t");     /* blanks separate, as in the rest of the file */
        int k;
        if (!sp || (size_t)(sp - value) >= sizeof(key)) {
            scn_error(c, c->line, "[control] set: '%.60s' is not SECTION.KEY VALUE", value);
            return 1;
        }
        memcpy(key, value, (size_t)(sp - value));
        key[sp - value] = '\0';
        while (*sp == ' ' || *sp == '\t')
            sp++;
        if (control_key(c, key, &k))
            return 1;
        if (keydefs[k].repeat || keydefs[k].type == T_BYTELIST || keydefs[k].type == T_COUNTLIST) {
            scn_error(c, c->line, "[control] set: %s is a list; unset it instead", key);
            return 1;
        }
        if (control_has(s, k)) {
            scn_error(c, c->line, "[control] set: %s is already changed by the control", key);
            return 1;
        }
        if (s->nctl_set == SCN_MAX_CONTROL) {
            scn_error(c, c->line, "[control] set: more than %d entries", SCN_MAX_CONTROL);
            return 1;
        }
        if (scn_parse_value((enum scn_key)k, sp, &s->ctl_set[s->nctl_set].val, msg, sizeof(msg))) {
            scn_error(c, c->line, "[control] set %s: %s", key, msg);
            return 1;
        }
        s->ctl_set[s->nctl_set].key = k;
        s->ctl_set[s->nctl_set].line = c->line;
        s->nctl_set++;
        return 1;
    }
    if (!strcmp(name, "todo")) {
        char msg[256];
        if (s->ctl_todo.set) {
            scn_error(c, c->line, "[control] todo: given twice (first at line %d)", s->ctl_todo.line);
            return 1;
        }
        if (scn_parse_value(SK_SCENARIO_TODO, value, &s->ctl_todo, msg, sizeof(msg))) {
            scn_error(c, c->line, "[control] todo: %s", msg);
            return 1;
        }
        s->ctl_todo.set = true;
        s->ctl_todo.line = c->line;
        return 1;
    }
    scn_error(c, c->line, "[control] unknown key '%.40s' (known: unset, set, todo)", name);
    return 1;
}

static int scn_handler(void *user, const char *section, const char *name, const char *value)
{
    struct scn_ctx *c = user;
    struct scn_val *v;
    char msg[256];
    int k;

    if (!c->section_ok)
        return 1;   /* already reported at the section header */
    if (!section[0]) {
        scn_error(c, c->line, "'%.40s' is outside any section", name);
        return 1;
    }
    /* inih ends a value only at " ;" (INI_INLINE_COMMENT_PREFIXES): a
     * '#' after it stayed in the value, and "fw_cmd = phy restart  # x"
     * gave the firmware five words */
    if ((value[0] == '#' || strstr(value, " #") || strstr(value, "\t#")) && strcmp(section, "scenario") &&
        !(strcmp(section, "control") == 0 && strcmp(name, "todo") == 0)) {
        /* (the free text of [scenario] and a todo may say "issue #42") */
        scn_error(c, c->line, "[%s] %.40s: '#' inside the value; a comment after a value starts with ' ;' "
                  "('#' only at the start of a line)", section, name);
        return 1;
    }
    if (strcmp(section, "control") == 0)
        return control_entry(c, name, value);
    k = scn_key_lookup(section, name);
    if (k < 0) {
        char keys[512];
        list_keys(section, -1, keys, sizeof(keys));
        scn_error(c, c->line, "[%s] unknown key '%.40s' (known: %s)", section, name, keys);
        return 1;
    }
    v = &c->s->v[k];
    if (!value[0]) {
        scn_error(c, c->line, "[%s] %s: empty value", section, name);
        if (!keydefs[k].repeat && !v->set) {
            v->set = true;
            v->line = c->line;
        }
        return 1;
    }
    if (keydefs[k].repeat) {
        v->set = true;
        if (!v->line)
            v->line = c->line;
    } else if (v->set) {
        scn_error(c, c->line, "[%s] %s: given twice (first at line %d)", section, name, v->line);
        return 1;
    }
    switch (keydefs[k].type) {
    case T_EVENT:
        parse_event(c, value);
        return 1;
    case T_CODES:
        parse_codes(c, (enum scn_key)k, value);
        return 1;
    case T_BYTELIST:
    case T_COUNTLIST:
        parse_bytelist(c, (enum scn_key)k, value);
        break;
    case T_CMD:
        if (c->s->nfw_cmds == SCN_MAX_FW_CMDS) {
            scn_error(c, c->line, "[%s] %s: more than %d commands", section, name, SCN_MAX_FW_CMDS);
            return 1;
        }
        if (scn_parse_value((enum scn_key)k, value, v, msg, sizeof(msg))) {
            scn_error(c, c->line, "[%s] %s: %s", section, name, msg);
            return 1;
        }
        c->s->fw_cmd_line[c->s->nfw_cmds] = c->line;
        snprintf(c->s->fw_cmds[c->s->nfw_cmds++], SCN_STR_MAX, "%s", value);
        return 1;
    default:
        if (scn_parse_value((enum scn_key)k, value, v, msg, sizeof(msg)))
            scn_error(c, c->line, "[%s] %s: %s", section, name, msg);
        break;
    }
    /* given, even when its value was refused: a second one is reported too */
    v->set = true;
    v->line = c->line;
    return 1;
}

/* Look at one physical line before inih does: count it, check sections
 * and the shape of the line.  Returns the line to hand to inih. */
static void scn_screen_line(struct scn_ctx *c, char *line)
{
    char *p = line, *end;
    size_t len = strlen(line);

    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        line[--len] = '\0';
    if (c->line == 1 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB &&
        (unsigned char)p[2] == 0xBF)
        p += 3;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p || *p == ';' || *p == '#') {
        line[0] = '\0';
        return;
    }
    if (*p == '[') {
        end = strchr(p, ']');
        if (!end) {
            scn_error(c, c->line, "section header without ']'");
            c->section_ok = false;
            line[0] = '\0';
            return;
        }
        *end = '\0';
        snprintf(c->section, sizeof(c->section), "%s", p + 1);
        *end = ']';
        c->nsections++;
        for (char *q = end + 1; *q; q++) {
            if (*q == ';' || *q == '#')
                break;
            if (*q != ' ' && *q != '\t') {
                scn_error(c, c->line, "text after section header");
                break;
            }
        }
        c->section_ok = section_known(c->section);
        if (strcmp(c->section, "link") == 0 && !c->link_line)
            c->link_line = c->line;
        if (!c->section_ok)
            scn_error(c, c->line, "unknown section [%.40s] (known: scenario, board, link, timeline, traffic, expect, control)",
                      c->section);
        return;
    }
    {
        /* what inih keeps: up to an inline comment (" ;"), where a
         * '=' after it ("latency ; = 5ms") is no separator */
        size_t keep = strlen(p);
        for (size_t i = 1; i < keep; i++)
            if (p[i] == ';' && (p[i - 1] == ' ' || p[i - 1] == '\t')) {
                keep = i;
                break;
            }
        if (!memchr(p, '=', keep) && !memchr(p, ':', keep)) {
            scn_error(c, c->line, "expected 'key = value', got '%.60s'", p);
            line[0] = '\0';
            return;
        }
    }
    if (*p == '=' || *p == ':') {
        scn_error(c, c->line, "missing key before '%c'", *p);
        line[0] = '\0';
        return;
    }
}

static char *scn_reader(char *str, int num, void *stream)
{
    struct scn_ctx *c = stream;
    char *line = NULL;
    size_t cap = 0, n;
    ssize_t got;

    if (num < 4)
        return NULL;
    if (c->fp) {
        got = getline(&line, &cap, c->fp);
        if (got < 0) {
            free(line);
            return NULL;
        }
        n = (size_t)got;
    } else {
        const char *nl;
        if (!*c->text)
            return NULL;
        nl = strchr(c->text, '\n');
        n = nl ? (size_t)(nl - c->text + 1) : strlen(c->text);
        line = malloc(n + 1);
        if (!line)
            return NULL;
        memcpy(line, c->text, n);
        line[n] = '\0';
        c->text += n;
    }
    c->line++;
    if (strlen(line) != n) {
        scn_error(c, c->line, "NUL byte in line");
        line[0] = '\0';
        n = 0;
    }
    /* the limit is on what the line says: "\n" or "\r\n", or none on
     * the last line, is not counted */
    if (n && line[n - 1] == '\n')
        line[--n] = '\0';
    if (n && line[n - 1] == '\r')
        line[--n] = '\0';
    if (n > (size_t)num - 3) {
        scn_error(c, c->line, "line is too long (%zu bytes, at most %d)", n, num - 3);
        line[0] = '\0';
    } else {
        scn_screen_line(c, line);
    }
    snprintf(str, (size_t)num, "%s\n", line);
    free(line);
    return str;
}

/* ---- defaults and cross-checks -------------------------------------------- */

/* The scenario name a file's path gives: its last component less the
 * extension, at *@base; its length (scn_init() keeps SCN_NAME_MAX of it,
 * scn_run() refuses more). */
static size_t file_name_len(const char *path, const char **base)
{
    const char *b = strrchr(path, '/'), *dot;

    b = b ? b + 1 : path;
    dot = strrchr(b, '.');
    *base = b;
    return dot && dot != b ? (size_t)(dot - b) : strlen(b);
}

void scn_init(struct scenario *s, const char *path)
{
    char msg[128];

    memset(s, 0, sizeof(*s));
    snprintf(s->path, sizeof(s->path), "%s", path ? path : "");
    for (int k = 0; k < SK_COUNT; k++) {
        if (keydefs[k].def && scn_parse_value((enum scn_key)k, keydefs[k].def, &s->v[k], msg, sizeof(msg)))
            abort();    /* a broken default is a bug in the table */
    }
    if (path) {
        const char *base;
        size_t len = file_name_len(path, &base);
        if (len > SCN_NAME_MAX)
            len = SCN_NAME_MAX;     /* scn_run() says so */
        memcpy(s->v[SK_SCENARIO_NAME].s, base, len);
        s->v[SK_SCENARIO_NAME].s[len] = '\0';
    }
}

#define V(k) (&s->v[SK_##k])

/* When @e's last effect ends: a flap's last link-up, a starve's end */
static uint64_t event_end(const struct scn_event *e)
{
    uint64_t repeats = e->act == SCN_ACT_FLAP && e->count > 1 ? (uint64_t)(e->count - 1) * e->period_ns : 0;

    return e->t_ns + repeats + e->dur_ns;
}

static void scn_cross_check(struct scn_ctx *c)
{
    struct scenario *s = c->s;
    bool udp = V(TRAFFIC_PROTOCOL)->e == 1;
    uint64_t dur = V(TRAFFIC_DURATION)->u, omit = V(TRAFFIC_OMIT)->u;

    if (V(LINK_PARTNER_SPEED)->set && V(LINK_PARTNER_AUTONEG)->b)
        scn_error(c, V(LINK_PARTNER_SPEED)->line,
                  "[link] partner_speed: only meaningful with partner_autoneg = off");
    if (V(LINK_PARTNER_DUPLEX)->set && V(LINK_PARTNER_AUTONEG)->b)
        scn_error(c, V(LINK_PARTNER_DUPLEX)->line,
                  "[link] partner_duplex: only meaningful with partner_autoneg = off");
    if (!V(LINK_PARTNER_AUTONEG)->b && (!V(LINK_PARTNER_SPEED)->set || !V(LINK_PARTNER_DUPLEX)->set))
        scn_error(c, V(LINK_PARTNER_AUTONEG)->line,
                  "[link] partner_autoneg = off needs partner_speed and partner_duplex");
    if (!V(LINK_PARTNER_AUTONEG)->b && V(LINK_PARTNER)->set)
        scn_error(c, V(LINK_PARTNER)->line,
                  "[link] partner: abilities are advertised only with partner_autoneg = on");
    if (V(BOARD_ADVERTISE)->set) {
        uint32_t ab = 0;
        gl_phy_parse_abilities(V(BOARD_ADVERTISE)->s, &ab, NULL);
        if (ab & GL_ABIL_100T4)
            scn_error(c, V(BOARD_ADVERTISE)->line,
                      "[board] advertise: 100T4 is a partner ability; the board's PHY is not 100BASE-T4");
        else if (!(ab & GL_ABIL_ALL_SPEEDS))
            scn_error(c, V(BOARD_ADVERTISE)->line,
                      "[board] advertise: needs at least one of 1000FD,1000HD,100FD,100HD,10FD,10HD");
    }
    if (V(LINK_JITTER)->set && V(LINK_JITTER)->u > V(LINK_LATENCY)->u)
        scn_error(c, V(LINK_JITTER)->line,
                  "[link] jitter: %.3f ms exceeds latency %.3f ms (delays would go negative)",
                  V(LINK_JITTER)->u / 1e6, V(LINK_LATENCY)->u / 1e6);
    if (V(LINK_DOWNSHIFT_ATTEMPTS)->set && V(LINK_DOWNSHIFT)->set && !V(LINK_DOWNSHIFT)->b)
        scn_error(c, V(LINK_DOWNSHIFT_ATTEMPTS)->line,
                  "[link] downshift_attempts: needs downshift = on");
    if (V(BOARD_CPUS)->u > 1 && V(BOARD_FIRMWARE)->e == 0)
        scn_error(c, V(BOARD_CPUS)->line, "[board] cpus: bare-metal firmware runs on one CPU; use firmware = linux");
    if (V(BOARD_IRQ_AFFINITY)->set && V(BOARD_FIRMWARE)->e == 0)
        scn_error(c, V(BOARD_IRQ_AFFINITY)->line, "[board] irq_affinity: needs firmware = linux");
    /* the bare-metal driver's `gem speed` fault; Linux's macb writes
     * NWCFG's speed bits itself on every link change (macb_mac_link_up) */
    if (V(BOARD_MAC_SPEED)->set && V(BOARD_MAC_SPEED)->e != 0 && V(BOARD_FIRMWARE)->e != 0)
        scn_error(c, V(BOARD_MAC_SPEED)->line, "[board] mac_speed: needs firmware = baremetal (Linux's macb "
                  "programs the MAC speed itself)");
    if (V(BOARD_CLOCK)->e == 1 && V(BOARD_PEER)->e == 1)
        /* a second QEMU over a socket runs in wall time (docs/VIRTUAL_TIME.md) */
        scn_error(c, V(BOARD_PEER)->line, "[board] peer: baremetal is not with clock = virtual (line %d)",
                  V(BOARD_CLOCK)->line);
    if (V(BOARD_PEER)->e == 1) {
        /* --net pair: the firmwares' own iperf (one stream, iperf 2 style) */
        static const enum scn_key unsupported[] = { SK_TRAFFIC_PARALLEL, SK_TRAFFIC_PARALLEL_SWEEP,
                                                    SK_TRAFFIC_SWEEP, SK_TRAFFIC_BIDIR, SK_TRAFFIC_WINDOW,
                                                    SK_TRAFFIC_OMIT, SK_TRAFFIC_TOOL, SK_TRAFFIC_CLIENT };
        if (V(BOARD_FIRMWARE)->e != 0)
            scn_error(c, V(BOARD_PEER)->line, "[board] peer: baremetal needs firmware = baremetal");
        for (size_t k = 0; k < sizeof(unsupported) / sizeof(unsupported[0]); k++)
            if (s->v[unsupported[k]].set)
                scn_error(c, s->v[unsupported[k]].line,
                          "[traffic] %s: not with [board] peer = baremetal (the boards' own iperf, one stream)",
                          scn_key_name(unsupported[k]));
    }
    if (V(BOARD_QUANTUM)->set && V(BOARD_CPUS)->u < 2)
        scn_error(c, V(BOARD_QUANTUM)->line, "[board] quantum: parallel virtual time is for cpus = 2");
    if (V(BOARD_QUANTUM)->set && V(BOARD_CLOCK)->e != 1)
        scn_error(c, V(BOARD_QUANTUM)->line, "[board] quantum: needs clock = virtual");
    if (V(BOARD_DMA_LINE)->set && V(BOARD_CLOCK)->e != 1)
        scn_error(c, V(BOARD_DMA_LINE)->line, "[board] dma_line: needs clock = virtual");
    /* a speed only instruction counting gives: in real time the host's
     * is the guest's, and the key would be ignored without a word */
    if (V(BOARD_MIPS)->set && V(BOARD_CLOCK)->e != 1)
        scn_error(c, V(BOARD_MIPS)->line, "[board] mips: needs clock = virtual");
    /* the host's tools (and a pair's firmwares) decide their own roles */
    if (V(TRAFFIC_CLIENT)->set && V(TRAFFIC_CLIENT)->e != 0 && V(BOARD_CLOCK)->e != 1)
        scn_error(c, V(TRAFFIC_CLIENT)->line, "[traffic] client: only against the in-emulator peer, which needs "
                  "clock = virtual");
    /* PBUF_POOL_SIZE of the bare-metal lwIP build: Linux has no such pool */
    if (V(BOARD_PBUFS)->set && V(BOARD_FIRMWARE)->e != 0)
        scn_error(c, V(BOARD_PBUFS)->line, "[board] pbufs: a bare-metal lwIP build option (PBUF_POOL_SIZE); "
                  "not with firmware = linux");
    if (V(BOARD_IRQ_AFFINITY)->e == 2 && V(BOARD_CPUS)->u < 2)
        scn_error(c, V(BOARD_IRQ_AFFINITY)->line, "[board] irq_affinity: cpu1 needs cpus = 2");
    if (dur % 1000000000ull)
        scn_error(c, V(TRAFFIC_DURATION)->line, "[traffic] duration: iperf takes whole seconds");
    if (omit % 1000000000ull)
        scn_error(c, V(TRAFFIC_OMIT)->line, "[traffic] omit: iperf takes whole seconds");
    if (V(TRAFFIC_OMIT)->set && strcmp(scn_host_tool(s), "iperf3") != 0)
        scn_error(c, V(TRAFFIC_OMIT)->line, "[traffic] omit: iperf 2 has no -O (the %s default is %s); use tool = iperf3",
                  scn_enum_str(s, SK_BOARD_FIRMWARE), scn_host_tool(s));
    if (omit >= dur)
        scn_error(c, V(TRAFFIC_OMIT)->line ? V(TRAFFIC_OMIT)->line : V(TRAFFIC_DURATION)->line,
                  "[traffic] omit: %.0fs leaves nothing of duration %.0fs", omit / 1e9, dur / 1e9);
    if (V(TRAFFIC_BANDWIDTH)->set && !udp)
        scn_error(c, V(TRAFFIC_BANDWIDTH)->line, "[traffic] bandwidth: only for protocol = udp");
    if (V(TRAFFIC_LENGTH)->set && udp && V(TRAFFIC_LENGTH)->u > 65507)
        scn_error(c, V(TRAFFIC_LENGTH)->line, "[traffic] length: %llu exceeds the UDP maximum 65507",
                  (unsigned long long)V(TRAFFIC_LENGTH)->u);
    if (V(TRAFFIC_SWEEP)->set && V(TRAFFIC_LENGTH)->set)
        scn_error(c, V(TRAFFIC_SWEEP)->line, "[traffic] sweep: conflicts with length (line %d)",
                  V(TRAFFIC_LENGTH)->line);
    if (V(TRAFFIC_PARALLEL_SWEEP)->set && V(TRAFFIC_PARALLEL)->set)
        scn_error(c, V(TRAFFIC_PARALLEL_SWEEP)->line, "[traffic] parallel_sweep: conflicts with parallel (line %d)",
                  V(TRAFFIC_PARALLEL)->line);
    if (V(TRAFFIC_PARALLEL_SWEEP)->set && V(TRAFFIC_SWEEP)->set)
        scn_error(c, V(TRAFFIC_PARALLEL_SWEEP)->line, "[traffic] parallel_sweep: conflicts with sweep (line %d)",
                  V(TRAFFIC_SWEEP)->line);
    if (V(TRAFFIC_BIDIR)->b && V(TRAFFIC_REVERSE)->b)
        scn_error(c, V(TRAFFIC_BIDIR)->line, "[traffic] bidir: conflicts with reverse");
    if (V(TRAFFIC_BIDIR)->b && V(TRAFFIC_CLIENT)->e != 0)
        /* -d is the client's: the server connects back, so both ends are both */
        scn_error(c, V(TRAFFIC_CLIENT)->line, "[traffic] client: conflicts with bidir (line %d)",
                  V(TRAFFIC_BIDIR)->line);
    if (V(EXPECT_LINK)->set && V(EXPECT_LINK)->e == 1) {
        /* a link expected down has no speed, duplex or traffic: such an
         * expectation could never pass */
        static const struct { enum scn_key k; const char *what; } up_only[] = {
            { SK_EXPECT_SPEED, "speed" }, { SK_EXPECT_DUPLEX, "duplex" },
            { SK_EXPECT_THROUGHPUT_MIN, "throughput_min" },
        };
        for (size_t i = 0; i < sizeof(up_only) / sizeof(up_only[0]); i++)
            if (s->v[up_only[i].k].set && !(up_only[i].k == SK_EXPECT_THROUGHPUT_MIN && s->v[up_only[i].k].d == 0))
                scn_error(c, s->v[up_only[i].k].line, "[expect] %s: can never hold with link = down (line %d)",
                          up_only[i].what, V(EXPECT_LINK)->line);
    }
    /* a test that must fail carries nothing a floor could measure */
    if (V(EXPECT_TRAFFIC)->set && V(EXPECT_TRAFFIC)->e == 1 && V(EXPECT_THROUGHPUT_MIN)->set &&
        V(EXPECT_THROUGHPUT_MIN)->d > 0)
        scn_error(c, V(EXPECT_THROUGHPUT_MIN)->line, "[expect] throughput_min: can never hold with traffic = fail "
                  "(line %d)", V(EXPECT_TRAFFIC)->line);
    if (V(EXPECT_THROUGHPUT_MIN)->set && V(EXPECT_THROUGHPUT_MAX)->set &&
        V(EXPECT_THROUGHPUT_MIN)->d > V(EXPECT_THROUGHPUT_MAX)->d)
        scn_error(c, V(EXPECT_THROUGHPUT_MAX)->line, "[expect] throughput_max: below throughput_min");
    if (V(EXPECT_LOSS_MIN)->set && V(EXPECT_LOSS_MAX)->set && V(EXPECT_LOSS_MIN)->d > V(EXPECT_LOSS_MAX)->d)
        scn_error(c, V(EXPECT_LOSS_MAX)->line, "[expect] loss_max: below loss_min");
    if ((V(EXPECT_LOSS_MIN)->set || V(EXPECT_LOSS_MAX)->set || V(EXPECT_JITTER_MAX)->set) && !udp)
        scn_error(c, V(EXPECT_LOSS_MAX)->set ? V(EXPECT_LOSS_MAX)->line
                   : V(EXPECT_LOSS_MIN)->set ? V(EXPECT_LOSS_MIN)->line : V(EXPECT_JITTER_MAX)->line,
                  "[expect] loss/jitter bounds need protocol = udp");
    /* iperf3's sender counts its retransmissions (tcpi_total_retrans);
     * iperf 2 prints none and UDP has none: the bar could never pass */
    if (V(EXPECT_RETRANSMITS_MAX)->set && (udp || strcmp(scn_host_tool(s), "iperf3") != 0))
        scn_error(c, V(EXPECT_RETRANSMITS_MAX)->line, "[expect] retransmits_max: %s", udp
                  ? "UDP has no retransmissions (protocol = udp)"
                  : "iperf 2 reports no retransmissions; only iperf3's sender counts them (tool = iperf3)");
    /* the bare-metal firmware's lwiperf answers iperf 2 only (lwIP
     * apps/lwiperf): an iperf3 client gets no answer from it */
    if (V(TRAFFIC_BOARD_TOOL)->e == 1 && V(BOARD_FIRMWARE)->e == 0)
        scn_error(c, V(TRAFFIC_BOARD_TOOL)->line, "[traffic] board_tool = iperf3: the bare-metal firmware runs "
                  "lwIP's lwiperf, which speaks iperf 2 only; use firmware = linux");
    /* the board's own and the in-emulator peer's iperf print every
     * second (-i 1), whatever the key said */
    if (V(TRAFFIC_INTERVAL)->set && V(TRAFFIC_INTERVAL)->u != 1000000000ull &&
        (V(BOARD_CLOCK)->e == 1 || V(BOARD_PEER)->e == 1))
        scn_error(c, V(TRAFFIC_INTERVAL)->line, "[traffic] interval: only 1s with %s (its iperf reports each second)",
                  V(BOARD_CLOCK)->e == 1 ? "clock = virtual" : "peer = baremetal");
    /* a sweep is several tests, a timeline's times one test's: the
     * events ran with the first test or, in real time, with none */
    if ((V(TRAFFIC_SWEEP)->set || V(TRAFFIC_PARALLEL_SWEEP)->set) && s->nevents)
        scn_error(c, V(TRAFFIC_SWEEP)->set ? V(TRAFFIC_SWEEP)->line : V(TRAFFIC_PARALLEL_SWEEP)->line,
                  "[traffic] %s with a [timeline] (line %d): the timeline's times count from the start of one "
                  "test (run the sweep without it)", V(TRAFFIC_SWEEP)->set ? "sweep" : "parallel_sweep",
                  s->events[0].line);
    /* a size sweep's figures are one per size, and a small size is bound
     * by packets/s, not bytes (MAC_PPS_LIMIT): one bound over them all
     * would judge the last size only */
    if (V(TRAFFIC_SWEEP)->set) {
        static const enum scn_key per_test[] = { SK_EXPECT_THROUGHPUT_MIN, SK_EXPECT_THROUGHPUT_MAX,
                                                 SK_EXPECT_LOSS_MIN, SK_EXPECT_LOSS_MAX, SK_EXPECT_JITTER_MAX };
        for (size_t k = 0; k < sizeof(per_test) / sizeof(per_test[0]); k++)
            if (s->v[per_test[k]].set)
                scn_error(c, s->v[per_test[k]].line, "[expect] %s with [traffic] sweep (line %d): one bound "
                          "cannot judge every size (it would judge the last only); run one length, or judge the "
                          "sweep by its diag codes", scn_key_name(per_test[k]), V(TRAFFIC_SWEEP)->line);
    }
    for (int i = 0; i < DG_NCODES; i++)
        if (s->diag[i] && s->diag_absent[i])
            scn_error(c, V(EXPECT_DIAG_ABSENT)->line, "[expect] diag_absent: %s is also in diag",
                      dg_code_name((enum dg_code)i));
    /* the models' verdict on the [link] keys, also beside errors elsewhere
     * in the file (every problem is reported at once), not beside one of
     * their own: a key that did not parse would only echo */
    if (!c->nerr_link) {
        char msg[GL_ERR_MSG_MAX];
        int key;
        if (glue_validate_link(s, msg, sizeof(msg), &key)) {
            /* the key's own line when the file set it, else the header */
            if (key >= 0)
                scn_error(c, s->v[key].set && s->v[key].line ? s->v[key].line : c->link_line, "[link] %s: %s",
                          scn_key_name((enum scn_key)key), msg);
            else
                scn_error(c, c->link_line, "[link] %s", msg);
        } else if (s->nevents) {
            /* each [timeline] set over the [link] the ones before it left:
             * QEMU runs the same validators on it mid-run, and a value it
             * refuses there is a run without the change */
            struct scenario *t = malloc(sizeof(*t));
            if (t)
                *t = *s;
            for (unsigned i = 0; t && i < s->nevents; i++) {
                const struct scn_event *e = &s->events[i];
                if (e->act != SCN_ACT_SET)
                    continue;
                t->v[e->key] = e->val;
                t->v[e->key].set = true;
                if (glue_validate_link(t, msg, sizeof(msg), NULL)) {
                    scn_error(c, e->line, "[timeline] at: set %s: %s", scn_key_name(e->key), msg);
                    break;
                }
            }
            if (!t)
                scn_error(c, s->events[0].line, "[timeline]: out of memory checking it");
            free(t);
        }
    }
    unsigned steps = 0;
    bool over = false;
    for (unsigned i = 0; i < s->nevents; i++) {
        const struct scn_event *e = &s->events[i];
        uint64_t end = event_end(e);
        if (end > dur)
            scn_error(c, e->line, "[timeline] at: event ends at %.3fs, after the traffic (duration %.0fs)",
                      end / 1e9, dur / 1e9);
        if (i && e->t_ns < s->events[i - 1].t_ns)
            scn_error(c, e->line, "[timeline] at: events must be in time order");
        steps += e->act == SCN_ACT_FLAP ? 2u * (e->count ? e->count : 1) : 1u;
        if (steps > SCN_MAX_STEPS && !over) {
            over = true;
            scn_error(c, e->line, "[timeline] at: the timeline expands to more than %d steps here (a flap is "
                      "two per count)", SCN_MAX_STEPS);
        }
    }
    /* a flap brings the link up at the end of each down-time: a link
     * change inside its window, at the same time or later, listed before
     * it or after, was undone by it or undid it */
    for (unsigned i = 0; i < s->nevents; i++) {
        const struct scn_event *e = &s->events[i];
        if (e->act != SCN_ACT_FLAP && e->act != SCN_ACT_LINK_DOWN && e->act != SCN_ACT_LINK_UP &&
            e->act != SCN_ACT_RESTART_ANEG)
            continue;
        for (unsigned j = 0; j < s->nevents; j++) {
            const struct scn_event *f = &s->events[j];
            uint64_t f_end = event_end(f);
            /* two flaps at one time: reported once, at the later line */
            if (j == i || f->act != SCN_ACT_FLAP || e->t_ns < f->t_ns || e->t_ns >= f_end ||
                (e->act == SCN_ACT_FLAP && e->t_ns == f->t_ns && j > i))
                continue;
            scn_error(c, e->line, "[timeline] at: a link change at %.3fs, inside the flap of line %d "
                      "(%.3fs to %.3fs): the flap's link-ups would undo it", e->t_ns / 1e9, f->line,
                      f->t_ns / 1e9, f_end / 1e9);
            break;
        }
    }
}

static int scn_run(struct scn_ctx *c)
{
    int rc;

    ini_allow_multiline = false;    /* a value never continues on the next line */
    rc = ini_parse_stream(scn_reader, c, scn_handler, c);
    if (rc == -2) {
        scn_error(c, 0, "out of memory");
        return -ENOMEM;
    }
    if (rc > 0) {
        /* a syntax error our screen missed, reported whatever else was:
         * inih names only its first, at line rc */
        bool said = false;
        for (int i = 0; i < c->nerr && i < SCN_MAX_ERRORS; i++)
            said |= c->err_line[i] == rc;
        if (!said)
            scn_error(c, rc, "syntax error");
    }
    if (c->nsections == 0 && c->nerr == 0)
        /* an empty file (or one of comments) is the wrong file more often
         * than a wish for every default */
        scn_error(c, 0, "no section: the file is empty or only comments; a scenario has at least one of "
                        "[scenario], [board], [link], [traffic], [expect] (a bare [scenario] takes every default)");
    if (!c->s->v[SK_SCENARIO_NAME].set && c->name) {
        /* scn_init() cut a file name longer than a name may be */
        const char *base;
        size_t len = file_name_len(c->name, &base);
        if (len > SCN_NAME_MAX)
            scn_error(c, 0, "the scenario name taken from the file name is %zu characters, more than %d: rename "
                            "the file or set [scenario] name", len, SCN_NAME_MAX);
    }
    if (c->s->control_line && strlen(c->s->v[SK_SCENARIO_NAME].s) > SCN_NAME_MAX - (sizeof("_control") - 1)) {
        /* the control runs as NAME_control (qemu-test, baselines, the
         * run directory): a longer name would be cut, and two such names
         * could give one control name */
        scn_error(c, c->s->v[SK_SCENARIO_NAME].set ? c->s->v[SK_SCENARIO_NAME].line : c->s->control_line,
                  "a scenario with a [control] runs it as NAME_control: its name '%s' is %zu characters, more than "
                  "%zu", c->s->v[SK_SCENARIO_NAME].s, strlen(c->s->v[SK_SCENARIO_NAME].s),
                  (size_t)SCN_NAME_MAX - (sizeof("_control") - 1));
    }
    if (!c->s->v[SK_SCENARIO_NAME].set && !text_ok(c->s->v[SK_SCENARIO_NAME].s, true)) {
        /* the name scn_init() took from the file name names the run
         * directory, whose path goes into QEMU's option strings and the
         * progress lines (docs/SECURITY.md R9): the [scenario] name rule applies */
        char shown[SCN_STR_MAX];
        size_t k = 0;
        for (const char *p = c->s->v[SK_SCENARIO_NAME].s; *p && k + 1 < sizeof(shown); p++)
            shown[k++] = *p >= 0x20 && *p < 0x7f ? *p : '?';
        shown[k] = '\0';
        scn_error(c, 0, "the scenario name taken from the file name, '%s', may only hold letters, digits, "
                        "'_', '.', '-': rename the file or set [scenario] name", shown);
    }
    scn_cross_check(c);
    return c->nerr ? -EINVAL : 0;
}

int scn_load(const char *path, struct scenario *s, FILE *errs)
{
    struct scn_ctx c = { .s = s, .name = path, .errs = errs, .section_ok = true };
    struct stat st;
    int rc;

    scn_init(s, path);
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; the type is
     * checked before anything is read */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        rc = -errno;
        if (errs)
            fprintf(errs, "%s: cannot open: %s\n", path, strerror(-rc));
        return rc;
    }
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        if (errs)
            fprintf(errs, "%s: not a regular file\n", path);
        close(fd);
        return -EINVAL;
    }
    c.fp = fdopen(fd, "r");
    if (!c.fp) {
        rc = -errno;
        if (errs)
            fprintf(errs, "%s: cannot open: %s\n", path, strerror(-rc));
        close(fd);
        return rc;
    }
    if (st.st_size > SCN_MAX_FILE_BYTES) {
        if (errs)
            fprintf(errs, "%s: %lld bytes is larger than a scenario can be (%d)\n", path,
                    (long long)st.st_size, SCN_MAX_FILE_BYTES);
        fclose(c.fp);
        return -EFBIG;
    }
    rc = scn_run(&c);
    fclose(c.fp);
    return rc;
}

int scn_load_string(const char *name, const char *text, struct scenario *s, FILE *errs)
{
    struct scn_ctx c = { .s = s, .name = name, .errs = errs, .text = text, .section_ok = true };

    scn_init(s, name);
    if (strlen(text) > SCN_MAX_FILE_BYTES) {
        if (errs)
            fprintf(errs, "%s: larger than a scenario can be\n", name);
        return -EFBIG;
    }
    return scn_run(&c);
}

int scn_make_control(const struct scenario *s, struct scenario *out, FILE *errs)
{
    struct scn_ctx c = { .s = out, .name = s->path, .errs = errs, .section_ok = true };
    char msg[128];
    bool any = false;

    if (!s->control_line) {
        if (errs)
            fprintf(errs, "%s: no [control] section: this scenario has no negative control\n", s->path);
        return -EINVAL;
    }
    for (unsigned i = 0; i < s->nctl_unset; i++) {
        /* unsetting what the file never set changes nothing: the control
         * would run the scenario's own fault and prove nothing */
        int k = s->ctl_unset[i];
        bool tl = k < 0 || k == SK_TIMELINE_AT;
        if (tl ? !s->nevents : !s->v[k].set) {
            if (errs)
                fprintf(errs, "%s:%d: [control] unset %s%s%s: the scenario does not set it, so the control "
                              "would not differ there\n", s->path, s->ctl_unset_line[i], tl ? "timeline" : scn_key_section(k),
                        tl ? "" : ".", tl ? "" : scn_key_name(k));
            return -EINVAL;
        }
    }
    *out = *s;
    for (unsigned i = 0; i < s->nctl_unset; i++) {
        int k = s->ctl_unset[i];
        /* timeline.at is the list of events: unsetting it is unsetting
         * the timeline, events and all */
        if (k < 0 || k == SK_TIMELINE_AT) {
            out->nevents = 0;
            out->v[SK_TIMELINE_AT].set = false;
            continue;
        }
        memset(&out->v[k], 0, sizeof(out->v[k]));
        if (keydefs[k].def && scn_parse_value((enum scn_key)k, keydefs[k].def, &out->v[k], msg, sizeof(msg)))
            abort();    /* a broken default is a bug in the table */
        if (k == SK_TRAFFIC_FW_CMD)
            out->nfw_cmds = 0;
        else if (k == SK_TRAFFIC_SWEEP)
            out->nsweep = 0;
        else if (k == SK_TRAFFIC_PARALLEL_SWEEP)
            out->npsweep = 0;
    }
    for (unsigned i = 0; i < s->nctl_set; i++) {
        out->v[s->ctl_set[i].key] = s->ctl_set[i].val;
        out->v[s->ctl_set[i].key].set = true;
        out->v[s->ctl_set[i].key].line = s->ctl_set[i].line;
    }
    /* expectations: only that the scenario's codes are absent */
    for (int k = 0; k < SK_COUNT; k++) {
        if (strcmp(keydefs[k].section, "expect"))
            continue;
        memset(&out->v[k], 0, sizeof(out->v[k]));
        if (keydefs[k].def && scn_parse_value((enum scn_key)k, keydefs[k].def, &out->v[k], msg, sizeof(msg)))
            abort();
    }
    for (int d = 0; d < DG_NCODES; d++) {
        out->diag_absent[d] = s->diag[d];
        out->diag[d] = false;
        any = any || s->diag[d];
    }
    out->v[SK_EXPECT_DIAG_ABSENT].set = any;
    out->v[SK_EXPECT_DIAG_ABSENT].line = s->v[SK_EXPECT_DIAG].line;
    /* scn_parse() refused a name too long for the suffix */
    snprintf(out->v[SK_SCENARIO_NAME].s, sizeof(out->v[SK_SCENARIO_NAME].s), "%.55s_control",
             s->v[SK_SCENARIO_NAME].s);
    /* the control's own known gap replaces the scenario's */
    out->v[SK_SCENARIO_TODO] = s->ctl_todo;
    out->control_line = 0;
    out->nctl_unset = out->nctl_set = 0;
    memset(&out->ctl_todo, 0, sizeof(out->ctl_todo));
    if (!any) {
        if (errs)
            fprintf(errs, "%s:%d: [control] but no [expect] diag: a negative control needs the codes it must not "
                          "produce\n", s->path, s->control_line);
        return -EINVAL;
    }
    scn_cross_check(&c);
    if (c.nerr && errs)
        fprintf(errs, "%s:%d: the negative control ([control]) is not a valid scenario (above)\n", s->path,
                s->control_line);
    return c.nerr ? -EINVAL : 0;
}

int scn_recheck(struct scenario *s, const char *why, FILE *errs)
{
    struct scn_ctx c = { .s = s, .name = s->path, .errs = errs, .section_ok = true };

    scn_cross_check(&c);
    if (c.nerr && errs)
        fprintf(errs, "%s: not a valid scenario %s (above)\n", s->path, why);
    return c.nerr ? -EINVAL : 0;
}

const char *scn_board_tool(const struct scenario *s)
{
    if (s->v[SK_TRAFFIC_BOARD_TOOL].e != 0)
        return scn_enum_str(s, SK_TRAFFIC_BOARD_TOOL);
    /* lwIP's lwiperf speaks iperf 2; the Linux agent runs iperf3 against
     * the host's, and against the in-emulator peer (virtual time,
     * docs/PEER.md) iperf 2.1.8, or iperf3 when the peer's side is its
     * iperf3 client (tool = iperf3) */
    if (s->v[SK_BOARD_FIRMWARE].e != 1)
        return "iperf2";
    return !scn_clock_virtual(s) || s->v[SK_TRAFFIC_TOOL].e == 1 ? "iperf3" : "iperf2";
}

unsigned long long scn_board_quantum_ns(const struct scenario *s)
{
    if (s->v[SK_BOARD_QUANTUM].set)
        return s->v[SK_BOARD_QUANTUM].u;
    return s->v[SK_BOARD_CPUS].u > 1 ? SCN_QUANTUM_DEFAULT_NS : 0;
}

unsigned long long scn_board_dma_line_ns(const struct scenario *s)
{
    return s->v[SK_BOARD_DMA_LINE].u;
}

unsigned scn_board_mips(const struct scenario *s)
{
    if (s->v[SK_BOARD_MIPS].set)
        return (unsigned)s->v[SK_BOARD_MIPS].u;
    return scn_board_profile(s)->mips;
}

bool scn_clock_virtual(const struct scenario *s)
{
    return s->v[SK_BOARD_CLOCK].e == 1;
}

const char *scn_host_tool(const struct scenario *s)
{
    if (s->v[SK_TRAFFIC_TOOL].e != 0)
        return scn_enum_str(s, SK_TRAFFIC_TOOL);
    return scn_board_tool(s);
}

bool scn_board_client(const struct scenario *s)
{
    int e = s->v[SK_TRAFFIC_CLIENT].e;

    return e == 0 ? s->v[SK_TRAFFIC_REVERSE].b : e == 1;
}

bool scn_iperf_reverse(const struct scenario *s)
{
    return scn_board_client(s) != s->v[SK_TRAFFIC_REVERSE].b;
}

const char *scn_enum_word(enum scn_key k, int e)
{
    if ((unsigned)k >= SK_COUNT || keydefs[k].type != T_ENUM || e < 0)
        return NULL;
    for (int i = 0; keydefs[k].words[i]; i++)
        if (i == e)
            return keydefs[k].words[i];
    return NULL;
}

int scn_advertise_cmd(const struct scenario *s, char *buf, size_t len)
{
    /* GL_ABIL_* -> word (firmware) and ethtool ADVERTISED_* bit (ethtool(8)) */
    static const struct { uint32_t abil; const char *word; unsigned eth; } m[] = {
        { GL_ABIL_1000FD, "1000FD", 0x020 }, { GL_ABIL_1000HD, "1000HD", 0x010 },
        { GL_ABIL_100FD, "100FD", 0x008 },   { GL_ABIL_100HD, "100HD", 0x004 },
        { GL_ABIL_10FD, "10FD", 0x002 },     { GL_ABIL_10HD, "10HD", 0x001 },
        { GL_ABIL_PAUSE, "PAUSE", 0x2000 },  { GL_ABIL_ASYM_PAUSE, "ASYM_PAUSE", 0x4000 },
    };
    uint32_t ab = 0;
    unsigned eth = 0;
    size_t n;

    if (!s->v[SK_BOARD_ADVERTISE].set || gl_phy_parse_abilities(s->v[SK_BOARD_ADVERTISE].s, &ab, NULL))
        return 0;
    if (s->v[SK_BOARD_FIRMWARE].e == 1) {
        for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
            if (ab & m[i].abil)
                eth |= m[i].eth;
        snprintf(buf, len, "advertise 0x%x", eth);
        return 1;
    }
    n = (size_t)snprintf(buf, len, "phy advertise ");
    for (size_t i = 0; i < sizeof(m) / sizeof(m[0]) && n < len; i++)
        if (ab & m[i].abil)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", buf[n - 1] == ' ' ? "" : ",", m[i].word);
    return 1;
}

bool scn_cmd_renegotiates(const char *cmd)
{
    static const char *const sub[] = { "restart", "aneg", "force", "advertise" };
    char w0[16], w1[16];
    int n = sscanf(cmd, "%15s %15s", w0, w1);

    if (n >= 1 && strcmp(w0, "advertise") == 0)
        return true;                    /* Linux agent */
    if (n == 2 && strcmp(w0, "phy") == 0)
        for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++)
            if (strcmp(w1, sub[i]) == 0)
                return true;
    return false;
}

int scn_downshift_cmd(const struct scenario *s, char *buf, size_t len)
{
    /* bare metal: the firmware's `phy downshift`; Linux: the agent's
     * `downshift` (ethtool --set-phy-tunable eth0 downshift ...) */
    const char *pre = s->v[SK_BOARD_FIRMWARE].e == 0 ? "phy " : "";

    if (!s->v[SK_LINK_DOWNSHIFT].set)
        return 0;
    if (!s->v[SK_LINK_DOWNSHIFT].b)
        snprintf(buf, len, "%sdownshift off", pre);
    else if (s->v[SK_LINK_DOWNSHIFT_ATTEMPTS].set)
        snprintf(buf, len, "%sdownshift on %llu", pre, (unsigned long long)s->v[SK_LINK_DOWNSHIFT_ATTEMPTS].u);
    else
        snprintf(buf, len, "%sdownshift on", pre);
    return 1;
}

const char *scn_enum_str(const struct scenario *s, enum scn_key k)
{
    if ((unsigned)k >= SK_COUNT || keydefs[k].type != T_ENUM)
        return NULL;
    return keydefs[k].words[s->v[k].e];
}

unsigned scn_enum_num(const struct scenario *s, enum scn_key k)
{
    const char *w = scn_enum_str(s, k);

    if (!w || (!s->v[k].set && !keydefs[k].def))
        return 0;
    return (unsigned)strtoul(w, NULL, 10);
}

void scn_format_value(const struct scenario *s, enum scn_key k, const struct scn_val *v,
                      char *buf, size_t len)
{
    (void)s;
    switch (keydefs[k].type) {
    case T_ENUM:
        snprintf(buf, len, "%s", keydefs[k].words[v->e]);
        break;
    case T_BOOL:
        snprintf(buf, len, "%s", v->b ? "on" : "off");
        break;
    case T_COUNT:
    case T_BYTES:
        snprintf(buf, len, "%llu", (unsigned long long)v->u);
        break;
    case T_TIME:
        snprintf(buf, len, "%lluns", (unsigned long long)v->u);
        break;
    case T_RATE:
    case T_PCT:
        snprintf(buf, len, "%.17g", v->d);
        break;
    default:
        snprintf(buf, len, "%s", v->s);
        break;
    }
}

static cJSON *val_json(const struct scn_keydef *d, const struct scn_val *v)
{
    switch (d->type) {
    case T_ENUM:
        return cJSON_CreateString(d->words[v->e]);
    case T_BOOL:
        return cJSON_CreateBool(v->b);
    case T_COUNT:
    case T_TIME:
    case T_BYTES:
        return rs_json_u64(v->u);
    case T_RATE:
    case T_PCT:
        return cJSON_CreateNumber(v->d);
    default:
        return cJSON_CreateString(v->s);
    }
}

cJSON *scn_to_json(const struct scenario *s)
{
    cJSON *root = cJSON_CreateObject();

    cJSON_AddStringToObject(root, "path", s->path);
    for (int i = 0; sections[i]; i++)
        if (strcmp(sections[i], "timeline") != 0)
            cJSON_AddItemToObject(root, sections[i], cJSON_CreateObject());
    for (int k = 0; k < SK_COUNT; k++) {
        const struct scn_keydef *d = &keydefs[k];
        cJSON *sec = cJSON_GetObjectItemCaseSensitive(root, d->section);
        if (!sec || d->repeat || d->type == T_BYTELIST || d->type == T_COUNTLIST)
            continue;
        if (!s->v[k].set && !d->def && d->type != T_STR)
            continue;
        cJSON_AddItemToObject(sec, d->name, val_json(d, &s->v[k]));
    }
    if (s->v[SK_BOARD_FIRMWARE].e == 1) {
        /* Linux: an unset ring keeps the driver's (macb_main.c
         * DEFAULT_RX_RING_SIZE / DEFAULT_TX_RING_SIZE), not the firmware's 64 */
        cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "board");
        if (!s->v[SK_BOARD_RX_BDS].set)
            cJSON_ReplaceItemInObjectCaseSensitive(b, "rx_bds", cJSON_CreateNumber(512));
        if (!s->v[SK_BOARD_TX_BDS].set)
            cJSON_ReplaceItemInObjectCaseSensitive(b, "tx_bds", cJSON_CreateNumber(512));
    }
    if (scn_clock_virtual(s)) {
        /* the defaults that depend on other keys (the profile's speed, the
         * CPU count), as the run takes them */
        cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "board");
        if (!s->v[SK_BOARD_MIPS].set)
            cJSON_AddNumberToObject(b, "mips", scn_board_mips(s));
        if (!s->v[SK_BOARD_QUANTUM].set && scn_board_quantum_ns(s))
            cJSON_AddNumberToObject(b, "quantum", (double)scn_board_quantum_ns(s));
    }
    {
        cJSON *tr = cJSON_GetObjectItemCaseSensitive(root, "traffic");
        cJSON_AddStringToObject(tr, "host_tool", scn_host_tool(s));
        cJSON_AddStringToObject(tr, "board_tool_resolved", scn_board_tool(s));
        if (s->nsweep) {
            cJSON *a = cJSON_AddArrayToObject(tr, "sweep");
            for (unsigned i = 0; i < s->nsweep; i++)
                cJSON_AddItemToArray(a, cJSON_CreateNumber((double)s->sweep[i]));
        }
        if (s->npsweep) {
            cJSON *a = cJSON_AddArrayToObject(tr, "parallel_sweep");
            for (unsigned i = 0; i < s->npsweep; i++)
                cJSON_AddItemToArray(a, cJSON_CreateNumber((double)s->psweep[i]));
        }
        if (s->nfw_cmds) {
            cJSON *a = cJSON_AddArrayToObject(tr, "fw_cmd");
            for (unsigned i = 0; i < s->nfw_cmds; i++)
                cJSON_AddItemToArray(a, cJSON_CreateString(s->fw_cmds[i]));
        }
    }
    {
        cJSON *tl = cJSON_AddArrayToObject(root, "timeline");
        for (unsigned i = 0; i < s->nevents; i++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "t_ns", (double)s->events[i].t_ns);
            cJSON_AddStringToObject(e, "event", s->events[i].text);
            cJSON_AddItemToArray(tl, e);
        }
    }
    {
        cJSON *ex = cJSON_GetObjectItemCaseSensitive(root, "expect");
        cJSON *d = cJSON_AddArrayToObject(ex, "diag"), *a = cJSON_AddArrayToObject(ex, "diag_absent");
        for (int i = 0; i < DG_NCODES; i++) {
            if (s->diag[i])
                cJSON_AddItemToArray(d, cJSON_CreateString(dg_code_name((enum dg_code)i)));
            if (s->diag_absent[i])
                cJSON_AddItemToArray(a, cJSON_CreateString(dg_code_name((enum dg_code)i)));
        }
    }
    {
        cJSON *ct = cJSON_GetObjectItemCaseSensitive(root, "control");
        if (s->control_line) {
            cJSON *u = cJSON_AddArrayToObject(ct, "unset"), *st = cJSON_AddObjectToObject(ct, "set");
            for (unsigned i = 0; i < s->nctl_unset; i++) {
                char kn[96];
                int k = s->ctl_unset[i];
                if (k < 0)
                    snprintf(kn, sizeof(kn), "timeline");
                else
                    snprintf(kn, sizeof(kn), "%s.%s", keydefs[k].section, keydefs[k].name);
                cJSON_AddItemToArray(u, cJSON_CreateString(kn));
            }
            if (s->ctl_todo.set)
                cJSON_AddStringToObject(ct, "todo", s->ctl_todo.s);
            for (unsigned i = 0; i < s->nctl_set; i++) {
                char kn[96];
                int k = s->ctl_set[i].key;
                snprintf(kn, sizeof(kn), "%s.%s", keydefs[k].section, keydefs[k].name);
                cJSON_AddItemToObject(st, kn, val_json(&keydefs[k], &s->ctl_set[i].val));
            }
        } else {
            cJSON_DeleteItemFromObjectCaseSensitive(root, "control");
        }
    }
    return root;
}

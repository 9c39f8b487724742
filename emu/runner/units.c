/*
 * units.c - strict number parsers; see units.h.
 *
 * Everything is parsed by hand from the digits so that no locale, no
 * exponent form and no hex ever slips through strtod/strtoull.
 */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

/* Parse "D[.D]" at *s, advance *s.  Returns -EINVAL when no digit. */
static int scan_decimal(const char **s, double *out)
{
    const char *p = *s;
    double v = 0.0, scale = 1.0;
    int digits = 0;

    while (isdigit((unsigned char)*p)) {
        v = v * 10.0 + (*p - '0');
        if (v > 1e18)
            return -ERANGE;
        p++;
        digits++;
    }
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p)) {
            scale /= 10.0;
            v += (*p - '0') * scale;
            p++;
            digits++;
        }
    }
    if (!digits)
        return -EINVAL;
    *s = p;
    *out = v;
    return 0;
}

int un_parse_u64(const char *s, uint64_t *out)
{
    uint64_t v = 0;

    if (!s || !*s)
        return -EINVAL;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s))
            return -EINVAL;
        if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
            return -ERANGE;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    *out = v;
    return 0;
}

int un_parse_num(const char *s, double *out)
{
    int rc;

    if (!s)
        return -EINVAL;
    rc = scan_decimal(&s, out);
    if (rc)
        return rc;
    return *s ? -EINVAL : 0;
}

int un_parse_time_ns(const char *s, uint64_t *ns)
{
    static const struct { const char *u; double mult; } units[] = {
        { "ns", 1.0 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
    };
    double v;
    int rc;

    if (!s)
        return -EINVAL;
    if (strcmp(s, "0") == 0) {
        *ns = 0;
        return 0;
    }
    rc = scan_decimal(&s, &v);
    if (rc)
        return rc;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(s, units[i].u) == 0) {
            double t = v * units[i].mult;
            if (t > 1e15)
                return -ERANGE;
            *ns = (uint64_t)(t + 0.5);
            return 0;
        }
    }
    return -EINVAL;
}

/* A k/M/G multiplier prefix at *@s (either case), consumed: @k, k^2, k^3,
 * or 1 when there is none.  Rates are decimal (k = 1000, as iperf -b),
 * byte counts binary (1024, as iperf -w/-l). */
static double unit_prefix(const char **s, double k)
{
    switch (**s) {
    case 'k': case 'K': (*s)++; return k;
    case 'm': case 'M': (*s)++; return k * k;
    case 'g': case 'G': (*s)++; return k * k * k;
    default: return 1.0;
    }
}

int un_parse_rate_bps(const char *s, double *bps)
{
    double v, mult;
    int rc;

    if (!s)
        return -EINVAL;
    rc = scan_decimal(&s, &v);
    if (rc)
        return rc;
    mult = unit_prefix(&s, 1e3);
    /* lower-case b only: "100MB/s" is bytes, 8 times the bits it would
     * otherwise be read as (IEC 80000-13: b bit, B byte) */
    if (*s && strcmp(s, "bps") != 0 && strcmp(s, "bit/s") != 0 && strcmp(s, "b/s") != 0)
        return -EINVAL;
    v *= mult;
    if (v > 1e12)
        return -ERANGE;
    *bps = v;
    return 0;
}

int un_parse_bytes(const char *s, uint64_t *bytes)
{
    uint64_t v = 0, mult;

    if (!s || !isdigit((unsigned char)*s))
        return -EINVAL;
    for (; isdigit((unsigned char)*s); s++) {
        if (v > (1ull << 40))
            return -ERANGE;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    mult = (uint64_t)unit_prefix(&s, 1024.0);
    if (*s == 'B')
        s++;
    if (*s)
        return -EINVAL;
    if (v > (1ull << 40) / mult)
        return -ERANGE;
    *bytes = v * mult;
    return 0;
}

int un_parse_pct(const char *s, double *pct)
{
    double v;
    int rc;

    if (!s)
        return -EINVAL;
    rc = scan_decimal(&s, &v);
    if (rc)
        return rc;
    if (*s == '%')
        s++;
    if (*s)
        return -EINVAL;
    if (v > 100.0)
        return -ERANGE;
    *pct = v;
    return 0;
}

int un_parse_bool(const char *s, bool *b)
{
    static const char *yes[] = { "yes", "on", "true", "1" };
    static const char *no[] = { "no", "off", "false", "0" };

    if (!s)
        return -EINVAL;
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(s, yes[i]) == 0) {
            *b = true;
            return 0;
        }
        if (strcasecmp(s, no[i]) == 0) {
            *b = false;
            return 0;
        }
    }
    return -EINVAL;
}

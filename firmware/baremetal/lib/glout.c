/* glout.c - JSON-line writer; see glout.h and docs/schema.md. */
#include "glout.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void put_raw(struct glout *g, const char *s, size_t n)
{
    /* keep one byte for the terminating NUL */
    if (g->overflow || g->len + n + 1 > g->cap) {
        g->overflow = true;
        return;
    }
    memcpy(g->buf + g->len, s, n);
    g->len += n;
    g->buf[g->len] = '\0';
}

static void put_s(struct glout *g, const char *s)
{
    put_raw(g, s, strlen(s));
}

static void put_c(struct glout *g, char c)
{
    put_raw(g, &c, 1);
}

static void put_escaped(struct glout *g, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    put_c(g, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '"':  put_s(g, "\\\""); break;
        case '\\': put_s(g, "\\\\"); break;
        case '\n': put_s(g, "\\n"); break;
        case '\r': put_s(g, "\\r"); break;
        case '\t': put_s(g, "\\t"); break;
        case '\b': put_s(g, "\\b"); break;
        case '\f': put_s(g, "\\f"); break;
        default:
            if (c < 0x20) {   /* RFC 8259 7: control characters must be escaped */
                char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };
                put_raw(g, u, sizeof(u));
            } else {
                put_c(g, (char)c);
            }
            break;
        }
    }
    put_c(g, '"');
}

/* Separator and "key": for the next member at the current depth. */
static void member(struct glout *g, const char *key)
{
    if (g->need_comma[g->depth])
        put_c(g, ',');
    g->need_comma[g->depth] = true;
    if (key) {
        put_escaped(g, key);
        put_c(g, ':');
    }
}

char *glout_fmt_u64(char *out, uint64_t v)
{
    char tmp[21];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
    return out;
}

char *glout_fmt_fixed(char *out, size_t cap, double v, unsigned prec)
{
    static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
    char ip[21], fp[10];
    uint64_t scale, scaled, ipart, fpart;
    size_t n = 0;

    if (cap == 0)
        return out;
    out[0] = '\0';
    if (prec > 9)
        prec = 9;
    /* 1.8e19 is UINT64_MAX; stay well below so the cast is defined */
    if (isnan(v) || isinf(v) || fabs(v) * pow10[prec] >= 9.0e18) {
        if (cap >= 5)
            memcpy(out, "null", 5);
        return out;
    }
    scale = (uint64_t)pow10[prec];
    scaled = (uint64_t)(fabs(v) * pow10[prec] + 0.5);
    ipart = scaled / scale;
    fpart = scaled % scale;
    glout_fmt_u64(ip, ipart);
    for (unsigned i = 0; i < prec; i++) {
        fp[prec - 1 - i] = (char)('0' + fpart % 10);
        fpart /= 10;
    }
    fp[prec] = '\0';
    if (1 + strlen(ip) + 1 + prec + 1 > cap)
        return out;
    if (v < 0 && scaled != 0)
        out[n++] = '-';
    memcpy(out + n, ip, strlen(ip));
    n += strlen(ip);
    if (prec) {
        out[n++] = '.';
        memcpy(out + n, fp, prec);
        n += prec;
    }
    out[n] = '\0';
    return out;
}

void glout_begin(struct glout *g, char *buf, size_t cap, const char *type)
{
    memset(g, 0, sizeof(*g));
    g->buf = buf;
    g->cap = cap;
    if (cap)
        buf[0] = '\0';
    put_s(g, GLOUT_MARKER "{\"v\":");
    glout_u64(g, NULL, GLOUT_VERSION);
    g->need_comma[0] = true;
    glout_str(g, "src", GLOUT_SRC);
    glout_str(g, "type", type ? type : "");
}

void glout_str(struct glout *g, const char *key, const char *val)
{
    member(g, key);
    if (val)
        put_escaped(g, val);
    else
        put_s(g, "null");
}

void glout_u64(struct glout *g, const char *key, uint64_t val)
{
    char tmp[21];
    member(g, key);
    put_s(g, glout_fmt_u64(tmp, val));
}

void glout_int(struct glout *g, const char *key, int64_t val)
{
    char tmp[21];
    member(g, key);
    if (val < 0) {
        put_c(g, '-');
        /* negate in unsigned arithmetic: -INT64_MIN overflows int64_t */
        put_s(g, glout_fmt_u64(tmp, 0 - (uint64_t)val));
    } else {
        put_s(g, glout_fmt_u64(tmp, (uint64_t)val));
    }
}

void glout_bool(struct glout *g, const char *key, bool val)
{
    member(g, key);
    put_s(g, val ? "true" : "false");
}

void glout_null(struct glout *g, const char *key)
{
    member(g, key);
    put_s(g, "null");
}

void glout_dbl(struct glout *g, const char *key, double val, unsigned prec)
{
    char tmp[40];
    member(g, key);
    glout_fmt_fixed(tmp, sizeof(tmp), val, prec);
    put_s(g, tmp[0] ? tmp : "null");
}

static void open_nested(struct glout *g, const char *key, char c)
{
    member(g, key);
    if (g->depth >= GLOUT_MAX_DEPTH) {
        g->overflow = true;
        return;
    }
    put_c(g, c);
    g->depth++;
    g->need_comma[g->depth] = false;
    g->closer[g->depth] = (c == '{') ? '}' : ']';
}

static void close_nested(struct glout *g, char c)
{
    if (g->depth == 0 || g->closer[g->depth] != c) {
        g->overflow = true;  /* unbalanced: refuse to print the line */
        return;
    }
    put_c(g, c);
    g->depth--;
}

void glout_obj_begin(struct glout *g, const char *key) { open_nested(g, key, '{'); }
void glout_obj_end(struct glout *g) { close_nested(g, '}'); }
void glout_arr_begin(struct glout *g, const char *key) { open_nested(g, key, '['); }
void glout_arr_end(struct glout *g) { close_nested(g, ']'); }

int glout_end(struct glout *g)
{
    /* close what an early exit left open so the line stays valid JSON */
    while (g->depth > 0 && !g->overflow)
        close_nested(g, g->closer[g->depth]);
    put_c(g, '}');
    return g->overflow ? -ENOSPC : 0;
}

int glout_emit(struct glout *g)
{
    int rc = glout_end(g);
    if (rc == 0)
        glout_putline(g->buf);
    return rc;
}

__attribute__((weak)) void glout_putline(const char *line)
{
    puts(line);
}

void glout_textf(const char *fmt, ...)
{
    char line[GLOUT_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    glout_putline(line);
}

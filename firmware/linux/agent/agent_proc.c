/* agent_proc.c - /proc parsers (see agent_proc.h). */
#include "agent_proc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const proc_netdev_keys[16] = {
    "rx_bytes", "rx_packets", "rx_errs", "rx_drop", "rx_fifo", "rx_frame",
    "rx_compressed", "rx_multicast",
    "tx_bytes", "tx_packets", "tx_errs", "tx_drop", "tx_fifo", "tx_colls",
    "tx_carrier", "tx_compressed",
};

/* Next line after p, or NULL at the end. */
static const char *next_line(const char *p)
{
    p = strchr(p, '\n');
    return p ? p + 1 : NULL;
}

/* Parse an unsigned decimal at *p, skipping leading blanks. */
static int take_u64(const char **p, uint64_t *v)
{
    char *end;
    const char *s = *p;

    while (*s == ' ' || *s == '\t')
        s++;
    if (!isdigit((unsigned char)*s))
        return -EINVAL;
    errno = 0;
    *v = strtoull(s, &end, 10);
    if (errno != 0)
        return -EINVAL;
    *p = end;
    return 0;
}

int proc_netdev_parse(const char *text, const char *iface,
                      struct proc_netdev *out)
{
    size_t ilen = strlen(iface);

    for (const char *l = text; l != NULL && *l != '\0'; l = next_line(l)) {
        const char *p = l;
        uint64_t v[16];

        while (*p == ' ')
            p++;
        if (strncmp(p, iface, ilen) != 0 || p[ilen] != ':')
            continue;
        p += ilen + 1;
        for (int i = 0; i < 16; i++)
            if (take_u64(&p, &v[i]) != 0)
                return -EINVAL;
        out->rx_bytes = v[0]; out->rx_packets = v[1]; out->rx_errs = v[2];
        out->rx_drop = v[3]; out->rx_fifo = v[4]; out->rx_frame = v[5];
        out->rx_compressed = v[6]; out->rx_multicast = v[7];
        out->tx_bytes = v[8]; out->tx_packets = v[9]; out->tx_errs = v[10];
        out->tx_drop = v[11]; out->tx_fifo = v[12]; out->tx_colls = v[13];
        out->tx_carrier = v[14]; out->tx_compressed = v[15];
        return 0;
    }
    return -ENOENT;
}

/* Copy the blank-delimited word at *p into dst (cap bytes, truncating). */
static void take_word(const char **p, char *dst, size_t cap)
{
    const char *s = *p;
    size_t n = 0;

    while (*s == ' ' || *s == '\t')
        s++;
    while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\n') {
        if (n + 1 < cap)
            dst[n++] = *s;
        s++;
    }
    dst[n] = '\0';
    *p = s;
}

int proc_interrupts_find(const char *text, const char *const *needles,
                         struct proc_irq *out, int max)
{
    unsigned ncpu = 0;
    const char *l = text;
    int found = 0;

    /* Header: "           CPU0       CPU1" */
    for (const char *p = text; *p != '\0' && *p != '\n'; p++)
        if (strncmp(p, "CPU", 3) == 0)
            ncpu++;
    if (ncpu == 0)
        return -EINVAL;
    if (ncpu > PROC_MAX_CPUS)
        ncpu = PROC_MAX_CPUS;

    for (l = next_line(l); l != NULL && *l != '\0' && found < max;
         l = next_line(l)) {
        const char *p = l, *eol, *name;
        struct proc_irq irq;
        char *end;
        size_t nlen;
        int match = 0;

        while (*p == ' ')
            p++;
        if (!isdigit((unsigned char)*p))
            continue; /* IPI0:, Err: ... */
        memset(&irq, 0, sizeof(irq));
        irq.irq = (unsigned)strtoul(p, &end, 10);
        if (*end != ':')
            continue;
        p = end + 1;
        irq.ncpu = ncpu;
        for (unsigned c = 0; c < ncpu; c++)
            if (take_u64(&p, &irq.count[c]) != 0)
                return -EINVAL;
        take_word(&p, irq.chip, sizeof(irq.chip));
        take_word(&p, irq.hwirq, sizeof(irq.hwirq));
        /* The trigger type ("Level"/"Edge") then the action names; the
         * name is the last word on the line. */
        eol = strchr(p, '\n');
        if (eol == NULL)
            eol = p + strlen(p);
        while (eol > p && (eol[-1] == ' ' || eol[-1] == '\t'))
            eol--;
        name = eol;
        while (name > p && name[-1] != ' ' && name[-1] != '\t')
            name--;
        nlen = (size_t)(eol - name);
        if (nlen >= sizeof(irq.name))
            nlen = sizeof(irq.name) - 1;
        memcpy(irq.name, name, nlen);
        irq.name[nlen] = '\0';
        for (const char *const *n = needles; *n != NULL; n++)
            if (strstr(irq.name, *n) != NULL)
                match = 1;
        if (match)
            out[found++] = irq;
    }
    return found;
}

int proc_stat_parse(const char *text, struct proc_cpu *out, int max)
{
    int n = 0;

    for (const char *l = text; l != NULL && *l != '\0' && n < max;
         l = next_line(l)) {
        const char *p = l + 3;
        struct proc_cpu c = { .cpu = -1 };
        uint64_t v;
        int col = 0;

        if (strncmp(l, "cpu", 3) != 0)
            continue;
        if (isdigit((unsigned char)*p)) {
            c.cpu = (int)strtol(p, (char **)&p, 10);
        } else if (*p != ' ') {
            continue;
        }
        /* user nice system idle iowait irq softirq steal (guest columns are
         * already inside user/nice, so they are not added again). */
        while (col < 8 && take_u64(&p, &v) == 0) {
            c.total += v;
            if (col == 3 || col == 4)
                c.idle += v;
            if (col == 6)
                c.softirq = v;
            col++;
        }
        if (col < 4)
            return -EINVAL;
        out[n++] = c;
    }
    return n > 0 ? n : -EINVAL;
}

/* One column's share of the time between two samples, in percent. */
static double share_pct(uint64_t part_prev, uint64_t part_cur, const struct proc_cpu *prev,
                        const struct proc_cpu *cur)
{
    uint64_t dt, dp;

    if (cur->total <= prev->total)
        return -1.0;
    dt = cur->total - prev->total;
    dp = part_cur >= part_prev ? part_cur - part_prev : 0;
    if (dp > dt)
        dp = dt;
    return 100.0 * (double)dp / (double)dt;
}

double proc_idle_pct(const struct proc_cpu *prev, const struct proc_cpu *cur)
{
    return share_pct(prev->idle, cur->idle, prev, cur);
}

double proc_softirq_pct(const struct proc_cpu *prev, const struct proc_cpu *cur)
{
    return share_pct(prev->softirq, cur->softirq, prev, cur);
}

int proc_parse_affinity(const char *text, unsigned long *mask)
{
    unsigned long long v = 0;
    int digits = 0;

    for (const char *p = text; *p != '\0' && *p != '\n'; p++) {
        int d;

        if (*p == ',')
            continue;
        if (*p >= '0' && *p <= '9')
            d = *p - '0';
        else if (*p >= 'a' && *p <= 'f')
            d = *p - 'a' + 10;
        else if (*p >= 'A' && *p <= 'F')
            d = *p - 'A' + 10;
        else
            return -EINVAL;
        v = ((v << 4) | (unsigned)d) & 0xFFFFFFFFULL;
        digits++;
    }
    if (digits == 0)
        return -EINVAL;
    *mask = (unsigned long)v;
    return 0;
}

/* "  sl  local_address rem_address   st ...": after "N:", the local address
 * is HEX_IP:HEX_PORT (8 hex digits for tcp, 32 for tcp6), then the remote
 * one, then the state (net/ipv4/tcp_ipv4.c get_tcp4_sock). */
int proc_tcp_port_states(const char *text, unsigned port,
                         unsigned count[PROC_TCP_STATES])
{
    const char *p = text;
    int n = 0;

    if (text == NULL || strstr(text, "local_address") == NULL)
        return -EINVAL;
    for (p = next_line(p); p != NULL && *p != '\0'; p = next_line(p)) {
        char local[64], remote[64];
        unsigned st;
        char *colon, *end;
        unsigned long lport;

        if (sscanf(p, " %*u: %63s %63s %x", local, remote, &st) != 3)
            continue;
        colon = strrchr(local, ':');
        if (colon == NULL)
            continue;
        errno = 0;
        lport = strtoul(colon + 1, &end, 16);
        if (errno != 0 || *end != '\0' || lport != port)
            continue;
        if (st < PROC_TCP_STATES)
            count[st]++;
        n++;
    }
    return n;
}

int proc_dt_string(const char *raw, size_t n, char *out, size_t len)
{
    size_t i;

    if (raw == NULL || out == NULL || len == 0)
        return -EINVAL;
    for (i = 0; i < n && raw[i] != '\0'; i++)
        if ((unsigned char)raw[i] < 0x20 || (unsigned char)raw[i] > 0x7e)
            return -EINVAL;
    if (i == 0 || i == n || i >= len)
        return -EINVAL;
    memcpy(out, raw, i);
    out[i] = '\0';
    return (int)i;
}

/*
 * iperf.c - see iperf.h.
 *
 * iperf3 -J layout (3.12): end.sum_sent / end.sum_received (TCP; plus
 * *_bidir_reverse with --bidir), end.sum (UDP: jitter_ms, lost_percent),
 * end.streams[].sender.mean_rtt (us, Linux sender), intervals[].sum with
 * "omitted".  iperf 2 -y C: time,src,sport,dst,dport,id,interval,bytes,bps
 * and, for a UDP server report, jitter,lost,total,pct,ooo.
 */
#include "iperf.h"
#include "util.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void iperf_client_argv(const struct scenario *s, const char *host, int port, unsigned long long length,
                       struct argv_buf *a)
{
    const struct scn_val *v = s->v;
    bool v3 = strcmp(scn_host_tool(s), "iperf3") == 0;
    bool udp = v[SK_TRAFFIC_PROTOCOL].e == 1;

    av_init(a);
    av_add(a, v3 ? "iperf3" : "iperf");
    av_add(a, "-c");
    av_add(a, "%s", host);
    av_add(a, "-p");
    av_add(a, "%d", port);
    av_add(a, "-t");
    av_add(a, "%llu", (unsigned long long)(v[SK_TRAFFIC_DURATION].u / 1000000000ull));
    av_add(a, "-i");
    av_add(a, "%g", v[SK_TRAFFIC_INTERVAL].u / 1e9);
    if (v3) {
        av_add(a, "-J");
        av_add(a, "--connect-timeout");
        av_add(a, "5000");
    } else {
        av_add(a, "-y");
        av_add(a, "C");
    }
    if (v[SK_TRAFFIC_PARALLEL].u > 1) {
        av_add(a, "-P");
        av_add(a, "%llu", (unsigned long long)v[SK_TRAFFIC_PARALLEL].u);
    }
    if (v[SK_TRAFFIC_REVERSE].b)
        av_add(a, "-R");
    if (v[SK_TRAFFIC_BIDIR].b)
        av_add(a, v3 ? "--bidir" : "-d");
    if (udp) {
        av_add(a, "-u");
        if (v[SK_TRAFFIC_BANDWIDTH].set) {
            av_add(a, "-b");
            av_add(a, "%.0f", v[SK_TRAFFIC_BANDWIDTH].d);
        }
    }
    if (v[SK_TRAFFIC_WINDOW].set) {
        av_add(a, "-w");
        av_add(a, "%llu", (unsigned long long)v[SK_TRAFFIC_WINDOW].u);
    }
    if (length || v[SK_TRAFFIC_LENGTH].set) {
        av_add(a, "-l");
        av_add(a, "%llu", length ? length : (unsigned long long)v[SK_TRAFFIC_LENGTH].u);
    }
    if (v3 && v[SK_TRAFFIC_OMIT].u) {
        av_add(a, "-O");
        av_add(a, "%llu", (unsigned long long)(v[SK_TRAFFIC_OMIT].u / 1000000000ull));
    }
}

void iperf_client_method(const struct scenario *s, unsigned long long length, cJSON *m)
{
    const struct scn_val *v = s->v;
    unsigned long long l = length ? length : v[SK_TRAFFIC_LENGTH].set ? (unsigned long long)v[SK_TRAFFIC_LENGTH].u : 0;

    if (!m)
        return;
    if (l && !cJSON_GetObjectItemCaseSensitive(m, "length_bytes"))
        cJSON_AddNumberToObject(m, "length_bytes", (double)l);
    if (v[SK_TRAFFIC_PROTOCOL].e == 1 && v[SK_TRAFFIC_BANDWIDTH].set &&
        !cJSON_GetObjectItemCaseSensitive(m, "offered_bps"))
        cJSON_AddNumberToObject(m, "offered_bps", v[SK_TRAFFIC_BANDWIDTH].d);
    if (v[SK_TRAFFIC_WINDOW].set && !cJSON_GetObjectItemCaseSensitive(m, "window_bytes"))
        cJSON_AddNumberToObject(m, "window_bytes", (double)v[SK_TRAFFIC_WINDOW].u);
}

static double num_at(const cJSON *o, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, a);

    if (b)
        x = cJSON_GetObjectItemCaseSensitive(x, b);
    /* cJSON reads 1e999 as inf: non-finite numbers are unknown */
    return cJSON_IsNumber(x) && isfinite(x->valuedouble) ? x->valuedouble : NAN;
}

static void add_num(cJSON *o, const char *name, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, name, v);
}

cJSON *iperf3_parse(const char *text)
{
    cJSON *out = cJSON_CreateObject(), *root = text ? cJSON_Parse(text) : NULL;
    const cJSON *end, *err, *iv, *st, *start;
    double recv, sent, rev, bps;
    bool reverse = false, bidir = false;

    if (!cJSON_IsObject(root)) {
        cJSON_AddBoolToObject(out, "ok", false);
        cJSON_AddStringToObject(out, "error", text && *text ? "iperf3 output is not JSON" : "iperf3 printed nothing");
        cJSON_Delete(root);
        return out;
    }
    err = cJSON_GetObjectItemCaseSensitive(root, "error");
    end = cJSON_GetObjectItemCaseSensitive(root, "end");
    start = cJSON_GetObjectItemCaseSensitive(root, "start");
    st = cJSON_GetObjectItemCaseSensitive(start, "test_start");
    reverse = num_at(st, "reverse", NULL) == 1;
    bidir = num_at(st, "bidir", NULL) == 1;
    cJSON_AddBoolToObject(out, "ok", !cJSON_IsString(err));
    if (cJSON_IsString(err))
        cJSON_AddStringToObject(out, "error", err->valuestring);
    {
        /* what the tool reports about its own method (iperf3 -J "start",
         * iperf_api.c): banner, protocol, streams, omit, the -w it set
         * (sock_bufsize, 0 = none) and the buffers the kernel gave
         * (sndbuf_actual/rcvbuf_actual, getsockopt after setsockopt) */
        cJSON *m = cJSON_AddObjectToObject(out, "method");
        const cJSON *ver = cJSON_GetObjectItemCaseSensitive(start, "version");
        const cJSON *pr = cJSON_GetObjectItemCaseSensitive(st, "protocol");
        double sb = num_at(start, "sock_bufsize", NULL);
        cJSON_AddStringToObject(m, "tool", "iperf3");
        if (cJSON_IsString(ver))
            cJSON_AddStringToObject(m, "version", ver->valuestring);
        if (cJSON_IsString(pr))
            cJSON_AddStringToObject(m, "protocol", strcmp(pr->valuestring, "UDP") == 0 ? "udp"
                                                   : strcmp(pr->valuestring, "TCP") == 0 ? "tcp" : "other");
        add_num(m, "streams", num_at(st, "num_streams", NULL));
        add_num(m, "omit_s", num_at(st, "omit", NULL));
        add_num(m, "duration_s", num_at(st, "duration", NULL));
        add_num(m, "blksize", num_at(st, "blksize", NULL));
        if (cJSON_IsObject(st)) {
            cJSON_AddBoolToObject(m, "reverse", reverse);
            cJSON_AddBoolToObject(m, "bidir", bidir);
        }
        add_num(m, "sock_bufsize", sb);
        add_num(m, "sndbuf_actual", num_at(start, "sndbuf_actual", NULL));
        add_num(m, "rcvbuf_actual", num_at(start, "rcvbuf_actual", NULL));
        if (!isnan(sb) && sb > 0)
            cJSON_AddNumberToObject(m, "window_bytes", sb);
        add_num(m, "host_cpu_pct", num_at(end, "cpu_utilization_percent", "host_total"));
        add_num(m, "remote_cpu_pct", num_at(end, "cpu_utilization_percent", "remote_total"));
    }
    if (cJSON_IsObject(end)) {
        const cJSON *sum = cJSON_GetObjectItemCaseSensitive(end, "sum");
        recv = num_at(end, "sum_received", "bits_per_second");
        sent = num_at(end, "sum_sent", "bits_per_second");
        rev = num_at(end, "sum_received_bidir_reverse", "bits_per_second");
        if (cJSON_IsObject(sum) && !isnan(num_at(sum, "jitter_ms", NULL))) {   /* UDP */
            bps = num_at(sum, "bits_per_second", NULL);
            if (!isnan(recv))
                bps = recv;
            add_num(out, "udp_jitter_ms", num_at(sum, "jitter_ms", NULL));
            add_num(out, "udp_lost_pct", num_at(sum, "lost_percent", NULL));
        } else {
            bps = recv;
            add_num(out, "retransmits", num_at(end, "sum_sent", "retransmits"));
        }
        if (bidir && !isnan(rev))
            bps = (isnan(bps) ? 0 : bps) + rev;
        add_num(out, "throughput_bps", bps);
        add_num(out, "sent_bps", sent);
        /* board perspective: the host is the client */
        if (bidir) {
            add_num(out, "rx_bps", recv);
            add_num(out, "tx_bps", rev);
        } else if (reverse) {
            add_num(out, "tx_bps", bps);
        } else {
            add_num(out, "rx_bps", bps);
        }
        const cJSON *streams = cJSON_GetObjectItemCaseSensitive(end, "streams"), *s;
        double rtt = 0, rtt_min = NAN;
        int n = 0;
        cJSON_ArrayForEach(s, streams) {
            const cJSON *snd = cJSON_GetObjectItemCaseSensitive(s, "sender");
            double r = num_at(snd, "mean_rtt", NULL), m = num_at(snd, "min_rtt", NULL);
            if (!isnan(r) && r > 0) {
                rtt += r;
                n++;
            }
            if (!isnan(m) && m > 0 && (isnan(rtt_min) || m < rtt_min))
                rtt_min = m;
        }
        if (n)
            cJSON_AddNumberToObject(out, "rtt_us", rtt / n);
        /* the path's own RTT, without the queue the test itself builds */
        add_num(out, "rtt_min_us", rtt_min);
    }
    iv = cJSON_GetObjectItemCaseSensitive(root, "intervals");
    if (cJSON_IsArray(iv)) {
        cJSON *arr = cJSON_CreateArray();
        const cJSON *i;
        cJSON_ArrayForEach(i, iv) {
            const cJSON *sum = cJSON_GetObjectItemCaseSensitive(i, "sum");
            const cJSON *om = cJSON_GetObjectItemCaseSensitive(sum, "omitted");
            double b = num_at(sum, "bits_per_second", NULL);
            if (cJSON_IsTrue(om) || !isfinite(b))
                continue;
            if (bidir) {
                double r = num_at(cJSON_GetObjectItemCaseSensitive(i, "sum_bidir_reverse"), "bits_per_second", NULL);
                if (!isnan(r))
                    b += r;
            }
            cJSON_AddItemToArray(arr, cJSON_CreateNumber(b));
        }
        cJSON_AddItemToObject(out, "intervals_bps", arr);
    }
    cJSON_Delete(root);
    return out;
}

/* A CSV integer field; out-of-range values saturate, so "4294967295"
 * is not read as -1 (atoi() is undefined there and glibc wraps; docs/SECURITY.md R10). */
static int field_int(const char *s)
{
    long v = strtol(s, NULL, 10);

    return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v;
}

/* Split one CSV line into at most @max fields (in place). */
static int csv_split(char *line, char **f, int max)
{
    int n = 0;

    while (n < max) {
        f[n++] = line;
        line = strchr(line, ',');
        if (!line)
            break;
        *line++ = '\0';
    }
    return n;
}

cJSON *iperf2_parse(const char *csv, const char *err, int udp, double duration_s)
{
    enum { MAX_IV = 512 };
    static double iv_start[MAX_IV], iv_bps[MAX_IV];
    static bool iv_sum[MAX_IV];
    cJSON *out = cJSON_CreateObject(), *ivs = cJSON_CreateArray();
    char *copy = strdup(csv ? csv : ""), *save = NULL, *line;
    double final_sum = NAN, final_streams = 0, jitter = NAN, lost = NAN;
    /* the streams' bytes and longest duration (bytes x 8 / rate), for a
     * sum without a [SUM] line */
    double st_bytes = 0, st_dur = 0;
    bool st_span = true;
    /* UDP -P: a 2.1.8 server prints no [SUM] line, only each stream's
     * report; the test's loss is their lost over their total datagrams */
    double st_lost = 0, st_total = 0, st_jitter = NAN, st_pct = NAN, st_jit1 = NAN;
    int st_n = 0;
    cJSON *sbytes = cJSON_CreateArray();
    int nfinal = 0, niv = 0, ids[64], nids = 0;

    for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[16];
        double a, b, bps;
        int n = csv_split(line, f, 16), id, k;
        if (n < 9 || sscanf(f[6], "%lf-%lf", &a, &b) != 2 || !isfinite(a) || !isfinite(b))
            continue;
        bps = strtod(f[8], NULL);
        if (!isfinite(bps) || bps < 0)
            continue;
        id = field_int(f[5]);
        if (id != -1) {
            int j;
            for (j = 0; j < nids && ids[j] != id; j++)
                ;
            if (j == nids && nids < (int)(sizeof(ids) / sizeof(ids[0])))
                ids[nids++] = id;
        }
        if (a == 0.0 && b >= duration_s - 1.0 && b - a > 1.5) {
            double bytes = strtod(f[7], NULL);
            if (id == -1)
                final_sum = bps;
            else {
                final_streams += bps;
                nfinal++;
                if (isfinite(bytes) && bytes >= 0)
                    cJSON_AddItemToArray(sbytes, cJSON_CreateNumber(bytes));
                /* a rate that fits its interval (labels are 0.1 s) */
                if (isfinite(bytes) && bytes > 0 && bps > 0 && fabs(bytes * 8.0 / bps - (b - a)) <= 0.05 * (b - a)) {
                    st_bytes += bytes;
                    if (bytes * 8.0 / bps > st_dur)
                        st_dur = bytes * 8.0 / bps;
                } else {
                    st_span = false;
                }
            }
            /* UDP: only a server report (total datagrams > 0) knows loss;
             * fields 9-12: jitter ms, lost, total, lost % */
            if (udp && n >= 14 && strtod(f[11], NULL) > 0) {
                double jit = strtod(f[9], NULL), nlost = strtod(f[10], NULL), total = strtod(f[11], NULL);
                if (id == -1) {
                    jitter = jit;
                    lost = strtod(f[12], NULL);
                } else if (isfinite(nlost) && nlost >= 0 && isfinite(total)) {
                    st_n++;
                    st_pct = strtod(f[12], NULL);
                    st_jit1 = jit;
                    st_lost += nlost;
                    st_total += total;
                    if (isfinite(jit) && !(jit <= st_jitter))   /* the worst stream's */
                        st_jitter = jit;
                }
            }
            continue;
        }
        for (k = 0; k < niv && fabs(iv_start[k] - a) > 0.05; k++)
            ;
        if (k == niv) {
            if (niv == MAX_IV)
                continue;
            iv_start[niv] = a;
            iv_bps[niv] = 0;
            iv_sum[niv++] = false;
        }
        if (id == -1) {
            iv_bps[k] = bps;
            iv_sum[k] = true;
        } else if (!iv_sum[k]) {
            iv_bps[k] += bps;
        }
    }
    free(copy);
    /* Per-stream rates are finite, but their sum can overflow to inf
     * (found by tests/fuzz/runner_iperf): an infinite sum is unknown. */
    for (int k = 0; k < niv; k++)
        if (isfinite(iv_bps[k]))
            cJSON_AddItemToArray(ivs, cJSON_CreateNumber(iv_bps[k]));
    /* No [SUM] line (2.1.8 prints none with -y C for a client's -P or a
     * server's streams): the sum is iperf 2's, every stream's bytes over
     * the test's span, here the longest stream's.  The streams' rates
     * added up overstate it by their start offsets: two streams of one
     * 3 s test at a 949.28 Mb/s line added up to 949.32. */
    if (isnan(final_sum) && nfinal > 1 && st_span && isfinite(st_bytes * 8.0 / st_dur) && st_dur > 0)
        final_sum = st_bytes * 8.0 / st_dur;
    else if (isnan(final_sum) && nfinal && isfinite(final_streams))
        final_sum = final_streams;
    if (isnan(lost) && st_n == 1) {             /* one stream: its own report, as printed */
        lost = st_pct;
        jitter = st_jit1;
    } else if (isnan(lost) && st_total > 0 && isfinite(st_total)) {
        lost = 100.0 * st_lost / st_total;
        jitter = st_jitter;
    }
    cJSON_AddBoolToObject(out, "ok", !isnan(final_sum));
    if (isnan(final_sum)) {
        char msg[256];
        snprintf(msg, sizeof(msg), "%s", err && *err ? err : "iperf printed no summary");
        msg[strcspn(msg, "\n")] = '\0';
        cJSON_AddStringToObject(out, "error", msg);
    } else {
        cJSON_AddNumberToObject(out, "throughput_bps", final_sum);
        cJSON_AddNumberToObject(out, "rx_bps", final_sum);
    }
    if (udp) {
        add_num(out, "udp_jitter_ms", jitter);
        add_num(out, "udp_lost_pct", lost);
    }
    cJSON_AddItemToObject(out, "intervals_bps", ivs);
    if (nfinal > 1)     /* -P: each stream's bytes (field 7) over the test */
        cJSON_AddItemToObject(out, "stream_bytes", sbytes);
    else
        cJSON_Delete(sbytes);
    {
        /* iperf 2 -y C names each stream by its id (field 6, -1 the sum):
         * the streams it ran; the protocol is the one it was run with
         * (-u); -y C prints no "TCP window size" line, so no window */
        cJSON *m = cJSON_AddObjectToObject(out, "method");
        cJSON_AddStringToObject(m, "tool", "iperf2");
        cJSON_AddStringToObject(m, "protocol", udp ? "udp" : "tcp");
        if (nids)
            cJSON_AddNumberToObject(m, "streams", nids);
    }
    return out;
}

/* throughput_bps := @rxb + @txb, the two directions' sum (as iperf3
 * --bidir).  Two finite halves of a forged report can still add up to
 * infinity: that is refused (ok false, an error), never written as inf. */
static void set_bidir_sum(cJSON *res, double rxb, double txb)
{
    double sum = rxb + txb;

    if (!cJSON_GetObjectItemCaseSensitive(res, "throughput_bps"))
        return;     /* no figure to replace */
    cJSON_DeleteItemFromObjectCaseSensitive(res, "throughput_bps");
    if (isfinite(sum)) {
        cJSON_AddNumberToObject(res, "throughput_bps", sum);
        return;
    }
    cJSON_AddNullToObject(res, "throughput_bps");
    cJSON_DeleteItemFromObjectCaseSensitive(res, "ok");
    cJSON_AddFalseToObject(res, "ok");
    cJSON_DeleteItemFromObjectCaseSensitive(res, "error");
    cJSON_AddStringToObject(res, "error", "dual test: the two directions' rates add up to no finite number");
}

/* The CSV of an iperf 2 dual test (-d) in its two directions: a line
 * whose destination (fields 3 and 4) is @ip (NULL: any) and @port is of
 * the received half when @match_rx, of the sent half otherwise; the other
 * lines are of the other half.  Each half is iperf2_parse()d; the result is
 * the received half's (its rx_bps, stream_bytes, intervals), with tx_bps
 * the sent half's figure and throughput_bps the sum (as iperf3 --bidir). */
static cJSON *dual_split(const char *csv, const char *err, int udp, double dur, const char *ip, int port,
                         bool match_rx)
{
    size_t n = csv ? strlen(csv) : 0, rxn = 0, txn = 0;
    /* Each line goes back with a '\n', also the last one when @csv does not
     * end in one (a killed iperf): a half can hold n + 1 characters. */
    char *rx = calloc(1, n + 2), *tx = calloc(1, n + 2), *copy = strdup(csv ? csv : ""), *save = NULL, *line;
    cJSON *res, *txr;
    double rxb, txb;

    if (!rx || !tx || !copy) {
        free(rx);
        free(tx);
        free(copy);
        return iperf2_parse(csv, err, udp, dur);
    }
    for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        const char *f[5] = { line };
        size_t len = strlen(line);
        bool match;

        for (int k = 1; k < 5 && f[k - 1]; k++) {
            f[k] = strchr(f[k - 1], ',');
            if (f[k])
                f[k]++;
        }
        match = f[4] && field_int(f[4]) == port &&
                (!ip || (f[3] && !strncmp(f[3], ip, strlen(ip)) && f[3][strlen(ip)] == ','));
        char *dst = match == match_rx ? rx : tx;
        size_t *off = match == match_rx ? &rxn : &txn;
        memcpy(dst + *off, line, len);
        dst[*off + len] = '\n';
        *off += len + 1;
    }
    res = iperf2_parse(rx, err, udp, dur);
    txr = iperf2_parse(tx, "", udp, dur);
    rxb = num_at(res, "throughput_bps", NULL);
    txb = num_at(txr, "throughput_bps", NULL);
    if (!isnan(txb)) {
        cJSON_AddNumberToObject(res, "tx_bps", txb);
        if (!isnan(rxb))
            set_bidir_sum(res, rxb, txb);
    }
    cJSON_Delete(txr);
    free(rx);
    free(tx);
    free(copy);
    return res;
}

/* iperf 2 dual test (-d): the board connects back to the host's -L port,
 * so the CSV holds both directions.  Lines whose destination port (field 4)
 * is @lport are the board's stream (board TX); the rest are the host's
 * (board RX). */
cJSON *iperf2_parse_dual(const char *csv, const char *err, int udp, double dur, int lport)
{
    return dual_split(csv, err, udp, dur, NULL, lport, false);
}

cJSON *iperf2_agent_result(const cJSON *run, const char *role, bool udp, double duration_s, const char *dual_ip,
                           int dual_port)
{
    const cJSON *out = cJSON_GetObjectItemCaseSensitive(run, "output");
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(run, "exit");
    cJSON *res, *p, *sb, *iv;
    char *text;
    size_t n = 0;

    if (!run)
        return NULL;
    /* the runner keeps console strings cleaned (inst.c clean_json_string,
     * docs/SECURITY.md R7): the output's newlines came as "^J" */
    text = strdup(cJSON_IsString(out) ? out->valuestring : "");
    if (!text)
        return NULL;
    for (const char *q = text; *q; q++) {
        if (q[0] == '^' && (q[1] == 'J' || q[1] == 'M')) {
            if (q[1] == 'J')
                text[n++] = '\n';
            q++;
        } else {
            text[n++] = *q;
        }
    }
    text[n] = '\0';
    /* -d: the lines to @dual_ip:@dual_port are what this end received; its
     * own stream back is the other half */
    p = dual_port > 0 ? dual_split(text, text, udp, duration_s, dual_ip, dual_port, true)
                      : iperf2_parse(text, text, udp, duration_s);
    free(text);
    res = cJSON_CreateObject();
    cJSON_AddStringToObject(res, "type", "result");
    cJSON_AddStringToObject(res, "test", "iperf");
    cJSON_AddStringToObject(res, "role", role);
    cJSON_AddStringToObject(res, "src", "agent: iperf 2 -y C");
    if (cJSON_IsNumber(ex))
        cJSON_AddNumberToObject(res, "exit", ex->valuedouble);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "ok"))) {
        double jit = rs_jnumber(p, "udp_jitter_ms");
        /* -d: bps is what this end received, tx_bps what it sent (its own count) */
        rs_add_num_or_null(res, "bps", rs_jnumber(p, dual_port > 0 ? "rx_bps" : "throughput_bps"));
        if (dual_port > 0)
            rs_add_num_or_null(res, "tx_bps", rs_jnumber(p, "tx_bps"));
        if (udp) {
            rs_add_num_or_null(res, "loss_pct", rs_jnumber(p, "udp_lost_pct"));
            rs_add_num_or_null(res, "jitter_us", isnan(jit) ? NAN : jit * 1000.0);
        }
    } else {
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(p, "error");
        cJSON_AddStringToObject(res, "error", cJSON_IsString(e) ? e->valuestring : "iperf printed no summary");
    }
    sb = cJSON_DetachItemFromObjectCaseSensitive(p, "stream_bytes");
    if (sb)
        cJSON_AddItemToObject(res, "stream_bytes", sb);
    /* its -i 1 rows, summed over the streams by interval (not -d's: they
     * mix the two directions) */
    iv = dual_port > 0 ? NULL : cJSON_DetachItemFromObjectCaseSensitive(p, "intervals_bps");
    rs_add_nonempty(res, "intervals_bps", iv);
    cJSON_Delete(p);
    return res;
}

void iperf_fw_sender_method(cJSON *res, const cJSON *cli, bool board_tx, double duration_s)
{
    cJSON *m = cJSON_GetObjectItemCaseSensitive(res, "method");
    double len = rs_jnumber(cli, "len"), offered = rs_jnumber(cli, "offered_bps");
    double txe = rs_jnumber(cli, "tx_errors"), wnd = rs_jnumber(cli, "window_bytes");

    if (!cJSON_IsObject(m)) {
        cJSON_DeleteItemFromObjectCaseSensitive(res, "method");
        m = cJSON_AddObjectToObject(res, "method");
    }
    /* replaced, not added: the caller may have said it already (one key
     * per name, RFC 8259 4 "SHOULD be unique") */
    cJSON_DeleteItemFromObjectCaseSensitive(m, "reverse");
    cJSON_AddBoolToObject(m, "reverse", board_tx);
    if (!isnan(duration_s)) {
        cJSON_DeleteItemFromObjectCaseSensitive(m, "duration_s");
        cJSON_AddNumberToObject(m, "duration_s", duration_s);
    }
    if (!isnan(len) && len > 0)
        cJSON_AddNumberToObject(m, "length_bytes", len);
    if (!isnan(offered) && offered > 0)
        cJSON_AddNumberToObject(m, "offered_bps", offered);
    if (!isnan(wnd) && wnd > 0) {   /* the client's -w, as it reported it */
        cJSON_DeleteItemFromObjectCaseSensitive(m, "window_bytes");
        cJSON_AddNumberToObject(m, "window_bytes", wnd);
    }
    if (!isnan(txe) && txe >= 0)
        cJSON_AddNumberToObject(res, "sender_tx_errors", txe);
}

void iperf_sim_dual(cJSON *res, const cJSON *peer_rx, const cJSON *fw_tx)
{
    double rxb = rs_jnumber(res, "rx_bps"), txb = NAN;

    if (peer_rx) {
        txb = rs_jnumber(peer_rx, "throughput_bps");
        if (isnan(txb))
            txb = rs_jnumber(peer_rx, "bps");
    }
    cJSON_DeleteItemFromObjectCaseSensitive(res, "tx_bps");
    rs_add_num_or_null(res, "tx_bps", txb);
    if (!isnan(rxb) && !isnan(txb))
        set_bidir_sum(res, rxb, txb);
    if (fw_tx)
        rs_add_num_or_null(res, "tx_sent_bps", rs_jnumber(fw_tx, "bps"));
    if (!peer_rx) {
        cJSON_ReplaceItemInObjectCaseSensitive(res, "ok", cJSON_CreateFalse());
        cJSON_DeleteItemFromObjectCaseSensitive(res, "error");
        cJSON_AddStringToObject(res, "error", "-d: no result from the peer's server for the board's stream");
    }
}

void iperf_sim_group_span(cJSON *res, const cJSON *peer, const cJSON *fw)
{
    const cJSON *sb = cJSON_GetObjectItemCaseSensitive(fw, "stream_bytes"), *e;
    double span_s = rs_jnumber(peer, "duration_us") / 1e6, bps = rs_jnumber(res, "throughput_bps");
    double bytes = 0, acked, bps_span;

    if (!cJSON_IsArray(sb) || cJSON_GetArraySize(sb) < 2 || !(span_s > 0) || isnan(bps))
        return;
    cJSON_ArrayForEach(e, sb) {
        if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0))
            return;
        bytes += e->valuedouble;
    }
    acked = rs_jnumber(peer, "bytes_acked");
    if (acked >= 0 && acked < bytes)    /* NaN: an older peer without the count */
        bytes = acked;
    bps_span = bytes * 8.0 / span_s;
    if (!(bps_span < bps))      /* the longest stream's time is the longer */
        return;
    cJSON_ReplaceItemInObjectCaseSensitive(res, "throughput_bps", cJSON_CreateNumber(bps_span));
    cJSON_ReplaceItemInObjectCaseSensitive(res, "rx_bps", cJSON_CreateNumber(bps_span));
}

cJSON *iperf_sim_result(bool board_tx, bool udp, const cJSON *peer, const cJSON *fw, unsigned long long t_s)
{
    cJSON *res = cJSON_CreateObject();
    const cJSON *rx = board_tx ? peer : fw;

    cJSON_AddBoolToObject(res, "ok", rx != NULL);
    if (!rx) {
        char msg[160];
        snprintf(msg, sizeof(msg), "no iperf result from the receiving %s within %llu s + %s of virtual time",
                 board_tx ? "peer" : "board", t_s, board_tx ? "10 s + 10 s" : "10 s");
        cJSON_AddStringToObject(res, "error", msg);
        /* the receiver counted nothing: the goodput is 0, as the bound
         * `throughput_max = 0` of a `traffic = fail` scenario reads it */
        cJSON_AddNumberToObject(res, "throughput_bps", 0);
        cJSON_AddNumberToObject(res, board_tx ? "tx_bps" : "rx_bps", 0);
        cJSON_AddStringToObject(res, "receiver", board_tx ? "peer: no result line" : "board: no result line");
        if (board_tx ? fw != NULL : peer != NULL)
            rs_add_num_or_null(res, "sent_bps", rs_jnumber(board_tx ? fw : peer, "bps"));
    } else if (board_tx) {
        /* the peer's line already carries the runner's field names (docs/PEER.md "Results") */
        static const char *const f[] = { "throughput_bps", "tx_bps", "udp_lost_pct", "udp_jitter_ms" };
        for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++)
            if (cJSON_GetObjectItemCaseSensitive(peer, f[k]))
                rs_add_num_or_null(res, f[k], rs_jnumber(peer, f[k]));
        if (fw)
            rs_add_num_or_null(res, "sent_bps", rs_jnumber(fw, "bps"));
    } else {
        double bps = rs_jnumber(fw, "bps"), lost = rs_jnumber(fw, "loss_pct");
        /* An iperf 2 UDP server reports when the client's FIN datagram
         * (a negative id) arrives; one that never came (the link went down
         * and stayed down) leaves the server's report at the last
         * datagram it got: its loss knows nothing of the tail and its rate
         * covers its own, shorter time.  On a bench the client's output
         * says how many it sent: the loss and the goodput are then the
         * server's datagrams and bytes against the client's count and
         * time (the peer's line, docs/PEER.md "Results"). */
        double sent = peer ? rs_jnumber(peer, "tx_datagrams") : NAN, got = rs_jnumber(fw, "received");
        double span_us = peer ? rs_jnumber(peer, "duration_us") : NAN, bytes = rs_jnumber(fw, "bytes");
        if (udp && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(fw, "fin")) && sent > 0 && got >= 0 &&
            got <= sent && span_us > 0 && bytes >= 0) {
            char note[192];
            lost = 100.0 * (sent - got) / sent;
            bps = bytes * 8.0 / (span_us / 1e6);
            snprintf(note, sizeof(note), "board: no end of test (the client's FIN never came); %.0f of the "
                     "peer client's %.0f datagrams over its %.3f s", got, sent, span_us / 1e6);
            cJSON_AddStringToObject(res, "receiver", note);
        }
        rs_add_num_or_null(res, "throughput_bps", bps);
        rs_add_num_or_null(res, "rx_bps", bps);
        if (udp) {
            double jit = rs_jnumber(fw, "jitter_us");
            rs_add_num_or_null(res, "udp_lost_pct", lost);
            rs_add_num_or_null(res, "udp_jitter_ms", isnan(jit) ? NAN : jit / 1000.0);
        }
        if (peer)
            rs_add_num_or_null(res, "sent_bps", rs_jnumber(peer, "bps"));
    }
    cJSON_AddStringToObject(res, "measured_by", board_tx ? "peer" : "board");
    return res;
}

/*
 * results.c - assembling RUN_DIR/results.json (schema: RESULTS.md) from
 * the scenario, the firmware's @gemlab lines and the model counters, then
 * the verdict: diagnosis, [expect] checks, diagnosis.json, console tail.
 */
#include "results_schema.h"
#include "run_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* strncasecmp */
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "capture.h"
#include "diagnose.h"
#include "gemlab/pcapng.h"
#include "gemlab/wire.h"
#include "provenance.h"
#include "qemu.h"
#include "run.h"
#include "util.h"

int rs_count_msgs(const struct inst *i, const char *type)
{
    return inst_count_msgs(i, type);    /* O(1): callers poll it (docs/SECURITY.md R1) */
}

void rs_iperf_method_banner(const struct run *r, cJSON *res)
{
    const cJSON *b = runner_json_path(r->results, "versions.iperf_host");
    cJSON *m = cJSON_GetObjectItemCaseSensitive(res, "method");

    if (!cJSON_IsString(b) || !b->valuestring[0] || !res)
        return;
    if (!m)
        m = cJSON_AddObjectToObject(res, "method");
    /* `iperf3 --version`: "iperf 3.12 (cJSON ...)"; `iperf --version`:
     * "iperf version 2.1.8 (...)" */
    if (!cJSON_GetObjectItemCaseSensitive(m, "tool")) {
        if (strncmp(b->valuestring, "iperf 3", 7) == 0)
            cJSON_AddStringToObject(m, "tool", "iperf3");
        else if (strncmp(b->valuestring, "iperf version 2", 15) == 0)
            cJSON_AddStringToObject(m, "tool", "iperf2");
    }
    if (!cJSON_GetObjectItemCaseSensitive(m, "version"))
        cJSON_AddStringToObject(m, "version", b->valuestring);
}

/* The iperf server the board's console shows: the bare-metal firmware's
 * `status` line (lwIP's lwiperf speaks the iperf 2 protocol, docs/schema.md;
 * port 5001 is iperf 2's), the Linux agent's `tcp-port PORT` answer for the
 * port the test used (5201: iperf3's, the server init starts; 5001: iperf
 * 2's) or its `run iperf -s` result; the last one wins.  "" unknown. */
static const char *board_iperf_server(const struct run *r, char *why, size_t len)
{
    const cJSON *m;
    const char *tool = "";

    why[0] = '\0';
    cJSON_ArrayForEach(m, r->in.msgs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "type");
        const cJSON *src = cJSON_GetObjectItemCaseSensitive(m, "src");
        const cJSON *app = cJSON_GetObjectItemCaseSensitive(m, "app");
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(m, "state");
        const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(m, "cmd");
        double port = rs_jnumber(m, "port");
        if (!cJSON_IsString(t))
            continue;
        if (!strcmp(t->valuestring, "status") && cJSON_IsString(app) && !strcmp(app->valuestring, "iperf") &&
            cJSON_IsString(st) && !strcmp(st->valuestring, "listening") && cJSON_IsString(src) &&
            !strcmp(src->valuestring, "baremetal")) {
            tool = "iperf2";
            snprintf(why, len, "bare-metal console: lwiperf (iperf 2 protocol) listening on port %.0f", port);
        } else if (!strcmp(t->valuestring, "result") && cJSON_IsString(cmd) && !strcmp(cmd->valuestring, "run") &&
                   cJSON_IsString(cJSON_GetObjectItemCaseSensitive(m, "tool")) &&
                   rs_jnumber(m, "exit") == 0) {
            /* the Linux agent's `run iperf|iperf3 -s ...` answer: the
             * server the board started, by its binary */
            const char *tl = cJSON_GetObjectItemCaseSensitive(m, "tool")->valuestring;
            const cJSON *av, *a0;
            bool server = false;
            av = cJSON_GetObjectItemCaseSensitive(m, "argv");
            cJSON_ArrayForEach(a0, av)
                if (cJSON_IsString(a0) && !strcmp(a0->valuestring, "-s"))
                    server = true;
            if (server && (!strcmp(tl, "iperf") || !strcmp(tl, "iperf3"))) {
                tool = !strcmp(tl, "iperf") ? "iperf2" : "iperf3";
                snprintf(why, len, "Linux agent: `run %s -s` started the board's server", tl);
            }
        } else if (!strcmp(t->valuestring, "result") && cJSON_IsString(cmd) && !strcmp(cmd->valuestring, "tcp-port") &&
                   (port == 5201 || port == 5001) && rs_jnumber(m, "listen") > 0) {
            /* the agent's answer counts the port's sockets by state
             * (firmware/linux/agent/agent.c cmd_tcp_port): "listen".  The
             * runner asks for the port the host's client uses (run.c) */
            tool = port == 5201 ? "iperf3" : "iperf2";
            snprintf(why, len, "Linux agent: a server listens on TCP %.0f (%s's port), the port the test used", port,
                     tool);
        }
    }
    return tool;
}

/* PHY registers as read over MDIO: the bare-metal `stats` phy.regs
 * {"N": value} or the Linux agent's last link line phy.regs[32]
 * (SIOCGMIIREG).  Copied as results.json "phy": {id, name, regs {"N"}}. */
/* The "phy" of the newest @gemlab link message that carries registers (the
 * agent reads them at each link change), or NULL. */
static const cJSON *last_link_phy(const struct run *r)
{
    const cJSON *lm, *lp = NULL;

    cJSON_ArrayForEach(lm, r->in.msgs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(lm, "type");
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(lm, "phy");
        if (cJSON_IsString(t) && strcmp(t->valuestring, "link") == 0 &&
            cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(p, "regs")))
            lp = p;
    }
    return lp;
}

static void build_phy(struct run *r)
{
    const cJSON *stats = inst_last_msg(&r->in, "stats");
    const cJSON *phy = cJSON_GetObjectItemCaseSensitive(stats, "phy"), *lp;
    cJSON *out, *regs;

    lp = last_link_phy(r);
    if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(phy, "regs")) && !lp)
        return;
    out = cJSON_AddObjectToObject(r->results, "phy");
    regs = cJSON_AddObjectToObject(out, "regs");
    if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(phy, "regs"))) {
        const cJSON *e, *nm = cJSON_GetObjectItemCaseSensitive(phy, "name"), *id = cJSON_GetObjectItemCaseSensitive(phy, "id");
        cJSON_AddStringToObject(out, "source", "firmware stats (MDIO)");
        if (cJSON_IsString(id))
            cJSON_AddStringToObject(out, "id", id->valuestring);
        if (cJSON_IsString(nm))
            cJSON_AddStringToObject(out, "name", nm->valuestring);
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(phy, "regs"))
            if (cJSON_IsNumber(e) && e->valuedouble >= 0 && e->valuedouble < 0xFFFF)
                cJSON_AddNumberToObject(regs, e->string, e->valuedouble);
        const cJSON *rg = cJSON_GetObjectItemCaseSensitive(phy, "rgmii_delay");
        if (cJSON_IsObject(rg))
            cJSON_AddItemToObject(out, "rgmii_delay", cJSON_Duplicate(rg, 1));
    } else {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(lp, "id"), *e;
        int k = 0;
        cJSON_AddStringToObject(out, "source", "Linux agent link line (SIOCGMIIREG)");
        if (cJSON_IsString(id))
            cJSON_AddStringToObject(out, "id", id->valuestring);
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(lp, "regs")) {
            char key[16];
            snprintf(key, sizeof(key), "%d", k++);
            if (cJSON_IsNumber(e) && e->valuedouble >= 0 && e->valuedouble < 0xFFFF)
                cJSON_AddNumberToObject(regs, key, e->valuedouble);
        }
    }
}

/* Evidence about the board and the bench (results.json "board", "bench"):
 * only what the board's console says about itself, and how the host is
 * wired to it.  What the scenario asked goes to truth.conditions. */
static void build_board_and_bench(struct run *r)
{
    cJSON *b = cJSON_AddObjectToObject(r->results, "board"), *bench;
    const cJSON *ready = inst_last_msg(&r->in, "ready");
    const cJSON *gcfg = inst_last_msg(&r->in, "gem_config");
    const cJSON *ring = inst_last_msg(&r->in, "ring");    /* Linux: ethtool -g after -G */
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(ready, "src");
    double rxbd = rs_jnumber(gcfg ? gcfg : ring ? ring : ready, "rxbd");
    double txbd = rs_jnumber(ring ? ring : ready, "txbd");
    double cpus = rs_jnumber(ready, "cpus"), pbufs = rs_jnumber(ready, "pbufs");
    char why[160];
    const char *srv;
    bool linux_fw = false;

    if (cJSON_IsString(src) && (!strcmp(src->valuestring, "baremetal") || !strcmp(src->valuestring, "linux"))) {
        /* the console banner: the firmware's or the agent's ready line */
        cJSON_AddStringToObject(b, "firmware", src->valuestring);
        linux_fw = !strcmp(src->valuestring, "linux");
    }
    {
        static const char *const keys[] = { "board", "model", "fw", "kernel" };
        for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(ready, keys[k]);
            if (cJSON_IsString(v))
                cJSON_AddStringToObject(b, keys[k], v->valuestring);
        }
    }
    if (ready) {
        /* the console printed its ready line again: the board restarted
         * (a reset, a crash, a watchdog, a `reboot`) during the run */
        cJSON_AddNumberToObject(b, "restarts", (double)(rs_count_msgs(&r->in, "ready") - 1));
    }
    if (!isnan(cpus))
        cJSON_AddNumberToObject(b, "cpus", cpus);     /* Linux: sysconf(_SC_NPROCESSORS_ONLN) */
    if (!isnan(rxbd))
        cJSON_AddNumberToObject(b, "rx_bds", rxbd);
    if (!isnan(txbd))
        cJSON_AddNumberToObject(b, "tx_bds", txbd);
    if (!isnan(pbufs))     /* bare metal: lwIP PBUF_POOL_SIZE */
        cJSON_AddNumberToObject(b, "pbufs", pbufs);
    {
        /* Linux: the guest's /proc/device-tree phy-mode; bare metal: the
         * mode its PHY driver was told (`phy rgmii MODE` answers with it) */
        const cJSON *pm = cJSON_GetObjectItemCaseSensitive(ready, "phy_mode");
        if (!cJSON_IsString(pm))
            pm = cJSON_GetObjectItemCaseSensitive(inst_last_msg(&r->in, "phy_rgmii"), "mode");
        if (cJSON_IsString(pm))
            cJSON_AddStringToObject(b, "phy_mode", pm->valuestring);
    }
    {
        /* lwIP's TCP_WND: the receive window every connection to the
         * board advertises (no window scaling) */
        double wnd = rs_jnumber(ready, "tcp_wnd");
        if (!isnan(wnd))
            cJSON_AddNumberToObject(b, "tcp_wnd", wnd);
    }
    {
        /* the RTT probe (run.c measure_rtt): the latency app's result */
        const cJSON *m, *lat = NULL;
        cJSON_ArrayForEach(m, r->in.msgs) {
            const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "type");
            const cJSON *test = cJSON_GetObjectItemCaseSensitive(m, "test");
            if (cJSON_IsString(t) && !strcmp(t->valuestring, "result") && cJSON_IsString(test) &&
                !strcmp(test->valuestring, "latency") && !isnan(rs_jnumber(m, "min_us")))
                lat = m;
        }
        if (lat) {
            static const char *const keys[] = { "min_us", "p50_us", "avg_us", "max_us", "sent", "received" };
            cJSON *o = cJSON_AddObjectToObject(r->results, "rtt");
            for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
                if (!isnan(rs_jnumber(lat, keys[k])))
                    cJSON_AddNumberToObject(o, keys[k], rs_jnumber(lat, keys[k]));
            cJSON_AddStringToObject(o, "source", r->sim ? "board latency app: UDP ping-pong to the peer's echo"
                                                        : "board latency app: UDP ping-pong to the host's echo");
        }
    }
    srv = board_iperf_server(r, why, sizeof(why));
    if (srv[0]) {
        cJSON *s = cJSON_AddObjectToObject(b, "iperf_server");
        cJSON_AddStringToObject(s, "tool", srv);
        cJSON_AddStringToObject(s, "evidence", why);
    }
    bench = cJSON_AddObjectToObject(r->results, "bench");
    cJSON_AddStringToObject(bench, "net", r->o.net ? r->o.net : r->sim ? "sim" : r->vt ? "idle" : "user");
    /* lwIP sends no timestamps by default (LWIP_TCP_TIMESTAMPS 0, lwIP opt.h),
     * Linux does (net.ipv4.tcp_timestamps, ip-sysctl.rst) - but only
     * to a peer that does too: over slirp (--net user) the board's TCP peer
     * is slirp's BSD stack, whose tcp_dooptions() knows only MSS, so no
     * timestamps on the link; over a tap the peer is the host's Linux */
    if (cJSON_IsString(src))
        cJSON_AddBoolToObject(bench, "tcp_timestamps", linux_fw && r->o.net && strcmp(r->o.net, "tap") == 0);
}

/* The faults `gemlab fault` applied while the run went (fault.c writes
 * RUN_DIR/INST_FAULT_LOG) join the [timeline]'s in @tl, with "source"
 * saying so and t_s from the traffic's start (negative: before it), or
 * from the run's start when no traffic ran.  A line that is not such a
 * record is skipped with a warning. */
static void add_external_faults(struct run *r, cJSON *tl)
{
    char path[PATH_MAX + 32], line[1024];
    long long t0 = r->traffic_t0_ms ? r->traffic_t0_ms : r->start_ms;
    FILE *f;
    int ln = 0;

    snprintf(path, sizeof(path), "%s/" INST_FAULT_LOG, r->in.run_dir);
    f = fopen(path, "re");
    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        cJSON *j = cJSON_Parse(line), *e;
        const cJSON *ms = cJSON_GetObjectItemCaseSensitive(j, "mono_ms");
        const cJSON *ev = cJSON_GetObjectItemCaseSensitive(j, "event");
        const cJSON *ap = cJSON_GetObjectItemCaseSensitive(j, "applied");
        const cJSON *er = cJSON_GetObjectItemCaseSensitive(j, "error");

        ln++;
        if (!cJSON_IsNumber(ms) || !cJSON_IsString(ev) || !cJSON_IsString(ap)) {
            fprintf(stderr, "gemlab: warning: %s:%d: not a fault record; skipped\n", path, ln);
            cJSON_Delete(j);
            continue;
        }
        e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "t_s", round((ms->valuedouble - (double)t0)) / 1e3);
        cJSON_AddStringToObject(e, "event", ev->valuestring);
        cJSON_AddStringToObject(e, "applied", ap->valuestring);
        if (cJSON_IsString(er))
            cJSON_AddStringToObject(e, "error", er->valuestring);
        cJSON_AddStringToObject(e, "source", r->traffic_t0_ms ? "gemlab fault" : "gemlab fault (no traffic ran: "
                                "t_s from the run's start)");
        cJSON_AddItemToArray(tl, e);
        cJSON_Delete(j);
    }
    fclose(f);
}

/* Ground truth (results.json "truth"): the scenario as asked and the
 * emulator's own view (model counters over QOM).  No real bench has
 * these; the diagnosis never reads them (tests/unit/runner_diagnose
 * scrambles them), `gemlab diagnose --blind` removes them. */
void rs_build_conditions(struct run *r)
{
    const struct scenario *s = &r->s;
    cJSON *truth = cJSON_AddObjectToObject(r->results, "truth");
    cJSON *c = cJSON_AddObjectToObject(truth, "conditions");
    cJSON *model = cJSON_DetachItemFromObjectCaseSensitive(r->results, "model");
    const cJSON *ready = inst_last_msg(&r->in, "ready");
    /* bare-metal `gem rxbd N` (run.c apply_board_keys) arms fewer RX BDs
     * than the ELF was built with; its gem_config answer has the count */
    const cJSON *gcfg = inst_last_msg(&r->in, "gem_config");
    /* Linux `ring RX TX` (ethtool -G, run.c): the driver's readback */
    const cJSON *ring = inst_last_msg(&r->in, "ring");
    double rxbd = rs_jnumber(gcfg ? gcfg : ring ? ring : ready, "rxbd");
    double txbd = rs_jnumber(ring ? ring : ready, "txbd");

    build_board_and_bench(r);
    if (ring && !isnan(rs_jnumber(ring, "asked_rx"))) {
        /* what the scenario asked against what the driver took: macb
         * clamps to 64..8192 RX / 64..4096 TX and rounds up to a power of
         * two (drivers/net/ethernet/cadence/macb_main.c macb_set_ringparam) */
        double arx = rs_jnumber(ring, "asked_rx"), atx = rs_jnumber(ring, "asked_tx");
        double err = rs_jnumber(ring, "err");
        char note[240];
        int n = 0;
        if (!isnan(err) && err != 0)
            n = snprintf(note, sizeof(note), "ethtool -G failed (%.0f): the rings are rx %.0f tx %.0f", err,
                         rxbd, txbd);
        else if ((arx > 0 && arx != rxbd) || (atx > 0 && atx != txbd))
            n = snprintf(note, sizeof(note),
                         "[board] asks rx_bds %.0f tx_bds %.0f; the driver set rx %.0f tx %.0f (ethtool -g: "
                         "macb takes 64..%.0f RX, 64..%.0f TX, rounded up to a power of two)",
                         arx > 0 ? arx : rxbd, atx > 0 ? atx : txbd, rxbd, txbd, rs_jnumber(ring, "rx_max"),
                         rs_jnumber(ring, "tx_max"));
        if (n > 0) {
            cJSON_AddStringToObject(truth, "ring_note", note);
            fprintf(stderr, "gemlab: warning: %s\n", note);
        }
    }
    build_phy(r);
    if (model)
        cJSON_AddItemToObject(truth, "model", model);
    {
        /* the faults the runner injected (the scenario's [timeline]),
         * and those `gemlab fault` applied meanwhile */
        cJSON *tl = cJSON_DetachItemFromObjectCaseSensitive(r->results, "timeline_applied");
        if (!tl)
            tl = cJSON_CreateArray();
        add_external_faults(r, tl);
        cJSON_AddItemToObject(truth, "timeline_applied", tl);
    }
    cJSON_AddStringToObject(c, "firmware", scn_enum_str(s, SK_BOARD_FIRMWARE));
    cJSON_AddNumberToObject(c, "cpus", (double)s->v[SK_BOARD_CPUS].u);
    cJSON_AddNumberToObject(c, "rx_bds", isnan(rxbd) ? (double)s->v[SK_BOARD_RX_BDS].u : rxbd);
    cJSON_AddNumberToObject(c, "tx_bds", isnan(txbd) ? (double)s->v[SK_BOARD_TX_BDS].u : txbd);
    /* only what [board] asked: unset, the firmware keeps its own rings
     * (macb's defaults on Linux, GEM_RXBD/GEM_TXBD on bare metal) */
    if (s->v[SK_BOARD_RX_BDS].set)
        cJSON_AddNumberToObject(c, "rx_bds_asked", (double)s->v[SK_BOARD_RX_BDS].u);
    if (s->v[SK_BOARD_TX_BDS].set)
        cJSON_AddNumberToObject(c, "tx_bds_asked", (double)s->v[SK_BOARD_TX_BDS].u);
    {
        double pbufs = rs_jnumber(ready, "pbufs");      /* what the ELF has, else what was asked */
        if (!isnan(pbufs) || s->v[SK_BOARD_PBUFS].set)
            cJSON_AddNumberToObject(c, "pbufs", isnan(pbufs) ? (double)s->v[SK_BOARD_PBUFS].u : pbufs);
    }
    cJSON_AddStringToObject(c, "phy_mode", scn_enum_str(s, SK_BOARD_PHY_MODE));
    cJSON_AddStringToObject(c, "irq_affinity", scn_enum_str(s, SK_BOARD_IRQ_AFFINITY));
    {
        /* the board profile as given to the PHY model (ground truth: the
         * diagnosis reads the PHY's abilities from BMSR/reg 15 instead) */
        const struct scn_board_profile *bp = scn_board_profile(s);
        cJSON_AddStringToObject(c, "board_profile", bp->name);
        cJSON_AddNumberToObject(c, "board_max_speed_mbps", bp->phy_max_speed_mbps);
        cJSON_AddBoolToObject(c, "board_pcb_rx_delay", bp->pcb_rx_delay);
        cJSON_AddBoolToObject(c, "board_pcb_tx_delay", bp->pcb_tx_delay);
    }
    cJSON_AddStringToObject(c, "net", r->o.net ? r->o.net : r->sim ? "sim" : r->vt ? "idle" : "user");
    cJSON_AddStringToObject(c, "tool", scn_host_tool(s));
    cJSON_AddStringToObject(c, "board_tool", scn_board_tool(s));
    cJSON_AddStringToObject(c, "protocol", scn_enum_str(s, SK_TRAFFIC_PROTOCOL));
    cJSON_AddNumberToObject(c, "parallel", (double)s->v[SK_TRAFFIC_PARALLEL].u);
    cJSON_AddBoolToObject(c, "reverse", s->v[SK_TRAFFIC_REVERSE].b);
    cJSON_AddBoolToObject(c, "bidir", s->v[SK_TRAFFIC_BIDIR].b);
    if (r->sim)     /* against the peer: the end that runs iperf's client ([traffic] client) */
        cJSON_AddStringToObject(c, "client", scn_board_client(s) ? "board" : "peer");
    rs_add_num_or_null(c, "bandwidth_bps", s->v[SK_TRAFFIC_BANDWIDTH].set ? s->v[SK_TRAFFIC_BANDWIDTH].d : NAN);
    rs_add_num_or_null(c, "window_bytes", s->v[SK_TRAFFIC_WINDOW].set ? (double)s->v[SK_TRAFFIC_WINDOW].u : NAN);
    rs_add_num_or_null(c, "length_bytes", s->v[SK_TRAFFIC_LENGTH].set ? (double)s->v[SK_TRAFFIC_LENGTH].u : NAN);
    cJSON_AddNumberToObject(c, "omit_s", s->v[SK_TRAFFIC_OMIT].u / 1e9);
    cJSON_AddNumberToObject(c, "duration_s", s->v[SK_TRAFFIC_DURATION].u / 1e9);
    cJSON_AddBoolToObject(c, "tcp_timestamps",
                          s->v[SK_BOARD_FIRMWARE].e == 1 && r->o.net && strcmp(r->o.net, "tap") == 0);
    cJSON_AddNumberToObject(c, "latency_ns", (double)s->v[SK_LINK_LATENCY].u);
    cJSON_AddBoolToObject(c, "partner_autoneg", s->v[SK_LINK_PARTNER_AUTONEG].b);
    if (r->unapplied[0])
        cJSON_AddStringToObject(c, "unapplied_link_keys", r->unapplied);
}

void rs_build_expect(struct run *r)
{
    const struct scenario *s = &r->s;
    cJSON *e = cJSON_AddObjectToObject(r->results, "expect");
    cJSON *d, *a;

    cJSON_AddStringToObject(e, "link", scn_enum_str(s, SK_EXPECT_LINK));
    if (s->v[SK_EXPECT_SPEED].set)
        cJSON_AddNumberToObject(e, "speed_mbps", scn_enum_num(s, SK_EXPECT_SPEED));
    if (s->v[SK_EXPECT_DUPLEX].set)
        cJSON_AddStringToObject(e, "duplex", scn_enum_str(s, SK_EXPECT_DUPLEX));
    if (s->v[SK_EXPECT_TRAFFIC].set)
        cJSON_AddStringToObject(e, "traffic", scn_enum_str(s, SK_EXPECT_TRAFFIC));
#define EXP_D(key, name) if (s->v[key].set) cJSON_AddNumberToObject(e, name, s->v[key].d)
    EXP_D(SK_EXPECT_THROUGHPUT_MIN, "throughput_min_bps");
    EXP_D(SK_EXPECT_THROUGHPUT_MAX, "throughput_max_bps");
    EXP_D(SK_EXPECT_REFERENCE, "reference_bps");
    EXP_D(SK_EXPECT_LOSS_MIN, "loss_min_pct");
    EXP_D(SK_EXPECT_LOSS_MAX, "loss_max_pct");
#undef EXP_D
    if (s->v[SK_EXPECT_RETRANSMITS_MAX].set)
        cJSON_AddNumberToObject(e, "retransmits_max", (double)s->v[SK_EXPECT_RETRANSMITS_MAX].u);
    if (s->v[SK_EXPECT_FLAPS].set)
        cJSON_AddNumberToObject(e, "flaps", (double)s->v[SK_EXPECT_FLAPS].u);
    if (s->v[SK_EXPECT_JITTER_MAX].set)
        cJSON_AddNumberToObject(e, "jitter_max_ms", s->v[SK_EXPECT_JITTER_MAX].u / 1e6);
    d = cJSON_AddArrayToObject(e, "diag");
    a = cJSON_AddArrayToObject(e, "diag_absent");
    for (int i = 0; i < DG_NCODES; i++) {
        if (s->diag[i])
            cJSON_AddItemToArray(d, cJSON_CreateString(dg_code_name((enum dg_code)i)));
        if (s->diag_absent[i])
            cJSON_AddItemToArray(a, cJSON_CreateString(dg_code_name((enum dg_code)i)));
    }
}

/* One GEM counter in results.json and its name in each firmware's stats:
 * the Linux agent reports `ethtool -S eth0` (macb's names), the bare-metal
 * firmware its own register names (docs/schema.md). */
enum { GEM_SRC_LINUX, GEM_SRC_BAREMETAL };
static const char *const gem_counter_names[][3] = {
    /* results.json          Linux (macb)                      bare-metal */
    { "rx_frames",          "rx_frames",                      "frames_rx" },
    { "tx_frames",          "tx_frames",                      "frames_tx" },
    { "rx_fcs_errors",      "rx_frame_check_sequence_errors", "fcs_errors" },
    { "rx_symbol_errors",   "rx_symbol_errors",               "rx_symbol_errors" },
    { "rx_length_errors",   "rx_length_field_frame_errors",   "length_field_errors" },
    { "rx_resource_errors", "rx_resource_errors",             "rx_resource_errors" },
    { "rx_overruns",        "rx_overruns",                    "rx_overrun_errors" },
    { "tx_underruns",       "tx_underrun",                    "tx_under_runs" },
    { "late_collisions",    "tx_late_collisions",             "late_collisns" },
    { "excessive_collisions", "tx_excessive_collisions",      "excessive_collisns" },
};

/* Copy every counter @src reports from @stats into @gem under its
 * results.json name; counters the firmware did not report are left out. */
static void gem_counters_copy(cJSON *gem, const cJSON *stats, int src)
{
    for (size_t k = 0; k < sizeof(gem_counter_names) / sizeof(gem_counter_names[0]); k++) {
        double v = rs_jnumber(stats, gem_counter_names[k][1 + src]);
        if (!isnan(v))
            cJSON_AddNumberToObject(gem, gem_counter_names[k][0], v);
    }
}

/* gem.collisions: frames sent after one collision plus after several
 * (GEM 0x138 + 0x13C, UG585 appendix B), under the firmware's names for
 * them (Linux: macb.h gem_statistics, ethtool -S). */
static void gem_collisions(cJSON *gem, const cJSON *stats, const char *single, const char *multiple)
{
    double c1 = rs_jnumber(stats, single), c2 = rs_jnumber(stats, multiple);

    if (!isnan(c1) || !isnan(c2))
        cJSON_AddNumberToObject(gem, "collisions", (isnan(c1) ? 0 : c1) + (isnan(c2) ? 0 : c2));
}

/* An agent link line's PHY ID is the 88E1116R's: 0x01410e4x
 * [MARVELL_PHY_ID_88E1116R, mask 0xfffffff0]. */
static bool id_is_88e1116r(const cJSON *id)
{
    return cJSON_IsString(id) && strncasecmp(id->valuestring, "0x01410e4", 9) == 0;
}

/*
 * Whether the link of a Linux agent's link line downshifted, from the PHY
 * registers it carries (SIOCGMIIREG, page 0): the 88E1116R's copper
 * specific status, reg 17 bit 5 [MII_M1011_PHY_SSR_DOWNSHIFT,
 * drivers/net/phy/marvell.c].  Linux does not say it: the 88E1116R's
 * entry reads its status with genphy_read_status, so phy_check_downshift
 * finds nothing.  -1 for another PHY or no registers.
 */
static int link_line_ssr_downshift(const cJSON *m)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(m, "phy");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(p, "id");
    const cJSON *ssr = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(p, "regs"), 17);
    double v = cJSON_IsNumber(ssr) ? rs_reg16(ssr->valuedouble) : NAN;

    if (!id_is_88e1116r(id) || isnan(v) || v == 0xFFFF)
        return -1;
    return ((unsigned)v & 0x20u) != 0;
}

/*
 * Linux: the kernel's carrier_changes between two link lines, less the one
 * transition they show, are flaps the agent did not see (its loop blocks
 * while a foreground `run` runs): two each.  The count is the guest's
 * word: carrier_up_count + carrier_down_count, two 32-bit atomic_t
 * (net/core/net-sysfs.c carrier_changes_show), so anything negative, not
 * whole, or above 2 x UINT32_MAX is no count at all, and a count that
 * went down says nothing either.
 */
int rs_flaps_between(double prev_cc, double cc, bool transition)
{
    const double cc_max = 2.0 * UINT32_MAX;
    double missed;

    if (!(prev_cc >= 0 && prev_cc <= cc_max && cc >= prev_cc && cc <= cc_max) ||
        cc != floor(cc) || prev_cc != floor(prev_cc))
        return 0;
    missed = floor((cc - prev_cc - (transition ? 1 : 0)) / 2);
    return missed <= 0 ? 0 : missed >= INT_MAX ? INT_MAX : (int)missed;
}

/* Link and counters from the firmware's own @gemlab lines. */
void rs_build_link_and_counters(struct run *r, double mac_speed)
{
    cJSON *l = cJSON_AddObjectToObject(r->results, "link");
    cJSON *ev = cJSON_AddArrayToObject(r->results, "link_events");
    const cJSON *m, *stats = inst_last_msg(&r->in, "stats");
    const cJSON *phy = cJSON_GetObjectItemCaseSensitive(stats, "phy");
    bool seen_up = false, up = false, downshift = rs_count_msgs(&r->in, "downshift") > 0;
    double speed = NAN, prev_cc = NAN;
    int flaps = 0, full = -1, autoneg = -1, nlink = -1, link_ds = -1;

    cJSON_ArrayForEach(m, r->in.msgs) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "type");
        if (!cJSON_IsString(t) || strcmp(t->valuestring, "link") != 0)
            continue;
        nlink++;
        const cJSON *u = cJSON_GetObjectItemCaseSensitive(m, "up");
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(m, "duplex");
        cJSON *e = cJSON_CreateObject();
        bool was_up = up;
        double cc = rs_jnumber(m, "carrier_changes");
        int missed;

        up = cJSON_IsTrue(u);
        missed = rs_flaps_between(prev_cc, cc, was_up != up);
        prev_cc = cc;
        if (missed > 0 && seen_up && !(nlink >= r->relink_lo && nlink < r->relink_hi)) {
            flaps = missed > INT_MAX - flaps ? INT_MAX : flaps + missed;
            cJSON_AddNumberToObject(e, "flaps_between", missed);
        }
        if (up) {
            seen_up = true;
            speed = rs_jnumber(m, "speed_mbps");
            full = cJSON_IsString(d) ? strcmp(d->valuestring, "full") == 0 : -1;
            autoneg = cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(m, "autoneg"))
                          ? cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "autoneg")) : -1;
            /* each link-up says whether that link downshifted (the
             * firmware's word, or the Linux agent's PHY registers) */
            link_ds = cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(m, "downshift"))
                          ? cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "downshift"))
                          : link_line_ssr_downshift(m);
        } else if (seen_up && !(nlink >= r->relink_lo && nlink < r->relink_hi)) {
            flaps++;
        }
        cJSON_AddNumberToObject(e, "t_s", rs_jnumber(m, "t_ms") / 1e3);
        cJSON_AddBoolToObject(e, "up", up);
        if (nlink >= r->relink_lo && nlink < r->relink_hi)
            cJSON_AddStringToObject(e, "cause", "fw_cmd renegotiation");
        if (up) {
            rs_add_num_or_null(e, "speed_mbps", speed);
            if (full >= 0)
                cJSON_AddBoolToObject(e, "full_duplex", full);
        }
        cJSON_AddItemToArray(ev, e);
    }
    if (cJSON_IsObject(phy)) {      /* the final word, if stats answered */
        const cJSON *pl = cJSON_GetObjectItemCaseSensitive(phy, "link");
        const cJSON *pd = cJSON_GetObjectItemCaseSensitive(phy, "duplex");
        const cJSON *ds = cJSON_GetObjectItemCaseSensitive(phy, "downshift");
        if (cJSON_IsBool(pl))
            up = cJSON_IsTrue(pl);
        if (up && !isnan(rs_jnumber(phy, "speed_mbps")))
            speed = rs_jnumber(phy, "speed_mbps");
        if (up && cJSON_IsString(pd))
            full = strcmp(pd->valuestring, "full") == 0;
        if (cJSON_IsBool(ds))
            link_ds = cJSON_IsTrue(ds);
    }
    /* the link the traffic ran on: the last link-up's word, else the PHY's
     * (stats), else whether a downshift was ever reported.  A downshift at
     * boot before the board renegotiated (a fw_cmd, [board] advertise) is
     * history, not the link's state. */
    if (link_ds >= 0)
        downshift = link_ds;
    {
        /* the emulator's own view of the link is ground truth, kept apart
         * (truth.link); the evidence above is what the board reported */
        cJSON *truth = cJSON_GetObjectItemCaseSensitive(r->results, "truth");
        cJSON *mo = cJSON_GetObjectItemCaseSensitive(truth, "model");
        if (mo) {
            cJSON *tl = cJSON_AddObjectToObject(truth, "link");
            const char *const keys[] = { "link_up", "link_speed", "link_full_duplex", "link_downshifted",
                                         "mac_matches_phy" };
            double a = rs_jnumber(mo, "stat_rx_wire_fcs_errors"), b = rs_jnumber(mo, "stat_tx_wire_fcs_errors");
            for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(mo, keys[k]);
                if (v)
                    cJSON_AddItemToObject(tl, keys[k], cJSON_Duplicate(v, 1));
            }
            cJSON_AddNumberToObject(mo, "wire_fcs_errors", (isnan(a) ? 0 : a) + (isnan(b) ? 0 : b));
            /* frames the wire model dropped because it held as many in
             * flight as it can (latency x line rate past GL_WIRE_INFLIGHT_MAX
             * + GL_WIRE_OOO_MAX frames, models/include/gemlab/wire.h
             * "Known limitations"): no configured fault dropped them, and
             * a UDP test counts them as loss; the user must know */
            a = rs_jnumber(mo, "stat_rx_wire_dropped_store");
            b = rs_jnumber(mo, "stat_tx_wire_dropped_store");
            if ((a > 0) || (b > 0)) {
                char note[300];
                snprintf(note, sizeof(note), "the wire model dropped %.0f frames because it held as many in flight "
                         "as it can (%u per direction): latency x line rate is beyond it, and no configured fault "
                         "dropped them; lower [link] latency or the rate",
                         (isnan(a) ? 0 : a) + (isnan(b) ? 0 : b), GL_WIRE_INFLIGHT_MAX + GL_WIRE_OOO_MAX);
                cJSON_AddStringToObject(truth, "model_note", note);
                fprintf(stderr, "gemlab: warning: %s\n", note);
            }
        }
    }
    if (!cJSON_GetObjectItemCaseSensitive(l, "source"))
        cJSON_AddStringToObject(l, "source", scn_enum_str(&r->s, SK_BOARD_FIRMWARE));
    if (seen_up || stats)
        cJSON_AddBoolToObject(l, "up", up);
    if (up) {
        rs_add_num_or_null(l, "speed_mbps", speed);
        if (full >= 0)
            cJSON_AddBoolToObject(l, "full_duplex", full);
        if (autoneg >= 0)
            cJSON_AddBoolToObject(l, "autoneg", autoneg);
    }
    cJSON_AddBoolToObject(l, "downshift", downshift);
    {
        /* our advertisement as the PHY holds it: ANAR (reg 4, 28.2.4.1.3)
         * and 1000BASE-T control (reg 9, 40.5.1.1) read over MDIO, by the
         * bare-metal `stats` or the Linux agent's last `link` line
         * (SIOCGMIIREG); else ethtool's advertising from that line */
        const cJSON *regs = cJSON_GetObjectItemCaseSensitive(phy, "regs");
        double anar = rs_jnumber(regs, "4"), c1000 = rs_jnumber(regs, "9");
        const cJSON *last = NULL, *lm;
        cJSON_ArrayForEach(lm, r->in.msgs) {
            const cJSON *t = cJSON_GetObjectItemCaseSensitive(lm, "type");
            if (cJSON_IsString(t) && strcmp(t->valuestring, "link") == 0 &&
                cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(lm, "advertising")))
                last = lm;
        }
        if (last && (isnan(anar) || isnan(c1000))) {
            const cJSON *lr = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(last, "phy"), "regs");
            if (cJSON_IsArray(lr) && cJSON_GetArraySize(lr) == 32 &&
                cJSON_IsNumber(cJSON_GetArrayItem(lr, 4)) && cJSON_IsNumber(cJSON_GetArrayItem(lr, 9))) {
                anar = cJSON_GetArrayItem(lr, 4)->valuedouble;
                c1000 = cJSON_GetArrayItem(lr, 9)->valuedouble;
            }
        }
        anar = rs_reg16(anar);
        c1000 = rs_reg16(c1000);
        if (!isnan(anar) && !isnan(c1000) && anar != 0xFFFF && c1000 != 0xFFFF) {
            static const struct { int reg; unsigned bit; const char *w; } b[] = {
                { 9, 1u << 9, "1000FD" }, { 9, 1u << 8, "1000HD" }, { 4, 1u << 8, "100FD" },
                { 4, 1u << 7, "100HD" }, { 4, 1u << 6, "10FD" }, { 4, 1u << 5, "10HD" },
                { 4, 1u << 10, "PAUSE" }, { 4, 1u << 11, "ASYM_PAUSE" },
            };
            cJSON *a = cJSON_AddArrayToObject(l, "advertised");
            for (size_t k = 0; k < sizeof(b) / sizeof(b[0]); k++)
                if (((unsigned)(b[k].reg == 4 ? anar : c1000)) & b[k].bit)
                    cJSON_AddItemToArray(a, cJSON_CreateString(b[k].w));
            cJSON_AddNumberToObject(l, "anar", anar);
            cJSON_AddNumberToObject(l, "ctrl1000", c1000);
        } else if (last) {
            cJSON_AddItemToObject(l, "advertised",
                                  cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(last, "advertising"), 1));
        }
    }
    cJSON_AddNumberToObject(l, "flaps", flaps);
    {
        /* link partner autonegotiation ability: ANER (reg 6) bit 0, IEEE
         * 802.3 28.2.4.1.5 / 22.2.4.3.x; meaningful only when our side
         * negotiates (BMCR bit 12): 0 then means the partner did not, and
         * our PHY resolved by parallel detection (28.2.3.1, always half
         * duplex).  BMCR and ANER come from build_phy()'s "phy.regs". */
        const cJSON *regs = runner_json_path(r->results, RS(PHY_REGS));
        double bmcr = rs_reg16(rs_jnumber(regs, "0")), aner = rs_reg16(rs_jnumber(regs, "6"));
        if (!isnan(bmcr))
            cJSON_AddBoolToObject(l, "local_autoneg", ((unsigned)bmcr & 0x1000u) != 0);
        if (!isnan(aner)) {
            cJSON_AddNumberToObject(l, "aner", aner);
            if (!isnan(bmcr) && ((unsigned)bmcr & 0x1000u) && up)
                cJSON_AddBoolToObject(l, "partner_autoneg", ((unsigned)aner & 1u) != 0);
        }
    }
    rs_add_num_or_null(l, "mac_speed_mbps", mac_speed);
    {
        /* downshift as the PHY holds it, read over MDIO by the firmware's
         * `stats` or by the Linux agent (SIOCGMIIREG, its link lines'
         * phy.regs[32]): 88E1116R reg 16 (Copper Specific Control
         * [MII_M1011_PHY_SCR]) bit 11 enable, 14:12 attempts - 1, which
         * Linux's m88e1116r_config_init() sets (m88e1011_set_downshift(
         * phydev, 8), drivers/net/phy/marvell.c).  Reg 20's bits 11:8 are
         * the 88E1111's downshift control, not the 88E1116R's: reported
         * raw only.  Other PHYs' regs 16/20 mean something else: nothing
         * is claimed. */
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(phy, "name"), *lp;
        double ecr = rs_jnumber(cJSON_GetObjectItemCaseSensitive(phy, "regs"), "20");
        double scr = rs_jnumber(cJSON_GetObjectItemCaseSensitive(phy, "regs"), "16");
        bool m1116r = cJSON_IsString(nm) && strstr(nm->valuestring, "88E1116R");
        lp = last_link_phy(r);
        if (!cJSON_IsObject(phy) && lp) {
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(lp, "id");
            const cJSON *rg = cJSON_GetObjectItemCaseSensitive(lp, "regs");
            const cJSON *r16 = cJSON_GetArrayItem(rg, 16), *r20 = cJSON_GetArrayItem(rg, 20);
            m1116r = id_is_88e1116r(id);
            ecr = cJSON_IsNumber(r20) ? r20->valuedouble : NAN;
            scr = cJSON_IsNumber(r16) ? r16->valuedouble : NAN;
        }
        ecr = rs_reg16(ecr);
        scr = rs_reg16(scr);
        if (m1116r && !isnan(ecr) && ecr != 0xFFFF && !isnan(scr) && scr != 0xFFFF) {
            bool en = ((unsigned)scr & 0x800u) != 0;
            cJSON_AddBoolToObject(l, "downshift_enabled", en);
            if (en)
                cJSON_AddNumberToObject(l, "downshift_attempts", (((unsigned)scr >> 12) & 7u) + 1u);
            cJSON_AddNumberToObject(l, "phy_reg16", scr);
            cJSON_AddNumberToObject(l, "phy_reg20", ecr);
            if (r->s.v[SK_LINK_DOWNSHIFT].set && r->s.v[SK_LINK_DOWNSHIFT].b != en) {
                char note[200];
                snprintf(note, sizeof(note), "the scenario asks downshift %s but the PHY reads it %s: "
                         "the board's PHY driver overrides it", r->s.v[SK_LINK_DOWNSHIFT].b ? "on" : "off",
                         en ? "enabled" : "disabled");
                /* the scenario's setting is truth: the note lives there */
                cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(r->results, "truth"), "downshift_note", note);
                fprintf(stderr, "gemlab: warning: %s\n", note);
            }
        }
    }

    if (stats && cJSON_GetObjectItemCaseSensitive(stats, "ethtool")) {
        /* Linux agent: `ethtool -S eth0` names (macb) and /proc/interrupts */
        const cJSON *et = cJSON_GetObjectItemCaseSensitive(stats, "ethtool"), *irqs, *q;
        cJSON *g = cJSON_AddObjectToObject(r->results, "gem");
        gem_counters_copy(g, et, GEM_SRC_LINUX);
        gem_collisions(g, et, "tx_single_collision_frames", "tx_multiple_collision_frames");
        irqs = cJSON_GetObjectItemCaseSensitive(stats, "irqs");
        cJSON_ArrayForEach(q, irqs) {
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(q, "name");
            const cJSON *pc = cJSON_GetObjectItemCaseSensitive(q, "per_cpu");
            if (cJSON_IsString(nm) && strcmp(nm->valuestring, "eth0") == 0 && cJSON_IsArray(pc)) {
                cJSON *irq = cJSON_AddObjectToObject(r->results, "irq");
                cJSON_AddItemToObject(irq, "gem_per_cpu", cJSON_Duplicate(pc, 1));
                break;
            }
        }
        {
            /* per-CPU load over the test: the agent's idle share since its
             * previous `stats` (/proc/stat), which run.c asks for just
             * before the traffic; under --net sim the Linux board's stats
             * at the traffic's end (run.c sim_traffic) */
            const cJSON *cs = r->cpu_stats ? r->cpu_stats : stats;
            cJSON *busy = rs_cpu_busy(cs);
            if (busy && r->cpu_baseline) {  /* since boot says nothing about the test */
                cJSON *o = cJSON_AddObjectToObject(r->results, "cpu");
                cJSON_AddStringToObject(o, "source", "Linux agent /proc/stat over the test");
                /* the span it covers, from the stats before the traffic
                 * to this one */
                if (!isnan(r->cpu_t0_ms) && !isnan(rs_jnumber(cs, "t_ms")))
                    cJSON_AddNumberToObject(o, "window_s", (rs_jnumber(cs, "t_ms") - r->cpu_t0_ms) / 1000.0);
                cJSON_AddItemToObject(o, "busy_pct", busy);
                cJSON *sirq = rs_cpu_softirq(cs);
                if (sirq)
                    cJSON_AddItemToObject(o, "softirq_pct", sirq);
            } else {
                cJSON_Delete(busy);
            }
        }
        cJSON_AddItemToObject(r->results, "firmware_stats", cJSON_Duplicate(stats, 1));
    } else if (stats) {
        const cJSON *hw = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(stats, "gem"), "hw");
        cJSON *g = cJSON_AddObjectToObject(r->results, "gem");
        gem_counters_copy(g, hw, GEM_SRC_BAREMETAL);
        gem_collisions(g, hw, "single_collisn_frames", "multi_collisn_frames");
        cJSON_AddItemToObject(r->results, "firmware_stats", cJSON_Duplicate(stats, 1));
    }
    if (r->peer.run_dir[0]) {
        /* --net pair: the peer board's GEM counters (its receive side when
         * it is the iperf server), from its own stats line */
        const cJSON *ps = inst_last_msg(&r->peer, "stats");
        const cJSON *hw = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ps, "gem"), "hw");
        cJSON *p = cJSON_AddObjectToObject(r->results, "peer");
        cJSON_AddStringToObject(p, "firmware", "baremetal");
        cJSON_AddStringToObject(p, "run_dir", r->peer.run_dir);
        if (hw)
            gem_counters_copy(cJSON_AddObjectToObject(p, "gem"), hw, GEM_SRC_BAREMETAL);
    }
    if (r->in.msgs_not_kept || r->in.console_lines_dropped) {
        /* the guest printed past the runner's caps (inst.h, docs/SECURITY.md R1) */
        cJSON *c = cJSON_AddObjectToObject(r->results, "console_capped");
        cJSON_AddNumberToObject(c, "messages_not_kept", (double)r->in.msgs_not_kept);
        cJSON_AddNumberToObject(c, "log_lines_not_written", (double)r->in.console_lines_dropped);
    }
}

/* One per-CPU figure of a Linux agent's `stats` line (agent.c stats_cpu),
 * as a new array in CPU order: `key`, or 100 less it when `complement`
 * (busy from idle_pct); NULL when no CPU has it. */
static cJSON *cpu_column(const cJSON *stats, const char *key, bool complement)
{
    const cJSON *c;
    cJSON *arr = NULL;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(stats, "cpu")) {
        double v = rs_jnumber(c, key);
        if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(c, "cpu")) || isnan(v) || v < 0)
            continue;
        if (!arr && !(arr = cJSON_CreateArray()))
            return NULL;
        /* to the agent's 0.1 %: 100 - 68.9 is 31.099999999999994 in binary */
        cJSON_AddItemToArray(arr, cJSON_CreateNumber(round((complement ? 100.0 - v : v) * 10.0) / 10.0));
    }
    return arr;
}

/* The per-CPU busy share since the agent's previous `stats` (/proc/stat):
 * 100 less each CPU's idle_pct. */
cJSON *rs_cpu_busy(const cJSON *stats)
{
    return cpu_column(stats, "idle_pct", true);
}

/* The per-CPU share of that time spent in softirq (NET_RX's protocol work
 * among it), the seventh /proc/stat column; NULL from an agent that does
 * not report it. */
cJSON *rs_cpu_softirq(const cJSON *stats)
{
    return cpu_column(stats, "softirq_pct", false);
}

/* verdict.result (docs/schema.md): ERROR when the run could not judge
 * (it has a reason: an input refused after boot, a watchdog, a write
 * that failed), FAIL when an expectation failed */
static const char *verdict_word(const struct run *r)
{
    return r->exit_code == RUN_EXIT_PASS ? "PASS" : r->reason[0] ? "ERROR" : "FAIL";
}

void rs_finish(struct run *r)
{
    struct dg_in in;
    struct dg_report rep;
    char path[PATH_MAX + 32], *text;
    int failed = 0, checks = 0, wrc;
    char exp_reason[512] = "";
    cJSON *verdict, *dj;
    cJSON *bl = NULL;

    /* baselines/<board>/<fw>/<scenario>.json when stored: verdict on
     * stdout, RUN_DIR/baseline-compare.json, BASELINE_REGRESSION's input */
    if (bl_auto(r->results, NULL, r->in.run_dir, &bl, stdout, stderr) > 0 && bl) {
        cJSON_DeleteItemFromObjectCaseSensitive(r->results, "baseline");
        cJSON_AddItemToObject(r->results, "baseline", bl);
    }
    /* the wire capture, when QEMU wrote one: TCP evidence (capture.h) */
    {
        char cap[PATH_MAX + 32];
        cJSON *c = NULL;
        snprintf(cap, sizeof(cap), "%s/%s", r->in.run_dir, CAP_FILE);
        if (access(cap, F_OK) == 0) {
            if (cap_analyse(cap, &c, stderr) == 0) {
                /* at the cap QEMU left later frames out (gemlab_pcap.c): the
                 * counts cover the start of the run only, and a count of 0
                 * proves nothing.  Full: no room left for a full-size frame's
                 * CAP_SNAPLEN bytes with a comment (gl_pcapng_epb_size). */
                struct stat st;
                bool full = stat(cap, &st) == 0 &&
                            (unsigned long long)st.st_size + gl_pcapng_epb_size(CAP_SNAPLEN, true, 64) > CAP_MAX_BYTES;
                cJSON_AddBoolToObject(c, "truncated", full);
                cJSON_AddNumberToObject(c, "max_bytes", (double)CAP_MAX_BYTES);
                cJSON_AddItemToObject(r->results, "capture", c);
            } else
                cJSON_AddItemToObject(r->results, "capture", cJSON_CreateObject());
        }
    }
    dg_in_from_json(r->results, &in);
    dg_run(&in, &rep);
    if (r->exit_code == RUN_EXIT_PASS) {
        /* the first failed expectation is the verdict's reason (schema:
         * "why, when not PASS"): JUnit and dashboards show it */
        char *msgs = NULL;
        size_t msgs_len = 0;
        FILE *mf = open_memstream(&msgs, &msgs_len);

        failed = dg_check_expect(r->results, &rep, mf, &checks);
        if (mf)
            fclose(mf);
        if (failed) {
            const char *first = msgs ? strstr(msgs, "  FAIL ") : NULL;

            r->exit_code = RUN_EXIT_FAIL;
            if (first) {
                first += strlen("  FAIL ");
                snprintf(exp_reason, sizeof(exp_reason), "%.*s%s", (int)strcspn(first, "\n"), first,
                         failed > 1 ? " (and more expectations failed)" : "");
            }
        }
        free(msgs);
    }
    verdict = cJSON_AddObjectToObject(r->results, "verdict");
    cJSON_AddStringToObject(verdict, "result", verdict_word(r));
    cJSON_AddStringToObject(verdict, "reason", r->reason[0] ? r->reason : exp_reason);
    cJSON_AddNumberToObject(verdict, "expectations_checked", checks);
    cJSON_AddNumberToObject(verdict, "expectations_failed", failed);
    if (r->exit_code != RUN_EXIT_PASS)
        cJSON_AddItemToObject(r->results, "console_tail", inst_tail_json(&r->in));

    /* atomic and checked (docs/SECURITY.md D1): a full disk or a crash leaves no
     * torn results.json, and a run whose results could not be written is
     * not a PASS; RUN_DIR/run.in-progress goes only when both are in place */
    snprintf(path, sizeof(path), "%s/results.json", r->in.run_dir);
    text = cJSON_Print(r->results);
    wrc = runner_write_text(path, text);
    free(text);
    dj = dg_to_json(&rep);
    snprintf(path, sizeof(path), "%s/diagnosis.json", r->in.run_dir);
    text = cJSON_Print(dj);
    if (!wrc)
        wrc = runner_write_text(path, text);
    free(text);
    cJSON_Delete(dj);
    if (wrc) {
        if (r->exit_code == RUN_EXIT_PASS)
            r->exit_code = RUN_EXIT_FAIL;
        snprintf(r->reason, sizeof(r->reason), "cannot write the results: %s (the run is incomplete: %s stays "
                 "in the run directory)", strerror(-wrc), RUNNER_IN_PROGRESS);
    } else {
        rs_end(r);
    }

    dg_print(stdout, &rep);
    if (r->exit_code == RUN_EXIT_PASS || r->exit_code == RUN_EXIT_FAIL) {
        if (checks)
            dg_check_expect(r->results, &rep, stdout, &checks);
    }
    if (r->reason[0]) {
        fprintf(stderr, "gemlab: %s\n", r->reason);
        if (r->exit_code != RUN_EXIT_INTERRUPTED || r->in.tail_n)
            inst_print_tail(&r->in, stderr);
    }
    printf("%s %s (%d expectation(s) checked, %d failed) - %s\n",
           r->exit_code == RUN_EXIT_INTERRUPTED ? "INTERRUPTED" : verdict_word(r),
           r->s.v[SK_SCENARIO_NAME].s, checks, failed, r->in.run_dir);
    dg_report_free(&rep);
}

static uint64_t fnv1a_file(const char *path)
{
    uint64_t h = 1469598103934665603ull;
    FILE *f = fopen(path, "rb");
    int c;

    if (!f)
        return 0;
    while ((c = fgetc(f)) != EOF)
        h = (h ^ (uint64_t)(unsigned char)c) * 1099511628211ull;
    fclose(f);
    return h;
}

void rs_build_header(struct run *r)
{
    cJSON *sc, *v;
    char buf[256], hash[32];
    char *argv_q[] = { r->qemu, "--version", NULL };
    char *argv_i[] = { strcmp(scn_host_tool(&r->s), "iperf3") == 0 ? "iperf3" : "iperf", "--version", NULL };

    cJSON_AddStringToObject(r->results, "schema", RESULTS_SCHEMA);
    sc = cJSON_AddObjectToObject(r->results, "scenario");
    cJSON_AddStringToObject(sc, "name", r->s.v[SK_SCENARIO_NAME].s);
    cJSON_AddStringToObject(sc, "path", r->s.path);
    snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)fnv1a_file(r->s.path));
    cJSON_AddStringToObject(sc, "hash", hash);
    cJSON_AddItemToObject(sc, "resolved", scn_to_json(&r->s));
    cJSON_AddItemToObject(r->results, "seed", rs_json_u64(r->s.v[SK_LINK_SEED].u));
    v = cJSON_AddObjectToObject(r->results, "versions");
    cJSON_AddStringToObject(v, "gemlab", GEMLAB_VERSION);
    buf[0] = '\0';
    run_capture(argv_q, buf, sizeof(buf), 5000);
    buf[strcspn(buf, "\n")] = '\0';
    cJSON_AddStringToObject(v, "qemu", buf);
    cJSON_AddStringToObject(v, "qemu_path", r->qemu);
    buf[0] = '\0';
    run_capture_all(argv_i, buf, sizeof(buf), 5000);     /* iperf 2: on stderr */
    buf[strcspn(buf, "\n")] = '\0';
    cJSON_AddStringToObject(v, "iperf_host", buf);
    cJSON_AddStringToObject(v, "firmware_path", r->fw);
    prov_add(v, r->top, r->qemu, r->fw); /* qemu_patch, models, firmware, firmware_options */
    cJSON_AddArrayToObject(r->results, "timeline_applied");
}

/* Boot QEMU for @r (scenario may be NULL for `boot`), connect, cont. */

/* Results of an earlier run in a reused --out directory: a reader must not
 * take them for this run's (docs/SECURITY.md D1). */
static const char *const stale_results[] = {
    "results.json", "diagnosis.json", "baseline-compare.json", "report.md", "report.html",
};

int rs_begin(struct run *r)
{
    char path[PATH_MAX + 32], text[64];
    time_t now = time(NULL);
    struct tm tm;
    int fd, n;

    for (size_t k = 0; k < sizeof(stale_results) / sizeof(stale_results[0]); k++) {
        snprintf(path, sizeof(path), "%s/%s", r->in.run_dir, stale_results[k]);
        if (unlink(path) && errno != ENOENT) {
            fprintf(stderr, "gemlab: cannot remove the previous run's %s: %s\n", path, strerror(errno));
            return -errno;
        }
    }
    snprintf(path, sizeof(path), "%s/%s", r->in.run_dir, RUNNER_IN_PROGRESS);
    gmtime_r(&now, &tm);
    n = (int)strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
    n += snprintf(text + n, sizeof(text) - (size_t)n, " pid %d\n", (int)getpid());
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 || write(fd, text, (size_t)n) != n || fsync(fd)) {
        int err = errno ? errno : EIO;
        fprintf(stderr, "gemlab: cannot write %s: %s\n", path, strerror(err));
        if (fd >= 0)
            close(fd);
        return -err;
    }
    close(fd);
    r->start_ms = inst_now_ms();
    return 0;
}

void rs_end(struct run *r)
{
    char path[PATH_MAX + 32];

    snprintf(path, sizeof(path), "%s/%s", r->in.run_dir, RUNNER_IN_PROGRESS);
    if (unlink(path) && errno != ENOENT)
        fprintf(stderr, "gemlab: cannot remove %s: %s\n", path, strerror(errno));
}

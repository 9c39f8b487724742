/* agent.c - gemlab Linux guest agent.
 *
 * Started by /init on the console.  Reads one command per line on stdin and
 * answers with one JSON line per event behind the "@gemlab " marker, in the
 * envelope the bare-metal firmware uses (glout, src "linux"):
 *
 *   ready   once, at start
 *   link    at start, on `link`, and whenever the carrier changes
 *   stats   on `stats`: ethtool -S, /proc/net/dev, GEM IRQs, cpufreq, idle
 *   result  the answer to help/run/irq-affinity/sockbuf/advertise
 *   error   a command that failed or is unknown; the agent keeps serving
 *
 * Usage: gemlab-agent [IFACE]   (default eth0)
 *
 * Known limitations: commands run one at a time (a `run` blocks the console
 * until the tool exits; `run -b` runs one tool in the background and
 * answers when it exits); carrier changes are polled every 500 ms.
 */
#include "agent_cmd.h"
#include "agent_net.h"
#include "agent_proc.h"
#include "agent_run.h"
#include "glout.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define LINE_MAX_IN 4096
#define POLL_MS 500
#define STATS_LINE_CAP (64u * 1024u)
#define PROC_FILE_MAX (64u * 1024u)

/* Action names of the GEM interrupt in /proc/interrupts: macb requests its
 * IRQ before register_netdev, so depending on the kernel the name is the
 * final "eth0" or the template "eth%d". */
static const char *const gem_irq_needles[] = { "eth", "macb", NULL };

static const char *iface = "eth0";
static struct proc_cpu cpu_prev[PROC_MAX_CPUS + 1];
static int cpu_prev_n;

/* glout hook: the whole line and its newline in one write, so kernel
 * messages on the same console cannot split it. */
void glout_putline(const char *line)
{
    struct iovec iov[2] = {
        { .iov_base = (void *)line, .iov_len = strlen(line) },
        { .iov_base = "\n", .iov_len = 1 },
    };

    if (writev(STDOUT_FILENO, iov, 2) < 0)
        return;
}

/* Read a whole small file into buf (cap bytes).  Returns bytes read or
 * -errno. */
static int read_file(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY);
    size_t len = 0;

    if (fd < 0)
        return -errno;
    while (len + 1 < cap) {
        ssize_t n = read(fd, buf + len, cap - 1 - len);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    buf[len] = '\0';
    return (int)len;
}

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_TRUNC);
    size_t len = strlen(text);
    int rc = 0;

    if (fd < 0)
        return -errno;
    if (write(fd, text, len) != (ssize_t)len)
        rc = -errno;
    close(fd);
    return rc;
}

/* Milliseconds since boot (CLOCK_BOOTTIME), the schema's t_ms. */
static uint64_t t_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Emit a one-line error event (docs/schema.md `error`: app, what, err as a
 * negative errno or 0), plus the command and strerror text. */
static void emit_error(const char *cmd, const char *what, int err)
{
    char buf[GLOUT_LINE_MAX];
    struct glout g;

    glout_begin(&g, buf, sizeof(buf), "error");
    glout_str(&g, "app", "agent");
    glout_str(&g, "cmd", cmd);
    glout_str(&g, "what", what);
    glout_int(&g, "err", err);
    if (err != 0)
        glout_str(&g, "strerror", strerror(-err));
    glout_emit(&g);
}

static void emit_ready(void)
{
    char buf[GLOUT_LINE_MAX], up[64];
    struct utsname u;
    struct glout g;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

    char ip[INET_ADDRSTRLEN], mac[18], model[96];

    glout_begin(&g, buf, sizeof(buf), "ready");
    glout_str(&g, "iface", iface);
    if (agent_if_addr(iface, ip, mac) == 0) {
        glout_str(&g, "ip", ip);
        glout_str(&g, "mac", mac);
    }
    /* The board as the DTB names it, e.g. "Xilinx ZC702 board". */
    if (read_file("/proc/device-tree/model", model, sizeof(model)) > 0)
        glout_str(&g, "model", model);
    {
        /* the MAC-PHY interface mode the guest's device tree gives the GEM
         * (Documentation/devicetree/bindings/net/ethernet-controller.yaml
         * phy-connection-type/phy-mode): which RGMII delays the PHY driver
         * adds (marvell.c m88e1121_config_aneg_rgmii_delays) */
        char path[96], raw[64], pm[32];
        int n;

        snprintf(path, sizeof(path), "/sys/class/net/%s/device/of_node/phy-mode", iface);
        n = read_file(path, raw, sizeof(raw));
        if (n > 0 && proc_dt_string(raw, (size_t)n, pm, sizeof(pm)) > 0)
            glout_str(&g, "phy_mode", pm);
    }
    {
        /* the descriptor rings the driver armed (ethtool -g) */
        struct agent_ring r;
        if (agent_ring_get(iface, &r) == 0) {
            glout_int(&g, "rxbd", r.rx);
            glout_int(&g, "txbd", r.tx);
        }
    }
    if (uname(&u) == 0)
        glout_str(&g, "kernel", u.release);
    glout_int(&g, "cpus", ncpu);
    if (read_file("/proc/uptime", up, sizeof(up)) > 0)
        glout_dbl(&g, "uptime_s", strtod(up, NULL), 2);
    glout_emit(&g);
}

static void link_modes(struct glout *g, const char *key, const uint32_t *mask)
{
    glout_arr_begin(g, key);
    for (unsigned bit = 0; bit < 32 * AGENT_LINK_NWORDS; bit++) {
        const char *name;

        if (!(mask[bit / 32] & (1u << (bit % 32))))
            continue;
        name = agent_link_mode_name(bit);
        if (name != NULL)
            glout_str(g, NULL, name);
    }
    glout_arr_end(g);
}

/* The link event; returns the carrier state it reported (false on error). */
/* The kernel's count of carrier transitions (net/core/net-sysfs.c
 * carrier_changes, Documentation/ABI/testing/sysfs-class-net), or -1.
 * While a foreground `run` blocks the loop, a flap (down and up again)
 * leaves the carrier as it was; this count still moves by two. */
static long long carrier_changes(void)
{
    char path[96], v[24];

    snprintf(path, sizeof(path), "/sys/class/net/%s/carrier_changes", iface);
    return read_file(path, v, sizeof(v)) > 0 ? strtoll(v, NULL, 10) : -1;
}

/* carrier_changes when the last link line was written */
static long long link_cc = -1;

static bool emit_link(const char *reason)
{
    char buf[4096];
    struct agent_link l;
    struct glout g;
    uint16_t regs[32];
    int phy_addr, rc;

    rc = agent_link_get(iface, &l);
    if (rc != 0) {
        emit_error("link", "ethtool GLINK failed", rc);
        return false;
    }
    glout_begin(&g, buf, sizeof(buf), "link");
    glout_u64(&g, "t_ms", t_ms());
    glout_str(&g, "iface", iface);
    glout_str(&g, "reason", reason);
    glout_bool(&g, "up", l.up);
    if (l.settings_valid && l.up && l.speed_mbps != 0)
        glout_u64(&g, "speed_mbps", l.speed_mbps);
    else
        glout_null(&g, "speed_mbps");
    if (l.settings_valid && l.up && l.duplex == DUPLEX_FULL)
        glout_str(&g, "duplex", "full");
    else if (l.settings_valid && l.up && l.duplex == DUPLEX_HALF)
        glout_str(&g, "duplex", "half");
    else
        glout_null(&g, "duplex");
    glout_bool(&g, "autoneg", l.autoneg);
    /* after the fields above: the runner's virtual-time gate waits for
     * the bytes "up":true,"speed_mbps": (emu/runner/run.c link_pattern) */
    link_cc = carrier_changes();
    if (link_cc >= 0)
        glout_u64(&g, "carrier_changes", (uint64_t)link_cc);
    if (l.settings_valid) {
        link_modes(&g, "supported", l.supported);
        link_modes(&g, "advertising", l.advertising);
        link_modes(&g, "partner", l.lp_advertising);
    }
    glout_obj_begin(&g, "phy");
    if (agent_mii_read_all(iface, &phy_addr, regs) == 0) {
        glout_int(&g, "addr", phy_addr);
        char id[12];

        snprintf(id, sizeof(id), "0x%04x%04x", regs[2], regs[3]);
        glout_str(&g, "id", id);
        glout_arr_begin(&g, "regs");
        for (int r = 0; r < 32; r++)
            glout_u64(&g, NULL, regs[r]);
        glout_arr_end(&g);
    } else {
        glout_null(&g, "addr");
    }
    glout_obj_end(&g);
    if (glout_emit(&g) != 0)
        emit_error("link", "link line overflow", -ENOSPC);
    return l.up;
}

static void stats_ethtool(struct glout *g)
{
    char *names;
    uint64_t *values;
    int n = agent_ethtool_stats(iface, &names, &values);

    if (n < 0) {
        glout_null(g, "ethtool");
        return;
    }
    glout_obj_begin(g, "ethtool");
    for (int i = 0; i < n; i++)
        glout_u64(g, names + (size_t)i * ETH_GSTRING_LEN, values[i]);
    glout_obj_end(g);
    free(names);
    free(values);
}

static void stats_netdev(struct glout *g, char *text)
{
    struct proc_netdev nd;
    uint64_t v[16];

    if (read_file("/proc/net/dev", text, PROC_FILE_MAX) < 0 ||
        proc_netdev_parse(text, iface, &nd) != 0) {
        glout_null(g, "netdev");
        return;
    }
    memcpy(v, &nd, sizeof(v));
    glout_obj_begin(g, "netdev");
    for (int i = 0; i < 16; i++)
        glout_u64(g, proc_netdev_keys[i], v[i]);
    glout_obj_end(g);
}

static void stats_irqs(struct glout *g, char *text)
{
    struct proc_irq irqs[4];
    int n;

    if (read_file("/proc/interrupts", text, PROC_FILE_MAX) < 0 ||
        (n = proc_interrupts_find(text, gem_irq_needles, irqs, 4)) < 0) {
        glout_null(g, "irqs");
        return;
    }
    glout_arr_begin(g, "irqs");
    for (int i = 0; i < n; i++) {
        char path[64], aff[64];

        glout_obj_begin(g, NULL);
        glout_u64(g, "irq", irqs[i].irq);
        glout_str(g, "hwirq", irqs[i].hwirq);
        glout_str(g, "name", irqs[i].name);
        glout_arr_begin(g, "per_cpu");
        for (unsigned c = 0; c < irqs[i].ncpu; c++)
            glout_u64(g, NULL, irqs[i].count[c]);
        glout_arr_end(g);
        snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity", irqs[i].irq);
        if (read_file(path, aff, sizeof(aff)) > 0) {
            aff[strcspn(aff, "\n")] = '\0';
            glout_str(g, "smp_affinity", aff);
        } else {
            glout_null(g, "smp_affinity");
        }
        glout_obj_end(g);
    }
    glout_arr_end(g);
}

static void stats_cpufreq(struct glout *g)
{
    char path[96], gov[64], cur[32];
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    bool any = false;

    for (long c = 0; c < ncpu; c++) {
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_governor", c);
        if (read_file(path, gov, sizeof(gov)) <= 0)
            continue;
        if (!any)
            glout_arr_begin(g, "cpufreq");
        any = true;
        gov[strcspn(gov, "\n")] = '\0';
        glout_obj_begin(g, NULL);
        glout_int(g, "cpu", c);
        glout_str(g, "governor", gov);
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_cur_freq", c);
        if (read_file(path, cur, sizeof(cur)) > 0)
            glout_u64(g, "cur_khz", strtoull(cur, NULL, 10));
        glout_obj_end(g);
    }
    if (any)
        glout_arr_end(g);
    else
        glout_null(g, "cpufreq"); /* no cpufreq driver bound */
}

/* Idle and softirq shares per CPU since the previous `stats` (since boot
 * the first time). */
static void stats_cpu(struct glout *g, char *text)
{
    struct proc_cpu cur[PROC_MAX_CPUS + 1];
    int n;

    if (read_file("/proc/stat", text, PROC_FILE_MAX) < 0 ||
        (n = proc_stat_parse(text, cur, PROC_MAX_CPUS + 1)) < 0) {
        glout_null(g, "cpu");
        return;
    }
    glout_arr_begin(g, "cpu");
    for (int i = 0; i < n; i++) {
        struct proc_cpu zero = { .cpu = cur[i].cpu };
        const struct proc_cpu *prev = i < cpu_prev_n ? &cpu_prev[i] : &zero;

        glout_obj_begin(g, NULL);
        if (cur[i].cpu < 0)
            glout_str(g, "cpu", "all");
        else
            glout_int(g, "cpu", cur[i].cpu);
        glout_dbl(g, "idle_pct", proc_idle_pct(prev, &cur[i]), 1);
        glout_dbl(g, "softirq_pct", proc_softirq_pct(prev, &cur[i]), 1);
        glout_u64(g, "jiffies", cur[i].total - prev->total);
        glout_obj_end(g);
    }
    glout_arr_end(g);
    memcpy(cpu_prev, cur, sizeof(cur[0]) * (size_t)n);
    cpu_prev_n = n;
}

static void cmd_stats(void)
{
    char *buf = malloc(STATS_LINE_CAP), *text = malloc(PROC_FILE_MAX);
    struct glout g;

    if (buf == NULL || text == NULL) {
        emit_error("stats", "out of memory", -ENOMEM);
        goto out;
    }
    glout_begin(&g, buf, STATS_LINE_CAP, "stats");
    glout_u64(&g, "t_ms", t_ms());
    glout_str(&g, "iface", iface);
    stats_ethtool(&g);
    stats_netdev(&g, text);
    stats_irqs(&g, text);
    stats_cpufreq(&g);
    stats_cpu(&g, text);
    if (glout_emit(&g) != 0)
        emit_error("stats", "stats line overflow", -ENOSPC);
out:
    free(buf);
    free(text);
}

static void cmd_help(void)
{
    char buf[GLOUT_LINE_MAX];
    struct glout g;
    static const char *const usage[] = {
        "help", "stats", "link", "run [-b] iperf3|iperf ARGS...",
        "irq-affinity HEXMASK", "sockbuf BYTES[K|M]", "tcp-port PORT",
        "advertise HEXMASK", "ring [RX TX]", "downshift off|on [1-8]", "rps HEXMASK",
    };

    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "cmd", "help");
    glout_arr_begin(&g, "commands");
    for (size_t i = 0; i < sizeof(usage) / sizeof(usage[0]); i++)
        glout_str(&g, NULL, usage[i]);
    glout_arr_end(&g);
    glout_emit(&g);
}

/* The answer to a `run`: the tool's exit, time and output (JSON output of
 * iperf3 -J spliced in as "json"); frees r->out. */
static void emit_run_result(const char *tool, int argc, char *const *args, bool want_json,
                            struct agent_run_result *r, bool background)
{
    size_t js = 0, je = 0, cap;
    bool have_json = false;
    char *buf;
    struct glout g;

    if (want_json)
        have_json = agent_json_object_flatten(r->out, &js, &je);
    /* Worst case every output byte is escaped as \u00XX (6 bytes). */
    cap = 6 * r->len + 4096;
    buf = malloc(cap);
    if (buf == NULL) {
        emit_error("run", "out of memory", -ENOMEM);
        free(r->out);
        return;
    }
    glout_begin(&g, buf, cap, "result");
    glout_str(&g, "cmd", "run");
    glout_str(&g, "tool", tool);
    glout_arr_begin(&g, "argv");
    for (int i = 0; i < argc; i++)
        glout_str(&g, NULL, args[i]);
    glout_arr_end(&g);
    if (background)
        glout_bool(&g, "background", true);
    glout_int(&g, "exit", r->exit_status);
    glout_dbl(&g, "elapsed_s", r->elapsed_s, 3);
    glout_u64(&g, "output_dropped", r->dropped);
    if (have_json) {
        /* Text around the JSON object (stderr warnings) stays visible. */
        char saved = r->out[js];

        r->out[js] = '\0';
        glout_str(&g, "output", r->out);
        r->out[js] = saved;
        glout_str(&g, "output_after", r->out + je);
    } else {
        glout_str(&g, "output", r->out);
        if (want_json)
            glout_null(&g, "json");
    }
    if (glout_end(&g) != 0) {
        emit_error("run", "result line overflow", -ENOSPC);
    } else if (have_json) {
        /* glout has no raw member: splice `,"json":{...}` before the
         * envelope's closing brace.  The object was checked by
         * agent_json_object_flatten() and is one line. */
        size_t len = strlen(buf), jlen = je - js;
        char *line = malloc(len + jlen + 16);

        if (line == NULL) {
            emit_error("run", "out of memory", -ENOMEM);
        } else {
            memcpy(line, buf, len - 1);
            memcpy(line + len - 1, ",\"json\":", 8);
            memcpy(line + len + 7, r->out + js, jlen);
            memcpy(line + len + 7 + jlen, "}", 2);
            glout_putline(line);
            free(line);
        }
    } else {
        glout_putline(buf);
    }
    free(buf);
    free(r->out);
    r->out = NULL;
}

/* `run -b TOOL ARGS...`: one tool at a time in the background.  The agent
 * keeps serving commands (a `stats` at the end of the traffic, while an
 * iperf server is still listening) and answers with the same result line,
 * "background":true, when the tool exits. */
static struct {
    struct agent_job j;
    char *tool;
    int argc;
    char *argv[AGENT_MAX_ARGS + 1];
    bool want_json;
} bg;

static void bg_free(void)
{
    for (int i = 0; i < bg.argc; i++)
        free(bg.argv[i]);
    free(bg.tool);
    bg.tool = NULL;
    bg.argc = 0;
}

/* The background tool's pipe is at end of file: reap it and answer. */
static void bg_done(void)
{
    agent_job_finish(&bg.j);
    emit_run_result(bg.tool ? bg.tool : "?", bg.argc, bg.argv, bg.want_json, &bg.j.r, true);
    bg_free();
}

static int bg_start(const char *path, int argc, char *const *argv, bool want_json)
{
    char buf[GLOUT_LINE_MAX];
    struct glout g;
    int rc;

    bg.tool = strdup(argv[0]);
    for (bg.argc = 0; bg.tool && bg.argc < argc - 1; bg.argc++)
        if ((bg.argv[bg.argc] = strdup(argv[bg.argc + 1])) == NULL)
            break;
    if (bg.tool == NULL || bg.argc < argc - 1) {
        bg_free();
        return -ENOMEM;
    }
    bg.want_json = want_json;
    rc = agent_job_start(&bg.j, path, argv);
    if (rc != 0) {
        bg_free();
        return rc;
    }
    glout_begin(&g, buf, sizeof(buf), "status");
    glout_str(&g, "cmd", "run");
    glout_str(&g, "tool", bg.tool);
    glout_bool(&g, "background", true);
    glout_int(&g, "pid", bg.j.pid);
    glout_emit(&g);
    return 0;
}

/* `run [-b] TOOL ARGS...`: the tool's argv starts after the command (and
 * -b). */
static void cmd_run(struct agent_argv *a)
{
    struct agent_run_result r;
    bool background = a->argc >= 2 && strcmp(a->argv[1], "-b") == 0;
    int t = background ? 2 : 1;
    const char *path;
    bool want_json;
    int rc;

    if (a->argc < t + 1) {
        emit_error("run", "usage: run [-b] iperf3|iperf ARGS...", -EINVAL);
        return;
    }
    path = agent_tool_path(a->argv[t]);
    if (path == NULL) {
        emit_error("run", "tool not allowed (iperf3, iperf)", -EPERM);
        return;
    }
    want_json = agent_args_want_json(a->argc - t - 1, a->argv + t + 1);
    if (background) {
        if (bg.j.pid != 0) {
            emit_error("run", "a background run is still going (one at a time)", -EBUSY);
            return;
        }
        rc = bg_start(path, a->argc - t, a->argv + t, want_json);
        if (rc != 0)
            emit_error("run", "fork failed", rc);
        return;
    }
    rc = agent_run(path, a->argv + t, &r);
    if (rc != 0) {
        emit_error("run", "fork failed", rc);
        return;
    }
    emit_run_result(a->argv[t], a->argc - t - 1, a->argv + t + 1, want_json, &r, false);
}

/* `advertise HEXMASK`: our PHY advertisement, as a user sets it with
 * `ethtool -s eth0 advertise N` (ethtool(8)); the kernel's phylib writes
 * ANAR/1000BASE-T control and restarts autoneg.  The carrier drop and the
 * new link (with ethtool's advertising and the PHY registers) follow as
 * `link` lines from the carrier poll. */
static void cmd_advertise(struct agent_argv *a)
{
    struct agent_run_result r;
    unsigned long mask;
    char hex[16], buf[2048];
    struct glout g;
    int rc;

    if (a->argc != 2 || agent_parse_advertise(a->argv[1], &mask) != 0) {
        emit_error("advertise", "usage: advertise HEXMASK (ethtool advertise bits 0x03f|0x6000)", -EINVAL);
        return;
    }
    snprintf(hex, sizeof(hex), "0x%lx", mask);
    char *const argv[] = { "ethtool", "-s", (char *)iface, "advertise", hex, NULL };
    rc = agent_run("/usr/bin/ethtool", argv, &r);
    if (rc != 0) {
        emit_error("advertise", "fork failed", rc);
        return;
    }
    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "cmd", "advertise");
    glout_str(&g, "mask", hex);
    glout_int(&g, "exit", r.exit_status);
    glout_str(&g, "output", r.out);
    if (glout_emit(&g) != 0)
        emit_error("advertise", "result line overflow", -ENOSPC);
    free(r.out);
}

/* `ring [RX TX]`: the descriptor rings, as `ethtool -G eth0 rx RX tx TX`
 * sets them (0 keeps one) and `ethtool -g eth0` reads them back.  Answers
 * with a `ring` line: `rx`, `tx` (what the driver holds now: macb rounds
 * and clamps, macb_set_ringparam), `rx_max`, `tx_max`, and with arguments
 * `asked_rx`, `asked_tx` and `err` (0 or the -errno of SRINGPARAM).  macb
 * closes and reopens the interface to resize, so a carrier drop and a new
 * `link` line follow a change. */
static void cmd_ring(struct agent_argv *a)
{
    char buf[512];
    struct agent_ring r;
    struct glout g;
    unsigned rx = 0, tx = 0;
    int err = 0, rc;

    if (!(a->argc == 1 || (a->argc == 3 && agent_parse_ring(a->argv[1], &rx) == 0 &&
                           agent_parse_ring(a->argv[2], &tx) == 0))) {
        emit_error("ring", "usage: ring [RX TX] (descriptors, 0 keeps one)", -EINVAL);
        return;
    }
    if (a->argc == 3)
        err = agent_ring_set(iface, rx, tx);
    rc = agent_ring_get(iface, &r);
    if (rc) {
        emit_error("ring", "ETHTOOL_GRINGPARAM failed", rc);
        return;
    }
    glout_begin(&g, buf, sizeof(buf), "ring");
    glout_int(&g, "rxbd", r.rx);
    glout_int(&g, "txbd", r.tx);
    glout_int(&g, "rx_max", r.rx_max);
    glout_int(&g, "tx_max", r.tx_max);
    if (a->argc == 3) {
        glout_int(&g, "asked_rx", rx);
        glout_int(&g, "asked_tx", tx);
        glout_int(&g, "err", err);
    }
    glout_emit(&g);
}

/* `downshift off|on [N]`: what the PHY driver is told, as with `ethtool
 * --set-phy-tunable eth0 downshift off|on count N`; the answer is a
 * `phy_downshift` line like the bare-metal firmware's: `enabled`,
 * `attempts` (read back with ETHTOOL_PHY_GTUNABLE), `err`.  The driver
 * soft-resets the PHY, so the link renegotiates. */
static void cmd_downshift(struct agent_argv *a)
{
    char buf[256];
    struct glout g;
    unsigned want, now = 0;
    int err, rc;

    if (agent_parse_downshift(a->argc, a->argv, &want) != 0) {
        emit_error("downshift", "usage: downshift off|on [1-8]", -EINVAL);
        return;
    }
    err = agent_downshift_set(iface, want);
    rc = agent_downshift_get(iface, &now);
    glout_begin(&g, buf, sizeof(buf), "phy_downshift");
    if (rc == 0) {
        glout_bool(&g, "enabled", now != 0);
        glout_int(&g, "attempts", now);
    }
    glout_int(&g, "asked", want);
    glout_int(&g, "err", err ? err : rc);
    glout_emit(&g);
}

/* rps HEXMASK: Receive Packet Steering for the GEM's one RX queue
 * (kernel Documentation/networking/scaling.rst "RPS Configuration"): the
 * protocol work of each received flow moves to a CPU of the mask chosen by
 * the flow's hash, while the interrupt stays where smp_affinity puts it.
 * 0 turns it off.  The answer reads the file back. */
static void cmd_rps(struct agent_argv *a)
{
    char buf[256], path[96], mask_txt[16], back[64];
    unsigned long mask;
    struct glout g;
    int rc;

    if (a->argc != 2 || (strcmp(a->argv[1], "0") != 0 && agent_parse_mask(a->argv[1], &mask) != 0)) {
        emit_error("rps", "usage: rps HEXMASK (0: off)", -EINVAL);
        return;
    }
    if (strcmp(a->argv[1], "0") == 0)
        mask = 0;
    snprintf(mask_txt, sizeof(mask_txt), "%lx", mask);
    snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-0/rps_cpus", iface);
    rc = write_file(path, mask_txt);
    if (rc != 0 || read_file(path, back, sizeof(back)) <= 0) {
        emit_error("rps", path, rc ? rc : -EIO);
        return;
    }
    back[strcspn(back, "\n")] = '\0';
    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "cmd", "rps");
    glout_str(&g, "mask", mask_txt);
    glout_str(&g, "rps_cpus", back);
    glout_emit(&g);
}

static void cmd_irq_affinity(struct agent_argv *a)
{
    char *text, buf[2048], mask_txt[16], path[64];
    struct proc_irq irqs[4];
    unsigned long mask;
    struct glout g;
    int n, rc;

    if (a->argc != 2 || agent_parse_mask(a->argv[1], &mask) != 0) {
        emit_error("irq-affinity", "usage: irq-affinity HEXMASK (non-zero)", -EINVAL);
        return;
    }
    text = malloc(PROC_FILE_MAX);
    if (text == NULL || read_file("/proc/interrupts", text, PROC_FILE_MAX) < 0 ||
        (n = proc_interrupts_find(text, gem_irq_needles, irqs, 4)) <= 0) {
        emit_error("irq-affinity", "no GEM interrupt in /proc/interrupts", -ENOENT);
        free(text);
        return;
    }
    free(text);
    snprintf(mask_txt, sizeof(mask_txt), "%lx", mask);
    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "cmd", "irq-affinity");
    glout_str(&g, "mask", mask_txt);
    glout_arr_begin(&g, "irqs");
    for (int i = 0; i < n; i++) {
        char aff[64];

        snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity", irqs[i].irq);
        rc = write_file(path, mask_txt);
        if (rc != 0) {
            emit_error("irq-affinity", path, rc);
            return;
        }
        glout_obj_begin(&g, NULL);
        glout_u64(&g, "irq", irqs[i].irq);
        if (read_file(path, aff, sizeof(aff)) > 0) {
            aff[strcspn(aff, "\n")] = '\0';
            glout_str(&g, "smp_affinity", aff);
        }
        glout_obj_end(&g);
    }
    glout_arr_end(&g);
    glout_emit(&g);
}

/* `sockbuf BYTES`: the ceilings setsockopt(SO_RCVBUF/SO_SNDBUF) may reach
 * (iperf -w) and the TCP autotuning maxima. */
/* "/proc/sys/net/core/rmem_max" -> "net.core.rmem_max" into out. */
static const char *sysctl_name(const char *path, char *out, size_t cap)
{
    snprintf(out, cap, "%s", path + strlen("/proc/sys/"));
    for (char *p = out; *p != '\0'; p++)
        if (*p == '/')
            *p = '.';
    return out;
}

static void cmd_sockbuf(struct agent_argv *a)
{
    static const char *const core[] = {
        "/proc/sys/net/core/rmem_max", "/proc/sys/net/core/wmem_max",
    };
    static const char *const tcp[] = {
        "/proc/sys/net/ipv4/tcp_rmem", "/proc/sys/net/ipv4/tcp_wmem",
    };
    char buf[1024], val[96], cur[96], name[64];
    unsigned long bytes;
    struct glout g;
    int rc;

    if (a->argc != 2 || agent_parse_bytes(a->argv[1], &bytes) != 0) {
        emit_error("sockbuf", "usage: sockbuf BYTES[K|M] (4096..256M)", -EINVAL);
        return;
    }
    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "cmd", "sockbuf");
    glout_u64(&g, "bytes", bytes);
    glout_obj_begin(&g, "set");
    for (int i = 0; i < 2; i++) {
        snprintf(val, sizeof(val), "%lu", bytes);
        rc = write_file(core[i], val);
        if (rc != 0) {
            emit_error("sockbuf", core[i], rc);
            return;
        }
        glout_str(&g, sysctl_name(core[i], name, sizeof(name)), val);
    }
    for (int i = 0; i < 2; i++) {
        unsigned long mn, def, mx;

        /* "min default max": keep min and default, raise max. */
        if (read_file(tcp[i], cur, sizeof(cur)) <= 0 ||
            sscanf(cur, "%lu %lu %lu", &mn, &def, &mx) != 3) {
            emit_error("sockbuf", tcp[i], -EIO);
            return;
        }
        snprintf(val, sizeof(val), "%lu %lu %lu", mn, def < bytes ? def : bytes, bytes);
        rc = write_file(tcp[i], val);
        if (rc != 0) {
            emit_error("sockbuf", tcp[i], rc);
            return;
        }
        glout_str(&g, sysctl_name(tcp[i], name, sizeof(name)), val);
    }
    glout_obj_end(&g);
    glout_emit(&g);
}

/* `tcp-port PORT`: the sockets on local TCP port PORT (tcp + tcp6) by
 * state.  "idle" is true when something listens there and no socket of a
 * previous connection is still held by a process (ESTABLISHED, SYN_RECV,
 * CLOSE_WAIT): the host's iperf3 client uses it to start a test only once
 * the guest's iperf3 3.12 server has finished the previous one and listens
 * again (it closes and re-creates its listener between tests, and through
 * slirp a connect in that gap is accepted on the host and then reset). */
static void cmd_tcp_port(struct agent_argv *a)
{
    static const char *const files[] = { "/proc/net/tcp", "/proc/net/tcp6" };
    static char text[65536];
    unsigned count[PROC_TCP_STATES] = { 0 }, other = 0;
    char buf[512], *end;
    unsigned long port;
    struct glout g;

    errno = 0;
    port = a->argc == 2 ? strtoul(a->argv[1], &end, 10) : 0;
    if (a->argc != 2 || errno != 0 || *end != '\0' || port == 0 || port > 65535) {
        emit_error("tcp-port", "usage: tcp-port PORT (1..65535)", -EINVAL);
        return;
    }
    for (int i = 0; i < 2; i++) {
        int rc = read_file(files[i], text, sizeof(text));

        if (rc < 0 && !(rc == -ENOENT && i == 1)) {  /* no IPv6: no tcp6 */
            emit_error("tcp-port", files[i], rc);
            return;
        }
        if (rc >= 0 && proc_tcp_port_states(text, (unsigned)port, count) < 0) {
            emit_error("tcp-port", files[i], -EINVAL);
            return;
        }
    }
    /* TCP_ESTABLISHED 1, TCP_SYN_RECV 3, TCP_CLOSE_WAIT 8, TCP_LISTEN 10 */
    for (int st = 0; st < PROC_TCP_STATES; st++)
        if (st != 1 && st != 3 && st != 8 && st != 10)
            other += count[st];
    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "cmd", "tcp-port");
    glout_u64(&g, "port", port);
    glout_u64(&g, "listen", count[10]);
    glout_u64(&g, "established", count[1]);
    glout_u64(&g, "syn_recv", count[3]);
    glout_u64(&g, "close_wait", count[8]);
    glout_u64(&g, "other", other);
    glout_bool(&g, "idle", count[10] > 0 && count[1] + count[3] + count[8] == 0);
    glout_emit(&g);
}

static void dispatch(char *line)
{
    struct agent_argv a;

    if (agent_split(line, &a) != 0) {
        emit_error("?", "too many arguments", -E2BIG);
        return;
    }
    switch (agent_cmd_lookup(&a)) {
    case AGENT_CMD_EMPTY:
        return;
    case AGENT_CMD_HELP:
        cmd_help();
        return;
    case AGENT_CMD_STATS:
        cmd_stats();
        return;
    case AGENT_CMD_LINK:
        emit_link("request");
        return;
    case AGENT_CMD_RUN:
        cmd_run(&a);
        return;
    case AGENT_CMD_IRQ_AFFINITY:
        cmd_irq_affinity(&a);
        return;
    case AGENT_CMD_SOCKBUF:
        cmd_sockbuf(&a);
        return;
    case AGENT_CMD_TCP_PORT:
        cmd_tcp_port(&a);
        return;
    case AGENT_CMD_ADVERTISE:
        cmd_advertise(&a);
        return;
    case AGENT_CMD_RING:
        cmd_ring(&a);
        return;
    case AGENT_CMD_DOWNSHIFT:
        cmd_downshift(&a);
        return;
    case AGENT_CMD_RPS:
        cmd_rps(&a);
        return;
    case AGENT_CMD_UNKNOWN:
        emit_error(a.argv[0], "unknown command (try help)", -EINVAL);
        return;
    }
    emit_error(a.argv[0], "internal: unhandled command", -EINVAL);
}

/* Console commands are data, not terminal input: no echo into our output. */
static void console_raw_echo_off(void)
{
    struct termios t;

    if (tcgetattr(STDIN_FILENO, &t) != 0)
        return;
    t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
    tcsetattr(STDIN_FILENO, TCSANOW, &t);
}

static bool carrier_up(void)
{
    char path[96], v[8];

    snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", iface);
    return read_file(path, v, sizeof(v)) > 0 && v[0] == '1';
}

int main(int argc, char **argv)
{
    static char line[LINE_MAX_IN];
    size_t len = 0;
    bool discarding = false, up;

    if (argc > 1)
        iface = argv[1];
    setvbuf(stdout, NULL, _IONBF, 0);
    console_raw_echo_off();
    emit_ready();
    up = emit_link("start");

    for (;;) {
        struct pollfd pfd[2] = { { .fd = STDIN_FILENO, .events = POLLIN }, { .fd = bg.j.fd, .events = POLLIN } };
        int rc = poll(pfd, bg.j.pid != 0 ? 2 : 1, POLL_MS);
        ssize_t n;

        if (rc < 0 && errno != EINTR)
            return 1;
        if (carrier_up() != up || carrier_changes() != link_cc)
            up = emit_link("change");
        if (rc > 0 && bg.j.pid != 0 && pfd[1].revents != 0 && agent_job_pump(&bg.j, 0) != 0)
            bg_done();
        if (rc <= 0 || pfd[0].revents == 0)
            continue;
        n = read(STDIN_FILENO, line + len, sizeof(line) - 1 - len);
        if (n == 0) {
            /* console closed: a background tool still answers first */
            if (bg.j.pid != 0) {
                while (agent_job_pump(&bg.j, 1) == 0)
                    ;
                bg_done();
            }
            return 0;
        }
        if (n < 0)
            continue;
        len += (size_t)n;
        line[len] = '\0';
        for (;;) {
            /* memchr over what was read, not strchr: a NUL byte must not
             * hide the line end (and every later command) behind it */
            char *nl = memchr(line, '\n', len);

            if (nl == NULL)
                break;
            *nl = '\0';
            if (discarding)
                ;   /* the tail of a line already refused as too long */
            else if (memchr(line, '\0', (size_t)(nl - line)) != NULL)
                emit_error("?", "line contains a NUL byte", -EINVAL);
            else
                dispatch(line);
            discarding = false;
            len -= (size_t)(nl + 1 - line);
            memmove(line, nl + 1, len + 1);
        }
        if (len == sizeof(line) - 1) {
            /* A line longer than the buffer: drop it whole. */
            emit_error("?", "line too long", -E2BIG);
            discarding = true;
            len = 0;
        }
    }
}

/*
 * gemlab_peer.c - `-netdev gemlab-peer`: a host PC at the other end of
 * the cable, simulated inside QEMU (docs/PEER.md in the gemlab
 * repository).
 *
 * A net backend like `user` or `tap` (QEMU include/net/net.h,
 * NetClientInfo) whose far side is a TCP/IP stack (peer_stack.c: lwIP
 * and the firmware's iperf 2 engines), not the host's network.  It runs
 * on QEMU_CLOCK_VIRTUAL only, with no threads, no host sockets and no
 * real time:
 *  - a frame from the guest's NIC arrives in receive() and goes through
 *    the stack at once (the peer's processing costs no virtual time, a
 *    fast PC);
 *  - the stack's frames wait in a TX queue that is serialised at the
 *    peer NIC's line rate (rate-mbps, IEEE 802.3 clause 4.4.2: preamble
 *    and SFD 8 bytes, FCS 4, inter-packet gap 12 byte times, a minimum
 *    frame of 64 bytes), and are handed over with qemu_send_packet_async(),
 *    which holds a frame while the NIC cannot receive (its can_receive)
 *    and calls back when it is taken;
 *  - lwIP's timeouts and the apps' polls run from a virtual timer armed
 *    at the next deadline the stack reports;
 *  - commands ("iperf -s", ...) run at virtual times from a script file
 *    or at once from QMP (gemlab-peer-start).
 * Results go to a file, one JSON object per line.
 */
#include "qemu/osdep.h"

#include <arpa/inet.h>

#include "chardev/char.h"
#include "net/net.h"
#include "../clients.h"
#include "../util.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-net.h"
#include "qemu/error-report.h"
#include "qemu/cutils.h"
#include "qemu/timer.h"
#include "system/runstate.h"

#include "peer_stack.h"

#define GP_TXQ_MAX     512          /* frames in the peer NIC's TX queue */
#define GP_FRAME_MAX   1600
#define GP_SCRIPT_MAX  1024         /* lines */
/* a character time at 115200 baud, 8N1 */
#define GP_CONSOLE_RETRY_NS (10 * NANOSECONDS_PER_SECOND / 115200)

typedef struct GpFrame {
    size_t len;
    uint8_t buf[GP_FRAME_MAX];
} GpFrame;

typedef struct GpScriptLine {
    int64_t at_ms;
    char *cmd;
    unsigned line;
} GpScriptLine;

typedef struct GemlabPeerState {
    NetClientState nc;
    uint32_t rate_mbps;
    QEMUTimer *stack_timer;
    QEMUTimer *tx_timer;
    QEMUTimer *script_timer;
    VMChangeStateEntry *vmstate;
    QEMUTimer *con_timer;       /* console text not yet taken */
    GString *con_buf;
    char con_id[64];
    GQueue txq;                 /* GpFrame */
    bool tx_held;               /* a frame waits in QEMU's queue for the NIC */
    int64_t tx_free_ns;         /* the peer's wire is busy until then */
    int64_t tx_last_ns;         /* serialisation time of the last frame */
    uint64_t tx_drops;          /* TX queue full */
    FILE *results;
    char *results_path;
    char *script_path;
    GpScriptLine *script;
    unsigned n_script, next_script;
} GemlabPeerState;

static GemlabPeerState *gp_the;     /* lwIP is global: one peer */

uint64_t gp_now_us(void)
{
    return (uint64_t)qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) / 1000u;
}

/*
 * Wire time of a frame of @len bytes without FCS at @mbps (802.3 4.4.2):
 * max(len + 4, 64) + 8 + 12 byte times.
 */
static int64_t gp_wire_ns(size_t len, uint32_t mbps)
{
    uint64_t bytes = MAX(len + 4, 64) + 8 + 12;

    return (int64_t)(bytes * 8 * 1000 / mbps);
}

/* ---- the stack's clock ---------------------------------------------- */

static void gp_rearm(GemlabPeerState *s)
{
    uint32_t next = gp_stack_next_ms();
    int64_t now_ms;

    if (next == UINT32_MAX) {
        timer_del(s->stack_timer);
        return;
    }
    now_ms = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) / SCALE_MS;
    timer_mod(s->stack_timer, (now_ms + MAX(next, 1u)) * SCALE_MS);
}

static void gp_stack_tick(void *opaque)
{
    GemlabPeerState *s = opaque;

    gp_stack_poll();
    gp_rearm(s);
}

/* ---- TX: the peer's NIC --------------------------------------------- */

static void gp_tx_kick(GemlabPeerState *s);

static void gp_tx_sent(NetClientState *nc, ssize_t len)
{
    GemlabPeerState *s = DO_UPCAST(GemlabPeerState, nc, nc);

    /* The held frame went onto the wire now. */
    s->tx_held = false;
    s->tx_free_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + s->tx_last_ns;
    gp_tx_kick(s);
}

static void gp_tx_kick(GemlabPeerState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    while (!s->tx_held && !g_queue_is_empty(&s->txq) && now >= s->tx_free_ns) {
        GpFrame *f = g_queue_pop_head(&s->txq);

        s->tx_last_ns = gp_wire_ns(f->len, s->rate_mbps);
        s->tx_free_ns = now + s->tx_last_ns;
        if (qemu_send_packet_async(&s->nc, f->buf, f->len, gp_tx_sent) == 0) {
            s->tx_held = true;      /* queued by QEMU (copied); sent later */
        }
        g_free(f);
    }
    if (!s->tx_held && !g_queue_is_empty(&s->txq)) {
        timer_mod(s->tx_timer, s->tx_free_ns);
    }
}

static void gp_tx_timer(void *opaque)
{
    gp_tx_kick(opaque);
}

static int gp_tx(void *opaque, const uint8_t *frame, size_t len)
{
    GemlabPeerState *s = opaque;
    GpFrame *f;

    if (len > GP_FRAME_MAX || g_queue_get_length(&s->txq) >= GP_TXQ_MAX) {
        s->tx_drops++;
        return -1;
    }
    f = g_new(GpFrame, 1);
    f->len = len;
    memcpy(f->buf, frame, len);
    g_queue_push_tail(&s->txq, f);
    gp_tx_kick(s);
    return 0;
}

/* ---- results -------------------------------------------------------- */

static void gp_result(void *opaque, const char *json)
{
    GemlabPeerState *s = opaque;

    if (s->results) {
        fprintf(s->results, "%s\n", json);
        fflush(s->results);
    }
}

/* ---- RX: frames from the guest's NIC -------------------------------- */

static ssize_t gp_receive(NetClientState *nc, const uint8_t *buf, size_t size)
{
    GemlabPeerState *s = DO_UPCAST(GemlabPeerState, nc, nc);

    gp_stack_input(buf, size);
    gp_rearm(s);
    return size;
}

/* ---- commands ------------------------------------------------------- */

/*
 * "console CHARDEV TEXT": TEXT and a carriage return arrive from the
 * chardev CHARDEV (for example the board's serial port) as if typed,
 * starting at this virtual time: console input on a timeline, not at
 * the wall-clock moment a test gets to type it.  What the front end (the
 * UART's FIFO) cannot take yet (qemu_chr_be_can_write(),
 * include/chardev/char.h) follows every GP_CONSOLE_RETRY_NS.
 */
static int gp_console_parse(const char *cmd, char *id, size_t idlen,
                            const char **text, Error **errp)
{
    const char *p = cmd + strlen("console"), *e;

    while (*p == ' ' || *p == '\t') {
        p++;
    }
    e = p;
    while (*e && *e != ' ' && *e != '\t') {
        e++;
    }
    if (e == p || (size_t)(e - p) >= idlen) {
        error_setg(errp, "usage: console CHARDEV TEXT");
        return -1;
    }
    memcpy(id, p, e - p);
    id[e - p] = 0;
    while (*e == ' ' || *e == '\t') {
        e++;
    }
    *text = e;
    if (!qemu_chr_find(id)) {
        error_setg(errp, "console: no chardev '%s'", id);
        return -1;
    }
    return 0;
}

static bool gp_is_console(const char *cmd)
{
    return strncmp(cmd, "console", 7) == 0 &&
           (cmd[7] == ' ' || cmd[7] == '\t' || cmd[7] == 0);
}

/* Feed the pending console text as the front end takes it. */
static void gp_console_tick(void *opaque)
{
    GemlabPeerState *s = opaque;
    Chardev *chr = qemu_chr_find(s->con_id);
    int n;

    if (!chr || !s->con_buf->len) {
        g_string_truncate(s->con_buf, 0);
        return;
    }
    n = MIN(qemu_chr_be_can_write(chr), (int)s->con_buf->len);
    if (n > 0) {
        qemu_chr_be_write(chr, (const uint8_t *)s->con_buf->str, n);
        g_string_erase(s->con_buf, 0, n);
    }
    if (s->con_buf->len) {
        timer_mod(s->con_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                  GP_CONSOLE_RETRY_NS);
    }
}

static int gp_console(GemlabPeerState *s, const char *cmd, Error **errp)
{
    char id[sizeof(s->con_id)];
    const char *text;

    if (gp_console_parse(cmd, id, sizeof(id), &text, errp) < 0) {
        return -1;
    }
    if (s->con_buf->len && strcmp(id, s->con_id) != 0) {
        error_setg(errp, "console: text for chardev '%s' is still being "
                   "typed", s->con_id);
        return -1;
    }
    pstrcpy(s->con_id, sizeof(s->con_id), id);
    g_string_append(s->con_buf, text);
    g_string_append_c(s->con_buf, '\r');
    gp_console_tick(s);
    return 0;
}

static int gp_command(GemlabPeerState *s, const char *cmd, Error **errp)
{
    char err[GP_ERR_MAX];

    if (gp_is_console(cmd)) {
        if (gp_console(s, cmd, errp) < 0) {
            error_prepend(errp, "gemlab-peer %s: '%s': ", s->nc.name, cmd);
            return -1;
        }
        return 0;
    }
    if (gp_stack_run(cmd, err, sizeof(err)) != 0) {
        error_setg(errp, "gemlab-peer %s: '%s': %s", s->nc.name, cmd, err);
        return -1;
    }
    gp_rearm(s);
    return 0;
}

static void gp_script_tick(void *opaque)
{
    GemlabPeerState *s = opaque;
    int64_t now_ms = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) / SCALE_MS;

    while (s->next_script < s->n_script &&
           s->script[s->next_script].at_ms <= now_ms) {
        GpScriptLine *l = &s->script[s->next_script++];
        Error *err = NULL;

        if (gp_command(s, l->cmd, &err) != 0) {
            error_prepend(&err, "%s:%u: ", s->script_path, l->line);
            error_report_err(err);
        }
    }
    if (s->next_script < s->n_script) {
        timer_mod(s->script_timer, s->script[s->next_script].at_ms * SCALE_MS);
    }
}

/*
 * The script file: "AT_MS:COMMAND" per line, AT_MS non-decreasing; blank
 * lines and lines starting with '#' are skipped.  Every command is
 * checked here, so a bad one stops QEMU at startup, naming its line.
 */
static int gp_script_load(GemlabPeerState *s, const char *path, Error **errp)
{
    g_autofree char *text = NULL;
    g_autoptr(GError) gerr = NULL;
    g_auto(GStrv) lines = NULL;
    int64_t last = 0;

    if (!g_file_get_contents(path, &text, NULL, &gerr)) {
        error_setg(errp, "gemlab-peer: script=%s: %s", path, gerr->message);
        return -1;
    }
    lines = g_strsplit(text, "\n", -1);
    s->script = g_new0(GpScriptLine, g_strv_length(lines) + 1);
    for (unsigned i = 0; lines[i]; i++) {
        char *l = g_strstrip(lines[i]), *colon;
        const char *endc;
        char err[GP_ERR_MAX];
        int64_t at;

        if (!*l || *l == '#') {
            continue;
        }
        if (s->n_script == GP_SCRIPT_MAX) {
            error_setg(errp, "gemlab-peer: script=%s:%u: more than %d commands",
                       path, i + 1, GP_SCRIPT_MAX);
            return -1;
        }
        colon = strchr(l, ':');
        if (!colon || qemu_strtoi64(l, &endc, 10, &at) < 0 ||
            endc != colon || at < 0) {
            error_setg(errp, "gemlab-peer: script=%s:%u: expected "
                       "AT_MS:COMMAND (AT_MS a number of milliseconds of "
                       "virtual time), got '%s'", path, i + 1, l);
            return -1;
        }
        if (at < last) {
            error_setg(errp, "gemlab-peer: script=%s:%u: time %" PRId64
                       " ms is before the previous line's %" PRId64 " ms",
                       path, i + 1, at, last);
            return -1;
        }
        colon = g_strstrip(colon + 1);
        if (gp_is_console(colon)) {
            char id[64];
            const char *line;
            Error *cerr = NULL;

            if (gp_console_parse(colon, id, sizeof(id), &line, &cerr) < 0) {
                error_setg(errp, "gemlab-peer: script=%s:%u: %s", path, i + 1,
                           error_get_pretty(cerr));
                error_free(cerr);
                return -1;
            }
        } else if (gp_stack_check(colon, err, sizeof(err)) != 0) {
            error_setg(errp, "gemlab-peer: script=%s:%u: %s", path, i + 1, err);
            return -1;
        }
        last = at;
        s->script[s->n_script].at_ms = at;
        s->script[s->n_script].cmd = g_strdup(colon);
        s->script[s->n_script].line = i + 1;
        s->n_script++;
    }
    return 0;
}

void qmp_gemlab_peer_start(const char *id, const char *command, Error **errp)
{
    NetClientState *nc = qemu_find_netdev(id);

    if (!nc || nc->info->type != NET_CLIENT_DRIVER_GEMLAB_PEER) {
        error_setg(errp, "gemlab-peer-start: no gemlab-peer netdev "
                   "with id '%s'", id);
        return;
    }
    gp_command(DO_UPCAST(GemlabPeerState, nc, nc), command, errp);
}

/*
 * The VM stopped or continued (QMP stop/cont): a status line with the
 * virtual time it happened at.
 */
static void gp_vm_state(void *opaque, bool running, RunState state)
{
    GemlabPeerState *s = opaque;
    char line[160];

    if (!s->results || (!running && state != RUN_STATE_PAUSED)) {
        return;         /* not QEMU's exit, a wall-clock moment */
    }
    snprintf(line, sizeof(line), "{\"v\":1,\"src\":\"peer\",\"type\":"
             "\"status\",\"app\":\"vm\",\"state\":\"%s\",\"t_us\":%" PRIu64
             "}", running ? "running" : "paused", gp_now_us());
    gp_result(s, line);
}

/* ---- lifetime ------------------------------------------------------- */

static void gp_cleanup(NetClientState *nc)
{
    GemlabPeerState *s = DO_UPCAST(GemlabPeerState, nc, nc);
    GpFrame *f;

    if (s->vmstate) {
        qemu_del_vm_change_state_handler(s->vmstate);
    }
    if (gp_the == s) {
        gp_stack_fini();
        gp_the = NULL;
    }
    timer_free(s->stack_timer);
    timer_free(s->tx_timer);
    timer_free(s->script_timer);
    timer_free(s->con_timer);
    g_string_free(s->con_buf, true);
    while ((f = g_queue_pop_head(&s->txq))) {
        g_free(f);
    }
    if (s->results) {
        fclose(s->results);
        s->results = NULL;
    }
    for (unsigned i = 0; i < s->n_script; i++) {
        g_free(s->script[i].cmd);
    }
    g_free(s->script);
    g_free(s->results_path);
    g_free(s->script_path);
}

static NetClientInfo gp_info = {
    .type = NET_CLIENT_DRIVER_GEMLAB_PEER,
    .size = sizeof(GemlabPeerState),
    .receive = gp_receive,
    .cleanup = gp_cleanup,
};

/* a.b.c.d into host byte order; @prop names the property in the error */
static int gp_ipv4(const char *val, const char *prop, uint32_t *out,
                   Error **errp)
{
    struct in_addr a;

    if (inet_pton(AF_INET, val, &a) != 1) {
        error_setg(errp, "gemlab-peer: %s=%s: not an IPv4 address (a.b.c.d)",
                   prop, val);
        return -1;
    }
    *out = ntohl(a.s_addr);
    return 0;
}

int net_init_gemlab_peer(const Netdev *netdev, const char *name,
                         NetClientState *peer, Error **errp)
{
    const NetdevGemlabPeerOptions *o = &netdev->u.gemlab_peer;
    struct gp_stack_cfg cfg = {
        .mac = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 },
        .ip = 0x0A000202,           /* 10.0.2.2: slirp's host address */
        .netmask = 0xFFFFFF00,
        .board_ip = 0x0A00020F,     /* 10.0.2.15 */
        .seed = 1,
        .tx = gp_tx,
        .result = gp_result,
    };
    GemlabPeerState *s;
    NetClientState *nc;
    char err[GP_ERR_MAX];
    uint32_t rate = 1000;
    FILE *results = NULL;

    assert(netdev->type == NET_CLIENT_DRIVER_GEMLAB_PEER);
    if (gp_the) {
        error_setg(errp, "gemlab-peer: only one per QEMU (netdev '%s' exists)",
                   gp_the->nc.name);
        return -1;
    }
    if (o->mac && net_parse_macaddr(cfg.mac, o->mac) < 0) {
        error_setg(errp, "gemlab-peer: mac=%s: not a MAC address "
                   "(xx:xx:xx:xx:xx:xx)", o->mac);
        return -1;
    }
    if (cfg.mac[0] & 1) {
        error_setg(errp, "gemlab-peer: mac=%s: a multicast address", o->mac);
        return -1;
    }
    if ((o->ip && gp_ipv4(o->ip, "ip", &cfg.ip, errp) < 0) ||
        (o->netmask &&
         gp_ipv4(o->netmask, "netmask", &cfg.netmask, errp) < 0) ||
        (o->board_ip &&
         gp_ipv4(o->board_ip, "board-ip", &cfg.board_ip, errp) < 0)) {
        return -1;
    }
    /* contiguous: the host bits ~netmask are 0...01...1 */
    if (cfg.netmask == 0 || (~cfg.netmask & (~cfg.netmask + 1))) {
        error_setg(errp, "gemlab-peer: netmask=%s: not a contiguous netmask",
                   o->netmask);
        return -1;
    }
    if (cfg.ip == 0 || (cfg.ip & ~cfg.netmask) == 0 ||
        (cfg.ip & ~cfg.netmask) == ~cfg.netmask) {
        error_setg(errp, "gemlab-peer: ip=%s: a network or broadcast address",
                   o->ip ? o->ip : "10.0.2.2");
        return -1;
    }
    if (o->has_rate_mbps) {
        if (o->rate_mbps < 1 || o->rate_mbps > 100000) {
            error_setg(errp, "gemlab-peer: rate-mbps=%" PRIu32
                       ": out of range (1..100000)", o->rate_mbps);
            return -1;
        }
        rate = o->rate_mbps;
    }
    if (o->has_seed) {
        cfg.seed = o->seed;
    }

    nc = qemu_new_net_client(&gp_info, peer, "gemlab-peer", name);
    s = DO_UPCAST(GemlabPeerState, nc, nc);
    s->rate_mbps = rate;
    g_queue_init(&s->txq);
    s->stack_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, gp_stack_tick, s);
    s->tx_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, gp_tx_timer, s);
    s->script_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, gp_script_tick, s);
    s->con_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, gp_console_tick, s);
    s->con_buf = g_string_new(NULL);
    if (o->script) {
        s->script_path = g_strdup(o->script);
        if (gp_script_load(s, o->script, errp) < 0) {
            qemu_del_net_client(nc);
            return -1;
        }
    }
    if (o->results) {
        /*
         * Created or truncated, but never through a symlink (as the GEM's
         * pcap, docs/SECURITY.md Q7): QEMU may run with more rights than
         * whoever can write the directory.
         */
        int fd = qemu_open_old(o->results, O_WRONLY | O_CREAT | O_TRUNC |
                               O_NOFOLLOW, 0644);

        results = fd < 0 ? NULL : fdopen(fd, "w");
        if (!results) {
            if (fd >= 0) {
                close(fd);
            }
            error_setg_errno(errp, errno, "gemlab-peer: results=%s",
                             o->results);
            qemu_del_net_client(nc);
            return -1;
        }
        s->results = results;
        s->results_path = g_strdup(o->results);
    }
    cfg.opaque = s;
    if (gp_stack_init(&cfg, err, sizeof(err)) != 0) {
        error_setg(errp, "gemlab-peer: %s", err);
        qemu_del_net_client(nc);
        return -1;
    }
    gp_the = s;
    s->vmstate = qemu_add_vm_change_state_handler(gp_vm_state, s);
    qemu_set_info_str(nc, "gemlab-peer ip=%u.%u.%u.%u rate=%u Mb/s",
                      cfg.ip >> 24, (cfg.ip >> 16) & 255, (cfg.ip >> 8) & 255,
                      cfg.ip & 255, rate);
    if (s->n_script) {
        timer_mod(s->script_timer, s->script[0].at_ms * SCALE_MS);
    }
    gp_rearm(s);
    return 0;
}

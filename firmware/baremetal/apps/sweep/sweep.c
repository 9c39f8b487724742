/* sweep.c - UDP packet-size sweep: throughput and packets/s per datagram
 * size (docs/BENCHMARKS.md, "UDP packet-size sweep"), measured by the host's
 * `iperf -s -u`.
 *
 * For each size the iperf UDP client runs -t seconds at -b offered load;
 * the host server's FIN-ack report supplies what arrived.  One result line
 * per size (test "sweep", same fields as an iperf UDP client result), then
 * a summary line with the table.  Sizes: 64 128 256 512 1024 1472 bytes of
 * UDP payload, plus with -j the largest payload of one jumbo frame
 * (interface MTU - 28: 7972 with the driver's GEM_JUMBO=1 8000-byte MTU);
 * -j on a 1500-byte MTU build is refused.  The host server must read whole
 * jumbo datagrams (`iperf -s -u -l 8K`): with its 1470-byte default it
 * counts 1470 bytes per datagram and the Mb/s column comes out ~5x low.
 *
 * Between sizes the sweep waits SWEEP_GAP_MS: the iperf 2 server keeps the
 * finished test's socket for 250 ms of silence after its FIN-ack and would
 * take the next test's first datagrams for FIN retransmissions.
 */
#include <errno.h>
#include <string.h>

#include "lwip/netif.h"

#include "shell.h"
#include "appargs.h"
#include "../apps.h"
#include "../common/appnet.h"
#include "../iperf/iperf_app.h"

#define SWEEP_GAP_MS 600

#define IP_UDP_HDR 28            /* IPv4 20 + UDP 8 */

static uint16_t sweep_sizes[] = { 64, 128, 256, 512, 1024, 1472, 0 /* jumbo: set at start */ };
#define SWEEP_NSIZES (sizeof(sweep_sizes) / sizeof(sweep_sizes[0]))

struct sweep_row {
    uint16_t len;
    bool have;
    uint64_t bps;
    uint64_t pps;
    uint64_t tx_pps;
    double loss_pct;
};

static struct {
    bool running;
    bool waiting_gap;
    struct sweep_args a;
    unsigned step;
    unsigned nsteps;
    uint32_t next_ms;
    struct sweep_row rows[SWEEP_NSIZES];
} sw;

static void sweep_summary(void)
{
    char buf[1024], mb[24], lp[24];
    struct glout g;

    glout_begin(&g, buf, sizeof(buf), "result");
    glout_str(&g, "test", "sweep_summary");
    glout_str(&g, "proto", "udp");
    glout_u64(&g, "offered_bps", sw.a.rate_bps);
    glout_u64(&g, "time_s", sw.a.time_s);
    glout_arr_begin(&g, "columns");
    glout_str(&g, NULL, "len");
    glout_str(&g, NULL, "mbps");
    glout_str(&g, NULL, "pps");
    glout_str(&g, NULL, "loss_pct");
    glout_str(&g, NULL, "tx_pps");
    glout_arr_end(&g);
    glout_arr_begin(&g, "rows");
    for (unsigned i = 0; i < sw.nsteps; i++) {
        const struct sweep_row *r = &sw.rows[i];
        glout_arr_begin(&g, NULL);
        glout_u64(&g, NULL, r->len);
        if (r->have) {
            glout_dbl(&g, NULL, (double)r->bps / 1e6, 3);
            glout_u64(&g, NULL, r->pps);
            glout_dbl(&g, NULL, r->loss_pct, 3);
        } else {
            glout_null(&g, NULL);
            glout_null(&g, NULL);
            glout_null(&g, NULL);
        }
        glout_u64(&g, NULL, r->tx_pps);
        glout_arr_end(&g);
    }
    glout_arr_end(&g);
    glout_emit(&g);
    glout_textf("sweep: %8s %10s %10s %8s", "len", "Mb/s", "pps", "loss%");
    for (unsigned i = 0; i < sw.nsteps; i++) {
        const struct sweep_row *r = &sw.rows[i];
        if (r->have)
            glout_textf("sweep: %8u %10s %10lu %8s", r->len,
                        glout_fmt_fixed(mb, sizeof(mb), (double)r->bps / 1e6, 2),
                        (unsigned long)r->pps, glout_fmt_fixed(lp, sizeof(lp), r->loss_pct, 2));
        else
            glout_textf("sweep: %8u %10s %10s %8s", r->len, "-", "-", "-");
    }
    sw.running = false;
}

static void sweep_done(const struct iperf_udp_result *r, void *arg)
{
    struct sweep_row *row = &sw.rows[sw.step];
    (void)arg;

    row->len = (uint16_t)r->len;
    row->tx_pps = r->duration_us ? r->tx_datagrams * 1000000u / r->duration_us : 0;
    row->have = r->server_report;
    if (r->server_report) {
        row->bps = app_bps(r->rx_bytes, r->rx_duration_us);
        row->pps = r->rx_duration_us ? (r->rx_datagrams - r->lost) * 1000000u / r->rx_duration_us : 0;
        row->loss_pct = r->rx_datagrams ? 100.0 * (double)r->lost / (double)r->rx_datagrams : 0.0;
    }
    sw.step++;
    sw.waiting_gap = true;
    sw.next_ms = app_now_ms() + SWEEP_GAP_MS;
}

static void sweep_start_step(void)
{
    struct iperf_udp_client_cfg c = {
        .host = sw.a.host, .port = sw.a.port, .time_ms = sw.a.time_s * 1000u,
        .rate_bps = sw.a.rate_bps, .len = sweep_sizes[sw.step], .test = "sweep",
        .done = sweep_done,
    };
    err_t err = iperf_udp_client_start(&c);
    if (err != ERR_OK) {
        app_error("sweep", "udp client start failed", err);
        sweep_summary();
        return;
    }
    {
        char buf[GLOUT_LINE_MAX];
        struct glout g;
        glout_begin(&g, buf, sizeof(buf), "progress");
        glout_str(&g, "test", "sweep");
        glout_u64(&g, "step", sw.step + 1);
        glout_u64(&g, "steps", sw.nsteps);
        glout_u64(&g, "len", sweep_sizes[sw.step]);
        glout_emit(&g);
    }
}

static void sweep_poll(uint32_t now_ms)
{
    if (!sw.running || !sw.waiting_gap || (int32_t)(now_ms - sw.next_ms) < 0)
        return;
    sw.waiting_gap = false;
    if (sw.step >= sw.nsteps)
        sweep_summary();
    else
        sweep_start_step();
}

static int cmd_sweep(int argc, char **argv)
{
    struct sweep_args a;

    if (argc == 2 && strcmp(argv[1], "stop") == 0) {
        if (sw.running) {
            iperf_udp_client_stop();    /* drops the done callback */
            sweep_summary();
        }
        return 0;
    }
    if (sweep_args_parse(argc, argv, &a) != 0)
        return -EINVAL;
    if (sw.running || iperf_udp_client_busy()) {
        app_error("sweep", "a udp client test is already running", ERR_ALREADY);
        return 0;
    }
    if (a.jumbo) {
        unsigned mtu = netif_default ? netif_default->mtu : 0;
        if (mtu <= 1500u || mtu - IP_UDP_HDR > IPERF_MAX_UDP_LEN) {
            app_error("sweep", "-j needs a jumbo MTU (build with GEM_JUMBO=1)", ERR_VAL);
            return 0;
        }
        sweep_sizes[SWEEP_NSIZES - 1] = (uint16_t)(mtu - IP_UDP_HDR);
    }
    memset(&sw, 0, sizeof(sw));
    sw.a = a;
    sw.nsteps = a.jumbo ? SWEEP_NSIZES : SWEEP_NSIZES - 1;
    sw.running = true;
    app_status("sweep", "started", "udp", a.port);
    sweep_start_step();
    return 0;
}

static const struct shell_cmd sweep_cmd = {
    .name = "sweep",
    .usage = "sweep -c A.B.C.D [-p PORT(5001)] [-t SEC_PER_SIZE(2)] [-b RATE(1000M)] [-j] | sweep stop",
    .fn = cmd_sweep,
};

void sweep_register(void)
{
    shell_register(&sweep_cmd);
    shell_register_poll(sweep_poll);
}

/* iperf_cmd.c - the `iperf` shell command (syntax in appargs.h). */
#include <errno.h>

#include "shell.h"
#include "appargs.h"
#include "iperf_app.h"
#include "../apps.h"
#include "../common/appnet.h"

static int cmd_iperf(int argc, char **argv)
{
    struct iperf_args a;
    err_t err;

    if (iperf_args_parse(argc, argv, &a) != 0) {
        if (a.err)                  /* names the flag; the shell prints usage */
            app_error("iperf", a.err, -EINVAL);
        return -EINVAL;
    }
    switch (a.action) {
    case IPERF_STOP:
        iperf_tcp_stop();
        iperf_udp_stop();
        app_status("iperf", "stopped", NULL, 0);
        return 0;
    case IPERF_SERVER:
        err = a.udp ? iperf_udp_server_start(a.port, a.interval_s)
                    : iperf_tcp_server_start(a.port, a.interval_s);
        if (err != ERR_OK)
            app_error("iperf", a.udp ? "udp server start failed" : "tcp server start failed", err);
        else
            app_status("iperf", "listening", a.udp ? "udp" : "tcp", a.port);
        return 0;
    case IPERF_CLIENT:
        if (a.udp) {
            struct iperf_udp_client_cfg c = {
                .host = a.host, .port = a.port, .time_ms = a.time_s * 1000u,
                .amount_bytes = a.amount_bytes,
                .rate_bps = a.rate_bps, .len = a.len, .interval_s = a.interval_s,
                .test = "iperf", .dual = a.dual, .tradeoff = a.tradeoff, .reverse = a.reverse,
                .streams = a.parallel,
            };
            err = iperf_udp_client_start(&c);
        } else {
            err = iperf_tcp_client_start(a.host, a.port, a.time_s, a.amount_bytes, a.interval_s,
                                         a.parallel, a.window_bytes, a.dual, a.tradeoff, a.reverse);
        }
        if (err != ERR_OK)
            app_error("iperf", a.udp ? "udp client start failed" : "tcp client start failed", err);
        else
            app_status("iperf", "started", a.udp ? "udp" : "tcp", a.port);
        return 0;
    }
    return -EINVAL;
}

static void iperf_poll(uint32_t now_ms)
{
    iperf_tcp_poll(now_ms);
    iperf_udp_poll(now_ms);
}

static const struct shell_cmd iperf_cmd = {
    .name = "iperf",
    .usage = "iperf -s [-u] [-p PORT] [-i SEC] | iperf -c A.B.C.D [-u] [-p PORT] "
             "[-t SEC | -n BYTES] [-b RATE] [-l LEN] [-i SEC] [-P N] [-w SIZE] [-d | -r | -R] | iperf stop",
    .fn = cmd_iperf,
};

void iperf_register(void)
{
    shell_register(&iperf_cmd);
    shell_register_poll(iperf_poll);
}

/*
 * iperf.h - host-side iperf: argv from a scenario, and the results of
 * iperf3 -J and iperf 2 -y C turned into results.json's "iperf" object.
 *
 * Errors: 0 or a negative errno.  Parsers never fail on odd input: what
 * they cannot read stays unknown, and "ok"/"error" say why.
 */
#ifndef GEMLAB_RUNNER_IPERF_H
#define GEMLAB_RUNNER_IPERF_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "qemu.h"
#include "scenario.h"

/* Build the client argv (argv[0] = "iperf3" or "iperf") for @host:@port.
 * @length overrides [traffic] length (sweeps); 0 = scenario's. */
void iperf_client_argv(const struct scenario *s, const char *host, int port, unsigned long long length,
                       struct argv_buf *a);
/* What the client's command line (iperf_client_argv) said and its output
 * does not: -l (length_bytes), UDP -b (offered_bps), -w (window_bytes),
 * added to the method object @m where it lacks them.  iperf 2's -y C says
 * none of them, iperf3's -J only its blksize and -w. */
void iperf_client_method(const struct scenario *s, unsigned long long length, cJSON *m);

/* Parse iperf3 -J output into a new "iperf" object (caller frees). */
cJSON *iperf3_parse(const char *text);
/* Parse iperf 2 -y C output (+ stderr text for the error) likewise.
 * @udp and @duration_s help pick the final summary lines.  With -P the
 * sum is the [SUM] line's, or the streams' when there is none (a UDP
 * server's), "stream_bytes" each stream's bytes, and a UDP server's loss
 * the streams' lost over their total datagrams (jitter: the worst). */
cJSON *iperf2_parse(const char *csv, const char *err, int udp, double duration_s);
/* iperf 2 dual test (-d, host listening on @lport): lines whose
 * destination port is @lport are the board's stream (board TX), the rest
 * the host's (board RX); the RX half plus tx_bps, throughput_bps the sum.
 * @csv may end without a newline (a killed or truncated iperf). */
cJSON *iperf2_parse_dual(const char *csv, const char *err, int udp, double duration_s, int lport);

/* The Linux agent's answer to `run iperf ... -y C` (@run: its result
 * message, firmware/linux/agent/agent.c cmd_run), as the firmware's iperf
 * result message of @role ("client" or "server") that iperf_sim_result()
 * reads: bps, loss_pct, jitter_us, stream_bytes and (without -d, when it
 * printed -i rows) intervals_bps from iperf2_parse() of its output; without a summary, no bps and "error" the tool's first
 * line.  @dual_port > 0: a server that ran iperf 2's dual test (-d); the
 * lines to @dual_ip:@dual_port (its own address and port) are what it
 * received, the rest the stream it sent back: bps is the first, tx_bps the
 * second.  A new object, NULL without @run. */
cJSON *iperf2_agent_result(const cJSON *run, const char *role, bool udp, double duration_s, const char *dual_ip,
                           int dual_port);
/* results.json's "iperf" for a test against the in-emulator peer (run.c
 * sim_traffic, docs/VIRTUAL_TIME.md): @peer is the peer's iperf result
 * line (docs/PEER.md "Results"), @fw the firmware's result message, either
 * NULL when it did not come; @board_tx: the board sent and the peer
 * received.  The receiver's count is the goodput (throughput_bps); a
 * receiver that reported nothing within @t_s + 10 s counted nothing: "ok"
 * false, throughput_bps 0, as for host runs whose board reported nothing.
 * A new object with ok, error or the figures, and measured_by. */
cJSON *iperf_sim_result(bool board_tx, bool udp, const cJSON *peer, const cJSON *fw, unsigned long long t_s);
/* -d under --net sim: @res is iperf_sim_result()'s board-receives half;
 * @peer_rx is the peer's server line (what it received of the board's
 * connect-back), @fw_tx the board's client line for that stream.  Adds
 * tx_bps and the sum as throughput_bps, as iperf2_parse_dual() does. */
void iperf_sim_dual(cJSON *res, const cJSON *peer_rx, const cJSON *fw_tx);
/* -P into the Linux board under --net sim: its iperf 2.1.8 server prints
 * one -y C line per stream and no [SUM], so @fw's bps (iperf2_parse()) is
 * all the streams' bytes over the longest stream's own time.  The streams
 * do not start and end at one instant, so the test lasted longer: a -P 8
 * test at 500 MIPS read 950.24 Mb/s, over the 949.28 Mb/s a 1G line
 * carries.  The peer's client starts every stream at one instant (iperf
 * 2's client barrier) and its line's duration_us is the span from there to
 * the last stream's end, when it stopped writing.  What it wrote by then
 * and the board had not yet acknowledged (64240 bytes in every Linux run
 * measured) reaches the board after the span: at 100 Mb/s that is 5 ms of
 * the line, and -P 2 read 95.09 Mb/s on a 94.93 line.  So the bytes over
 * the span are the ones the board had acknowledged by its end (the
 * peer's bytes_acked), when the peer's line has them.  Sets @res's
 * throughput_bps and rx_bps to the smaller of @fw's stream_bytes (two or
 * more) over the longest stream's time and those bytes over the span;
 * leaves them when either is missing or malformed. */
void iperf_sim_group_span(cJSON *res, const cJSON *peer, const cJSON *fw);

/* What a firmware iperf client (the board's or the peer's: the same code,
 * docs/schema.md `result`) says about its own test, for an "iperf" object
 * @res built from result lines (--net sim, --net pair): adds to
 * @res.method (created when missing) "reverse" (@board_tx: the board sent),
 * "duration_s" (@duration_s, the -t given; NAN: none) and, from the
 * client's line @cli (may be NULL), "length_bytes" (its `len`) and
 * "offered_bps" (its `offered_bps`, UDP: the -b it paced to); and to @res
 * "sender_tx_errors" (its `tx_errors`: datagrams the stack or the driver
 * refused, retried later: UDP back-pressure, emu/runner/RESULTS.md). */
void iperf_fw_sender_method(cJSON *res, const cJSON *cli, bool board_tx, double duration_s);

#endif

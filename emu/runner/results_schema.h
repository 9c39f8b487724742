/*
 * results_schema.h - every field of RUN_DIR/results.json
 * (`gemlab-results-2`, emu/runner/RESULTS.md), defined once.
 *
 * The readers (the diagnosis inputs, the report, baseline and merge
 * accessors) name a field as RS(ID), so a misspelt field fails the
 * build instead of silently reading nothing.  tests/unit/
 * runner_results_schema checks the writer against the table (every field
 * of real results files is in it, with its type) and that the table in
 * docs/schema.md ("results.json fields") is the one `gemlab schema`
 * prints from here.
 *
 * RS_TREE marks a subtree whose members are listed in RESULTS.md, not
 * here: ground truth, version strings, free-form tool output.  A field
 * inside a tree may still have its own row (firmware_stats.gem.drv...).
 */
#ifndef GEMLAB_RUNNER_RESULTS_SCHEMA_H
#define GEMLAB_RUNNER_RESULTS_SCHEMA_H

#include <stdbool.h>
#include <stdio.h>

/* The schema this runner writes, and the older one its readers still
 * accept (emu/runner/RESULTS.md, "Reading a gemlab-results-1 file"). */
#define RESULTS_SCHEMA "gemlab-results-2"
#define RESULTS_SCHEMA_V1 "gemlab-results-1"

enum rs_type {
    RS_NUM,     /* a number, or null when unknown */
    RS_STR,     /* a string, or null */
    RS_BOOL,    /* true or false, or null */
    RS_ARR,     /* an array of numbers or strings */
    RS_TREE,    /* an object or array described in RESULTS.md */
};

/* X(ID, dotted path, type, what it is) */
#define RESULTS_FIELDS(X) \
    X(SCHEMA, "schema", RS_STR, \
      "`" RESULTS_SCHEMA "`") \
    X(SEED, "seed", RS_NUM, \
      "the run's seed (`[link] seed`, `--seed`)") \
    X(VERDICT_RESULT, "verdict.result", RS_STR, \
      "`PASS`, `FAIL` or `ERROR`") \
    X(VERDICT_REASON, "verdict.reason", RS_STR, \
      "why, when not PASS") \
    X(VERDICT_EXPECTATIONS_CHECKED, "verdict.expectations_checked", RS_NUM, \
      "`[expect]` items checked") \
    X(VERDICT_EXPECTATIONS_FAILED, "verdict.expectations_failed", RS_NUM, \
      "`[expect]` items that failed") \
    X(SCENARIO, "scenario", RS_TREE, \
      "truth: the scenario file as read and resolved (`gemlab show`); never read by the diagnosis") \
    X(VERSIONS, "versions", RS_TREE, \
      "gemlab, QEMU (version, path, build key), models, firmware and iperf versions") \
    X(QEMU, "qemu", RS_TREE, \
      "how QEMU ran the guest: `user`, `sandbox`") \
    X(CLOCK, "clock", RS_TREE, \
      "`mode` real or virtual; virtual: `mips`, `quantum_ns` (null: one CPU, no rounds), `dma_line_ns` (0: none), `icount`, `ready_s`, `link_up_s`, `end_s`, `console_gate` (docs/VIRTUAL_TIME.md)") \
    X(WALL_CLOCK, "wall_clock", RS_TREE, \
      "host-dependent figures: `finished_at`, `host_loadavg`; virtual: wall seconds per virtual second") \
    X(WALL_CLOCK_FIELDS, "wall_clock_fields", RS_ARR, \
      "the dotted paths that are wall-clock: a rerun comparison leaves them out") \
    X(TRUTH, "truth", RS_TREE, \
      "ground truth: `conditions` (the scenario as asked), `model` (PHY/wire model counters), `link` (the model's link), `ring_note`, `downshift_note`, `model_note` (the wire model dropped frames it had no room for), `timeline_applied` (the `[timeline]`'s faults, and those `gemlab fault` applied during the run, with `\"source\": \"gemlab fault\"`); never read by the diagnosis") \
    X(TIMELINE_APPLIED, "timeline_applied", RS_TREE, \
      "files before the `truth` key held it: the faults the runner injected") \
    X(BOARD_FIRMWARE, "board.firmware", RS_STR, \
      "the ready line's `src`: `baremetal` or `linux`") \
    X(BOARD_BOARD, "board.board", RS_STR, \
      "the ready line's board name") \
    X(BOARD_FW, "board.fw", RS_STR, \
      "the firmware's version") \
    X(BOARD_MODEL, "board.model", RS_STR, \
      "the device tree's model (Linux)") \
    X(BOARD_KERNEL, "board.kernel", RS_STR, \
      "the kernel release (Linux)") \
    X(BOARD_CPUS, "board.cpus", RS_NUM, \
      "online CPUs (the Linux agent's ready line)") \
    X(BOARD_RX_BDS, "board.rx_bds", RS_NUM, \
      "RX descriptors the firmware armed (Linux: `ethtool -g`)") \
    X(BOARD_TX_BDS, "board.tx_bds", RS_NUM, \
      "TX descriptors the firmware armed (Linux: `ethtool -g`)") \
    X(BOARD_RESTARTS, "board.restarts", RS_NUM, \
      "times the console printed its ready line again after the first: the board restarted during the run (a reset, a crash, a watchdog, a `reboot`); the verdict fails on any") \
    X(BOARD_PBUFS, "board.pbufs", RS_NUM, \
      "bare metal: lwIP's `PBUF_POOL_SIZE`, the receive pbufs it was built with") \
    X(BOARD_PHY_MODE, "board.phy_mode", RS_STR, \
      "the guest's device tree `phy-mode` (Linux agent)") \
    X(BOARD_TCP_WND, "board.tcp_wnd", RS_NUM, \
      "bare metal: lwIP's `TCP_WND`, the window it advertises, bytes") \
    X(BOARD_IPERF_SERVER_TOOL, "board.iperf_server.tool", RS_STR, \
      "the board's iperf server: `iperf2` or `iperf3`") \
    X(BOARD_IPERF_SERVER_EVIDENCE, "board.iperf_server.evidence", RS_STR, \
      "the console line that says so") \
    X(BENCH_NET, "bench.net", RS_STR, \
      "how the host reaches the board: `user`, `tap`, `pair`, `sim`, `idle`") \
    X(BENCH_TCP_TIMESTAMPS, "bench.tcp_timestamps", RS_BOOL, \
      "TCP timestamps on the path (a Linux board over a tap only)") \
    X(PHY_SOURCE, "phy.source", RS_STR, \
      "where the registers came from (`firmware stats (MDIO)`)") \
    X(PHY_ID, "phy.id", RS_STR, \
      "PHYID1/PHYID2 (IEEE 802.3 22.2.4.3.1)") \
    X(PHY_NAME, "phy.name", RS_STR, \
      "the PHY the ID names") \
    X(PHY_REGS, "phy.regs", RS_TREE, \
      "MDIO registers by decimal number, as read") \
    X(PHY_RGMII_DELAY_RX, "phy.rgmii_delay.rx", RS_BOOL, \
      "88E1116R page 2 reg 21 bit 5 (RX clock delay)") \
    X(PHY_RGMII_DELAY_TX, "phy.rgmii_delay.tx", RS_BOOL, \
      "88E1116R page 2 reg 21 bit 4 (TX clock delay)") \
    X(PHY_RGMII_DELAY_PAGE2_REG21, "phy.rgmii_delay.page2_reg21", RS_NUM, \
      "88E1116R page 2 reg 21 as read") \
    X(RTT_MIN_US, "rtt.min_us", RS_NUM, \
      "the runner's ping before the traffic: minimum RTT, microseconds") \
    X(RTT_P50_US, "rtt.p50_us", RS_NUM, \
      "median RTT, microseconds") \
    X(RTT_AVG_US, "rtt.avg_us", RS_NUM, \
      "mean RTT, microseconds, rounded to the nearest") \
    X(RTT_MAX_US, "rtt.max_us", RS_NUM, \
      "maximum RTT, microseconds") \
    X(RTT_SENT, "rtt.sent", RS_NUM, \
      "pings sent") \
    X(RTT_RECEIVED, "rtt.received", RS_NUM, \
      "pings answered") \
    X(RTT_SOURCE, "rtt.source", RS_STR, \
      "which tool measured it") \
    X(CPU_BUSY_PCT, "cpu.busy_pct", RS_ARR, \
      "per CPU, percent busy (the Linux agent's `/proc/stat` over the test)") \
    X(CPU_SOFTIRQ_PCT, "cpu.softirq_pct", RS_ARR, \
      "per CPU, percent of that time in softirq (`/proc/stat`'s softirq column: NET_RX's protocol work among it)") \
    X(CPU_WINDOW_S, "cpu.window_s", RS_NUM, \
      "how long that window was, seconds") \
    X(CPU_SOURCE, "cpu.source", RS_STR, \
      "where the figures came from") \
    X(EXPECT, "expect", RS_TREE, \
      "what `[expect]` asked for, checked by the verdict; the diagnosis reads only `reference_bps` and `throughput_min_bps` (the engineer's own reference figures, judged by METHOD_WRONG_REFERENCE)") \
    X(EXPECT_LINK, "expect.link", RS_STR, \
      "`[expect] link`: `up` or `down`") \
    X(EXPECT_SPEED_MBPS, "expect.speed_mbps", RS_NUM, \
      "`[expect] speed`, Mb/s") \
    X(EXPECT_DUPLEX, "expect.duplex", RS_STR, \
      "`[expect] duplex`") \
    X(EXPECT_THROUGHPUT_MIN_BPS, "expect.throughput_min_bps", RS_NUM, \
      "`[expect] throughput_min`, bit/s") \
    X(EXPECT_THROUGHPUT_MAX_BPS, "expect.throughput_max_bps", RS_NUM, \
      "`[expect] throughput_max`, bit/s") \
    X(EXPECT_REFERENCE_BPS, "expect.reference_bps", RS_NUM, \
      "the engineer's reference figure, bit/s") \
    X(EXPECT_LOSS_MIN_PCT, "expect.loss_min_pct", RS_NUM, \
      "`[expect] loss_min`, percent") \
    X(EXPECT_LOSS_MAX_PCT, "expect.loss_max_pct", RS_NUM, \
      "`[expect] loss_max`, percent") \
    X(EXPECT_RETRANSMITS_MAX, "expect.retransmits_max", RS_NUM, \
      "`[expect] retransmits_max`") \
    X(EXPECT_JITTER_MAX_MS, "expect.jitter_max_ms", RS_NUM, \
      "`[expect] jitter_max`, milliseconds") \
    X(EXPECT_FLAPS, "expect.flaps", RS_NUM, \
      "`[expect] flaps`") \
    X(EXPECT_DIAG, "expect.diag", RS_ARR, \
      "codes that must be named") \
    X(EXPECT_DIAG_ABSENT, "expect.diag_absent", RS_ARR, \
      "codes that must not be named") \
    X(EXPECT_TRAFFIC, "expect.traffic", RS_STR, \
      "`[expect] traffic`: `ok` or `fail`") \
    X(LINK_SOURCE, "link.source", RS_STR, \
      "`baremetal`, `linux` or `model`: who reported the link last") \
    X(LINK_UP, "link.up", RS_BOOL, \
      "link up at the end") \
    X(LINK_SPEED_MBPS, "link.speed_mbps", RS_NUM, \
      "resolved speed, Mb/s") \
    X(LINK_FULL_DUPLEX, "link.full_duplex", RS_BOOL, \
      "resolved duplex") \
    X(LINK_AUTONEG, "link.autoneg", RS_BOOL, \
      "autonegotiation completed") \
    X(LINK_DOWNSHIFT, "link.downshift", RS_BOOL, \
      "the link the traffic ran on downshifted: the PHY's reg 17 bit 5 at the end (88E1116R; bare-metal `stats`), else the last link-up's report, else any downshift reported") \
    X(LINK_LOCAL_AUTONEG, "link.local_autoneg", RS_BOOL, \
      "BMCR (reg 0) bit 12") \
    X(LINK_ANER, "link.aner", RS_NUM, \
      "ANER (reg 6)") \
    X(LINK_ANAR, "link.anar", RS_NUM, \
      "ANAR (reg 4): our advertisement") \
    X(LINK_CTRL1000, "link.ctrl1000", RS_NUM, \
      "1000BASE-T control (reg 9)") \
    X(LINK_ADVERTISED, "link.advertised", RS_ARR, \
      "our advertisement as words (`1000FD`, ...)") \
    X(LINK_PARTNER_AUTONEG, "link.partner_autoneg", RS_BOOL, \
      "ANER bit 0 (IEEE 802.3 28.2.4.1.5), only while we negotiate") \
    X(LINK_FLAPS, "link.flaps", RS_NUM, \
      "down transitions after the first link-up") \
    X(LINK_MAC_SPEED_MBPS, "link.mac_speed_mbps", RS_NUM, \
      "the GEM's NWCFG speed bits (UG585 16.3), Mb/s") \
    X(LINK_DOWNSHIFT_ENABLED, "link.downshift_enabled", RS_BOOL, \
      "downshift enable as read over MDIO") \
    X(LINK_DOWNSHIFT_ATTEMPTS, "link.downshift_attempts", RS_NUM, \
      "downshift attempts as read over MDIO") \
    X(LINK_PHY_REG16, "link.phy_reg16", RS_NUM, \
      "88E1116R reg 16 as read") \
    X(LINK_PHY_REG20, "link.phy_reg20", RS_NUM, \
      "88E1116R reg 20 as read") \
    X(LINK_EVENTS, "link_events", RS_TREE, \
      "every link line: `t_s`, `up`, `speed_mbps`, `full_duplex`; Linux: `flaps_between`, flaps the kernel's carrier_changes counted since the line before, which the agent did not see") \
    X(GEM_RX_FRAMES, "gem.rx_frames", RS_NUM, \
      "frames received OK (GEM 0x158)") \
    X(GEM_TX_FRAMES, "gem.tx_frames", RS_NUM, \
      "frames transmitted OK (GEM 0x108)") \
    X(GEM_RX_FCS_ERRORS, "gem.rx_fcs_errors", RS_NUM, \
      "frame check sequence errors (GEM 0x190)") \
    X(GEM_RX_SYMBOL_ERRORS, "gem.rx_symbol_errors", RS_NUM, \
      "receive symbol errors (GEM 0x198)") \
    X(GEM_RX_LENGTH_ERRORS, "gem.rx_length_errors", RS_NUM, \
      "length field frame errors (GEM 0x194)") \
    X(GEM_RX_RESOURCE_ERRORS, "gem.rx_resource_errors", RS_NUM, \
      "no RX descriptor (GEM 0x1A0)") \
    X(GEM_RX_OVERRUNS, "gem.rx_overruns", RS_NUM, \
      "receive overruns (GEM 0x1A4)") \
    X(GEM_TX_UNDERRUNS, "gem.tx_underruns", RS_NUM, \
      "transmit underruns (GEM 0x134)") \
    X(GEM_COLLISIONS, "gem.collisions", RS_NUM, \
      "single and multiple collision frames (GEM 0x138, 0x13C)") \
    X(GEM_LATE_COLLISIONS, "gem.late_collisions", RS_NUM, \
      "late collisions (GEM 0x144)") \
    X(GEM_EXCESSIVE_COLLISIONS, "gem.excessive_collisions", RS_NUM, \
      "frames given up after 16 attempts (GEM 0x140)") \
    X(IRQ, "irq", RS_TREE, \
      "Linux `/proc/interrupts`: `gem_per_cpu`") \
    X(IRQ_GEM_PER_CPU, "irq.gem_per_cpu", RS_ARR, \
      "the GEM line's count per CPU") \
    X(PEER, "peer", RS_TREE, \
      "`--net pair`: the second board's `firmware`, `run_dir` and `gem` counters") \
    X(IPERF_SKIPPED, "iperf.skipped", RS_STR, \
      "why no traffic ran (no link before the traffic)") \
    X(IPERF_VIRTUAL_IDLE, "iperf.virtual_idle", RS_BOOL, \
      "`--net idle` in virtual time: no traffic by choice") \
    X(IPERF_OK, "iperf.ok", RS_BOOL, \
      "the test produced a receiver's figure") \
    X(IPERF_ERROR, "iperf.error", RS_STR, \
      "the tool's error text") \
    X(IPERF_THROUGHPUT_BPS, "iperf.throughput_bps", RS_NUM, \
      "goodput as the receiver counted it, bit/s") \
    X(IPERF_RECEIVER, "iperf.receiver", RS_STR, \
      "where `throughput_bps` came from") \
    X(IPERF_SENT_BPS, "iperf.sent_bps", RS_NUM, \
      "the sender's own figure, bit/s") \
    X(IPERF_SENDER_TX_ERRORS, "iperf.sender_tx_errors", RS_NUM, \
      "datagrams the firmware UDP client's stack or driver refused") \
    X(IPERF_RETRANSMITS, "iperf.retransmits", RS_NUM, \
      "iperf3's sender retransmits") \
    X(IPERF_RTT_US, "iperf.rtt_us", RS_NUM, \
      "iperf3's mean RTT, microseconds") \
    X(IPERF_RTT_MIN_US, "iperf.rtt_min_us", RS_NUM, \
      "iperf3's minimum RTT, microseconds") \
    X(IPERF_UDP_LOST_PCT, "iperf.udp_lost_pct", RS_NUM, \
      "UDP loss the receiver reported, percent") \
    X(IPERF_UDP_LOSS_FROM, "iperf.udp_loss_from", RS_STR, \
      "which report the UDP loss came from") \
    X(IPERF_UDP_JITTER_MS, "iperf.udp_jitter_ms", RS_NUM, \
      "UDP jitter the receiver reported, milliseconds") \
    X(IPERF_TX_BPS, "iperf.tx_bps", RS_NUM, \
      "what the board sent, as its receiver counted it, bit/s (a run into the board has none; bidir: the TX half)") \
    X(IPERF_TX_SENT_BPS, "iperf.tx_sent_bps", RS_NUM, \
      "bidir in virtual time: the board's own figure for what it sent, bit/s") \
    X(IPERF_RX_BPS, "iperf.rx_bps", RS_NUM, \
      "what the board received, as it counted it, bit/s (a run out of the board has none; bidir: the RX half)") \
    X(IPERF_INTERVALS_BPS, "iperf.intervals_bps", RS_ARR, \
      "goodput per interval, bit/s (omitted seconds excluded); the last covers the test's end when it lasted " \
      "a tenth of the interval (the bare-metal firmware and the peer; iperf3's threshold), so a shorter tail counts only in the total") \
    X(IPERF_SENT_INTERVALS_BPS, "iperf.sent_intervals_bps", RS_ARR, \
      "the sender's figure per interval, bit/s") \
    X(IPERF_SOURCE, "iperf.source", RS_STR, \
      "`--net pair`/`sim`: which side's result the figure is") \
    X(IPERF_MEASURED_BY, "iperf.measured_by", RS_STR, \
      "`--net sim`: `peer` or `board`, the receiving side") \
    X(IPERF_PEER_COMMAND, "iperf.peer_command", RS_STR, \
      "`--net sim`: what the peer ran (docs/PEER.md)") \
    X(IPERF_BOARD_COMMAND, "iperf.board_command", RS_STR, \
      "what was typed into the firmware") \
    X(IPERF_PEER_RESULT, "iperf.peer_result", RS_TREE, \
      "`--net sim`: the peer's result line") \
    X(IPERF_BOARD_RESULT, "iperf.board_result", RS_TREE, \
      "the board's own iperf result line") \
    X(IPERF_STREAM_BYTES, "iperf.stream_bytes", RS_ARR, \
      "`--net sim`, TCP: the receiver's bytes per stream") \
    X(IPERF_METHOD_TOOL, "iperf.method.tool", RS_STR, \
      "`iperf3` or `iperf2`, as the tool reports itself") \
    X(IPERF_METHOD_VERSION, "iperf.method.version", RS_STR, \
      "the tool's version banner") \
    X(IPERF_METHOD_PROTOCOL, "iperf.method.protocol", RS_STR, \
      "`tcp` or `udp`") \
    X(IPERF_METHOD_STREAMS, "iperf.method.streams", RS_NUM, \
      "parallel streams (`-P`)") \
    X(IPERF_METHOD_OMIT_S, "iperf.method.omit_s", RS_NUM, \
      "iperf3 `-O`, seconds") \
    X(IPERF_METHOD_DURATION_S, "iperf.method.duration_s", RS_NUM, \
      "`-t`, seconds") \
    X(IPERF_METHOD_BLKSIZE, "iperf.method.blksize", RS_NUM, \
      "iperf3 block size, bytes") \
    X(IPERF_METHOD_REVERSE, "iperf.method.reverse", RS_BOOL, \
      "the board sends") \
    X(IPERF_METHOD_BIDIR, "iperf.method.bidir", RS_BOOL, \
      "both directions at once") \
    X(IPERF_METHOD_CLIENT, "iperf.method.client", RS_STR, \
      "against the in-emulator peer: `board` or `peer`, the end that ran iperf's client (`[traffic] client`)") \
    X(IPERF_METHOD_IPERF_REVERSE, "iperf.method.iperf_reverse", RS_BOOL, \
      "the client asked iperf 2.1's `-R`: the server sent (`reverse` still says whether the board sent)") \
    X(IPERF_METHOD_LENGTH_BYTES, "iperf.method.length_bytes", RS_NUM, \
      "`-l`, bytes") \
    X(IPERF_METHOD_OFFERED_BPS, "iperf.method.offered_bps", RS_NUM, \
      "UDP `-b` the client paced each stream to, bit/s (the diagnosis compares `streams` times it)") \
    X(IPERF_METHOD_SOCK_BUFSIZE, "iperf.method.sock_bufsize", RS_NUM, \
      "iperf3 `-w` it set (0: none), bytes") \
    X(IPERF_METHOD_SNDBUF_ACTUAL, "iperf.method.sndbuf_actual", RS_NUM, \
      "what the kernel gave the send socket, bytes") \
    X(IPERF_METHOD_RCVBUF_ACTUAL, "iperf.method.rcvbuf_actual", RS_NUM, \
      "what the kernel gave the receive socket, bytes") \
    X(IPERF_METHOD_WINDOW_BYTES, "iperf.method.window_bytes", RS_NUM, \
      "the window the tool set, bytes") \
    X(IPERF_METHOD_HOST_CPU_PCT, "iperf.method.host_cpu_pct", RS_NUM, \
      "iperf3 `end.cpu_utilization_percent.host_total`") \
    X(IPERF_METHOD_REMOTE_CPU_PCT, "iperf.method.remote_cpu_pct", RS_NUM, \
      "iperf3 `end.cpu_utilization_percent.remote_total`") \
    X(CAPTURE_FILE, "capture.file", RS_STR, \
      "`wire.pcapng`") \
    X(CAPTURE_FRAMES, "capture.frames", RS_NUM, \
      "frames in the capture") \
    X(CAPTURE_TRUNCATED, "capture.truncated", RS_BOOL, \
      "the capture reached its size cap (`max_bytes`, QEMU pcap-max-bytes): later frames are missing, its counts cover the start of the run") \
    X(CAPTURE_MAX_BYTES, "capture.max_bytes", RS_NUM, \
      "the capture's size cap, bytes") \
    X(CAPTURE_CRC_ERRORS, "capture.crc_errors", RS_NUM, \
      "frames flagged with an FCS error") \
    X(CAPTURE_CRC_ERRORS_OUT, "capture.crc_errors_out", RS_NUM, \
      "of `crc_errors`, the board's own frames: what the partner's receiver counts as CRC errors (`ethtool -S` rx_crc_errors on a PC)") \
    X(CAPTURE_TCP_SEGMENTS, "capture.tcp_segments", RS_NUM, \
      "TCP segments a tap at the board's end saw (not those the partner sent and the wire lost: the file has them with a `dropped:` comment)") \
    X(CAPTURE_TCP_RETRANSMITS, "capture.tcp_retransmits", RS_NUM, \
      "data segments sent again (bytes seen before, or a hole filled a round trip or more after the stream moved on)") \
    X(CAPTURE_TCP_SPURIOUS_RETRANSMITS, "capture.tcp_spurious_retransmits", RS_NUM, \
      "of those, bytes the receiver had already acknowledged, or whose original (numbered before the resend, from a sender that numbers in turn) arrived late beside it: its ACK was lost on the way, or duplicate ACKs from reordering or copies misled the sender") \
    X(CAPTURE_TCP_OUT_OF_ORDER, "capture.tcp_out_of_order", RS_NUM, \
      "data segments first seen after later ones: numbered (IPv4 identification) before the newest seen from a sender that numbers in turn, or, from one that does not, within a round trip and not drawn by duplicate ACKs: reordered on the path, not resent") \
    X(CAPTURE_TCP_DUPLICATES, "capture.tcp_duplicates", RS_NUM, \
      "IPv4 datagrams seen twice within a round trip (same identification, sequence and length): duplicated by the network") \
    X(CAPTURE_TCP_UNANSWERED, "capture.tcp_unanswered", RS_NUM, \
      "TCP segments carrying data that reached the board after the last TCP frame it sent: what it never answered") \
    X(CAPTURE_TCP_HOLE_AT_END_BYTES, "capture.tcp_hole_at_end_bytes", RS_NUM, \
      "a hole in the partner's data the board still acknowledged at the end (no segment covering it arrived), as the sequence space from it to the highest byte that arrived: lost on the path, never resent through") \
    X(CAPTURE_UDP_DATAGRAMS, "capture.udp_datagrams", RS_NUM, \
      "whole UDP datagrams the partner sent, as they arrived at the board's end") \
    X(CAPTURE_UDP_DUPLICATES, "capture.udp_duplicates", RS_NUM, \
      "of those, the same IPv4 identification and length again among the flow's last 64, from a sender that numbers in turn: the network's copies") \
    X(CAPTURE_UDP_OUT_OF_ORDER, "capture.udp_out_of_order", RS_NUM, \
      "of those, numbered before the newest seen from a sender that numbers in turn: reordered on the path") \
    X(CAPTURE_RTT_MIN_US, "capture.rtt_min_us", RS_NUM, \
      "the board's segment to the frame acking it (Karn), microseconds") \
    X(CAPTURE_RTT_SAMPLES, "capture.rtt_samples", RS_NUM, \
      "RTT samples") \
    X(CAPTURE_PATH_IN_PAIRS, "capture.path_in_pairs", RS_NUM, \
      "pairs of consecutive full-size frames (>= 1000 bytes) from the partner, each timed from the first to the second") \
    X(CAPTURE_PATH_IN_BPS, "capture.path_in_bps", RS_NUM, \
      "the 90th percentile of those pairs' rates (the second frame's bits on the wire over the time between them): the narrowest hop into the board, by packet dispersion; absent with no pair") \
    X(CAPTURE_TCP_FLOWS, "capture.tcp_flows", RS_TREE, \
      "per flow and direction: segments, bytes, retransmits (spurious), out of order, duplicates, windows, MSS, RTT") \
    X(SWEEP, "sweep", RS_TREE, \
      "a size sweep: `length_bytes`, `throughput_bps`, `udp_lost_pct` per size") \
    X(PARALLEL_SWEEP, "parallel_sweep", RS_TREE, \
      "a `-P` sweep: per stream count `parallel`, `throughput_bps`, `retransmits`, `udp_lost_pct`; Linux under `--net sim`: `cpu_busy_pct` and `cpu_softirq_pct` per core over that test") \
    X(FIRMWARE_STATS, "firmware_stats", RS_TREE, \
      "the board's last `stats` line as printed") \
    X(FIRMWARE_STATS_GEM_DRV_TX_RING_FULL, "firmware_stats.gem.drv.tx_ring_full", RS_NUM, \
      "the bare-metal driver found no free TX descriptor") \
    X(BASELINE_NAME, "baseline.name", RS_STR, \
      "the stored baseline compared against") \
    X(BASELINE_THROUGHPUT_BPS, "baseline.throughput_bps", RS_NUM, \
      "its median, bit/s") \
    X(BASELINE_TOLERANCE_PCT, "baseline.tolerance_pct", RS_NUM, \
      "its tolerance, percent") \
    X(BASELINE, "baseline", RS_TREE, \
      "the stored baseline's figures") \
    X(CONSOLE_TAIL, "console_tail", RS_ARR, \
      "the last 40 console lines, on failure") \
    X(CONSOLE_CAPPED, "console_capped", RS_TREE, \
      "counts of what the runner's caps left out")

enum rs_id {
#define RS_ENUM(id, path, type, doc) RS_##id,
    RESULTS_FIELDS(RS_ENUM)
#undef RS_ENUM
    RS_COUNT
};

struct rs_field {
    const char *path;
    enum rs_type type;
    const char *doc;
};

extern const struct rs_field rs_fields[RS_COUNT];

/* The dotted path of field @id, for the results readers. */
#define RS(id) (rs_fields[RS_##id].path)

/* The row of @path, or of the RS_TREE that holds it; NULL if neither. */
const struct rs_field *rs_lookup(const char *path);

/* The fields as a Markdown table (docs/schema.md). */
void rs_write_markdown(FILE *out);

#endif

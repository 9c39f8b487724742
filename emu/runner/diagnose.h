/*
 * diagnose.h - the layered rule engine behind `gemlab diagnose RUN_DIR`.
 *
 * Input is RUN_DIR/results.json (schema: emu/runner/RESULTS.md), read once
 * into struct dg_in; every rule is one row of a table (code, layer, test,
 * cause, remedy) evaluated in the order of field note 001 §5 (docs/SOURCES.md): physical, MAC/driver,
 * protocol, method, baseline.  A value missing from results.json is NAN
 * (numbers) or -1 (booleans) and a rule that needs it does not fire.
 *
 * Errors: 0 or a negative errno; messages go to the FILE * given.
 */
#ifndef GEMLAB_RUNNER_DIAGNOSE_H
#define GEMLAB_RUNNER_DIAGNOSE_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "codes.h"

#define DG_MAX_INTERVALS 4096     /* 1 s intervals of the longest test (3600 s) */
#define DG_MAX_SWEEP 16
#define DG_MAX_CPUS 4

/* Everything the rules look at.  Numbers are NAN when unknown, tri-state
 * booleans -1 when unknown.  Only evidence (emu/runner/RESULTS.md, "What
 * the diagnosis reads"): what the board's console, its PHY and GEM
 * registers, the guest and the iperf tools report.  Never "truth" (the
 * scenario as asked, the model's internals) nor "scenario". */
struct dg_in {
    /* the board (console banner, guest) and the bench */
    char firmware[16];            /* board.firmware: the ready line's src */
    double cpus;                  /* board.cpus: the guest's online CPUs */
    double rx_bds, tx_bds;        /* board.rx_bds/tx_bds: what the firmware armed */
    char phy_mode[16];            /* board.phy_mode: the guest's device tree; "" unknown */
    double board_max_speed_mbps;  /* the PHY's abilities (BMSR, extended status reg 15) */
    /* 1000BASE-T offered (IEEE 802.3 40.5.1.1): ours, 1000BASE-T control
     * (reg 9) bits 9:8; the partner's, 1000BASE-T status (reg 10) bits
     * 11:10.  1 offered, 0 not, NaN unknown */
    double adv_1000, lp_1000;
    /* the modes both pages offer (ANAR & LPA, reg 4 & reg 5 bits 9:5, and
     * reg 9 bits 9:8 & reg 10 bits 11:10), as link.advertised words'
     * bits: 1000FD 1000HD 100FD 100HD 10FD 10HD = bits 5..0; -1 unknown
     * (the partner's page not received: ANER bit 1 clear) */
    int common_modes, partner_modes, our_modes;
    int tcp_timestamps;           /* bench.tcp_timestamps */
    /* the tools' own reports of their method (iperf.method, board.iperf_server) */
    char tool[8], board_tool[8];  /* "iperf3"/"iperf2"; "" unknown */
    char tool_version[64];        /* the host tool's banner */
    bool udp;
    double parallel;              /* streams the tool ran */
    double window_bytes;          /* the -w the tool reports it set; NAN: none/unknown */
    int reverse;                  /* the tool's direction: 1 the board sends */
    int bidir;                    /* 1: both directions at once (iperf 2 -d, iperf3 --bidir); bps is their sum */
    double board_rcv_wnd;         /* board.tcp_wnd: what the board's stack advertises */
    double rtt_probe_us;          /* rtt.min_us: the runner's ping of the board */
    double rtt_probe_p50_us;      /* rtt.p50_us: that ping's median */
    double rtt_probe_sent, rtt_probe_received;  /* rtt.sent/received: that ping's count */
    double omit_s, duration_s;
    /* expectations that feed rules: the engineer's reference, not a fact */
    double reference_bps;
    double throughput_min_bps;
    /* link as firmware/agent saw it, and the PHY registers behind it */
    int link_up, full_duplex, downshift, partner_autoneg, local_autoneg;
    double speed_mbps, mac_speed_mbps, flaps;
    int rgmii_rx_delay, rgmii_tx_delay;   /* 88E1116R page 2 reg 21 bits 5/4 */
    int ssr_downshift;          /* 88E1116R reg 17 bit 5 (downshift status), -1 unknown */
    /* GEM counters */
    double rx_frames, tx_frames, fcs_errors, symbol_errors, length_errors;
    double rx_resource_errors, rx_overruns, collisions, late_collisions;
    double excessive_collisions;  /* frames given up after 16 attempts (0x140) */
    /* the sender's account of its transmit path (bare-metal `stats`, the
     * firmware iperf client's result line) */
    double tx_ring_full;          /* firmware_stats.gem.drv.tx_ring_full: no free TX descriptor */
    double sender_tx_errors;      /* iperf.sender_tx_errors: datagrams the client's stack refused */
    /* interrupts and CPU load (Linux agent) */
    double irq[DG_MAX_CPUS];
    int nirq;
    double cpu_busy[DG_MAX_CPUS];         /* per CPU, % busy during the test */
    double cpu_softirq[DG_MAX_CPUS];      /* per CPU, % of the test in softirq; NaN: not reported */
    int ncpu_busy;
    double cpu_window_s;                  /* cpu.window_s: the span the busy figures cover */
    /* traffic results */
    int iperf_ok;
    char iperf_error[256];
    double bps, retransmits, rtt_us, rtt_min_us, lost_pct, jitter_ms, tx_bps, rx_bps;
    double sent_bps;              /* iperf.sent_bps: the sender's own count */
    double offered_bps;           /* iperf.method.offered_bps: the -b the client paced to */
    double length_bytes;          /* iperf.method.length_bytes: the client's -l */
    /* the wire capture (capture.h): TCP segments retransmitted on the cable */
    double cap_retransmits;
    /* of cap_retransmits, bytes already acknowledged (spurious: nothing
     * was lost); reordered and network-copied segments, not resent */
    double cap_spurious, cap_out_of_order, cap_duplicates;
    double cap_tcp_segments, cap_udp_datagrams, cap_udp_duplicates, cap_udp_out_of_order;
    double cap_unanswered;      /* TCP data that reached the board after its last frame */
    double cap_crc_out;         /* the board's frames with a bad FCS on the wire */
    double cap_hole_bytes;      /* the partner's bytes above a hole never filled (capture.c) */
    int cap_truncated;          /* the capture reached its cap: 1, 0, -1 unknown */
    /* the receive windows the partner advertised to the board's data,
     * summed over the board's streams (capture.tcp_flows, peer_rwnd_max_bytes
     * where the handshake's window scale was seen); NaN none */
    double cap_partner_rwnd;
    double cap_board_rwnd;      /* the same, the board's to the partner's data */
    double cap_rtt_min_us;      /* minimum RTT measured at the board's end of the cable */
    /* the partner's full-size frames back to back at the board (capture.c,
     * packet dispersion): the narrowest hop's rate, from how many pairs */
    double cap_path_bps, cap_path_pairs;
    double intervals[DG_MAX_INTERVALS];
    int nintervals;
    double sweep_len[DG_MAX_SWEEP], sweep_bps[DG_MAX_SWEEP];
    int nsweep;
    /* baseline */
    double baseline_bps, baseline_tol_pct;
    char baseline_name[64];
};

struct dg_finding {
    enum dg_code code;
    char summary[200];     /* one line with the key numbers */
    cJSON *evidence;       /* object of named numbers (owned) */
    const char *cause;     /* static text from the rule table */
    const char *remedy;
    const char *source;    /* seed reference, see docs/SOURCES.md */
};

struct dg_report {
    struct dg_finding f[DG_NCODES];
    int n;
};

/* Fill @in from a parsed results.json.  Never fails: absent or mistyped
 * members are left unknown.  Reads no member under "truth" or "scenario". */
void dg_in_from_json(const cJSON *root, struct dg_in *in);

/* Run every rule over @in.  The report owns its evidence objects. */
void dg_run(const struct dg_in *in, struct dg_report *rep);
void dg_report_free(struct dg_report *rep);
bool dg_report_has(const struct dg_report *rep, enum dg_code c);

/* TCP/UDP goodput ceiling at @speed_mbps for MTU 1500 (IEEE 802.3 clauses 3 and 4:
 * 1538 byte times per 1500-byte payload; RFC 7323 options take 12 bytes):
 * TCP 1448/1538 with timestamps, 1460/1538 without; UDP 1472/1538. */
double dg_ceiling_bps(double speed_mbps, bool udp, bool timestamps);
#define DG_WIRE_OVERHEAD 38     /* preamble+SFD, MAC header, FCS, IFG */
#define DG_IP_MTU 1500
#define DG_IPV4_HDR 20
#define DG_UDP_HDR 8
#define DG_MIN_IP_PACKET 46     /* 64-byte minimum frame less header and FCS */
/* UDP goodput ceiling for @len-byte datagrams at @speed_mbps, with IP
 * fragmentation and the minimum frame; *frags and *wire (bytes on the
 * wire per datagram) when not NULL. */
double dg_udp_ceiling_bps(double speed_mbps, double len, int *frags, double *wire);

/* Human text, grouped by layer. */
void dg_print(FILE *out, const struct dg_report *rep);
/* {"schema": "gemlab-diagnosis-1", "findings": [...]} (caller frees). */
cJSON *dg_to_json(const struct dg_report *rep);

/* Check results.json's "expect" block (speed, duplex, link, throughput,
 * loss, jitter, retransmits, diag, diag_absent) against @root and @rep.
 * Writes one line per failed expectation to @out (may be NULL) and
 * returns the number of failures; fills @checks with how many were tried. */
int dg_check_expect(const cJSON *root, const struct dg_report *rep, FILE *out, int *checks);

/* Remove "scenario" and "truth" from a results.json tree (`--blind`). */
void dg_make_blind(cJSON *root);

/* Read RUN_DIR/results.json, diagnose, print, write RUN_DIR/diagnosis.json.
 * Returns 0, or a negative errno with a message on @err.  *@failed gets
 * the number of failed expectations. */
int dg_diagnose_dir(const char *run_dir, FILE *out, FILE *err, int *failed);
/* The same with @baseline ({name, throughput_bps, tolerance_pct}, may be
 * NULL) in place of results.json's "baseline" member. */
int dg_diagnose_dir_baseline(const char *run_dir, const cJSON *baseline, FILE *out, FILE *err, int *failed);
/* The same; with @blind, "scenario" and "truth" are removed first
 * (dg_make_blind) and the findings go to RUN_DIR/diagnosis-blind.json. */
int dg_diagnose_dir_opts(const char *run_dir, const cJSON *baseline, bool blind, FILE *out, FILE *err,
                         int *failed);

/* Read a whole JSON file (at most 64 MiB) into a cJSON tree. */
int dg_load_json(const char *path, cJSON **root, FILE *err);
/* The same for a run's results.json: its "schema" must be
 * gemlab-results-1 or gemlab-results-2 (emu/runner/RESULTS.md), else
 * -EINVAL with the path and what the file holds instead. */
int dg_load_results(const char *path, cJSON **root, FILE *err);

#endif

/*
 * link_props.h - the properties of a gemlab link, described once.
 *
 * A link is the 88E1116R PHY model, its partner and the impaired wire
 * (phy.h, wire.h) between a GEM and its peer.  In QEMU it is the
 * gemlab-link object, each GEM's child (emu/qemu/hw/net/gemlab/
 * gemlab_props.c makes one QOM property of each row below).  The runner
 * names the same properties from here: its scenario keys
 * (emu/runner/link_keys.h, checked against these rows by
 * tests/unit/runner_scenario) and the state and counters it records in
 * results.json (emu/runner/qom.c).  Only names, fields and texts live
 * here; the values' rules are the models' validators.
 *
 * Types (T): U64, U32 (a uint32_t field), UINT (an unsigned int field),
 * BOOL, DOUBLE, STR, and the model's own words ABIL (abilities list),
 * MS (master/slave preference), JITTER (jitter distribution), LOSS
 * (a loss model: several fields).
 */
#ifndef GEMLAB_LINK_PROPS_H
#define GEMLAB_LINK_PROPS_H

/*
 * Settable, one field each: X(name, struct, field, T, description).
 * struct: PHY = struct gl_phy_params (acts from the next PHY reset),
 * PARTNER = its partner (changing one renegotiates).
 */
#define GL_LINK_PHY_PROPS(X) \
    X("aneg-ns", PHY, aneg_ns, U64, \
      "autonegotiation (FLP exchange) time, ns") \
    X("train-1000-ns", PHY, train_1000_ns, U64, \
      "extra 1000BASE-T training time, ns") \
    X("phy-rev", PHY, phy_rev, UINT, "PHYID2 revision") \
    X("downshift", PHY, downshift_enable, BOOL, \
      "88E1116R downshift enable at PHY reset") \
    X("downshift-attempts", PHY, downshift_attempts, UINT, \
      "1000BASE-T attempts before downshifting") \
    X("phy-seed", PHY, seed, U64, "PHY PRNG seed") \
    X("max-speed", PHY, max_speed_mbps, UINT, \
      "the PHY's top speed: 1000, or 100 for a 10/100 PHY") \
    X("rgmii-timing", PHY, rgmii_timing, BOOL, \
      "model the RGMII clock delays (off: every frame crosses intact)") \
    X("rgmii-pcb-rx-delay", PHY, pcb_rx_delay, BOOL, \
      "the board's traces delay RXC (RGMII v2.0 3.3)") \
    X("rgmii-pcb-tx-delay", PHY, pcb_tx_delay, BOOL, \
      "the board's traces delay TXC (RGMII v2.0 3.3)") \
    X("partner-autoneg", PARTNER, autoneg, BOOL, \
      "link partner autonegotiates") \
    X("partner-abilities", PARTNER, abilities, ABIL, \
      "partner advertisement, e.g. 10HD,100FD,1000FD,PAUSE") \
    X("partner-speed", PARTNER, forced_speed_mbps, UINT, \
      "forced partner speed (10 or 100) when partner-autoneg=off") \
    X("partner-full-duplex", PARTNER, forced_full_duplex, BOOL, \
      "forced partner duplex") \
    X("partner-ms", PARTNER, ms, MS, \
      "partner 1000BASE-T master/slave: prefer-slave, prefer-master, " \
      "master, slave")

/*
 * The wire's fields (struct gl_wire_params): X(name, field, T,
 * description).  Each is three properties: GL_LINK_WIRE_BOTH NAME (both
 * directions), GL_LINK_WIRE_TX NAME (GEM -> partner) and GL_LINK_WIRE_RX
 * NAME (partner -> GEM).  LOSS sets several fields (wire.h
 * gl_wire_parse_loss).
 */
#define GL_LINK_WIRE_BOTH "wire-"
#define GL_LINK_WIRE_TX "tx-"
#define GL_LINK_WIRE_RX "rx-"
#define GL_LINK_WIRE_FIELDS(X) \
    X("latency-ns", latency_ns, U64, "propagation delay, ns") \
    X("jitter-ns", jitter_ns, U64, "jitter sigma, ns") \
    X("jitter-dist", jitter_dist, JITTER, \
      "jitter distribution: uniform, normal, pareto, paretonormal") \
    X("jitter-reorders", jitter_reorders, BOOL, "jitter may reorder") \
    X("rate-bps", rate_bps, U64, "rate cap, bit/s (0: line rate)") \
    X("queue-frames", queue_frames, U32, "rate-cap queue, frames") \
    X("queue-bytes", queue_bytes, U32, "rate-cap queue, on-wire bytes") \
    X("loss", loss_model, LOSS, \
      "loss model: none | PCT | gemodel P R 1-H 1-K | state P13 P31 ...") \
    X("loss-pct", loss_pct, DOUBLE, "random loss, percent") \
    X("dup-pct", dup_pct, DOUBLE, "duplication, percent") \
    X("corrupt-pct", corrupt_pct, DOUBLE, "FCS corruption, percent") \
    X("reorder-pct", reorder_pct, DOUBLE, \
      "reordering, percent (needs latency)") \
    X("reorder-gap", reorder_gap, U32, "netem reorder gap") \
    X("skew-crc-pct", skew_crc_pct, DOUBLE, \
      "FCS errors at 1000 Mb/s while the RGMII delay is wrong, %")

/*
 * Settable, with a behaviour of their own (QEMU: a getter and setter
 * named after ident): X(name, ident, T, description).
 */
#define GL_LINK_CONTROL_PROPS(X) \
    X("cable", cable, STR, "none | 4pair | 2pair (re-plugging renegotiates)") \
    X("link", link, BOOL, \
      "off forces the cable's line down (as QMP set_link)") \
    X("phy-loopback", phy_loopback, BOOL, \
      "BMCR loopback bit, as firmware sets it over MDIO (run time only)") \
    X("rx-backpressure", rx_backpressure, BOOL, \
      "on: stock QEMU (hold RX frames while no descriptor is free); " \
      "off: drop them and count, as silicon does") \
    X("rx-starve-ns", rx_starve_ns, U64, \
      "RX descriptor starvation burst: for this many ns from now no RX " \
      "descriptor is free (frames dropped, 0x1A0 counted); 0 ends it") \
    X("pcap", pcap, STR, \
      "pcapng file of what crossed the wire, after impairments " \
      "(created: it must not exist)") \
    X("pcap-max-bytes", pcap_max, U64, \
      "size cap of the pcap file; frames past it are not captured " \
      "(default 1 GiB)") \
    X("pcap-snaplen", pcap_snaplen, U32, \
      "bytes kept of each captured frame, as tcpdump -s (default 65535: " \
      "whole frames; 64 at least); read when the pcap is opened") \
    X("wire-seed", wire_seed, U64, \
      "wire PRNG seed (before the GEM realizes only)")

/* Read-only link state: X(name, what, T); what names it for the getter. */
#define GL_LINK_STATE_PROPS(X) \
    X("phy-state", state, STR) \
    X("link-up", up, BOOL) \
    X("link-speed", speed, U32) \
    X("link-full-duplex", full_duplex, BOOL) \
    X("link-master", master, BOOL) \
    X("link-downshifted", downshifted, BOOL) \
    X("link-changes", changes, U32) \
    X("mac-matches-phy", mac_matches, BOOL)

/*
 * Counters no GEM register holds: X(name, field), all uint64, fields of
 * the GEM glue's counters (QEMU: GemlabCounters).
 */
#define GL_LINK_COUNTERS(X) \
    X("stat-rx-resource-drops", rx_resource_drops) \
    X("stat-rx-fcs-drops", rx_fcs_drops) \
    X("stat-rx-csum-drops", rx_csum_drops) \
    X("stat-rx-mismatch-drops", rx_mismatch_drops) \
    X("stat-tx-mismatch-drops", tx_mismatch_drops) \
    X("stat-tx-partner-fcs-drops", tx_partner_fcs_drops) \
    X("stat-tx-frames", tx_frames) \
    X("stat-rx-starve-drops", rx_starve_drops) \
    X("stat-rx-disabled-drops", rx_disabled_drops) \
    X("stat-rx-queue-drops", rx_queue_drops) \
    X("stat-rx-runt-drops", rx_runt_drops)

/*
 * The wire's counters (struct gl_wire_counters): X(name, field), all
 * uint64.  Each is two properties, GL_LINK_WIRE_CNT_TX NAME and
 * GL_LINK_WIRE_CNT_RX NAME.
 */
#define GL_LINK_WIRE_CNT_TX "stat-tx-wire-"
#define GL_LINK_WIRE_CNT_RX "stat-rx-wire-"
#define GL_LINK_WIRE_COUNTERS(X) \
    X("sent", sent) \
    X("delivered", delivered) \
    X("dropped-link-down", dropped_link_down) \
    X("dropped-queue", dropped_queue) \
    X("dropped-loss", dropped_loss) \
    X("duplicated", duplicated) \
    X("reordered", reordered) \
    X("corrupted", corrupted) \
    X("fcs-errors", fcs_errors) \
    X("in-flight", in_flight) \
    X("dropped-collision", dropped_collision) \
    X("collisions", collisions) \
    X("late-collisions", late_collisions) \
    X("deferred", deferred) \
    X("dropped-store", dropped_store)

#endif

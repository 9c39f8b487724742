/*
 * link_keys.h - every [link] key of a scenario, described once.
 *
 * One row gives what each layer needs to know about the key:
 *  - the scenario file: its word, value type, bounds (in the stored unit:
 *    ns, bit/s, percent) and default text (scenario.c's keydefs);
 *  - QEMU: the property of our GEM's link model that takes it (a row of
 *    models/include/gemlab/link_props.h, of which QEMU's gemlab-link
 *    object is made; tests/unit/runner_scenario checks each name there),
 *    a second one for the seed, and how the value is written there
 *    (qemu.c: -global and qom-set);
 *  - the models: the parameter it sets (model_glue.c, so a scenario is
 *    judged by the validators QEMU's properties use;
 *    models/include/gemlab/{phy,wire}.h).
 *
 * X(A, ID, word, type, min, max, enum words, default,
 *   property, second property, QOM value, model struct, model field, into the model)
 *
 * A is passed through untouched, for a row macro that forwards to another
 * (scenario.h builds its key list that way).
 *
 * QOM values (qemu.c): LQ_U64 the integer; LQ_RATE bit/s as an integer;
 * LQ_DOUBLE the number; LQ_BOOL on/off; LQ_ENUM_NUM the enum word as a
 * number (partner-speed 100); LQ_FULL_DUPLEX the duplex word as a boolean
 * (partner-full-duplex); LQ_TEXT the scenario's text.
 * Model structs (model_glue.c): PHY = struct gl_phy_params, PARTNER = its
 * partner (struct gl_phy_partner), WIRE = struct gl_wire_params.  Into the
 * model: U, D, B (the value), RATE (bit/s to uint64), ENUM_NUM, FULL
 * (duplex word "full"), and the model's own parsers ABIL, CABLE, MS,
 * LOSS (several fields), JDIST.
 */
#ifndef GEMLAB_RUNNER_LINK_KEYS_H
#define GEMLAB_RUNNER_LINK_KEYS_H

#define LINK_KEYS(X, A) \
    X(A, PARTNER, "partner", T_ABIL, 0, 0, NULL, NULL, \
      "partner-abilities", NULL, LQ_TEXT, PARTNER, abilities, ABIL) \
    X(A, PARTNER_AUTONEG, "partner_autoneg", T_BOOL, 0, 0, NULL, "on", \
      "partner-autoneg", NULL, LQ_BOOL, PARTNER, autoneg, B) \
    X(A, PARTNER_SPEED, "partner_speed", T_ENUM, 0, 0, e_speed, NULL, \
      "partner-speed", NULL, LQ_ENUM_NUM, PARTNER, forced_speed_mbps, ENUM_NUM) \
    X(A, PARTNER_DUPLEX, "partner_duplex", T_ENUM, 0, 0, e_duplex, NULL, \
      "partner-full-duplex", NULL, LQ_FULL_DUPLEX, PARTNER, forced_full_duplex, FULL) \
    X(A, CABLE, "cable", T_CABLE, 0, 0, NULL, NULL, \
      "cable", NULL, LQ_TEXT, PHY, cable, CABLE) \
    X(A, DOWNSHIFT, "downshift", T_BOOL, 0, 0, NULL, NULL, \
      "downshift", NULL, LQ_BOOL, PHY, downshift_enable, B) \
    X(A, DOWNSHIFT_ATTEMPTS, "downshift_attempts", T_COUNT, 1, 8, NULL, NULL, \
      "downshift-attempts", NULL, LQ_U64, PHY, downshift_attempts, U) \
    X(A, ANEG_TIME, "aneg_time", T_TIME, 0, 10e9, NULL, NULL, \
      "aneg-ns", NULL, LQ_U64, PHY, aneg_ns, U) \
    X(A, LOSS, "loss", T_LOSS, 0, 0, NULL, NULL, \
      "wire-loss", NULL, LQ_TEXT, WIRE, loss_model, LOSS) \
    X(A, LATENCY, "latency", T_TIME, 0, 10e9, NULL, NULL, \
      "wire-latency-ns", NULL, LQ_U64, WIRE, latency_ns, U) \
    X(A, JITTER, "jitter", T_TIME, 0, 1e9, NULL, NULL, \
      "wire-jitter-ns", NULL, LQ_U64, WIRE, jitter_ns, U) \
    X(A, DUPLICATE, "duplicate", T_PCT, 0, 100, NULL, NULL, \
      "wire-dup-pct", NULL, LQ_DOUBLE, WIRE, dup_pct, D) \
    X(A, CORRUPT, "corrupt", T_PCT, 0, 100, NULL, NULL, \
      "wire-corrupt-pct", NULL, LQ_DOUBLE, WIRE, corrupt_pct, D) \
    X(A, REORDER, "reorder", T_PCT, 0, 100, NULL, NULL, \
      "wire-reorder-pct", NULL, LQ_DOUBLE, WIRE, reorder_pct, D) \
    X(A, RATE, "rate", T_RATE, 1e3, 1e10, NULL, NULL, \
      "wire-rate-bps", NULL, LQ_RATE, WIRE, rate_bps, RATE) \
    X(A, RGMII_SKEW, "rgmii_skew", T_PCT, 0, 100, NULL, NULL, \
      "wire-skew-crc-pct", NULL, LQ_DOUBLE, WIRE, skew_crc_pct, D) \
    X(A, JITTER_DIST, "jitter_dist", T_JDIST, 0, 0, NULL, NULL, \
      "wire-jitter-dist", NULL, LQ_TEXT, WIRE, jitter_dist, JDIST) \
    X(A, JITTER_REORDERS, "jitter_reorders", T_BOOL, 0, 0, NULL, NULL, \
      "wire-jitter-reorders", NULL, LQ_BOOL, WIRE, jitter_reorders, B) \
    X(A, REORDER_GAP, "reorder_gap", T_COUNT, 1, 1e9, NULL, NULL, \
      "wire-reorder-gap", NULL, LQ_U64, WIRE, reorder_gap, U) \
    X(A, QUEUE_FRAMES, "queue_frames", T_COUNT, 1, 1e9, NULL, NULL, \
      "wire-queue-frames", NULL, LQ_U64, WIRE, queue_frames, U) \
    X(A, PARTNER_MS, "partner_ms", T_MS, 0, 0, NULL, NULL, \
      "partner-ms", NULL, LQ_TEXT, PARTNER, ms, MS) \
    X(A, SEED, "seed", T_COUNT, 0, 18446744073709551615.0, NULL, "1", \
      "wire-seed", "phy-seed", LQ_U64, PHY, seed, U)

/* How a [link] value is written to its QOM property (qemu.c). */
enum link_qom_value {
    LQ_U64, LQ_RATE, LQ_DOUBLE, LQ_BOOL, LQ_ENUM_NUM, LQ_FULL_DUPLEX, LQ_TEXT,
};

#endif

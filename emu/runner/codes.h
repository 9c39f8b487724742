/*
 * codes.h - every diagnosis code, its layer, in the order of the
 * troubleshooting chain of field note 001 §5 (docs/SOURCES.md): physical -> MAC/driver -> protocol -> method -> baseline.
 * Scenario [expect] diag= lines are validated against this list, so a
 * scenario cannot expect a code the engine never produces.
 */
#ifndef GEMLAB_RUNNER_CODES_H
#define GEMLAB_RUNNER_CODES_H

#define DG_CODES(X)                                   \
    X(PHY_NO_LINK,                    PHYSICAL)       \
    X(PHY_SPEED_BELOW_EXPECTED,       PHYSICAL)       \
    X(PHY_DOWNSHIFT,                  PHYSICAL)       \
    X(PHY_LINK_FLAPS,                 PHYSICAL)       \
    X(PHY_FCS_ERRORS,                 PHYSICAL)       \
    X(PHY_DUPLEX_MISMATCH,            PHYSICAL)       \
    X(PHY_RGMII_DELAY,                PHYSICAL)       \
    X(MAC_SPEED_MISMATCH,             MAC)            \
    X(MAC_RX_RESOURCE_ERRORS,         MAC)            \
    X(MAC_RX_STALL,                   MAC)            \
    X(MAC_NO_RX_FRAMES,               MAC)            \
    X(MAC_IRQ_SINGLE_CPU,             MAC)            \
    X(MAC_TX_RX_ASYMMETRY,            MAC)            \
    X(MAC_TX_RING_FULL,               MAC)            \
    X(MAC_TX_CPU_LIMIT,               MAC)            \
    X(MAC_PPS_LIMIT,                  MAC)            \
    X(PROTO_WINDOW_LIMITED,           PROTOCOL)       \
    X(PROTO_RETRANSMITS,              PROTOCOL)       \
    X(PROTO_UDP_LOSS,                 PROTOCOL)       \
    X(PROTO_UDP_JITTER,               PROTOCOL)       \
    X(PROTO_REORDERING,               PROTOCOL)       \
    X(PROTO_DUPLICATES,               PROTOCOL)       \
    X(PROTO_PATH_BOTTLENECK,          PROTOCOL)       \
    X(PROTO_CPU_LIMIT,                PROTOCOL)       \
    X(METHOD_SINGLE_STREAM,           METHOD)         \
    X(METHOD_IPERF_VERSION_MISMATCH,  METHOD)         \
    X(METHOD_WINDOW_BELOW_BDP,        METHOD)         \
    X(METHOD_NO_OMIT,                 METHOD)         \
    X(METHOD_WRONG_REFERENCE,         METHOD)         \
    X(BASELINE_REGRESSION,            BASELINE)

enum dg_layer {
    DG_LAYER_PHYSICAL,
    DG_LAYER_MAC,
    DG_LAYER_PROTOCOL,
    DG_LAYER_METHOD,
    DG_LAYER_BASELINE,
};

enum dg_code {
#define DG_ENUM(name, layer) DG_##name,
    DG_CODES(DG_ENUM)
#undef DG_ENUM
    DG_NCODES
};

/* "PHY_DOWNSHIFT" for DG_PHY_DOWNSHIFT; NULL when out of range. */
const char *dg_code_name(enum dg_code c);
/* The code for @name, or -1 when unknown. */
int dg_code_lookup(const char *name);
enum dg_layer dg_code_layer(enum dg_code c);
/* "physical", "mac", "protocol", "method", "baseline" */
const char *dg_layer_name(enum dg_layer l);

#endif

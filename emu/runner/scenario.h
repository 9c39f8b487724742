/*
 * scenario.h - scenario files (scenarios/NAME.ini, format in scenarios/README.md).
 *
 * The format is table-driven: every key has one row (section, name, type,
 * range, default) in scenario.c, and every consumer reads values through
 * the SK_* ids below.  Loading validates everything once; a loaded
 * scenario is always within range.
 *
 * Errors: scn_load() returns 0 or a negative errno, and writes one line per
 * problem, "FILE:LINE: [section] key: message", to the FILE * it is given
 * (all problems, not just the first; capped at SCN_MAX_ERRORS).
 */
#ifndef GEMLAB_RUNNER_SCENARIO_H
#define GEMLAB_RUNNER_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "codes.h"
#include "link_keys.h"

#define SCN_STR_MAX 192
#define SCN_NAME_MAX 63     /* [scenario] name, or the file's name without .ini */
#define SCN_MAX_EVENTS 64
/* link changes, sets and commands a timeline expands to (a flap is two
 * per count): the runner applies this many, and the check refuses more */
#define SCN_MAX_STEPS 2046
#define SCN_MAX_FW_CMDS 16
#define SCN_MAX_CONTROL 16      /* [control] unset / set entries */
#define SCN_MAX_SWEEP 16
#define SCN_MAX_ERRORS 100
#define SCN_MAX_FILE_BYTES (256 * 1024)

/* A [link] row of link_keys.h as a key of the list below. */
#define SCN_LINK_KEY(X, id, word, ...) X(LINK_##id, "link", word)

/* X(id, section, name) - the type/range/default live in scenario.c, the
 * [link] keys' in link_keys.h */
#define SCN_KEYS(X)                                  \
    X(SCENARIO_NAME, "scenario", "name")             \
    X(SCENARIO_DESCRIPTION, "scenario", "description") \
    X(SCENARIO_SOURCE, "scenario", "source")         \
    X(SCENARIO_TODO, "scenario", "todo")             \
    X(BOARD_FIRMWARE, "board", "firmware")           \
    X(BOARD_PROFILE, "board", "profile")             \
    X(BOARD_CPUS, "board", "cpus")                   \
    X(BOARD_RX_BDS, "board", "rx_bds")               \
    X(BOARD_TX_BDS, "board", "tx_bds")               \
    X(BOARD_PBUFS, "board", "pbufs")                 \
    X(BOARD_IRQ_AFFINITY, "board", "irq_affinity")   \
    X(BOARD_MAC_SPEED, "board", "mac_speed")         \
    X(BOARD_PHY_MODE, "board", "phy_mode")           \
    X(BOARD_PEER, "board", "peer")                   \
    X(BOARD_ADVERTISE, "board", "advertise")         \
    X(BOARD_CLOCK, "board", "clock")                 \
    X(BOARD_MIPS, "board", "mips")                   \
    X(BOARD_QUANTUM, "board", "quantum")             \
    X(BOARD_DMA_LINE, "board", "dma_line")           \
    LINK_KEYS(SCN_LINK_KEY, X)                       \
    X(TIMELINE_AT, "timeline", "at")                 \
    X(TRAFFIC_TOOL, "traffic", "tool")               \
    X(TRAFFIC_BOARD_TOOL, "traffic", "board_tool")   \
    X(TRAFFIC_PROTOCOL, "traffic", "protocol")       \
    X(TRAFFIC_PARALLEL, "traffic", "parallel")       \
    X(TRAFFIC_REVERSE, "traffic", "reverse")         \
    X(TRAFFIC_BIDIR, "traffic", "bidir")             \
    X(TRAFFIC_CLIENT, "traffic", "client")           \
    X(TRAFFIC_BANDWIDTH, "traffic", "bandwidth")     \
    X(TRAFFIC_WINDOW, "traffic", "window")           \
    X(TRAFFIC_LENGTH, "traffic", "length")           \
    X(TRAFFIC_OMIT, "traffic", "omit")               \
    X(TRAFFIC_DURATION, "traffic", "duration")       \
    X(TRAFFIC_INTERVAL, "traffic", "interval")       \
    X(TRAFFIC_SWEEP, "traffic", "sweep")             \
    X(TRAFFIC_PARALLEL_SWEEP, "traffic", "parallel_sweep") \
    X(TRAFFIC_FW_CMD, "traffic", "fw_cmd")           \
    X(EXPECT_LINK, "expect", "link")                 \
    X(EXPECT_SPEED, "expect", "speed")               \
    X(EXPECT_DUPLEX, "expect", "duplex")             \
    X(EXPECT_THROUGHPUT_MIN, "expect", "throughput_min") \
    X(EXPECT_THROUGHPUT_MAX, "expect", "throughput_max") \
    X(EXPECT_REFERENCE, "expect", "reference")       \
    X(EXPECT_LOSS_MIN, "expect", "loss_min")         \
    X(EXPECT_LOSS_MAX, "expect", "loss_max")         \
    X(EXPECT_RETRANSMITS_MAX, "expect", "retransmits_max") \
    X(EXPECT_FLAPS, "expect", "flaps")               \
    X(EXPECT_JITTER_MAX, "expect", "jitter_max")     \
    X(EXPECT_DIAG, "expect", "diag")                 \
    X(EXPECT_DIAG_ABSENT, "expect", "diag_absent")                                    \
    X(EXPECT_TRAFFIC, "expect", "traffic")

enum scn_key {
#define SCN_ENUM(id, sec, name) SK_##id,
    SCN_KEYS(SCN_ENUM)
#undef SCN_ENUM
    SK_COUNT
};

/* One value.  Which member is meaningful depends on the key's type:
 * u = counts, bytes, nanoseconds; d = bits/s, percent; e = index into the
 * key's enum list (scn_enum_str() gives the word); b = booleans; s = text. */
struct scn_val {
    bool set;           /* given in the file (else the default) */
    int line;           /* where it was given; 0 for defaults */
    uint64_t u;
    double d;
    int e;
    bool b;
    char s[SCN_STR_MAX];
};

enum scn_action {
    SCN_ACT_LINK_DOWN,
    SCN_ACT_LINK_UP,
    SCN_ACT_FLAP,        /* down for dur_ns, count times, every period_ns */
    SCN_ACT_SET,         /* a [link] key to a new value */
    SCN_ACT_RESTART_ANEG,
    SCN_ACT_STARVE_RX,   /* stop RX buffer refill for dur_ns */
    SCN_ACT_FW,          /* a firmware command line (text) */
};

struct scn_event {
    uint64_t t_ns;       /* after traffic start */
    enum scn_action act;
    enum scn_key key;    /* SCN_ACT_SET */
    struct scn_val val;  /* SCN_ACT_SET */
    uint64_t dur_ns;     /* FLAP, STARVE_RX */
    unsigned count;      /* FLAP */
    uint64_t period_ns;  /* FLAP */
    char text[SCN_STR_MAX]; /* FW command, or the original event text */
    int line;
};

struct scenario {
    char path[512];
    struct scn_val v[SK_COUNT];
    struct scn_event events[SCN_MAX_EVENTS];
    unsigned nevents;
    char fw_cmds[SCN_MAX_FW_CMDS][SCN_STR_MAX];
    int fw_cmd_line[SCN_MAX_FW_CMDS];   /* each one's line in the file */
    unsigned nfw_cmds;
    uint64_t sweep[SCN_MAX_SWEEP];
    unsigned nsweep;
    unsigned psweep[SCN_MAX_SWEEP]; /* parallel_sweep: -P of each test */
    unsigned npsweep;
    bool diag[DG_NCODES];        /* must appear */
    bool diag_absent[DG_NCODES]; /* must not appear */
    /* [control]: how the negative control differs (scn_make_control) */
    int control_line;            /* the [control] header, 0 when none */
    int ctl_unset[SCN_MAX_CONTROL];   /* keys back to their default; -1: all of [timeline] */
    int ctl_unset_line[SCN_MAX_CONTROL];   /* each one's line */
    unsigned nctl_unset;
    struct { int key; struct scn_val val; int line; } ctl_set[SCN_MAX_CONTROL];
    unsigned nctl_set;
    struct scn_val ctl_todo;     /* [control] todo: the control is a known gap */
};

/* Fill @s with every default (name from the file name when given). */
void scn_init(struct scenario *s, const char *path);

/* Load and validate @path into @s.  Returns 0, or -EINVAL when the file
 * has errors (each written to @errs), or -errno when it cannot be read. */
int scn_load(const char *path, struct scenario *s, FILE *errs);

/* The negative control of @s (its [control] section) into @out: the same
 * scenario with the keys listed in `unset` back at their defaults (`unset
 * = timeline` drops every event) and the `set` values applied; its [expect]
 * holds only diag_absent = @s's diag codes; its name gets "_control"; its
 * [scenario] todo is the [control] todo (a known gap of the control only).
 * 0, or -EINVAL (no [control] section, or the result fails the scenario's
 * cross-checks; messages on @errs naming the file and line). */
int scn_make_control(const struct scenario *s, struct scenario *out, FILE *errs);
/* The checks across keys again, on a scenario the command line changed
 * after it was loaded (--clock, --firmware): each error names the key's
 * file:line, then "not a valid scenario WHY".  0 or -EINVAL. */
int scn_recheck(struct scenario *s, const char *why, FILE *errs);

/* Same for an in-memory text; @name is used in messages. */
int scn_load_string(const char *name, const char *text, struct scenario *s, FILE *errs);

/* The enum word of an enum-typed key ("linux" for BOARD_FIRMWARE). */
const char *scn_enum_str(const struct scenario *s, enum scn_key k);
/* The iperf the board runs / the host runs, "auto" resolved: bare-metal
 * (lwiperf) speaks iperf 2, the Linux agent iperf3; the host follows the
 * board unless [traffic] tool says otherwise. */
const char *scn_board_tool(const struct scenario *s);

/* [board] profile: the board around the GEM, as the PHY model takes it. */
struct scn_board_profile {
    const char *name;              /* the [board] profile word */
    const char *what;
    unsigned phy_max_speed_mbps;   /* 1000, or 100: a PHY without 1000BASE-T */
    bool pcb_rx_delay, pcb_tx_delay; /* RGMII clock delays the traces add */
    /* virtual time: guest instructions per virtual microsecond when
     * [board] mips is not given (-icount mips=).  500 for the 667 MHz
     * Cortex-A9: the speed at which the bare-metal UDP figures meet
     * docs/SOURCES.md 003 §2.3 (docs/CALIBRATION.md "The profile's
     * defaults"). */
    unsigned mips;
};
const struct scn_board_profile *scn_board_profile(const struct scenario *s);
/* [board] mips, else the profile's default (scn_board_profile()->mips). */
unsigned scn_board_mips(const struct scenario *s);
/* Parallel virtual time (-icount quantum=, our QEMU patch 0045): the round
 * of the vCPUs in ns, [board] quantum, else SCN_QUANTUM_DEFAULT_NS with
 * cpus = 2; 0 with one CPU (no rounds: one count, as before the patch). */
#define SCN_QUANTUM_DEFAULT_NS 10000ull
unsigned long long scn_board_quantum_ns(const struct scenario *s);
/* [board] dma_line in ns (QEMU patch 0046); 0 when unset */
unsigned long long scn_board_dma_line_ns(const struct scenario *s);
/* [board] clock = virtual (the runner's --clock has already been folded in). */
bool scn_clock_virtual(const struct scenario *s);
const char *scn_host_tool(const struct scenario *s);
/* Against the in-emulator peer: whether the board runs the iperf client
 * ([traffic] client; auto: the sending end is the client).  When it
 * differs from reverse the client asks iperf 2.1's -R. */
bool scn_board_client(const struct scenario *s);
/* Whether that client asks iperf 2.1's -R: it is not the sending end. */
bool scn_iperf_reverse(const struct scenario *s);
/* The word for enum index @e of key @k, or NULL. */
const char *scn_enum_word(enum scn_key k, int e);
/* The numeric value of enum keys whose words are numbers (speeds): 0 if none. */
unsigned scn_enum_num(const struct scenario *s, enum scn_key k);
const char *scn_key_section(enum scn_key k);
const char *scn_key_name(enum scn_key k);

/* Write a canonical rendering of a value ("2500000ns" style is avoided:
 * times as "2.5s", rates in bit/s) into @buf. */
void scn_format_value(const struct scenario *s, enum scn_key k,
                      const struct scn_val *v, char *buf, size_t len);

/* Every key (given or default) as JSON, grouped by section; numbers carry
 * the stored unit (ns, bit/s, bytes, percent).  Caller frees. */
struct cJSON;
struct cJSON *scn_to_json(const struct scenario *s);

/* [board] advertise as the command that applies it: bare-metal
 * "phy advertise 1000FD,100FD,..." (firmware/baremetal/apps/shell), Linux
 * "advertise 0xMASK" (the agent runs `ethtool -s eth0 advertise 0xMASK`,
 * ethtool(8) ADVERTISED_* bits).  Returns 1 with @buf filled, 0 when the
 * key is not set. */
int scn_advertise_cmd(const struct scenario *s, char *buf, size_t len);
/* True when a firmware/agent command restarts autonegotiation (the link
 * drops and comes back by itself): `phy restart|aneg|force|advertise` on
 * bare-metal, `advertise` on the Linux agent.  The runner waits for the
 * link after such commands before traffic (issue 20). */
bool scn_cmd_renegotiates(const char *cmd);

/* [link] downshift as the bare-metal command that configures the board's
 * PHY driver: "phy downshift off" or "phy downshift on [N]" (N from
 * downshift_attempts).  Returns 1 with @buf filled, 0 when the key is not
 * set or the board is not bare-metal. */
int scn_downshift_cmd(const struct scenario *s, char *buf, size_t len);

/* Parse one value of key @k (used by `gemlab fault` to reuse the table).
 * Returns 0 or -EINVAL/-ERANGE with a message in @msg. */
int scn_parse_value(enum scn_key k, const char *text, struct scn_val *out,
                    char *msg, size_t msglen);
/* The key id for "[section] name", or -1. */
int scn_key_lookup(const char *section, const char *name);

#endif

/* agent_cmd.h - console command parsing for the Linux guest agent.
 *
 * The agent reads one command per line on the console.  Everything here is
 * pure string handling so the host unit tests (tests/unit/agent_cmd) cover
 * it; nothing touches the system.
 */
#ifndef GEMLAB_AGENT_CMD_H
#define GEMLAB_AGENT_CMD_H

#include <stdbool.h>
#include <stddef.h>

#define AGENT_MAX_ARGS 64

enum agent_cmd {
    AGENT_CMD_EMPTY,        /* blank line: ignored, no output */
    AGENT_CMD_HELP,
    AGENT_CMD_STATS,
    AGENT_CMD_LINK,
    AGENT_CMD_RUN,          /* run iperf3|iperf ARGS... */
    AGENT_CMD_IRQ_AFFINITY, /* irq-affinity HEXMASK */
    AGENT_CMD_SOCKBUF,      /* sockbuf BYTES */
    AGENT_CMD_TCP_PORT,     /* tcp-port PORT: sockets on a local TCP port */
    AGENT_CMD_ADVERTISE,    /* advertise HEXMASK: ethtool -s IFACE advertise */
    AGENT_CMD_RING,         /* ring [RX TX]: ethtool -G / -g IFACE */
    AGENT_CMD_DOWNSHIFT,    /* downshift off|on [N]: ethtool --set-phy-tunable */
    AGENT_CMD_RPS,          /* rps HEXMASK: the RX queue's rps_cpus */
    AGENT_CMD_UNKNOWN,
};

struct agent_argv {
    int argc;
    char *argv[AGENT_MAX_ARGS + 1]; /* NULL-terminated, points into the line */
};

/* Split line in place on spaces/tabs/CR/LF.  Returns 0, or -E2BIG when it
 * has more than AGENT_MAX_ARGS words (a->argc is then 0). */
int agent_split(char *line, struct agent_argv *a);

/* The command named by a->argv[0]; AGENT_CMD_EMPTY when argc is 0. */
enum agent_cmd agent_cmd_lookup(const struct agent_argv *a);

/* Absolute path of a tool `run` may start, or NULL if name is not one of
 * them (the agent never runs anything else, and never through a shell). */
const char *agent_tool_path(const char *name);

/* True when iperf3 arguments ask for JSON output (-J or --json). */
bool agent_args_want_json(int argc, char *const argv[]);

/* A CPU mask for smp_affinity: hex digits, optional 0x, non-zero, at most
 * 32 bits.  Returns 0 and *mask, or -EINVAL. */
int agent_parse_mask(const char *s, unsigned long *mask);

/* An advertisement for `ethtool -s IFACE advertise N` (ethtool(8)): hex,
 * optional 0x, only the 10/100/1000 half/full bits (0x03f) and Pause/Asym
 * (0x6000), at least one speed.  Returns 0 and *mask, or -EINVAL. */
int agent_parse_advertise(const char *s, unsigned long *mask);

/* A ring size for `ring RX TX` (ethtool -G): decimal 0..65535, 0 = keep
 * that ring.  Returns 0 and *n, or -EINVAL. */
int agent_parse_ring(const char *s, unsigned *n);

/* `downshift off | on [N]` (ethtool --set-phy-tunable IFACE downshift):
 * the count for ETHTOOL_PHY_DOWNSHIFT, 0 for off, N in 1..8 (the
 * 88E1116R's 3-bit counter; default 8, what Linux's m88e1116r_config_init
 * sets).  Returns 0 and *count, or -EINVAL. */
int agent_parse_downshift(int argc, char *const argv[], unsigned *count);

/* A socket buffer size: decimal bytes with an optional K or M suffix
 * (powers of 1024), 4096..(256 MiB).  Returns 0 and *bytes, or -EINVAL. */
int agent_parse_bytes(const char *s, unsigned long *bytes);

/* Find the JSON object a tool printed (iperf3 -J) inside its captured
 * output and make it one line: the span runs from the first '{' to the
 * matching '}', braces inside strings do not count, and raw CR/LF/TAB
 * between tokens become spaces (JSON whitespace; inside strings iperf3
 * escapes them).  Returns true with [*start, *end) in text, false if there
 * is no complete object or a raw control character sits inside a string. */
bool agent_json_object_flatten(char *text, size_t *start, size_t *end);

#endif /* GEMLAB_AGENT_CMD_H */

/* agent_proc.h - parsers for the /proc files the agent reports.
 *
 * Each parser takes the whole file as a NUL-terminated string, so the host
 * unit tests (tests/unit/agent_proc) feed them captured text.  Formats are
 * those of Linux 6.1: net/core/net-procfs.c (dev_seq_printf_stats),
 * kernel/irq/proc.c (show_interrupts) and fs/proc/stat.c.
 */
#ifndef GEMLAB_AGENT_PROC_H
#define GEMLAB_AGENT_PROC_H

#include <stddef.h>
#include <stdint.h>

#define PROC_MAX_CPUS 8

/* One interface's line of /proc/net/dev, in column order. */
struct proc_netdev {
    uint64_t rx_bytes, rx_packets, rx_errs, rx_drop, rx_fifo, rx_frame,
             rx_compressed, rx_multicast;
    uint64_t tx_bytes, tx_packets, tx_errs, tx_drop, tx_fifo, tx_colls,
             tx_carrier, tx_compressed;
};

/* The 16 column names above, in order, for the JSON keys. */
extern const char *const proc_netdev_keys[16];

/* Fill *out from iface's line.  Returns 0, -ENOENT if iface is absent, or
 * -EINVAL if its line is malformed. */
int proc_netdev_parse(const char *text, const char *iface,
                      struct proc_netdev *out);

/* One numbered line of /proc/interrupts. */
struct proc_irq {
    unsigned irq;
    unsigned ncpu;                    /* columns in the header */
    uint64_t count[PROC_MAX_CPUS];
    char chip[16];                    /* e.g. "GIC-0" */
    char hwirq[16];                   /* e.g. "54" */
    char name[32];                    /* action name, e.g. "eth0" */
};

/* Collect the numbered IRQ lines whose action name contains one of the
 * NULL-terminated needles.  Returns how many were stored (at most max),
 * or -EINVAL when the header has no CPU column. */
int proc_interrupts_find(const char *text, const char *const *needles,
                         struct proc_irq *out, int max);

/* Jiffies of one "cpu" / "cpuN" line of /proc/stat. */
struct proc_cpu {
    int cpu;            /* -1 for the aggregate "cpu" line */
    uint64_t total;     /* sum of all columns */
    uint64_t idle;      /* idle + iowait */
    uint64_t softirq;   /* the softirq column: time in softirq (NET_RX among
                           them), Documentation/filesystems/proc.rst 1.8 */
};

/* Parse the cpu lines.  Returns how many were stored (aggregate first), or
 * -EINVAL when there is none. */
int proc_stat_parse(const char *text, struct proc_cpu *out, int max);

/* Idle share in percent between two samples of the same CPU, 0..100;
 * -1 when no time passed. */
double proc_idle_pct(const struct proc_cpu *prev, const struct proc_cpu *cur);

/* Softirq share in percent between two samples of the same CPU, 0..100;
 * -1 when no time passed. */
double proc_softirq_pct(const struct proc_cpu *prev, const struct proc_cpu *cur);

/* An smp_affinity file: hex words separated by commas, most significant
 * first (bitmap_print_to_pagebuf).  Returns 0 and the low 32 bits, or
 * -EINVAL. */
int proc_parse_affinity(const char *text, unsigned long *mask);

/* Sockets of /proc/net/tcp or /proc/net/tcp6 whose local port is port,
 * counted by state: count[st] for the kernel's TCP_* numbers 1..11 (hex in
 * the "st" column; 0x0A is LISTEN).  Adds to count[] (so tcp and tcp6 can
 * be summed).  Returns how many lines matched, or -EINVAL when the text
 * has no header line. */
#define PROC_TCP_STATES 12
int proc_tcp_port_states(const char *text, unsigned port,
                         unsigned count[PROC_TCP_STATES]);

/* A device tree string property as the kernel shows it under
 * /proc/device-tree or a node's of_node directory (e.g. "phy-mode":
 * "rgmii-id" and its NUL, Devicetree Specification 2.2.4): @raw holds @n
 * bytes.  Copies the first string to @out (at most @len - 1 chars).
 * Returns its length, or -EINVAL when it is empty, not NUL-terminated
 * within @n, too long or holds a byte outside printable ASCII. */
int proc_dt_string(const char *raw, size_t n, char *out, size_t len);

#endif /* GEMLAB_AGENT_PROC_H */

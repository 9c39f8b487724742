/*
 * qemu.h - finding QEMU and firmware, and building QEMU's argv from a
 * scenario.  Scenario values become single argv elements (never a shell
 * string); the one place values are joined is `-global DRIVER.PROP=VALUE`,
 * where QEMU itself splits at the first '=' only.
 *
 * Errors: 0 or a negative errno with a message on stderr naming the make
 * target that builds what is missing.
 */
#ifndef GEMLAB_RUNNER_QEMU_H
#define GEMLAB_RUNNER_QEMU_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "scenario.h"

#define QEMU_GEM_DRIVER "cadence_gem"
#define QEMU_GEM_PATH "/machine/unattached/device[0]"   /* overridden by lookup */
/* Our QEMU 10.0: the link model is a QOM object of its own, the GEM's
 * child QEMU_LINK_PROP, of type QEMU_LINK_DRIVER: its properties are set
 * with -global QEMU_LINK_DRIVER.NAME=VALUE and read at GEM/QEMU_LINK_PROP
 * (emu/qemu/include/hw/net/gemlab_link.h). */
#define QEMU_LINK_DRIVER "gemlab-link"
#define QEMU_LINK_PROP "gemlab-link"
#define QEMU_NETDEV_ID "net0"
/* Virtual time: the console gate between the UART and the console socket
 * (emu/qemu/hw/net/gemlab/gemlab_gate.c, docs/VIRTUAL_TIME.md). */
#define QEMU_GATE_ID "con0"
#define QEMU_GATE_PATH "/chardevs/" QEMU_GATE_ID

struct argv_buf {
    char **v;
    int n, cap;
};

void av_init(struct argv_buf *a);
/* Append a copy of @s (printf format). */
void av_add(struct argv_buf *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void av_free(struct argv_buf *a);
/* @s with every ',' doubled into @buf: QemuOpts' and keyval's escape for
 * a comma inside an option value (qemu-options.hx "-chardev ...,path=";
 * util/qemu-option.c get_opt_value, util/keyval.c).  Returns @buf, or NULL
 * when it does not fit (never a cut path). */
const char *qemu_opt_esc(const char *s, char *buf, size_t len);

/* The QOM property a scenario [link] key maps to, or NULL if none. */
const char *qemu_prop_for(enum scn_key k);
/* Format the value of @v for that property into @buf. */
void qemu_prop_value(const struct scenario *s, enum scn_key k, const struct scn_val *v, char *buf, size_t len);

/* The same value as a typed JSON value for QMP qom-set (uint64 and bool
 * properties refuse strings there).  Caller frees. */
cJSON *qemu_prop_json(const struct scenario *s, enum scn_key k, const struct scn_val *v);

/* Locate QEMU: @override, else `make -s -C emu/qemu path` under @top -
 * never as root (docs/SECURITY.md R8: no code from the tree runs as root; --qemu is
 * required).  Fills @out; -ENOENT (with a message naming `make -C
 * emu/qemu`). */
int qemu_find(const char *top, const char *override, char *out, size_t len);
/* Locate firmware: @override (-ENOENT if it does not exist, -EINVAL if
 * it is not a regular file), else the default build output (-ENOENT,
 * naming the make target). */
int fw_find(const char *top, const char *firmware, const char *override, char *out, size_t len);
/* The image at path is of the kind [board] firmware boots: an ARM zImage
 * for "linux" (an ELF would boot without the Linux boot protocol, so no
 * DTB), a 32-bit little-endian ARM ELF for "baremetal".  0, or -EINVAL
 * with the reason on stderr (an empty file, /bin/ls, a text file). */
int fw_kind_check(const char *firmware, const char *path);

/* Ask QEMU which properties its cadence_gem device has and, when it has
 * a QEMU_LINK_DRIVER (our QEMU 10.0), that device's: the model's (our
 * QEMU 7.2 puts them on the GEM).  Fills QEMU's help text, a property
 * per line, into @buf. */
int qemu_gem_props(const char *qemu, char *buf, size_t len);
bool qemu_has_prop(const char *props, const char *name);
/* The driver whose -global sets the model's properties, from
 * qemu_gem_props: QEMU_LINK_DRIVER (our 10.0) or QEMU_GEM_DRIVER (7.2). */
const char *qemu_model_driver(const char *props);

struct qemu_opts {
    const char *qemu;
    const char *firmware;   /* "baremetal" | "linux" */
    const char *fw_path;    /* ELF, or zImage for linux; NULL = no kernel (-S smoke) */
    const char *dtb, *initrd, *append;  /* Linux: firmware/linux/README.md */
    const char *qmp_path, *serial_path;
    const char *fault_path;  /* second QMP monitor (gemlab fault); NULL = none */
    const char *net;        /* "user" | "tap" | "pair" | "idle" (a lone hub port) | "sim" | "none" */
    const char *peer_results;   /* sim: the peer's results file (JSON lines) */
    const char *pair_sock;  /* pair: unix stream socket joining the two boards */
    bool pair_server;       /* pair: this QEMU listens on pair_sock (the other connects) */
    const char *tap_ifname;
    int host_port;          /* hostfwd 127.0.0.1:port -> board:5001 (tcp+udp) */
    const char *board_ip;
    int board_port;
    const char *props;      /* from qemu_gem_props; NULL = stock, no model */
    const char *pcap_path;  /* the GEM's wire capture (pcapng), NULL = none */
    unsigned long long pcap_max_bytes;  /* its size cap (pcap-max-bytes) */
    unsigned pcap_snaplen;  /* bytes kept of each frame (pcap-snaplen), 0 = QEMU's default */
    /* virtual time: -icount mips=MIPS,sleep=off,align=off and the console
     * through the gate chardev QEMU_GATE_ID (0 = real time) */
    unsigned mips;
    /* with mips: the vCPUs' round in ns of virtual time (-icount
     * quantum=, our patch 0045); 0 = one shared count */
    unsigned long long quantum_ns;
    /* with mips: a core's wait for a line the GEM wrote by DMA (-icount
     * dmaline=, our patch 0046); 0 = none */
    unsigned long long dma_line_ns;
};

/* The -icount option string for @mips, @quantum_ns and @dma_line_ns
 * (QEMU's qemu-options.hx "-icount", patches 0040, 0045 and 0046) into
 * @buf; a zero @quantum_ns or @dma_line_ns is left out. */
void qemu_icount_opts(unsigned mips, unsigned long long quantum_ns, unsigned long long dma_line_ns,
                      char *buf, size_t len);

/* Hardening (docs/SECURITY.md Q5).  With --net tap QEMU starts as root (it must open
 * the tap in the namespace) and drops to QEMU_RUNAS_USER with -runas
 * after opening the tap, its sockets and the firmware, before the guest
 * runs; every run gets -sandbox (QEMU's seccomp filter, qemu-options.hx
 * "-sandbox") when the binary has it.  elevateprivileges must stay
 * "allow" with -runas: "deny" and "children" block the setgid/setuid calls
 * of the drop itself (softmmu/qemu-seccomp.c, os-posix.c
 * change_process_uid; LXD passes the same for the same reason).  After
 * the drop QEMU holds no privilege to regain (it checks that setuid(0)
 * fails) and spawn=deny forbids exec, so no setuid program either. */
#define QEMU_RUNAS_USER "gemlab"    /* scripts/deps.sh creates it */
#define QEMU_SANDBOX "on,obsolete=deny,elevateprivileges=deny,spawn=deny,resourcecontrol=deny"
#define QEMU_SANDBOX_RUNAS "on,obsolete=deny,elevateprivileges=allow,spawn=deny,resourcecontrol=deny"
/* Whether @qemu accepts -sandbox (built with seccomp): 1 or 0, or a
 * negative errno when it could not be asked (-ETIMEDOUT: no answer). */
int qemu_has_sandbox(const char *qemu);
/* true if @qemu drops privileges with -run-with user= (9.1 on; 10.0 has no -runas) */
bool qemu_has_run_with_user(const char *qemu);
/* QEMU_RUNAS_USER, else "nobody" (never a uid-0 account) into @name;
 * 0 or -ENOENT. */
int qemu_runas_user(char *name, size_t len);

/* Build argv.  Scenario [link] keys the QEMU lacks are listed in
 * @unapplied (comma separated). */
int qemu_build_argv(const struct scenario *s, const struct qemu_opts *o, struct argv_buf *a,
                    char *unapplied, size_t ulen);

/* A free TCP+UDP port on 127.0.0.1 (bind port 0, read it back, close). */
int free_port(void);

/* Run @argv (no shell), capture up to @len-1 bytes of stdout into @out.
 * Returns the exit status (>= 0) or a negative errno. */
int run_capture(char *const argv[], char *out, size_t len, int timeout_ms);
/* The same with stderr in @out too (iperf 2 prints its --version there). */
int run_capture_all(char *const argv[], char *out, size_t len, int timeout_ms);

#endif

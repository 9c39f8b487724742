/*
 * qemu.c - see qemu.h.
 *
 * Known limitations:
 *  - The QOM property names (link_keys.h) are the runner's side of an
 *    interface emu/qemu owns; a property the QEMU binary lacks is reported
 *    as unapplied rather than guessed.
 *  - Board keys (rx_bds, tx_bds, pbufs, mac_speed, phy_mode, irq_affinity)
 *    are firmware build options or firmware commands, not QEMU properties.
 */
#define _GNU_SOURCE /* vasprintf, pipe2 */
#include "qemu.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

void av_init(struct argv_buf *a)
{
    a->n = 0;
    a->cap = 16;
    a->v = calloc((size_t)a->cap, sizeof(char *));
    if (!a->v)
        abort();
}

void av_add(struct argv_buf *a, const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        abort();
    va_end(ap);
    if (a->n + 2 > a->cap) {
        a->cap *= 2;
        a->v = realloc(a->v, (size_t)a->cap * sizeof(char *));
        if (!a->v)
            abort();
    }
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

void av_free(struct argv_buf *a)
{
    for (int k = 0; k < a->n; k++)
        free(a->v[k]);
    free(a->v);
    a->v = NULL;
    a->n = a->cap = 0;
}

const char *qemu_opt_esc(const char *s, char *buf, size_t len)
{
    size_t o = 0;

    for (; *s; s++) {
        if (o + (*s == ',' ? 2 : 1) >= len)
            return NULL;
        if (*s == ',')
            buf[o++] = ',';
        buf[o++] = *s;
    }
    if (!len)
        return NULL;
    buf[o] = '\0';
    return buf;
}

/* Scenario [link] keys -> the QOM properties of our GEM's link model
 * (link_keys.h; emu/qemu/hw/net/gemlab/gemlab_props.c). */
static const struct link_prop {
    enum scn_key key;
    const char *prop, *prop2;   /* prop2: a second property for the same value (the seed) */
    enum link_qom_value qv;
} link_props[] = {
#define LINK_PROP(a, id, word, type, min, max, words, def, prop, prop2, qv, ...) { SK_LINK_##id, prop, prop2, qv },
    LINK_KEYS(LINK_PROP, _)
#undef LINK_PROP
};

static const struct link_prop *link_prop(enum scn_key k)
{
    for (size_t i = 0; i < sizeof(link_props) / sizeof(link_props[0]); i++)
        if (link_props[i].key == k)
            return &link_props[i];
    return NULL;
}

const char *qemu_prop_for(enum scn_key k)
{
    const struct link_prop *lp = link_prop(k);

    return lp ? lp->prop : NULL;
}

void qemu_prop_value(const struct scenario *s, enum scn_key k, const struct scn_val *v, char *buf, size_t len)
{
    const struct link_prop *lp = link_prop(k);

    switch (lp ? lp->qv : LQ_TEXT) {
    case LQ_U64:
        snprintf(buf, len, "%llu", (unsigned long long)v->u);
        break;
    case LQ_RATE:
        snprintf(buf, len, "%.0f", v->d);
        break;
    case LQ_FULL_DUPLEX:        /* partner-full-duplex is a bool */
        snprintf(buf, len, "%s", v->e == 0 ? "on" : "off");
        break;
    default:                    /* the scenario's own words: on/off, 100, 10HD,100FD... */
        scn_format_value(s, k, v, buf, len);
        break;
    }
}

cJSON *qemu_prop_json(const struct scenario *s, enum scn_key k, const struct scn_val *v)
{
    const struct link_prop *lp = link_prop(k);

    switch (lp ? lp->qv : LQ_TEXT) {
    case LQ_U64:
        return cJSON_CreateNumber((double)v->u);
    case LQ_RATE:
    case LQ_DOUBLE:
        return cJSON_CreateNumber(v->d);
    case LQ_ENUM_NUM: {
        const char *w = scn_enum_word(k, v->e);
        return cJSON_CreateNumber(w ? strtoul(w, NULL, 10) : 0);
    }
    case LQ_BOOL:
        return cJSON_CreateBool(v->b);
    case LQ_FULL_DUPLEX:
        return cJSON_CreateBool(v->e == 0);
    case LQ_TEXT:
        break;
    }
    {
        char buf[SCN_STR_MAX + 32];
        qemu_prop_value(s, k, v, buf, sizeof(buf));
        return cJSON_CreateString(buf);
    }
}

static int capture(char *const argv[], char *out, size_t len, int timeout_ms, bool with_stderr);

int run_capture(char *const argv[], char *out, size_t len, int timeout_ms)
{
    return capture(argv, out, len, timeout_ms, false);
}

int run_capture_all(char *const argv[], char *out, size_t len, int timeout_ms)
{
    return capture(argv, out, len, timeout_ms, true);
}

/* The child runs in a process group of its own, so that a timeout kills
 * whatever it started too (a wrapper script's children would otherwise be
 * left to init, holding the pipe).  A timeout is -ETIMEDOUT, never an
 * exit status: a probe that hangs has answered nothing. */
static int capture(char *const argv[], char *out, size_t len, int timeout_ms, bool with_stderr)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t sa;
    int pfd[2], rc, st = 0;
    size_t got = 0;
    pid_t pid;
    struct timespec t0;
    bool timed_out = false;

    if (pipe2(pfd, O_CLOEXEC))
        return -errno;
    posix_spawnattr_init(&sa);
    posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&sa, 0);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
    if (with_stderr)
        posix_spawn_file_actions_adddup2(&fa, pfd[1], 2);
    else
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    rc = posix_spawnp(&pid, argv[0], &fa, &sa, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&sa);
    close(pfd[1]);
    if (rc) {
        close(pfd[0]);
        return -rc;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        struct pollfd p = { .fd = pfd[0], .events = POLLIN };
        struct timespec t1;
        long el;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        el = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
        if (el >= timeout_ms) {
            kill(-pid, SIGKILL);
            timed_out = true;
            break;
        }
        if (poll(&p, 1, (int)(timeout_ms - el)) <= 0)
            continue;
        char tmp[4096];
        ssize_t n = read(pfd[0], tmp, sizeof(tmp));
        if (n <= 0)
            break;
        for (ssize_t k = 0; k < n && got + 1 < len; k++)
            out[got++] = tmp[k];
    }
    if (len)
        out[got < len ? got : len - 1] = '\0';
    close(pfd[0]);
    /* the child closed its output: what it left running in its group
     * goes with it */
    kill(-pid, SIGKILL);
    if (waitpid(pid, &st, 0) < 0)
        return -errno;
    if (timed_out)
        return -ETIMEDOUT;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static bool executable(const char *p)
{
    struct stat st;

    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

int qemu_find(const char *top, const char *override, char *out, size_t len)
{
    char buf[1024], dir[600];
    char *argv[] = { "make", "-s", "--no-print-directory", "-C", dir, "path", NULL };
    int rc;

    if (override) {
        if (!executable(override)) {
            fprintf(stderr, "gemlab: --qemu %s: not an executable file\n", override);
            return -ENOENT;
        }
        snprintf(out, len, "%s", override);
        return 0;
    }
    if (geteuid() == 0) {
        /* docs/SECURITY.md R8: `make -C TOP/emu/qemu path` runs the tree's Makefiles
         * (and build.sh): as root that is root running whatever a user who
         * can write the tree put there.  Root names its emulator instead. */
        fprintf(stderr, "gemlab: as root gemlab runs no code from the tree (no `make -C emu/qemu path`): pass "
                "--qemu PATH (as the tree's owner, `make -C emu/qemu` builds it and `make -s -C emu/qemu path` "
                "prints it)\n");
        return -ENOENT;
    }
    snprintf(dir, sizeof(dir), "%s/emu/qemu", top);
    rc = run_capture(argv, buf, sizeof(buf), 10000);
    buf[strcspn(buf, "\n")] = '\0';
    if (rc != 0 || !buf[0] || !executable(buf)) {
        fprintf(stderr, "gemlab: our QEMU is not built%s%s: run `make -C emu/qemu` "
                "(or pass --qemu /usr/bin/qemu-system-arm for stock QEMU without the link models)\n",
                buf[0] ? " at " : "", buf);
        return -ENOENT;
    }
    snprintf(out, len, "%s", buf);
    return 0;
}

int fw_find(const char *top, const char *firmware, const char *override, char *out, size_t len)
{
    if (override) {
        struct stat st;
        if (stat(override, &st)) {
            /* not there (yet): a build that is missing, as for the
             * default image (exit 3: qemu-test.sh counts it a skip) */
            int e = errno;
            fprintf(stderr, "gemlab: --fw %s: %s\n", override, strerror(e));
            return e == ENOENT ? -ENOENT : -EINVAL;
        }
        if (!S_ISREG(st.st_mode)) {
            fprintf(stderr, "gemlab: --fw %s: not a regular file\n", override);
            return -EINVAL;
        }
        snprintf(out, len, "%s", override);
        return 0;
    }
    if (strcmp(firmware, "linux") == 0) {
        snprintf(out, len, "%s/build/linux/zImage", top);
        if (access(out, R_OK)) {
            fprintf(stderr, "gemlab: no Linux image at %s: run `make -C firmware/linux` (or pass --fw)\n", out);
            return -ENOENT;
        }
        return 0;
    }
    snprintf(out, len, "%s/build/baremetal/qemu-zynq/gemlab-fw.elf", top);
    if (access(out, R_OK)) {
        fprintf(stderr, "gemlab: no bare-metal firmware at %s: run `make -C firmware/baremetal` (or pass --fw)\n",
                out);
        return -ENOENT;
    }
    return 0;
}

int fw_kind_check(const char *firmware, const char *path)
{
    /* ELF: e_ident "\177ELF" (System V ABI, ELF header); ARM zImage: the
     * magic 0x016f2818 at offset 0x24 (kernel arch/arm/boot/compressed/head.S,
     * Documentation/arch/arm/booting.rst) */
    unsigned char h[0x28];
    bool elf, zimage, linux_fw = strcmp(firmware, "linux") == 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    ssize_t n = fd < 0 ? -1 : read(fd, h, sizeof(h));
    struct stat st;
    long long size = fd >= 0 && !fstat(fd, &st) ? (long long)st.st_size : -1;

    if (fd >= 0)
        close(fd);
    if (n < 0) {
        fprintf(stderr, "gemlab: --fw %s: %s\n", path, strerror(errno));
        return -EINVAL;
    }
    elf = n >= 4 && memcmp(h, "\177ELF", 4) == 0;
    zimage = n == (ssize_t)sizeof(h) && h[0x24] == 0x18 && h[0x25] == 0x28 && h[0x26] == 0x6f && h[0x27] == 0x01;
    if (linux_fw && elf) {
        fprintf(stderr, "gemlab: --fw %s is an ELF, the bare-metal firmware's format; [board] firmware = linux "
                        "boots the zImage (build/linux/zImage)\n", path);
        return -EINVAL;
    }
    if (!linux_fw && zimage) {
        fprintf(stderr, "gemlab: --fw %s is a Linux zImage; [board] firmware = baremetal boots the ELF "
                        "(build/baremetal/qemu-zynq/gemlab-fw.elf), or set firmware = linux\n", path);
        return -EINVAL;
    }
    if (linux_fw) {
        if (zimage)
            return 0;
        fprintf(stderr, "gemlab: --fw %s (%lld bytes) is not an ARM zImage (no magic 0x016f2818 at offset 0x24, "
                        "Documentation/arch/arm/booting.rst); [board] firmware = linux boots one\n", path, size);
        return -EINVAL;
    }
    /* e_ident[EI_CLASS] 1 = ELFCLASS32, EI_DATA 1 = little-endian, and
     * e_machine (offset 18) 40 = EM_ARM: what the Zynq's A9s run */
    if (!elf || n < 20 || h[4] != 1 || h[5] != 1 || h[18] != 40 || h[19] != 0) {
        fprintf(stderr, "gemlab: --fw %s (%lld bytes) is not a 32-bit little-endian ARM ELF (%s); [board] firmware = "
                        "baremetal boots one (build/baremetal/qemu-zynq/gemlab-fw.elf)\n", path, size,
                !elf || n < 20 ? "no ELF header" : h[4] != 1 ? "not ELFCLASS32" : h[5] != 1 ? "big-endian" : "e_machine is not EM_ARM");
        return -EINVAL;
    }
    return 0;
}

int qemu_gem_props(const char *qemu, char *buf, size_t len)
{
    char *argv[] = { (char *)qemu, "-M", "none", "-device", QEMU_GEM_DRIVER ",help", NULL };
    char *link_argv[] = { (char *)qemu, "-M", "none", "-device", QEMU_LINK_DRIVER ",help", NULL };
    int rc = run_capture(argv, buf, len, 10000);
    size_t n;

    if (rc < 0)
        return rc;
    /* our 10.0: the model's properties are the link's; others lack it */
    n = strlen(buf);
    if (n + 1 < len && run_capture(link_argv, buf + n, len - n, 10000) >= 0 &&
        !strstr(buf + n, QEMU_LINK_DRIVER " options:"))
        buf[n] = '\0';
    return 0;
}

const char *qemu_model_driver(const char *props)
{
    return props && strstr(props, QEMU_LINK_DRIVER " options:") ? QEMU_LINK_DRIVER : QEMU_GEM_DRIVER;
}

/* One model property, as -global DRIVER.PROP=VAL: DRIVER is the link
 * (our 10.0) or the GEM (our 7.2), qemu_model_driver(). */
static void model_prop(struct argv_buf *a, const char *driver, const char *prop, const char *val)
{
    av_add(a, "-global");
    av_add(a, "%s.%s=%s", driver, prop, val);
}

bool qemu_has_prop(const char *props, const char *name)
{
    size_t n = strlen(name);

    for (const char *p = props; p && (p = strstr(p, name)); p += n) {
        bool start = p == props || p[-1] == ' ' || p[-1] == '\n';
        bool end = p[n] == '=' || p[n] == ' ' || p[n] == '\n' || p[n] == '\0';
        if (start && end)
            return true;
    }
    return false;
}

void qemu_icount_opts(unsigned mips, unsigned long long quantum_ns, unsigned long long dma_line_ns,
                      char *buf, size_t len)
{
    /* sleep=off skips idle time instead of waiting for it, align=off
     * never paces against the host */
    int n = snprintf(buf, len, "mips=%u,sleep=off,align=off", mips);

    if (quantum_ns && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ",quantum=%llu", quantum_ns);
    if (dma_line_ns && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ",dmaline=%llu", dma_line_ns);
}

/* A path for a QemuOpts value.  Paths are shorter than PATH_MAX, so their
 * escaped form always fits @esc (2 * PATH_MAX + 1); like av_add()'s
 * allocation failure, anything else is a bug. */
static const char *opt_path(const char *p, char *esc, size_t len)
{
    if (!qemu_opt_esc(p, esc, len))
        abort();
    return esc;
}

int qemu_build_argv(const struct scenario *s, const struct qemu_opts *o, struct argv_buf *a,
                    char *unapplied, size_t ulen)
{
    bool linux_fw = strcmp(o->firmware, "linux") == 0;
    size_t uoff = 0;
    char esc[2 * PATH_MAX + 1];     /* a path with every ',' doubled */

    unapplied[0] = '\0';
    av_init(a);
    av_add(a, "%s", o->qemu);
    av_add(a, "-M");
    av_add(a, "xilinx-zynq-a9");
    av_add(a, "-m");
    av_add(a, linux_fw ? "512M" : "256M");
    av_add(a, "-display");
    av_add(a, "none");
    av_add(a, "-monitor");
    av_add(a, "none");
    av_add(a, "-S");        /* start paused: nothing is printed before we listen */
    /* Paths (the run directory: --out, or the scenario's name) go into
     * QemuOpts/keyval strings, where ',' separates options: commas are
     * doubled (docs/SECURITY.md R9).  inst_rundir() keeps paths below 600 bytes. */
    av_add(a, "-qmp");
    av_add(a, "unix:%s,server=on,wait=off", opt_path(o->qmp_path, esc, sizeof(esc)));
    if (o->fault_path) {
        /* QEMU serves one client per monitor: `gemlab fault` gets its own */
        av_add(a, "-qmp");
        av_add(a, "unix:%s,server=on,wait=off", opt_path(o->fault_path, esc, sizeof(esc)));
    }
    av_add(a, "-chardev");
    av_add(a, "socket,id=ser0,path=%s,server=on,wait=off", opt_path(o->serial_path, esc, sizeof(esc)));
    if (o->mips) {
        /* QEMU's instruction counter at a rational rate (qemu_icount_opts) */
        char ic[96];
        qemu_icount_opts(o->mips, o->quantum_ns, o->dma_line_ns, ic, sizeof(ic));
        av_add(a, "-icount");
        av_add(a, "%s", ic);
        av_add(a, "-chardev");
        av_add(a, "gemlab-gate,id=%s,chardev=ser0", QEMU_GATE_ID);
    }
    av_add(a, "-serial");
    av_add(a, linux_fw ? "null" : o->mips ? "chardev:" QEMU_GATE_ID : "chardev:ser0");
    av_add(a, "-serial");
    av_add(a, !linux_fw ? "null" : o->mips ? "chardev:" QEMU_GATE_ID : "chardev:ser0");
    if (s && linux_fw && s->v[SK_BOARD_CPUS].u > 1) {
        av_add(a, "-smp");
        av_add(a, "%llu", (unsigned long long)s->v[SK_BOARD_CPUS].u);
    }
    if (o->fw_path) {
        av_add(a, "-kernel");
        av_add(a, "%s", o->fw_path);
        if (o->dtb) {
            av_add(a, "-dtb");
            av_add(a, "%s", o->dtb);
        }
        if (o->initrd) {
            av_add(a, "-initrd");
            av_add(a, "%s", o->initrd);
        }
        if (o->append) {
            av_add(a, "-append");
            av_add(a, "%s", o->append);
        }
    }
    if (o->net && strcmp(o->net, "user") == 0) {
        av_add(a, "-netdev");
        /* hostfwd binds 127.0.0.1 only (issue 8: exposure) */
        av_add(a, "user,id=%s,net=10.0.2.0/24,hostfwd=tcp:127.0.0.1:%d-%s:%d,hostfwd=udp:127.0.0.1:%d-%s:%d",
               QEMU_NETDEV_ID, o->host_port, o->board_ip, o->board_port, o->host_port, o->board_ip,
               o->board_port);
        av_add(a, "-net");
        av_add(a, "nic,netdev=%s,model=cadence_gem", QEMU_NETDEV_ID);
    } else if (o->net && strcmp(o->net, "pair") == 0) {
        /* two boards joined back to back: QEMU 7.2's stream netdev on a
         * unix socket in the run dir (a length-prefixed frame stream with
         * backpressure, so the host never drops a frame between the two;
         * a dgram netdev over loopback UDP dropped ~2 % of frames whenever
         * the receiving QEMU was descheduled on a loaded host) */
        av_add(a, "-netdev");
        av_add(a, "stream,id=%s,server=%s,addr.type=unix,addr.path=%s", QEMU_NETDEV_ID,
               o->pair_server ? "on" : "off", opt_path(o->pair_sock, esc, sizeof(esc)));
        av_add(a, "-net");
        av_add(a, "nic,netdev=%s,model=cadence_gem", QEMU_NETDEV_ID);
    } else if (o->net && strcmp(o->net, "idle") == 0) {
        /* virtual time without a peer: a hub port with nothing else on the
         * hub (QEMU net/hub.c), so the NIC has a netdev that set_link can
         * name and nothing from the host arrives */
        av_add(a, "-netdev");
        av_add(a, "hubport,id=%s,hubid=0", QEMU_NETDEV_ID);
        av_add(a, "-net");
        av_add(a, "nic,netdev=%s,model=cadence_gem", QEMU_NETDEV_ID);
    } else if (o->net && strcmp(o->net, "sim") == 0) {
        /* the traffic peer inside the emulator (docs/PEER.md): a host PC
         * at 10.0.2.2, the address slirp gives the host, in virtual time */
        av_add(a, "-netdev");
        av_add(a, "gemlab-peer,id=%s,board-ip=%s,results=%s", QEMU_NETDEV_ID, o->board_ip,
               opt_path(o->peer_results, esc, sizeof(esc)));
        av_add(a, "-net");
        av_add(a, "nic,netdev=%s,model=cadence_gem", QEMU_NETDEV_ID);
    } else if (o->net && strcmp(o->net, "tap") == 0) {
        av_add(a, "-netdev");
        av_add(a, "tap,id=%s,ifname=%s,script=no,downscript=no", QEMU_NETDEV_ID, o->tap_ifname);
        av_add(a, "-net");
        av_add(a, "nic,netdev=%s,model=cadence_gem", QEMU_NETDEV_ID);
    } else {
        av_add(a, "-net");
        av_add(a, "none");
    }
    const char *drv = qemu_model_driver(o->props);

    for (size_t k = 0; s && k < sizeof(link_props) / sizeof(link_props[0]); k++) {
        const struct link_prop *lp = &link_props[k];
        const struct scn_val *v = &s->v[lp->key];
        char val[SCN_STR_MAX + 32];

        /* the seed always goes (its default is the run's); the rest when set */
        if (!v->set && lp->key != SK_LINK_SEED)
            continue;
        qemu_prop_value(s, lp->key, v, val, sizeof(val));
        for (int p = 0; p < 2; p++) {
            const char *prop = p ? lp->prop2 : lp->prop;

            if (!prop)
                continue;
            if (!o->props || !qemu_has_prop(o->props, prop)) {
                if (v->set && uoff < ulen && !strstr(unapplied, scn_key_name(lp->key)))
                    uoff += (size_t)snprintf(unapplied + uoff, ulen - uoff, "%s%s", uoff ? "," : "",
                                             scn_key_name(lp->key));
                continue;
            }
            model_prop(a, drv, prop, val);
        }
    }
    if (s) {
        /* the board around the GEM ([board] profile): its PHY's top speed
         * and the RGMII delays its traces add; the PHY model decides from
         * them and the delay bits the guest programs (models/gemlab/phy.h) */
        const struct scn_board_profile *bp = scn_board_profile(s);
        static const char *const bprops[] = { "max-speed", "rgmii-timing", "rgmii-pcb-rx-delay",
                                              "rgmii-pcb-tx-delay" };
        bool have = o->props != NULL;
        for (size_t k = 0; have && k < sizeof(bprops) / sizeof(bprops[0]); k++)
            have = qemu_has_prop(o->props, bprops[k]);
        if (have) {
            char mbps[16];

            snprintf(mbps, sizeof(mbps), "%u", bp->phy_max_speed_mbps);
            model_prop(a, drv, "max-speed", mbps);
            model_prop(a, drv, "rgmii-timing", "on");
            model_prop(a, drv, "rgmii-pcb-rx-delay", bp->pcb_rx_delay ? "on" : "off");
            model_prop(a, drv, "rgmii-pcb-tx-delay", bp->pcb_tx_delay ? "on" : "off");
        } else if (uoff < ulen && (s->v[SK_BOARD_PROFILE].set || s->v[SK_BOARD_PHY_MODE].set)) {
            /* asked for, and this QEMU cannot model it */
            uoff += (size_t)snprintf(unapplied + uoff, ulen - uoff, "%s%s", uoff ? "," : "",
                                     s->v[SK_BOARD_PROFILE].set ? "board.profile" : "board.phy_mode");
        }
    }
    /* the wire capture: what a mirror port on the board's cable shows */
    if (o->pcap_path && o->props && qemu_has_prop(o->props, "pcap") && qemu_has_prop(o->props, "pcap-max-bytes")) {
        char bytes[24];

        snprintf(bytes, sizeof(bytes), "%llu", o->pcap_max_bytes);
        /* -global DRIVER.PROP=VALUE takes VALUE as it is (QEMU's
         * qemu_global_option(), system/qdev-monitor.c): no doubling */
        model_prop(a, drv, "pcap", o->pcap_path);
        model_prop(a, drv, "pcap-max-bytes", bytes);
        if (o->pcap_snaplen && qemu_has_prop(o->props, "pcap-snaplen")) {
            snprintf(bytes, sizeof(bytes), "%u", o->pcap_snaplen);
            model_prop(a, drv, "pcap-snaplen", bytes);
        }
    }
    return 0;
}

int free_port(void)
{
    for (int attempt = 0; attempt < 20; attempt++) {
        struct sockaddr_in sa = { .sin_family = AF_INET };
        socklen_t sl = sizeof(sa);
        int t = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), u, port;
        if (t < 0)
            return -errno;
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        sa.sin_port = 0;
        if (bind(t, (struct sockaddr *)&sa, sizeof(sa)) || getsockname(t, (struct sockaddr *)&sa, &sl)) {
            close(t);
            return -errno;
        }
        port = ntohs(sa.sin_port);
        /* the same number must be free for UDP too (hostfwd maps both) */
        u = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (u >= 0 && bind(u, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
            close(u);
            close(t);
            return port;
        }
        if (u >= 0)
            close(u);
        close(t);
    }
    return -EADDRINUSE;
}

/* ---- hardening (docs/SECURITY.md Q5) ----------------------------------- */

int qemu_has_sandbox(const char *qemu)
{
    /* options are parsed in order and -version exits at once: this fails
     * only when the binary has no seccomp ("-sandbox is not supported by
     * this QEMU binary"), before any sandbox is installed.  A binary that
     * does not answer at all is an error, never "no seccomp": that would
     * run it unconfined. */
    char out[256];
    char *argv[] = { (char *)qemu, "-sandbox", "on", "-version", NULL };
    int rc = run_capture(argv, out, sizeof(out), 10000);

    return rc < 0 ? rc : rc == 0;
}

bool qemu_has_run_with_user(const char *qemu)
{
    /* QEMU 9.1 added -run-with user= and deprecated -runas; 10.0 removed
     * -runas (docs/about/removed-features.rst).  Parsed in order, -version
     * exits before any privilege is dropped: this fails where user= is not
     * a -run-with parameter (7.2 has no -run-with, 8.x no user=). */
    char out[256];
    char *argv[] = { (char *)qemu, "-run-with", "user=nobody", "-version", NULL };

    return run_capture(argv, out, sizeof(out), 10000) == 0;
}

int qemu_runas_user(char *name, size_t len)
{
    static const char *const cands[] = { QEMU_RUNAS_USER, "nobody" };

    for (size_t k = 0; k < sizeof(cands) / sizeof(cands[0]); k++) {
        const struct passwd *pw = getpwnam(cands[k]);
        if (pw && pw->pw_uid != 0) {
            snprintf(name, len, "%s", cands[k]);
            return 0;
        }
    }
    return -ENOENT;
}

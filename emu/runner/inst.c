/*
 * inst.c - see inst.h.
 *
 * Known limitations:
 *  - One serial port is captured (UART0 for bare-metal, UART1 for Linux);
 *    the other is sent to null.
 */
#include "inst.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>      /* SYS_pidfd_open (Linux 5.3), SYS_pidfd_send_signal (5.1) */
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


volatile sig_atomic_t inst_stop_signal;

static void on_stop_signal(int sig)
{
    inst_stop_signal = sig;
}

void inst_signals_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;            /* no SA_RESTART: blocking calls return EINTR */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

long long inst_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Every ancestor of @path: one that any user may write and that is not
 * sticky (chmod 1777 like /tmp) lets another user swap the run directory
 * for a symlink at any time (docs/SECURITY.md R3).  0 or -EPERM (message). */
static int ancestors_safe(const char *path, const char *what)
{
    char tmp[2 * PATH_MAX + 2], cwd[PATH_MAX];
    struct stat st;

    if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
        snprintf(tmp, sizeof(tmp), "%s", path);
    else
        snprintf(tmp, sizeof(tmp), "%s/%s", cwd, path);
    for (char *slash = strrchr(tmp, '/'); slash; slash = strrchr(tmp, '/')) {
        *slash = '\0';
        if (stat(tmp[0] ? tmp : "/", &st) == 0 && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
            fprintf(stderr, "gemlab: %s: %s is writable by every user and not sticky (mode %04o): another user "
                    "could replace the run directory; use a directory below a safe one\n", what,
                    tmp[0] ? tmp : "/", (unsigned)(st.st_mode & 07777));
            return -EPERM;
        }
    }
    return 0;
}

/* Host-tool outputs are numbered per repeat (iperf-N.json, iperf-N.csv,
 * iperf-n.err): a reused --out directory would keep a previous run's
 * higher-numbered ones next to this run's, and a reader could not tell
 * them apart.  INST_FAULT_LOG is appended to, so a previous run's would
 * be taken for this one's.  The diagnosis, report (report/: its charts),
 * baseline comparison, capture and peer log are written only by a run
 * that gets that far: an earlier run's would sit beside this one's
 * results, and results.json beside a `gemlab boot` that writes none
 * (report would then judge the boot's console by the old run's).  The
 * console and QEMU logs are rewritten at every start.
 * Regular files only; report/ is removed once it is empty. */
static void remove_stale_outputs(const char *dir, int depth)
{
    static const char *const pats[] = { "results.json", "iperf*.json", "iperf*.csv", "iperf*.err", INST_FAULT_LOG,
                                        "diagnosis*.json", "baseline-compare.json", "report.md", "report.html",
                                        "wire.pcapng", "peer.jsonl" };
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];

    if (!d)
        return;
    while ((e = readdir(d))) {
        struct stat st;

        if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path) ||
            lstat(path, &st))
            continue;
        if (depth == 0 && S_ISDIR(st.st_mode) && !strcmp(e->d_name, "report")) {
            remove_stale_outputs(path, 1);
            rmdir(path);
            continue;
        }
        if (!S_ISREG(st.st_mode))
            continue;
        if (depth > 0) {
            unlink(path);   /* report/: every chart and its data */
            continue;
        }
        for (size_t k = 0; k < sizeof(pats) / sizeof(pats[0]); k++) {
            if (fnmatch(pats[k], e->d_name, 0) == 0) {
                unlink(path);
                break;
            }
        }
    }
    closedir(d);
}

/* A run directory is one the runner created: it holds INST_RUN_MARK
 * (docs/SECURITY.md R3: `sudo gemlab run ... --out /tmp` made /tmp mode 0700 and removed
 * other users' /tmp/iperf* files).  Create @path (mode 0700) and mark it,
 * or accept it only when it and its mark are ours; a directory the runner
 * did not create is never chmod()ed, cleaned or written.  @what names the
 * path in messages ("--out DIR").  0 or a negative errno (message printed). */
static int take_run_dir(const char *path, const char *what)
{
    static const char mark_text[] = "gemlab run directory: `gemlab run|boot --out` may reuse and clean it\n";
    struct stat st;
    int dfd, fd, rc;

    if ((rc = runner_mkdir_parents(path))) {
        fprintf(stderr, "gemlab: %s: cannot create its parent directories: %s\n", what, strerror(-rc));
        return rc;
    }
    if ((rc = ancestors_safe(path, what)))
        return rc;
    if (mkdir(path, 0700) == 0) {
        dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        fd = dfd < 0 ? -1 : openat(dfd, INST_RUN_MARK, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        rc = fd < 0 || write(fd, mark_text, sizeof(mark_text) - 1) != (ssize_t)(sizeof(mark_text) - 1) ? -errno : 0;
        if (fd >= 0)
            close(fd);
        if (dfd >= 0)
            close(dfd);
        if (rc)
            fprintf(stderr, "gemlab: %s: cannot write %s in it: %s\n", what, INST_RUN_MARK, strerror(-rc));
        return rc;
    }
    if (errno != EEXIST) {
        rc = -errno;
        fprintf(stderr, "gemlab: %s: cannot create the run directory: %s\n", what, strerror(errno));
        return rc;
    }
    /* an existing one: no symlink, ours, and marked by us */
    dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0 || fstat(dfd, &st) || st.st_uid != geteuid()) {
        fprintf(stderr, "gemlab: %s: exists and is not a directory owned by uid %d (symlinks are refused)\n", what,
                (int)geteuid());
        if (dfd >= 0)
            close(dfd);
        return -EPERM;
    }
    rc = fstatat(dfd, INST_RUN_MARK, &st, AT_SYMLINK_NOFOLLOW);
    close(dfd);
    if (rc || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
        fprintf(stderr, "gemlab: %s: the directory exists and was not created by gemlab (no %s of ours in it); "
                "a run only writes into and cleans directories it created: give a new path (it is created) "
                "or a previous run's directory\n", what, INST_RUN_MARK);
        return -EEXIST;
    }
    return 0;
}

int inst_rundir(struct inst *i, const char *dir, const char *top, const char *name)
{
    struct sockaddr_un sa;
    char buf[512], what[600];
    int rc, fd;

    memset(i, 0, sizeof(*i));
    i->serial_fd = -1;
    i->qmp.fd = -1;
    i->msgs = cJSON_CreateArray();
    if (dir) {
        if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf)) {
            fprintf(stderr, "gemlab: --out: the path is longer than %zu bytes\n", sizeof(buf) - 1);
            return -ENAMETOOLONG;
        }
    } else {
        time_t t = time(NULL);
        struct tm tm;
        char stamp[32];
        localtime_r(&t, &tm);
        strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
        if (snprintf(buf, sizeof(buf), "%s/build/runs/%s-%s-%d", top, name, stamp, (int)getpid()) >=
            (int)sizeof(buf)) {
            fprintf(stderr, "gemlab: the run directory under %s/build/runs is longer than %zu bytes; give --out\n",
                    top, sizeof(buf) - 1);
            return -ENAMETOOLONG;
        }
    }
    snprintf(what, sizeof(what), "%s%s", dir ? "--out " : "run directory ", buf);
    if ((rc = take_run_dir(buf, what)))
        return rc;
    {
        /* one run per directory: the mark's lock, held until we exit
         * (close-on-exec: QEMU does not hold it); the descriptor is
         * left open on purpose */
        char mark[sizeof(buf) + sizeof(INST_RUN_MARK) + 1];
        snprintf(mark, sizeof(mark), "%s/%s", buf, INST_RUN_MARK);
        fd = open(mark, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            rc = -errno;
            fprintf(stderr, "gemlab: %s: %s: %s\n", what, INST_RUN_MARK, strerror(errno));
            return rc;
        }
        if (flock(fd, LOCK_EX | LOCK_NB)) {
            rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
            fprintf(stderr, "gemlab: %s is in use by another gemlab run or boot: give another directory, or "
                            "wait for that one to end\n", what);
            close(fd);
            return rc;
        }
    }
    if (!realpath(buf, i->run_dir))
        return -errno;
    if (access(i->run_dir, W_OK | X_OK)) {
        /* checked before anything in it changes: console.log (mode 0600,
         * ours) could still be truncated in a directory whose earlier
         * results then could not be removed */
        rc = -errno;
        fprintf(stderr, "gemlab: %s: cannot write there: %s (its earlier run is left as it was)\n", what,
                strerror(-rc));
        return rc;
    }
    snprintf(i->qmp_path, sizeof(i->qmp_path), "%s/qmp.sock", i->run_dir);
    snprintf(i->serial_path, sizeof(i->serial_path), "%s/serial.sock", i->run_dir);
    snprintf(i->console_path, sizeof(i->console_path), "%s/console.log", i->run_dir);
    snprintf(i->fault_path, sizeof(i->fault_path), "%s/fault.sock", i->run_dir);
    if (strlen(i->qmp_path) >= sizeof(sa.sun_path) || strlen(i->serial_path) >= sizeof(sa.sun_path)) {
        fprintf(stderr, "gemlab: run directory path too long for a unix socket (%zu >= %zu): use a shorter --out\n",
                strlen(i->serial_path), sizeof(sa.sun_path));
        return -ENAMETOOLONG;
    }
    /* stale sockets from an earlier run in a reused --out directory */
    unlink(i->qmp_path);
    unlink(i->serial_path);
    unlink(i->fault_path);
    remove_stale_outputs(i->run_dir, 0);
    /* not inherited by QEMU; a symlink planted in the directory is refused */
    fd = open(i->console_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 || !(i->console = fdopen(fd, "w"))) {
        rc = -errno;
        fprintf(stderr, "gemlab: %s: %s\n", i->console_path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return rc;
    }
    return 0;
}

int inst_spawn(struct inst *i, char *const argv[])
{
    char log[600], pidf[600];
    FILE *f;
    int rc, fd;

    snprintf(log, sizeof(log), "%s/qemu.log", i->run_dir);
    /* own process group: a terminal ^C reaches only us, and we can kill
     * QEMU and anything it forked with one kill(-pgid); and QEMU dies
     * with us even if we are SIGKILLed */
    rc = runner_spawn(&i->pid, argv, log, NULL);
    if (rc) {
        i->pid = 0;
        fprintf(stderr, "gemlab: cannot start %s: %s\n", argv[0], strerror(rc));
        return -rc;
    }
    snprintf(pidf, sizeof(pidf), "%s/qemu.pid", i->run_dir);
    fd = open(pidf, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0 && (f = fdopen(fd, "w"))) {
        fprintf(f, "%d\n", (int)i->pid);
        fclose(f);
    } else if (fd >= 0) {
        close(fd);
    }
    return 0;
}

bool inst_exited(struct inst *i)
{
    siginfo_t si;

    if (!i->pid || i->exited)
        return true;
    /* WNOWAIT (waitid(2), POSIX): look, leave the zombie.  Reaping here
     * let inst_stop() kill(-pid) seconds later, when that ID could belong
     * to a new process group (docs/SECURITY.md R5). */
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)i->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
        if (errno != ECHILD)
            return false;
        i->exited = i->reaped = true;   /* not our child any more: never signal it */
        i->status = 0;
        return true;
    }
    if (si.si_pid != i->pid)
        return false;                   /* still running */
    i->exited = true;
    /* the wait status waitpid() would have given (<sys/wait.h> layout) */
    i->status = si.si_code == CLD_EXITED ? (si.si_status & 0xff) << 8
                                         : (si.si_status & 0x7f) | (si.si_code == CLD_DUMPED ? 0x80 : 0);
    return true;
}

/* Signal QEMU and its process group while we still own them: only before
 * it is reaped.  The leader is named by a pidfd (pidfd_open(2): an unreaped
 * child's pidfd cannot refer to another process); its group ID cannot be
 * reused while the unreaped leader - running or a zombie - is a member
 * (fork(2): a new PID never equals an existing process group's ID), which
 * makes kill(-pgid) safe for the helpers it forked. */
static void inst_signal(struct inst *i, int sig)
{
    int fd;

    if (!i->pid || i->reaped)
        return;
    fd = (int)syscall(SYS_pidfd_open, i->pid, 0);
    if (fd >= 0) {
        syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
        close(fd);
    } else if (errno != ENOSYS) {
        return;         /* ESRCH: gone although never reaped by us */
    }
    kill(-i->pid, sig);
}

/* Reap the exited QEMU (inst_stop, after its group's last signal). */
static void inst_reap(struct inst *i)
{
    int st;

    if (!i->pid || i->reaped || !inst_exited(i))
        return;
    while (waitpid(i->pid, &st, 0) < 0 && errno == EINTR)
        ;
    i->reaped = true;
}

static int connect_unix(const char *path, int timeout_ms, struct inst *i)
{
    long long deadline = inst_now_ms() + timeout_ms;
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    int fd;

    snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
    for (;;) {
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return -errno;
        if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
            return fd;
        close(fd);
        if (errno != ENOENT && errno != ECONNREFUSED)
            return -errno;
        if (inst_exited(i))
            return -ECHILD;
        if (inst_stop_signal)
            return -EINTR;
        if (inst_now_ms() >= deadline)
            return -ETIMEDOUT;
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
}

int inst_connect(struct inst *i, int timeout_ms)
{
    long long deadline = inst_now_ms() + timeout_ms;
    int fd, rc;

    fd = connect_unix(i->qmp_path, timeout_ms, i);
    if (fd < 0)
        return fd;
    close(fd);      /* it exists; qmp_open reconnects and negotiates */
    rc = qmp_open(&i->qmp, i->qmp_path, (int)(deadline - inst_now_ms() > 100 ? deadline - inst_now_ms() : 100));
    if (rc)
        return rc;
    i->qmp_up = true;
    fd = connect_unix(i->serial_path, (int)(deadline - inst_now_ms() > 100 ? deadline - inst_now_ms() : 100), i);
    if (fd < 0)
        return fd;
    i->serial_fd = fd;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

/* @line is clean (runner_clean_text); cutting it again at INST_TAIL_MAX
 * keeps whole characters. */
static void tail_push(struct inst *i, const char *line, size_t len)
{
    runner_clean_text(i->tail[i->tail_next], INST_TAIL_MAX, line, len, false);
    i->tail_next = (i->tail_next + 1) % INST_TAIL_LINES;
    if (i->tail_n < INST_TAIL_LINES)
        i->tail_n++;
}

static const char *const msg_types[] = { INST_MSG_TYPES };
_Static_assert(sizeof(msg_types) / sizeof(msg_types[0]) == INST_NTYPES, "INST_NTYPES counts INST_MSG_TYPES");

static int msg_type_index(const char *type)
{
    for (int k = 0; k < INST_NTYPES; k++)
        if (strcmp(msg_types[k], type) == 0)
            return k;
    return -1;
}

/* A string value decoded from a JSON escape (\u001b) can hold what the
 * line itself no longer does: clean it the same way. */
static void clean_json_string(cJSON *s)
{
    const unsigned char *v = (const unsigned char *)s->valuestring;
    size_t n = strlen(s->valuestring);
    char *c;

    for (; *v; v++)
        if (*v < 0x20 || *v >= 0x7f)
            break;
    if (!*v || !(c = malloc(3 * n + 1)))
        return;
    runner_clean_text(c, 3 * n + 1, s->valuestring, n, false);
    cJSON_SetValuestring(s, c);
    free(c);
}

/* Estimated memory of the items from @o on (cJSON nodes, keys, strings);
 * cleans string values on the way.  Depth is bounded by cJSON's nesting
 * limit (CJSON_NESTING_LIMIT, 1000). */
static size_t msg_walk(cJSON *o)
{
    size_t c = 0;

    for (; o; o = o->next) {
        c += sizeof(*o);
        if (o->string)
            c += strlen(o->string) + 1;
        if (cJSON_IsString(o) && o->valuestring) {
            clean_json_string(o);
            c += strlen(o->valuestring) + 1;
        }
        c += msg_walk(o->child);
    }
    return c;
}

/* Keep @o (owned) of type index @k: always as the newest of its type, in
 * the history while the history stays under INST_MSGS_MAX_BYTES. */
static void msg_keep(struct inst *i, cJSON *o, int k, size_t cost)
{
    if (i->msg_last_owned[k])
        cJSON_Delete(i->msg_last[k]);
    i->msg_count[k]++;
    i->msg_last[k] = o;
    i->msg_last_owned[k] = false;
    if (i->msgs && cost <= INST_MSGS_MAX_BYTES - i->msgs_bytes) {
        cJSON_AddItemToArray(i->msgs, o);
        i->msgs_bytes += cost;
        return;
    }
    if (!i->msgs_not_kept++ && !i->quiet)
        fprintf(stderr, "gemlab: warning: the firmware's @gemlab messages passed %u MiB; later ones are counted "
                        "and the newest of each type kept, not their history\n", INST_MSGS_MAX_BYTES >> 20);
    i->msg_last_owned[k] = true;
}

/* console.log gets the raw line (what the guest printed) up to its cap. */
static void console_write(struct inst *i, const char *line, size_t len)
{
    if (!i->console)
        return;
    if (i->console_bytes + len + 1 <= INST_CONSOLE_LOG_MAX) {
        fwrite(line, 1, len, i->console);
        fputc('\n', i->console);
        i->console_bytes += len + 1;
    } else if (!i->console_lines_dropped++) {
        fprintf(i->console, "---- gemlab: console.log stops here: it reached its cap of %llu bytes "
                            "(INST_CONSOLE_LOG_MAX); later lines are not written ----\n", INST_CONSOLE_LOG_MAX);
    }
    fflush(i->console);
}

/* Can the JSON text @j be a message of a consumed type?  Only a top-level
 * `"type": "NAME"` with NAME in INST_MSG_TYPES is kept, and that text is
 * then somewhere in @j: a line without it is not parsed at all (a guest
 * printing 64 KiB arrays costs a scan, not 32 K cJSON nodes). */
static bool may_be_consumed(const char *j)
{
    for (const char *p = j; (p = strstr(p, "\"type\"")); ) {
        p += 6;
        p += strspn(p, " \t");
        if (*p != ':')
            continue;
        p++;
        p += strspn(p, " \t");
        if (*p != '"')
            continue;   /* never past the terminator: "type": at the end */
        p++;
        for (int k = 0; k < INST_NTYPES; k++) {
            size_t n = strlen(msg_types[k]);
            if (strncmp(p, msg_types[k], n) == 0 && p[n] == '"')
                return true;
        }
    }
    return false;
}

static void handle_line(struct inst *i, char *line)
{
    size_t len = strlen(line), clen;
    const char *mark;

    while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
        line[--len] = '\0';
    console_write(i, line, len);
    /* everything else sees the line cleaned: the tail goes to the
     * terminal, results.json and (through qemu-test.sh) JUnit XML (docs/SECURITY.md R7) */
    if (3 * len + 1 > i->clean_cap) {
        char *c = realloc(i->clean, 3 * len + 1);

        if (!c) {
            fprintf(stderr, "gemlab: out of memory for a %zu-byte console line; it is in console.log only\n",
                    len);
            return;
        }
        i->clean = c;
        i->clean_cap = 3 * len + 1;
    }
    clen = runner_clean_text(i->clean, i->clean_cap, line, len, false);
    tail_push(i, i->clean, clen);
    /* kernel/panic.c panic(): the guest will print nothing more of use */
    mark = strstr(i->clean, "Kernel panic - not syncing");
    if (mark && !i->panic[0])
        snprintf(i->panic, sizeof(i->panic), "%s", mark);
    if (strstr(i->clean, "unknown command") && i->n_unknown_cmd < INST_UNKNOWN_MAX)
        snprintf(i->unknown_cmd[i->n_unknown_cmd++], sizeof(i->unknown_cmd[0]), "%.159s", i->clean);
    mark = strstr(i->clean, "@gemlab ");
    if (mark && may_be_consumed(mark + 8)) {
        cJSON *o = cJSON_Parse(mark + 8);
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "type");
        int k = cJSON_IsObject(o) && cJSON_IsString(t) ? msg_type_index(t->valuestring) : -1;
        if (k >= 0)
            msg_keep(i, o, k, msg_walk(o));
        else
            cJSON_Delete(o);
    }
}

/* Read what the serial socket has; returns lines handled, or -ECONNRESET. */
static int pump_serial(struct inst *i)
{
    char buf[4096];
    int lines = 0;

    for (;;) {
        ssize_t n = read(i->serial_fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno == EAGAIN ? lines : -errno;
        if (n == 0)
            return -ECONNRESET;
        i->serial_bytes += (unsigned long long)n;
        for (ssize_t k = 0; k < n; k++) {
            char c = buf[k];
            if (i->line_len + 1 >= i->line_cap && i->line_cap < INST_LINE_MAX) {
                size_t cap = i->line_cap ? 2 * i->line_cap : 4096;
                char *l = realloc(i->line, cap < INST_LINE_MAX ? cap : INST_LINE_MAX);

                if (!l)
                    return -ENOMEM;
                i->line = l;
                i->line_cap = cap < INST_LINE_MAX ? cap : INST_LINE_MAX;
            }
            if (c == '\n' || i->line_len == INST_LINE_MAX - 1) {
                i->line[i->line_len] = '\0';
                handle_line(i, i->line);
                i->line_len = 0;
                lines++;
                if (c == '\n')
                    continue;
            }
            if (c != '\0')
                i->line[i->line_len++] = c;
        }
    }
}

int inst_wait(struct inst *i, int timeout_ms, bool (*done)(struct inst *i, void *arg), void *arg)
{
    long long deadline = inst_now_ms() + timeout_ms;

    for (;;) {
        long long now = inst_now_ms();
        struct pollfd p = { .fd = i->serial_fd, .events = POLLIN };
        int slice = 100, r;

        if (done && done(i, arg))
            return 0;
        if (inst_stop_signal)
            return -EINTR;
        if (i->panic[0])
            return -ENOTRECOVERABLE;
        if (inst_exited(i))
            return -ECHILD;
        if (i->watchdog_ms && now >= i->watchdog_ms)
            return -ETIME;
        if (now >= deadline)
            return -ETIMEDOUT;
        if (deadline - now < slice)
            slice = (int)(deadline - now);
        if (i->serial_fd < 0) {
            struct timespec ts = { 0, slice * 1000000L };
            nanosleep(&ts, NULL);
            continue;
        }
        r = poll(&p, 1, slice);
        if (r < 0 && errno != EINTR)
            return -errno;
        if (r > 0) {
            int n = pump_serial(i);
            if (n == -ECONNRESET) {
                /* QEMU closed the console: it is exiting.  Give it a moment
                 * to be reaped so the caller sees -ECHILD. */
                close(i->serial_fd);
                i->serial_fd = -1;
            }
        }
    }
}

const cJSON *inst_last_msg(const struct inst *i, const char *type)
{
    int k = msg_type_index(type);

    return k < 0 ? NULL : i->msg_last[k];
}

int inst_count_msgs(const struct inst *i, const char *type)
{
    int k = msg_type_index(type);

    return k < 0 ? 0 : i->msg_count[k];
}

void inst_msgs_free(struct inst *i)
{
    for (int k = 0; k < INST_NTYPES; k++) {
        if (i->msg_last_owned[k])
            cJSON_Delete(i->msg_last[k]);
        i->msg_last[k] = NULL;
        i->msg_last_owned[k] = false;
    }
    cJSON_Delete(i->msgs);
    i->msgs = NULL;
    i->msgs_bytes = 0;
    free(i->line);
    free(i->clean);
    i->line = i->clean = NULL;
    i->line_len = i->line_cap = i->clean_cap = 0;
}

int inst_send(struct inst *i, const char *line)
{
    size_t len = strlen(line), off = 0;

    long long deadline = inst_now_ms() + INST_SEND_TIMEOUT_MS;

    if (i->serial_fd < 0)
        return -ENOTCONN;
    while (off <= len) {
        const char *p = off < len ? line + off : "\r";
        size_t n = off < len ? len - off : 1;
        ssize_t w = write(i->serial_fd, p, n);
        if (w < 0 && (errno == EINTR || errno == EAGAIN)) {
            /* the guest does not drain its UART: wait for room, but not
             * past a stop signal, QEMU's exit or the deadline (docs/SECURITY.md R10) */
            struct pollfd pf = { .fd = i->serial_fd, .events = POLLOUT };
            if (inst_stop_signal)
                return -EINTR;
            if (inst_exited(i))
                return -ECHILD;
            if (inst_now_ms() >= deadline)
                return -ETIMEDOUT;
            poll(&pf, 1, 20);
            continue;
        }
        if (w < 0)
            return -errno;
        off += (size_t)w;
        if (p[0] == '\r' && n == 1)
            break;
    }
    return 0;
}

void inst_print_tail(const struct inst *i, FILE *out)
{
    int start = (i->tail_next - i->tail_n + INST_TAIL_LINES) % INST_TAIL_LINES;

    fprintf(out, "---- last %d console line(s) (%s) ----\n", i->tail_n, i->console_path);
    for (int k = 0; k < i->tail_n; k++)
        fprintf(out, "%s\n", i->tail[(start + k) % INST_TAIL_LINES]);
    fprintf(out, "---- end of console ----\n");
}

cJSON *inst_tail_json(const struct inst *i)
{
    int start = (i->tail_next - i->tail_n + INST_TAIL_LINES) % INST_TAIL_LINES;
    cJSON *a = cJSON_CreateArray();

    for (int k = 0; k < i->tail_n; k++)
        cJSON_AddItemToArray(a, cJSON_CreateString(i->tail[(start + k) % INST_TAIL_LINES]));
    return a;
}

static bool wait_exit(struct inst *i, int ms)
{
    long long deadline = inst_now_ms() + ms;

    while (!inst_exited(i)) {
        if (inst_now_ms() >= deadline)
            return false;
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    return true;
}

void inst_stop(struct inst *i)
{
    if (i->pid && !inst_exited(i)) {
        if (i->qmp_up)
            qmp_quit(&i->qmp, 1000);
        if (!wait_exit(i, 2000)) {
            inst_signal(i, SIGTERM);
            if (!wait_exit(i, 2000)) {
                inst_signal(i, SIGKILL);
                wait_exit(i, 5000);
            }
        }
    }
    /* anything left in QEMU's group (helpers) goes too, then QEMU is
     * reaped: from here on its PID and group ID are not ours to signal */
    inst_signal(i, SIGKILL);
    inst_reap(i);
    if (i->qmp_up || i->qmp.fd >= 0)
        qmp_close(&i->qmp);
    i->qmp_up = false;
    if (i->serial_fd >= 0) {
        pump_serial(i);     /* keep the last words */
        close(i->serial_fd);
    }
    i->serial_fd = -1;
    if (i->line_len) {
        i->line[i->line_len] = '\0';
        handle_line(i, i->line);
        i->line_len = 0;
    }
    if (i->console) {
        if (i->console_lines_dropped)
            fprintf(i->console, "---- gemlab: %lu console line(s) not written ----\n", i->console_lines_dropped);
        fclose(i->console);
    }
    i->console = NULL;
    if (i->qmp_path[0])
        unlink(i->qmp_path);
    if (i->serial_path[0])
        unlink(i->serial_path);
    if (i->fault_path[0])
        unlink(i->fault_path);
    if (i->run_dir[0]) {
        char pidf[600];
        snprintf(pidf, sizeof(pidf), "%s/qemu.pid", i->run_dir);
        unlink(pidf);
    }
}

void inst_describe_exit(const struct inst *i, char *buf, size_t len)
{
    if (!i->exited)
        snprintf(buf, len, "still running");
    else if (WIFEXITED(i->status))
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(i->status));
    else if (WIFSIGNALED(i->status))
        snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(i->status), strsignal(WTERMSIG(i->status)));
    else
        snprintf(buf, len, "ended (status 0x%x)", i->status);
}

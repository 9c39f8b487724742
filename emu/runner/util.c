/* util.c - small helpers shared by the runner's commands (util.h). */
#define _GNU_SOURCE            /* pipe2 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include "util.h"

void runner_find_top(char *top, size_t len)
{
    char exe[PATH_MAX], probe[PATH_MAX + 32];
    const char *env = getenv("GEMLAB_TOP");
    static bool warned;
    ssize_t n;

    /* docs/SECURITY.md R8: as root (or setuid) the environment does not choose the
     * tree whose files the runner trusts */
    if (env && *env && (geteuid() == 0 || getuid() != geteuid())) {
        if (!warned)
            fprintf(stderr, "gemlab: as root GEMLAB_TOP is ignored (the tree is found from the binary)\n");
        warned = true;
        env = NULL;
    }
    if (env && *env) {
        snprintf(top, len, "%s", env);
        return;
    }
    n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
        exe[n] = '\0';
        for (int up = 0; up < 4; up++) {
            char *slash = strrchr(exe, '/');
            if (!slash)
                break;
            *slash = '\0';
            snprintf(probe, sizeof(probe), "%s/emu/runner", exe);
            if (access(probe, F_OK) == 0) {
                snprintf(top, len, "%s", exe);
                return;
            }
        }
    }
    if (!getcwd(top, len))
        snprintf(top, len, ".");
}

/* HTML 5 "escapable raw text": & < > " ' are the characters that can end
 * text or a quoted attribute value (HTML Living Standard 13.1.2.3-4). */
void runner_html_esc(FILE *f, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
}

void runner_html_class(FILE *f, const char *s)
{
    for (; s && *s; s++)
        if (((*s | 32) >= 'a' && (*s | 32) <= 'z') || *s == '_')
            fputc(*s, f);
}

/* CommonMark 2.4: any ASCII punctuation may be backslash-escaped; these
 * are the ones that start inline markup, a table cell (GFM), an entity
 * (&) or HTML (<).  \r and \n are line endings (CommonMark 2.1): a space. */
void runner_md_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '\n' || *s == '\r') {
            fputc(' ', f);
            continue;
        }
        if (strchr("|*_`[]<>\\#&!~", *s))
            fputc('\\', f);
        fputc(*s, f);
    }
}

/* CommonMark 6.1: backslash escapes do not work in code spans; the fence
 * is one backtick more than the longest run inside, padded with a space
 * when the text starts or ends with a backtick.  In a GFM table cell a |
 * still ends the cell unless escaped, even inside a code span. */
void runner_md_code(FILE *f, const char *s, bool in_table)
{
    size_t run = 0, longest = 0;
    bool pad;

    s = s ? s : "";
    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    pad = *s == '`' || (*s && s[strlen(s) - 1] == '`');
    for (size_t k = 0; k <= longest; k++)
        fputc('`', f);
    if (pad)
        fputc(' ', f);
    for (const char *p = s; *p; p++) {
        if (*p == '\n' || *p == '\r')
            fputc(' ', f);
        else if (*p == '|' && in_table)
            fputs("\\|", f);
        else
            fputc(*p, f);
    }
    if (pad)
        fputc(' ', f);
    for (size_t k = 0; k <= longest; k++)
        fputc('`', f);
}

/* RFC 3986 2.1/3.3: a relative path reference with everything but
 * unreserved characters and '/' percent-encoded, so no scheme
 * ("javascript:"), quote, parenthesis or space survives into a link. */
void runner_url_path(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (((c | 32) >= 'a' && (c | 32) <= 'z') || (c >= '0' && c <= '9') || strchr("-._~/", c))
            fputc(c, f);
        else
            fprintf(f, "%%%02X", c);
    }
}

const cJSON *runner_json_path(const cJSON *root, const char *path)
{
    char key[64];
    const cJSON *cur = root;

    while (cur && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof(key))
            return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        cur = cJSON_GetObjectItemCaseSensitive(cur, key);
        path += n + (path[n] == '.');
    }
    return cur;
}

const cJSON *runner_results_get(const cJSON *results, const char *path)
{
    /* gemlab-results-2 keeps what was asked under truth.conditions
     * (emu/runner/RESULTS.md); a gemlab-results-1 file has it at the top */
    if (strncmp(path, "conditions.", 11) == 0) {
        char moved[128];
        const cJSON *v;
        snprintf(moved, sizeof(moved), "truth.%s", path);
        v = runner_json_path(results, moved);
        if (v)
            return v;
    }
    return runner_json_path(results, path);
}

/* Open @path as descriptor @target (mode 0600 when created), leaving no
 * other descriptor behind; 0 or -1 with errno.  Async-signal-safe. */
static int open_as(int target, const char *path, int flags)
{
    int fd = open(path, flags, 0600);

    if (fd < 0)
        return -1;
    if (fd != target) {
        if (dup2(fd, target) < 0)
            return -1;
        close(fd);
    }
    return 0;
}

/* In the child between fork and exec: only async-signal-safe calls. */
static void spawn_child(int report_fd, pid_t parent, char *const argv[], const char *out_path,
                        const char *err_path)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    struct sigaction dfl;
    sigset_t none;
    int err;

    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    for (size_t k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
        sigaction(sigs[k], &dfl, NULL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (setpgid(0, 0) || prctl(PR_SET_PDEATHSIG, SIGKILL))
        goto fail;
    if (getppid() != parent) {          /* the runner died before prctl */
        errno = ESRCH;
        goto fail;
    }
    /* run-directory files: a symlink planted there is refused (docs/SECURITY.md R3) */
    if (open_as(0, "/dev/null", O_RDONLY) || open_as(1, out_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW))
        goto fail;
    if (err_path ? open_as(2, err_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW) : dup2(1, 2) < 0)
        goto fail;
    execvp(argv[0], argv);
fail:
    err = errno;
    if (write(report_fd, &err, sizeof(err)) < 0)
        _exit(126);
    _exit(127);
}

int runner_spawn(pid_t *pid, char *const argv[], const char *out_path, const char *err_path)
{
    pid_t parent = getpid(), c;
    int pfd[2], err = 0;
    ssize_t n;

    /* close-on-exec: EOF on a successful exec, the errno otherwise */
    if (pipe2(pfd, O_CLOEXEC))
        return errno;
    c = fork();
    if (c < 0) {
        err = errno;
        close(pfd[0]);
        close(pfd[1]);
        return err;
    }
    if (c == 0)
        spawn_child(pfd[1], parent, argv, out_path, err_path);
    close(pfd[1]);
    do
        n = read(pfd[0], &err, sizeof(err));
    while (n < 0 && errno == EINTR);
    close(pfd[0]);
    if (n == (ssize_t)sizeof(err)) {
        while (waitpid(c, NULL, 0) < 0 && errno == EINTR)
            ;
        return err ? err : EIO;
    }
    *pid = c;
    return 0;
}

/* ---- result files (util.h, docs/SECURITY.md D1) ------------------------ */

int runner_out_open(struct runner_out *o, const char *path)
{
    const char *slash;
    mode_t mask;
    int fd, rc;

    memset(o, 0, sizeof(*o));
    if (snprintf(o->path, sizeof(o->path), "%s", path) >= (int)sizeof(o->path)) {
        fprintf(stderr, "%s: cannot write: %s\n", path, strerror(ENAMETOOLONG));
        return -ENAMETOOLONG;
    }
    /* the temporary lives in the target's directory: rename(2) is atomic
     * only within one file system */
    slash = strrchr(path, '/');
    snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0, path,
             slash ? slash + 1 : path);
    fd = mkstemp(o->tmp);       /* O_EXCL: never follows a planted symlink */
    if (fd < 0) {
        rc = -errno;
        fprintf(stderr, "%s: cannot write: %s\n", path, strerror(errno));
        o->tmp[0] = '\0';
        return rc;
    }
    /* the mode fopen() would have given it (the CLI runs with umask 077) */
    mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) || fcntl(fd, F_SETFD, FD_CLOEXEC) || !(o->f = fdopen(fd, "w"))) {
        rc = -errno;
        fprintf(stderr, "%s: cannot write: %s\n", path, strerror(errno));
        close(fd);
        unlink(o->tmp);
        o->tmp[0] = '\0';
        return rc;
    }
    return 0;
}

void runner_out_abort(struct runner_out *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp[0])
        unlink(o->tmp);
    o->tmp[0] = '\0';
}

int runner_out_commit(struct runner_out *o)
{
    char dir[sizeof(o->path)];
    const char *slash = strrchr(o->path, '/');
    int err = 0, dfd;

    if (!o->f)
        return -EBADF;
    /* ferror() keeps a failed buffered write (ENOSPC) sticky; fflush()
     * reports the rest, fsync() what the file system defers (NFS, quota) */
    errno = 0;
    if (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f)))
        err = errno ? errno : EIO;
    if (fclose(o->f) && !err)
        err = errno;
    o->f = NULL;
    if (!err && rename(o->tmp, o->path))
        err = errno;
    if (err) {
        fprintf(stderr, "%s: cannot write: %s\n", o->path, strerror(err));
        unlink(o->tmp);
        o->tmp[0] = '\0';
        return -err;
    }
    o->tmp[0] = '\0';
    snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - o->path) + (slash == o->path) : 1,
             slash ? o->path : ".");
    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0 || fsync(dfd)) {
        err = errno;
        if (dfd >= 0)
            close(dfd);
        /* the file is in place; only its durability is in doubt */
        fprintf(stderr, "%s: fsync of its directory: %s\n", o->path, strerror(err));
        return -err;
    }
    close(dfd);
    return 0;
}

int runner_write_text(const char *path, const char *text)
{
    struct runner_out o;
    int rc;

    if (!text) {            /* cJSON_Print() out of memory */
        fprintf(stderr, "%s: cannot write: %s\n", path, strerror(ENOMEM));
        return -ENOMEM;
    }
    if ((rc = runner_out_open(&o, path)))
        return rc;
    if (fputs(text, o.f) < 0 || fputc('\n', o.f) < 0) {
        rc = -(errno ? errno : EIO);
        fprintf(stderr, "%s: cannot write: %s\n", path, strerror(-rc));
        runner_out_abort(&o);
        return rc;
    }
    return runner_out_commit(&o);
}

bool runner_run_incomplete(const char *run_dir, FILE *err)
{
    char path[PATH_MAX + 32];

    snprintf(path, sizeof(path), "%s/%s", run_dir, RUNNER_IN_PROGRESS);
    if (access(path, F_OK))
        return false;
    if (err)
        fprintf(err, "%s: the run did not finish (%s is there: killed, or its results could not be written); "
                "run it again\n", run_dir, RUNNER_IN_PROGRESS);
    return true;
}

size_t runner_clean_text(char *out, size_t cap, const char *in, size_t n, bool keep_newlines)
{
    static const char fffd[] = "\xEF\xBF\xBD";     /* U+FFFD REPLACEMENT CHARACTER */
    const unsigned char *p = (const unsigned char *)in, *end = p + n;
    size_t o = 0;

    if (!cap)
        return 0;
    while (p < end) {
        unsigned c = *p, cp, len = 1;
        char caret[2];
        const char *w = (const char *)p;    /* what to write: @wn bytes at @w */
        size_t wn = 1;

        if (c < 0x80) {
            bool keep = c == '\t' || (keep_newlines && (c == '\n' || c == '\r'));
            if ((c < 0x20 && !keep) || c == 0x7f) {   /* ESC -> ^[, BEL -> ^G, DEL -> ^? */
                caret[0] = '^';
                caret[1] = c == 0x7f ? '?' : (char)(c ^ 0x40);
                w = caret;
                wn = 2;
            }
        } else {
            /* RFC 3629 section 4: lead bytes C2-F4, no overlong forms, no
             * surrogates, nothing above U+10FFFF; one U+FFFD per bad byte */
            bool ok;
            len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
            ok = len && (size_t)(end - p) >= len;
            cp = c & (0x7fu >> len);
            for (unsigned k = 1; ok && k < len; k++) {
                ok = (p[k] & 0xC0) == 0x80;
                cp = cp << 6 | (p[k] & 0x3Fu);
            }
            if (ok && ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
                       (cp >= 0xD800 && cp <= 0xDFFF)))
                ok = false;
            if (!ok)
                len = 1;
            /* C1 controls (CSI U+009B, OSC U+009D) reach terminals too;
             * U+FFFE/U+FFFF are not XML 1.0 Chars (XML 1.0 section 2.2) */
            if (!ok || cp <= 0x9F || cp == 0xFFFE || cp == 0xFFFF) {
                w = fffd;
                wn = 3;
            } else {
                wn = len;
            }
        }
        if (o + wn >= cap)
            break;          /* a short @cap cuts at a character boundary */
        memcpy(out + o, w, wn);
        o += wn;
        p += len;
    }
    out[o] = '\0';
    return o;
}

/* ---- files and directories ------------------------------------------------ */

int runner_mkdir_p(const char *dir, mode_t mode)
{
    char buf[PATH_MAX];
    size_t n = strlen(dir);
    struct stat st;

    if (n == 0)
        return -ENOENT;
    if (n >= sizeof(buf))
        return -ENAMETOOLONG;
    memcpy(buf, dir, n + 1);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/' || p[-1] == '/')
            continue;
        *p = '\0';
        if (mkdir(buf, mode) && errno != EEXIST)
            return -errno;
        *p = '/';
    }
    if (mkdir(buf, mode) && errno != EEXIST)
        return -errno;
    /* EEXIST says nothing about what is there (mkdir(2)) */
    if (stat(buf, &st))
        return -errno;
    return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int runner_take_out_dir(const char *dir, const char *kind, const char *known, mode_t mode)
{
    char path[PATH_MAX + 64];
    struct stat st;
    bool fresh = stat(dir, &st) != 0;
    int rc;

    if (!fresh && !S_ISDIR(st.st_mode))
        return -ENOTDIR;
    if ((rc = runner_mkdir_p(dir, mode)))
        return rc;
    if (snprintf(path, sizeof(path), "%s/.gemlab-%s", dir, kind) >= (int)sizeof(path))
        return -ENAMETOOLONG;
    if (!fresh && access(path, F_OK) != 0) {
        char old[PATH_MAX + 64];
        DIR *d;
        struct dirent *e;
        bool empty = true;

        snprintf(old, sizeof(old), "%s/%s", dir, known);
        if (access(old, F_OK) != 0) {
            if (!(d = opendir(dir)))
                return -errno;
            while (empty && (e = readdir(d)))
                empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
            closedir(d);
            if (!empty)
                return -EEXIST;
        }
    }
    return access(path, F_OK) == 0 ? 0 : runner_write_text(path, "a gemlab output directory: gemlab may "
                                                                 "replace what it wrote here\n");
}

int runner_mkdir_parents(const char *path)
{
    char buf[PATH_MAX];
    size_t n = strlen(path);
    char *slash;

    if (n >= sizeof(buf))
        return -ENAMETOOLONG;
    memcpy(buf, path, n + 1);
    slash = strrchr(buf, '/');
    if (!slash || slash == buf)
        return 0;               /* "name" or "/name": nothing to create */
    *slash = '\0';
    return runner_mkdir_p(buf, 0755);
}

char *runner_read_file(const char *path, size_t max, size_t *len)
{
    /* O_NONBLOCK: opening a FIFO for reading would wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    FILE *f;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int e = 0;

    if (fd < 0)
        return NULL;
    if (fstat(fd, &st))
        e = errno;
    else if (!S_ISREG(st.st_mode))
        e = EINVAL;
    if (e) {
        close(fd);
        errno = e;
        return NULL;
    }
    if (!(f = fdopen(fd, "r"))) {
        e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 4096;
            char *nb;
            if (cap > max) {
                e = EFBIG;
                break;
            }
            if (!(nb = realloc(buf, ncap + 1))) {
                e = ENOMEM;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n > max) {
            e = EFBIG;
            break;
        }
        if (got == 0) {
            if (ferror(f))
                e = EIO;
            break;
        }
    }
    fclose(f);
    if (e) {
        free(buf);
        errno = e;
        return NULL;
    }
    if (!buf && !(buf = malloc(1))) {
        errno = ENOMEM;
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

size_t runner_appendf(char *buf, size_t size, size_t off, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (!size)
        return 0;
    if (off >= size - 1)
        return size - 1;
    va_start(ap, fmt);
    n = vsnprintf(buf + off, size - off, fmt, ap);
    va_end(ap);
    if (n < 0)
        return off;
    return (size_t)n >= size - off ? size - 1 : off + (size_t)n;
}

enum runner_traffic runner_traffic_path(bool sim, bool vt, bool link_up)
{
    /* the idle phase (--net idle) keeps the timeline's virtual times, link or not */
    if (vt && !sim)
        return RUNNER_TRAFFIC_VT_IDLE;
    if (!link_up)
        return RUNNER_TRAFFIC_NO_LINK;
    return sim ? RUNNER_TRAFFIC_SIM : RUNNER_TRAFFIC_HOST;
}

/* JSON numbers of results and guest lines: a finite number or a numeric
 * string, else NAN; and NAN written as null. */
void rs_add_num_or_null(cJSON *o, const char *name, double v)
{
    if (isnan(v))
        cJSON_AddNullToObject(o, name);
    else
        cJSON_AddNumberToObject(o, name, v);
}

cJSON *rs_json_u64(uint64_t v)
{
    char digits[24];

    if (v < UINT64_C(1000000000000000))   /* cJSON prints 15 digits (%1.15g) */
        return cJSON_CreateNumber((double)v);
    snprintf(digits, sizeof(digits), "%" PRIu64, v);
    return cJSON_CreateRaw(digits);
}

void rs_add_nonempty(cJSON *o, const char *name, cJSON *arr)
{
    if (cJSON_GetArraySize(arr) > 0)
        cJSON_AddItemToObject(o, name, arr);
    else
        cJSON_Delete(arr);
}

double rs_reg16(double v)
{
    return v >= 0 && v <= 0xFFFF && v == floor(v) ? v : NAN;
}

double rs_jnumber(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

    if (cJSON_IsNumber(v))
        return isfinite(v->valuedouble) ? v->valuedouble : NAN;
    if (cJSON_IsString(v) && v->valuestring[0]) {
        char *end;
        double d = strtod(v->valuestring, &end);
        return *end || !isfinite(d) ? NAN : d;
    }
    return NAN;
}

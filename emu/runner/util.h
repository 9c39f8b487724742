/* util.h - small helpers shared by the runner's commands. */
#ifndef GEMLAB_RUNNER_UTIL_H
#define GEMLAB_RUNNER_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* The repository top: $GEMLAB_TOP (not as root or setuid), else derived
 * from the binary (TOP/build/host/bin/gemlab), else the working directory,
 * else ".". */
void runner_find_top(char *top, size_t len);

/* Write @s to @f escaped for HTML text and quoted attribute values
 * (& < > " '). */
void runner_html_esc(FILE *f, const char *s);

/* Write only the [A-Za-z_] characters of @s: a class attribute value. */
void runner_html_class(FILE *f, const char *s);

/* Write @s to @f escaped for Markdown text or a table cell (line endings
 * become spaces). */
void runner_md_esc(FILE *f, const char *s);

/* Write @s to @f as a Markdown code span (its own backtick fence);
 * @in_table escapes | for a GFM table cell. */
void runner_md_code(FILE *f, const char *s, bool in_table);

/* Write the relative path @s to @f percent-encoded for a link target
 * (Markdown or an HTML href). */
void runner_url_path(FILE *f, const char *s);

/* ---- files and directories: the runner's one copy of each ----------------- */

/* mkdir -p: create @dir and its missing parents with @mode (existing ones
 * are fine).  0, or a negative errno (-ENAMETOOLONG past PATH_MAX, -ENOTDIR
 * when a component is a file). */
int runner_mkdir_p(const char *dir, mode_t mode);
/* The missing parent directories of @path (not @path itself), 0755. */
int runner_mkdir_parents(const char *path);

/* An --out DIR that `gemlab report|merge|campaign` may write into: one it
 * creates, an empty one, or one that holds its mark ".gemlab-KIND" or
 * @known (a file it wrote there before marks existed, e.g. campaign.json).
 * Created with @mode; the mark is written.  Anything else, e.g. /tmp or $HOME, is refused:
 * 0, or -EEXIST (holds other files), -ENOTDIR, or another -errno. */
int runner_take_out_dir(const char *dir, const char *kind, const char *known, mode_t mode);
/* The whole of @path, NUL-terminated (*len, when given, is its length):
 * NULL with errno set when it cannot be opened or read, EINVAL when it is
 * not a regular file (a FIFO is refused without waiting for a writer, a
 * directory without reading it), or EFBIG when it is longer than @max
 * bytes. */
char *runner_read_file(const char *path, size_t max, size_t *len);
/* Append printf text at @off in @buf of @size bytes, cutting it to fit;
 * returns the new length, at most @size - 1 (snprintf returns the length
 * the text would have had, which as the next offset writes past @buf). */
size_t runner_appendf(char *buf, size_t size, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

struct cJSON;

/* The item at dotted @path below @root ("conditions.rx_bds"), or NULL
 * when a step is missing or a key is 64 bytes or longer. */
const struct cJSON *runner_json_path(const struct cJSON *root, const char *path);
/* The same for a results.json: "conditions.X" is read from truth.conditions.X
 * (gemlab-results-2), else from conditions.X (a gemlab-results-1 file).
 * For reports, baselines and merges; the diagnosis never reads either. */
const struct cJSON *runner_results_get(const struct cJSON *results, const char *path);

/* Start argv[0] (searched in PATH when it has no '/') as a child in a
 * process group of its own, so one kill(-pid) reaches it and whatever it
 * forks.  SIGINT, SIGTERM, SIGHUP and SIGPIPE are at their defaults in
 * it; stdin is /dev/null, stdout @out_path (created 0600, truncated) and
 * stderr @err_path, or stdout when @err_path is NULL.  The kernel
 * SIGKILLs the child if the runner dies first, even by SIGKILL
 * (PR_SET_PDEATHSIG), so no QEMU or host iperf outlives a killed runner.
 * Returns 0 and sets *pid, or a positive errno as posix_spawn does,
 * failures of open() and exec() in the child included. */
int runner_spawn(pid_t *pid, char *const argv[], const char *out_path, const char *err_path);

/* ---- result files: atomic, checked writes (docs/SECURITY.md D1) -----------
 * Every file a reader takes as a result (results.json, diagnosis.json,
 * report.md/html, junit.xml, index.json/html, baselines) is written through
 * these: the text goes to a mkstemp() temporary in the target's directory,
 * which is flushed, fsync()ed and rename()d over the target, and the
 * directory is fsync()ed (rename(2) is atomic within a file system; fsync(2)
 * "Calling fsync() does not necessarily ensure that the entry in the
 * directory containing the file has also reached disk").  A reader sees the
 * old file or the complete new one, never a torn one; a failure (ENOSPC,
 * EIO) leaves no temporary behind and is reported. */
struct runner_out {
    FILE *f;                /* write the content here */
    char path[4096], tmp[4096 + 16];
};

/* Start writing @path: 0, or a negative errno (message on stderr). */
int runner_out_open(struct runner_out *o, const char *path);
/* Finish: every step checked; 0, or a negative errno with a message on
 * stderr naming the file (the target is then untouched). */
int runner_out_commit(struct runner_out *o);
/* Give up: the temporary is removed, the target untouched. */
void runner_out_abort(struct runner_out *o);
/* @text plus a newline to @path through the above. */
int runner_write_text(const char *path, const char *text);

/* RUN_DIR/run.in-progress: written when `gemlab run` starts, removed once
 * results.json and diagnosis.json are complete.  A run directory holding it
 * is incomplete (the run was killed, or its results could not be written):
 * report, baseline save and merge refuse or flag it. */
#define RUNNER_IN_PROGRESS "run.in-progress"
/* True when @run_dir holds RUNNER_IN_PROGRESS (message on @err if not NULL). */
bool runner_run_incomplete(const char *run_dir, FILE *err);

/* Copy @n bytes of untrusted text @in (a guest's console, a JUnit file)
 * to @out (@cap >= 3 * @n + 1 keeps all of it) as valid UTF-8 that is safe
 * for a terminal, XML 1.0 and strict JSON readers (docs/SECURITY.md R7): C0
 * controls but TAB (and LF/CR with @keep_newlines) and DEL become caret
 * notation (ESC -> "^["); invalid UTF-8 bytes (RFC 3629), C1 controls
 * (U+0080-U+009F) and U+FFFE/U+FFFF become U+FFFD.  A short @cap cuts at a
 * character boundary.  Returns the length written (NUL-terminated). */
size_t runner_clean_text(char *out, size_t cap, const char *in, size_t n, bool keep_newlines);

/* Which traffic a run does once the board is up (run.c), from the net mode
 * and the board's link state:
 *   RUNNER_TRAFFIC_SIM      --net sim: the in-emulator peer (docs/PEER.md)
 *   RUNNER_TRAFFIC_VT_IDLE  virtual time without the peer (--net idle):
 *                           [traffic] duration of idle virtual time
 *   RUNNER_TRAFFIC_NO_LINK  the board has no link: traffic is skipped and
 *                           said so, in either clock (no cable, a 2-pair
 *                           cable without downshift); `link = down` decides
 *   RUNNER_TRAFFIC_HOST     the host's tools, the pair peer or a sweep */
enum runner_traffic {
    RUNNER_TRAFFIC_SIM,
    RUNNER_TRAFFIC_VT_IDLE,
    RUNNER_TRAFFIC_NO_LINK,
    RUNNER_TRAFFIC_HOST,
};
enum runner_traffic runner_traffic_path(bool sim, bool vt, bool link_up);

/* @name of @o as a number: a finite JSON number or numeric string, else
 * NAN.  rs_add_num_or_null writes NAN as null. */
double rs_jnumber(const struct cJSON *o, const char *name);
/* @v when it is a 16-bit register's value (a whole number in 0..0xFFFF,
 * IEEE 802.3 22.2.4), else NAN: a guest or a hand-edited file may print
 * anything, and (unsigned) of a negative or huge double is undefined. */
double rs_reg16(double v);
void rs_add_num_or_null(struct cJSON *o, const char *name, double v);
/* @v as a JSON number with every digit: a double holds integers only up
 * to 2^53 (RFC 8259 6) and cJSON prints 15 significant digits, so one of
 * 16 digits or more is written as its exact digits */
struct cJSON *rs_json_u64(uint64_t v);
/* @arr (owned) under @name of @o when it has items; else it is freed */
void rs_add_nonempty(struct cJSON *o, const char *name, struct cJSON *arr);

#endif /* GEMLAB_RUNNER_UTIL_H */

/* What a guest's console can make the runner do (docs/SECURITY.md R1, R7):
 * a forked writer floods the serial "socket" (a pipe) and the runner's own
 * pump_serial()/handle_line() read it.  Checked: the @gemlab messages the
 * runner keeps stay under INST_MSGS_MAX_BYTES (measured here from the
 * cJSON tree, not from the runner's own count), only consumed types are
 * kept, the newest of each type and the counts stay right past the cap,
 * console.log stops at INST_CONSOLE_LOG_MAX with a marker; control
 * characters and invalid UTF-8 never reach the tail (terminal, JUnit,
 * results.json console_tail) or message strings (firmware_stats).
 * The module is included (`#include "module.c"`) to reach its static
 * functions. */
#include "../../../emu/runner/inst.c"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#undef malloc
#undef calloc
#undef realloc
#undef free

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/gemlab-console-test-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char path[128];
    (void)state;
    snprintf(path, sizeof(path), "%s/console.log", dir);
    unlink(path);
    rmdir(dir);
    return 0;
}

/* An instance reading the pipe @fd, console.log in dir. */
static void inst_on_pipe(struct inst *in, int fd)
{
    char path[128];

    memset(in, 0, sizeof(*in));
    in->quiet = true;
    in->serial_fd = fd;
    in->qmp.fd = -1;
    in->msgs = cJSON_CreateArray();
    snprintf(in->console_path, sizeof(in->console_path), "%s/console.log", dir);
    snprintf(path, sizeof(path), "%s/console.log", dir);
    in->console = fopen(path, "we");
    assert_non_null(in->console);
    fcntl(fd, F_SETFL, O_NONBLOCK);
}

/* Memory the kept messages hold: one cJSON node per item plus its key and
 * string (the runner's own estimate is not trusted here). */
static size_t held(const cJSON *o)
{
    size_t c = 0;

    for (; o; o = o->next) {
        c += sizeof(*o) + (o->string ? strlen(o->string) + 1 : 0);
        if (cJSON_IsString(o))
            c += strlen(o->valuestring) + 1;
        c += held(o->child);
    }
    return c;
}

/* Line @n of the flood: `@gemlab {"x":[0,0,...]}` of about 60 KB, every
 * fourth one with "type":"progress" (a type the runner keeps). */
static int flood_line(char *line, size_t cap, size_t n)
{
    int off = snprintf(line, cap, "@gemlab {%s\"x\":[0", n % 4 == 3 ? "\"type\":\"progress\"," : "");

    for (; off < (int)cap - 8; off += 2)
        memcpy(line + off, ",0", 2);
    return off + snprintf(line + off, cap - (size_t)off, "]}\n");
}

/* A child writes flood lines until @total bytes, then a "progress" line
 * with "last":true, and exits.  Returns its pid; *@typed is the number of
 * "progress" lines it writes. */
static pid_t flood(int wfd, size_t total, int *typed)
{
    static char line[60000];
    size_t sent = 0, n = 0;
    pid_t pid;

    for (*typed = 1; sent < total; n++) {
        sent += (size_t)flood_line(line, sizeof(line), n);
        *typed += n % 4 == 3;
    }
    pid = fork();
    if (pid)
        return pid;
    for (sent = 0, n = 0; sent < total; n++) {
        int len = flood_line(line, sizeof(line), n);
        for (int w = 0; w < len;) {
            ssize_t k = write(wfd, line + w, (size_t)(len - w));
            if (k < 0)
                _exit(1);
            w += (int)k;
        }
        sent += (size_t)len;
    }
    dprintf(wfd, "@gemlab {\"type\":\"progress\",\"last\":true}\n");
    _exit(0);
}

/* R1: ~50 MB of guest JSON: the runner holds at most INST_MSGS_MAX_BYTES
 * of messages at any time, console.log stops at its cap with a marker,
 * and the newest message and the count survive the cap. */
static void test_console_flood_stays_under_memory_and_log_caps(void **state)
{
    static struct inst in;
    int fds[2], rc, st, typed;
    size_t peak = 0;
    struct stat sb;
    pid_t w;
    (void)state;

    assert_int_equal(pipe(fds), 0);
    w = flood(fds[1], 50u << 20, &typed);
    close(fds[1]);
    inst_on_pipe(&in, fds[0]);
    for (unsigned pumps = 0;; pumps++) {
        struct pollfd p = { .fd = fds[0], .events = POLLIN };
        size_t now = 0;
        poll(&p, 1, 1000);
        rc = pump_serial(&in);
        if (pumps % 8 == 0 || rc == -ECONNRESET)   /* the walk is the slow part */
            now = held(in.msgs);
        peak = now > peak ? now : peak;
        if (now > INST_MSGS_MAX_BYTES)
            fail_msg("the runner holds %zu bytes of console messages (cap %u)", now, INST_MSGS_MAX_BYTES);
        if (rc == -ECONNRESET)
            break;
        assert_true(rc >= 0);
    }
    assert_int_equal(waitpid(w, &st, 0), w);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    inst_stop(&in);     /* closes console.log with its final count */
    assert_true(peak > (INST_MSGS_MAX_BYTES / 4) * 3);  /* the history was used, up to the cap */
    /* past the cap: counted, and the newest of its type kept */
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(inst_last_msg(&in, "progress"), "last")));
    assert_int_equal(inst_count_msgs(&in, "progress"), typed);
    assert_true(in.msgs_not_kept > 0);
    assert_int_equal(cJSON_GetArraySize(in.msgs) + (int)in.msgs_not_kept, inst_count_msgs(&in, "progress"));
    /* console.log: the cap, one marker line, the final count line */
    assert_int_equal(stat(in.console_path, &sb), 0);
    assert_true((unsigned long long)sb.st_size <= INST_CONSOLE_LOG_MAX + 512);
    assert_true((unsigned long long)sb.st_size >= INST_CONSOLE_LOG_MAX - 60000);
    {
        FILE *f = fopen(in.console_path, "r");
        char tail[512];
        size_t n;
        assert_non_null(f);
        fseek(f, -(long)sizeof(tail) + 1, SEEK_END);
        n = fread(tail, 1, sizeof(tail) - 1, f);
        tail[n] = '\0';
        fclose(f);
        assert_non_null(strstr(tail, "console.log stops here"));
        assert_non_null(strstr(tail, "console line(s) not written"));
    }
    inst_msgs_free(&in);
    close(fds[0]);
}

/* @text through the pipe from a forked writer (it may be longer than the
 * pipe holds), read by pump_serial() to the writer's end. */
static void feed(struct inst *in, const char *text)
{
    int fds[2], st, rc;
    pid_t w;

    assert_int_equal(pipe(fds), 0);
    w = fork();
    assert_true(w >= 0);
    if (w == 0) {
        size_t len = strlen(text);
        close(fds[0]);
        for (size_t off = 0; off < len;) {
            ssize_t k = write(fds[1], text + off, len - off);
            if (k < 0)
                _exit(1);
            off += (size_t)k;
        }
        _exit(0);
    }
    close(fds[1]);
    inst_on_pipe(in, fds[0]);
    do {
        struct pollfd p = { .fd = fds[0], .events = POLLIN };
        poll(&p, 1, 1000);
        rc = pump_serial(in);
        assert_true(rc >= 0 || rc == -ECONNRESET);
    } while (rc != -ECONNRESET);
    assert_int_equal(waitpid(w, &st, 0), w);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    close(fds[0]);
    fclose(in->console);
    in->console = NULL;
}

/* The Linux agent answers `run` on one line with the tool's whole output
 * (iperf3 -J at -P 4 for a minute is ~150 KiB): such a line is one
 * message, not 64 KiB pieces that each fail to parse. */
static void test_a_long_result_line_is_one_message(void **state)
{
    static struct inst in;
    const size_t n = 6000;          /* ~330 KiB of intervals */
    size_t cap = 80 * n + 256, off;
    char *text = malloc(cap);
    const cJSON *r, *iv;
    (void)state;

    assert_non_null(text);
    off = (size_t)snprintf(text, cap, "@gemlab {\"type\":\"result\",\"cmd\":\"run\",\"json\":{\"intervals\":[");
    for (size_t k = 0; k < n; k++)
        off += (size_t)snprintf(text + off, cap - off, "%s{\"start\":%zu,\"bytes\":117440512,\"omitted\":false}",
                                k ? "," : "", k);
    snprintf(text + off, cap - off, "]}}\n@gemlab {\"type\":\"ready\"}\n");
    assert_true(strlen(text) > 4 * 65536);
    feed(&in, text);
    assert_int_equal(inst_count_msgs(&in, "result"), 1);
    assert_int_equal(inst_count_msgs(&in, "ready"), 1);
    r = inst_last_msg(&in, "result");
    iv = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "json"), "intervals");
    assert_int_equal(cJSON_GetArraySize(iv), (int)n);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(iv, (int)n - 1), "start")->valueint, (int)n - 1);
    free(text);
    inst_msgs_free(&in);
}

/* A line past INST_LINE_MAX is cut there (the buffer stops growing) and
 * the next line is read as usual. */
static void test_a_line_past_the_cap_is_cut_and_the_next_is_read(void **state)
{
    static struct inst in;
    size_t len = INST_LINE_MAX + 1000;
    char *text = malloc(len + 64);
    (void)state;

    assert_non_null(text);
    memset(text, 'x', len);
    snprintf(text + len, 64, "\n@gemlab {\"type\":\"ready\",\"n\":7}\n");
    feed(&in, text);
    assert_true(in.line_cap <= INST_LINE_MAX);
    assert_int_equal(inst_count_msgs(&in, "ready"), 1);
    assert_int_equal(cJSON_GetObjectItem(inst_last_msg(&in, "ready"), "n")->valueint, 7);
    free(text);
    inst_msgs_free(&in);
}

/* R1: only the types the runner consumes are kept; counts per type. */
static void test_only_consumed_message_types_are_kept_and_counted(void **state)
{
    static struct inst in;
    (void)state;
    feed(&in, "@gemlab {\"type\":\"ready\",\"n\":1}\n@gemlab {\"type\":\"debugdump\",\"big\":[1,2,3]}\n"
              "@gemlab {\"no\":\"type\"}\n@gemlab [1,2]\nx @gemlab {\"type\":\"link\",\"up\":true}\n"
              "@gemlab {\"type\":\"ready\",\"n\":2}\n");
    assert_int_equal(cJSON_GetArraySize(in.msgs), 3);
    assert_int_equal(inst_count_msgs(&in, "ready"), 2);
    assert_int_equal(inst_count_msgs(&in, "link"), 1);
    assert_int_equal(inst_count_msgs(&in, "debugdump"), 0);
    assert_null(inst_last_msg(&in, "debugdump"));
    assert_int_equal(cJSON_GetObjectItem(inst_last_msg(&in, "ready"), "n")->valueint, 2);
    inst_msgs_free(&in);
    /* a line ending in `"type":` (the fuzzer's find: the scan stepped
     * over the terminator and read on, which SAN=1 reports) */
    feed(&in, "@gemlab {\"x\":1,\"type\":\n@gemlab {\"type\": \n@gemlab {\"type\":\"ready\",\"n\":3}\n");
    assert_int_equal(cJSON_GetArraySize(in.msgs), 1);
    assert_int_equal(cJSON_GetObjectItem(inst_last_msg(&in, "ready"), "n")->valueint, 3);
    inst_msgs_free(&in);
}

/* The answers the runner waits for by type are kept: `phy downshift`,
 * `phy rgmii` (bare metal) and the agent's `ring` (run.c send_wait) -
 * before, a run waited 3 s for each and warned it was never confirmed. */
static void test_command_answers_the_runner_waits_for_are_kept(void **state)
{
    static struct inst in;
    (void)state;
    feed(&in, "@gemlab {\"type\":\"phy_downshift\",\"enabled\":false}\n"
              "@gemlab {\"type\":\"phy_rgmii\",\"mode\":\"rgmii\",\"restart\":true}\n"
              "@gemlab {\"type\":\"ring\",\"rxbd\":128,\"txbd\":64}\n");
    assert_int_equal(inst_count_msgs(&in, "phy_downshift"), 1);
    assert_int_equal(inst_count_msgs(&in, "phy_rgmii"), 1);
    assert_int_equal(cJSON_GetObjectItem(inst_last_msg(&in, "ring"), "rxbd")->valueint, 128);
    inst_msgs_free(&in);
}

static void touch(const char *in, const char *name)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", in, name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
}

static bool exists(const char *in, const char *name)
{
    char path[256];

    snprintf(path, sizeof(path), "%s/%s", in, name);
    return access(path, F_OK) == 0;
}

/* A reused --out directory: what only a run that gets far writes (the
 * diagnosis, the report and its charts, the baseline comparison, the
 * capture, results.json) goes at the start, so a run that stops early,
 * or a `gemlab boot`, does not sit beside an earlier run's verdicts;
 * other directories stay. */
static void test_a_reused_run_dir_loses_the_earlier_runs_outputs(void **state)
{
    char sub[128];
    static const char *const gone[] = { "iperf-1.json", "iperf-2.csv", "diagnosis.json", "diagnosis-blind.json",
                                        "baseline-compare.json", "report.md", "report.html", "wire.pcapng",
                                        "peer.jsonl", "results.json", "report" };
    (void)state;

    for (size_t k = 0; k < sizeof(gone) / sizeof(gone[0]) - 1; k++)
        touch(dir, gone[k]);
    snprintf(sub, sizeof(sub), "%s/report", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    touch(sub, "throughput.svg");
    touch(sub, "tput_sum.dat");
    snprintf(sub, sizeof(sub), "%s/peer", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    touch(sub, "report.md");
    remove_stale_outputs(dir, 0);
    for (size_t k = 0; k < sizeof(gone) / sizeof(gone[0]); k++)
        if (exists(dir, gone[k]))
            fail_msg("%s is still there", gone[k]);
    assert_true(exists(sub, "report.md"));      /* another directory's */
    unlink(strcat(sub, "/report.md"));
    snprintf(sub, sizeof(sub), "%s/peer", dir);
    rmdir(sub);
}

/* Strict UTF-8 (RFC 3629) without C0/C1 controls but TAB. */
static bool clean_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    while (*p) {
        unsigned c = *p, len, cp;
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                return false;
            p++;
            continue;
        }
        len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (!len)
            return false;
        cp = c & (0x7fu >> len);
        for (unsigned k = 1; k < len; k++) {
            if ((p[k] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (p[k] & 0x3Fu);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF) || cp <= 0x9F || cp == 0xFFFE || cp == 0xFFFF)
            return false;
        p += len;
    }
    return true;
}

/* R7: the finding's line (an OSC title sequence, BEL, a stray 0xff) and JSON
 * strings carrying escapes: the tail and the kept strings are clean, the
 * printed JSON is valid UTF-8 without raw control bytes. */
static void test_guest_control_chars_and_bad_utf8_never_reach_tail_or_json(void **state)
{
    static struct inst in;
    cJSON *t;
    char *txt;
    FILE *mem;
    char *printed = NULL;
    size_t plen = 0;
    (void)state;
    feed(&in, "\x1b]0;x\x07\xff\n"
              "@gemlab {\"type\":\"stats\",\"s\":\"\\u001b[31mred\\u0007\",\"c1\":\"\\u009b2J\",\"raw\":\"\xc3\x28\","
              "\"ok\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}\n");
    assert_int_equal(in.tail_n, 2);
    assert_string_equal(in.tail[0], "^[]0;x^G\xEF\xBF\xBD");
    assert_true(clean_utf8(in.tail[1]));
    const cJSON *st = inst_last_msg(&in, "stats");
    assert_non_null(st);
    assert_string_equal(cJSON_GetObjectItem(st, "s")->valuestring, "^[[31mred^G");
    assert_string_equal(cJSON_GetObjectItem(st, "c1")->valuestring, "\xEF\xBF\xBD" "2J");
    assert_string_equal(cJSON_GetObjectItem(st, "raw")->valuestring, "\xEF\xBF\xBD(");
    assert_string_equal(cJSON_GetObjectItem(st, "ok")->valuestring, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    t = inst_tail_json(&in);
    txt = cJSON_PrintUnformatted(t);
    assert_true(clean_utf8(txt));
    free(txt);
    cJSON_Delete(t);
    txt = cJSON_PrintUnformatted(st);
    assert_true(clean_utf8(txt));
    free(txt);
    mem = open_memstream(&printed, &plen);
    inst_print_tail(&in, mem);
    fclose(mem);
    for (char *p = printed; *p; p++)
        if (*p == '\n')
            *p = ' ';
    assert_true(clean_utf8(printed));
    free(printed);
    inst_msgs_free(&in);
}

/* runner_clean_text() (util.c) byte by byte: what stays, what is replaced, and a
 * short buffer cutting at a character boundary. */
static void test_clean_text_replaces_exactly_the_unsafe_bytes(void **state)
{
    static const struct { const char *in, *out; } rows[] = {
        { "plain\ttab", "plain\ttab" },
        { "\x1b[2J\x7f", "^[[2J^?" },
        { "\xc0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD" },                /* overlong NUL */
        { "\xed\xa0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" }, /* surrogate D800 */
        { "\xf4\x90\x80\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" }, /* > U+10FFFF */
        { "\xc2\x9b", "\xEF\xBF\xBD" },                            /* C1 CSI */
        { "\xef\xbf\xbe", "\xEF\xBF\xBD" },                        /* U+FFFE */
        { "\xe2\x82", "\xEF\xBF\xBD\xEF\xBF\xBD" },                /* cut sequence */
        { "\xc3\xa9\xf0\x9f\x98\x80", "\xc3\xa9\xf0\x9f\x98\x80" },
    };
    char out[64];
    (void)state;
    for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
        size_t n = runner_clean_text(out, sizeof(out), rows[k].in, strlen(rows[k].in), false);
        assert_string_equal(out, rows[k].out);
        assert_int_equal(n, strlen(rows[k].out));
    }
    /* 8 bytes of room: 7 characters' bytes and the NUL */
    assert_int_equal(runner_clean_text(out, 8, "ab\xf0\x9f\x98\x80" "cd", 8, false), 7);
    assert_string_equal(out, "ab\xf0\x9f\x98\x80" "c");
    assert_int_equal(runner_clean_text(out, 6, "ab\xf0\x9f\x98\x80", 6, false), 2);
    assert_string_equal(out, "ab");
    /* XML text keeps its line ends */
    runner_clean_text(out, sizeof(out), "a\r\nb\x1b\n", 6, true);
    assert_string_equal(out, "a\r\nb^[\n");
    runner_clean_text(out, sizeof(out), "a\r\nb", 4, false);
    assert_string_equal(out, "a^M^Jb");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a_long_result_line_is_one_message, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_reused_run_dir_loses_the_earlier_runs_outputs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_line_past_the_cap_is_cut_and_the_next_is_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_console_flood_stays_under_memory_and_log_caps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_only_consumed_message_types_are_kept_and_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_command_answers_the_runner_waits_for_are_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guest_control_chars_and_bad_utf8_never_reach_tail_or_json, setup,
                                        teardown),
        cmocka_unit_test(test_clean_text_replaces_exactly_the_unsafe_bytes),
    };
    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * fuzz_runner_console.c - libFuzzer target: what the runner ingests from a
 * board and from disk.
 *
 *  - Console (selector even): the bytes arrive on the serial socket as
 *    QEMU would send them (here through a pipe) and go through
 *    emu/runner/inst.c's pump_serial()/handle_line(): line splitting at
 *    INST_LINE_MAX, NULs, "@gemlab {json}" messages from the firmware and
 *    the Linux agent, the tail buffer.  Checked: every stored message is a
 *    JSON object of a consumed type (INST_MSG_TYPES), at most one per line,
 *    and their estimated size stays under INST_MSGS_MAX_BYTES (docs/SECURITY.md R1);
 *    inst_last_msg() returns a message of the type asked for; the tail
 *    holds at most INST_TAIL_LINES terminated lines of at most
 *    INST_TAIL_MAX bytes, each valid UTF-8 without control characters but
 *    TAB (docs/SECURITY.md R7); inst_tail_json() is an array of strings.
 *  - results.json (selector odd): the text goes through cJSON and the
 *    diagnosis (dg_in_from_json, dg_run, dg_to_json, dg_check_expect).
 *    Checked: at most one finding per code, each with a terminated
 *    summary; the diagnosis prints as JSON that parses back; failed
 *    expectations never exceed those checked.
 *
 * pump_serial() is static, so inst.c is included (`#include
 * "module.c"`) to reach it.
 */
#include "../../../emu/runner/inst.c"

#include <fcntl.h>

#include "diagnose.h"

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Strict UTF-8 (RFC 3629) with no C0/C1 control but TAB. */
static bool clean_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    while (*p) {
        unsigned c = *p, len, cp;
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                return false;
            }
            p++;
            continue;
        }
        len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (!len) {
            return false;
        }
        cp = c & (0x7fu >> len);
        for (unsigned k = 1; k < len; k++) {
            if ((p[k] & 0xC0) != 0x80) {
                return false;
            }
            cp = cp << 6 | (p[k] & 0x3Fu);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF) || cp <= 0x9F || cp == 0xFFFE || cp == 0xFFFF) {
            return false;
        }
        p += len;
    }
    return true;
}

static void console(const uint8_t *data, size_t size)
{
    static struct inst in;
    int fds[2];
    size_t lines = 1;

    if (pipe(fds) != 0) {
        return;
    }
    memset(&in, 0, sizeof(in));
    in.serial_fd = fds[0];
    in.msgs = cJSON_CreateArray();
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    /* Inputs are capped below the pipe's 64 KiB (max_len). */
    if (size && write(fds[1], data, size) != (ssize_t)size) {
        fz_fail("console: short write to the pipe");
    }
    close(fds[1]);
    int n = pump_serial(&in);
    if (n != -ECONNRESET) {
        fz_fail("console: pump_serial %d at EOF", n);
    }
    for (size_t k = 0; k < size; k++) {
        lines += data[k] == '\n';
    }
    lines += size / (INST_LINE_MAX - 1);
    if ((size_t)cJSON_GetArraySize(in.msgs) > lines) {
        fz_fail("console: %d messages from %zu lines",
                cJSON_GetArraySize(in.msgs), lines);
    }
    const cJSON *m;
    cJSON_ArrayForEach(m, in.msgs) {
        if (!cJSON_IsObject(m)) {
            fz_fail("console: a stored message is not an object");
        }
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "type");
        if (!cJSON_IsString(t) || inst_last_msg(&in, t->valuestring) == NULL) {
            fz_fail("console: a kept message of no consumed type");
        }
    }
    if (in.msgs_bytes > INST_MSGS_MAX_BYTES) {
        fz_fail("console: %zu bytes of messages kept", in.msgs_bytes);
    }
    static const char *const types[] = { "ready", "stats", "result", "" };
    for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
        const cJSON *f = inst_last_msg(&in, types[k]);
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(f, "type");
        if (f && (!cJSON_IsString(t) || strcmp(t->valuestring, types[k]))) {
            fz_fail("console: inst_last_msg(\"%s\") gave another type",
                    types[k]);
        }
    }
    if (in.tail_n < 0 || in.tail_n > INST_TAIL_LINES ||
        in.line_len >= INST_LINE_MAX) {
        fz_fail("console: tail_n %d line_len %zu", in.tail_n, in.line_len);
    }
    for (int k = 0; k < INST_TAIL_LINES; k++) {
        if (!memchr(in.tail[k], '\0', INST_TAIL_MAX)) {
            fz_fail("console: tail line %d not terminated", k);
        }
        if (!clean_utf8(in.tail[k])) {
            fz_fail("console: tail line %d has a control character or bad UTF-8", k);
        }
    }
    cJSON *tail = inst_tail_json(&in);
    const cJSON *s;
    if (cJSON_GetArraySize(tail) != in.tail_n) {
        fz_fail("console: tail json size");
    }
    cJSON_ArrayForEach(s, tail) {
        if (!cJSON_IsString(s)) {
            fz_fail("console: tail json holds a non-string");
        }
    }
    cJSON_Delete(tail);
    inst_msgs_free(&in);
    close(fds[0]);
}

static void results(const uint8_t *data, size_t size)
{
    static struct dg_in in;
    static struct dg_report rep;
    char *text = malloc(size + 1), *out = NULL;
    size_t outlen = 0;
    int checks = 0;

    if (!text) {
        return;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root) {
        return;
    }
    memset(&in, 0, sizeof(in));
    dg_in_from_json(root, &in);
    memset(&rep, 0, sizeof(rep));
    dg_run(&in, &rep);
    if (rep.n < 0 || rep.n > DG_NCODES) {
        fz_fail("diagnosis: %d findings", rep.n);
    }
    for (int i = 0; i < rep.n; i++) {
        if ((unsigned)rep.f[i].code >= DG_NCODES ||
            !memchr(rep.f[i].summary, '\0', sizeof(rep.f[i].summary))) {
            fz_fail("diagnosis: finding %d malformed", i);
        }
        for (int j = 0; j < i; j++) {
            if (rep.f[j].code == rep.f[i].code) {
                fz_fail("diagnosis: %s found twice",
                        dg_code_name(rep.f[i].code));
            }
        }
        if (dg_report_has(&rep, rep.f[i].code) != true) {
            fz_fail("diagnosis: dg_report_has misses a finding");
        }
    }
    cJSON *dj = dg_to_json(&rep);
    char *txt = cJSON_PrintUnformatted(dj);
    cJSON *back = txt ? cJSON_Parse(txt) : NULL;
    if (!back) {
        fz_fail("diagnosis JSON does not round-trip");
    }
    cJSON_Delete(back);
    free(txt);
    cJSON_Delete(dj);
    FILE *o = open_memstream(&out, &outlen);
    if (o) {
        int failed = dg_check_expect(root, &rep, o, &checks);
        fclose(o);
        if (failed < 0 || failed > checks) {
            fz_fail("expect: %d failed of %d checks", failed, checks);
        }
        free(out);
    }
    dg_report_free(&rep);
    cJSON_Delete(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    if (data[0] & 1u) {
        results(data + 1, size - 1);
    } else {
        console(data + 1, size - 1);
    }
    return 0;
}

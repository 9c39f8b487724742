/*
 * fuzz_scenario.c - libFuzzer target: the runner's scenario parser
 * (emu/runner/scenario.c, scn_load_string) on arbitrary text.
 *
 * The input is the file's text (a NUL ends it early, as it would for a C
 * string).  Checked:
 *  - the result is 0 or -EINVAL (-ENOMEM only if inih runs out);
 *  - every error line has the form "NAME:LINE: message" (or "NAME: ..."
 *    for the whole file), and there are
 *    at most SCN_MAX_ERRORS of them plus one "too many" line;
 *  - a loaded scenario is within range: the model's validators accept its
 *    [link] (glue_validate_link), events are in time order, the counts fit;
 *    it renders as JSON, and every value renders with scn_format_value()
 *    into any buffer size without overflow.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "model_glue.h"
#include "scenario.h"

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct scenario scn;

static void check_errors(const char *out, size_t len)
{
    const char *p = out, *end = out + len;
    unsigned lines = 0;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) {
            fz_fail("error output does not end in a newline: %.*s",
                    (int)(end - p), p);
        }
        if (strncmp(p, "fuzz.ini:", 9) != 0) {
            fz_fail("error line without FILE: prefix: %.*s", (int)(nl - p), p);
        }
        const char *q = p + 9;
        while (q < nl && *q >= '0' && *q <= '9') {
            q++;
        }
        /* "NAME:LINE: message", or "NAME: message" for the whole file */
        bool whole = q == p + 9 && q < nl && *q == ' ';
        if (!whole && (q == p + 9 || q + 1 >= nl || q[0] != ':' ||
                       q[1] != ' ')) {
            fz_fail("error line not NAME:LINE: %.*s", (int)(nl - p), p);
        }
        lines++;
        p = nl + 1;
    }
    if (lines > SCN_MAX_ERRORS + 1) {
        fz_fail("%u error lines", lines);
    }
}

static void check_loaded(const struct scenario *s)
{
    char msg[256], small[16];

    if (glue_validate_link(s, msg, sizeof(msg), NULL) != 0) {
        fz_fail("loaded scenario's [link] fails the model: %s", msg);
    }
    if (s->nevents > SCN_MAX_EVENTS || s->nfw_cmds > SCN_MAX_FW_CMDS ||
        s->nsweep > SCN_MAX_SWEEP) {
        fz_fail("counts out of range");
    }
    for (unsigned i = 1; i < s->nevents; i++) {
        if (s->events[i].t_ns < s->events[i - 1].t_ns) {
            fz_fail("events out of order");
        }
    }
    for (int k = 0; k < SK_COUNT; k++) {
        const struct scn_val *v = &s->v[k];
        char big[512];
        if (memchr(v->s, '\0', sizeof(v->s)) == NULL) {
            fz_fail("key %d: string not terminated", k);
        }
        scn_format_value(s, (enum scn_key)k, v, big, sizeof(big));
        for (size_t len = 1; len <= sizeof(small); len += 7) {
            memset(small, 'X', sizeof(small));
            scn_format_value(s, (enum scn_key)k, v, small, len);
            if (memchr(small, '\0', len) == NULL) {
                fz_fail("key %d: format into %zu bytes not terminated", k,
                        len);
            }
        }
        (void)scn_enum_str(s, (enum scn_key)k);
        (void)scn_enum_num(s, (enum scn_key)k);
    }
    (void)scn_board_tool(s);
    (void)scn_host_tool(s);
    (void)scn_board_client(s);
    cJSON *j = scn_to_json(s);
    if (!j) {
        fz_fail("scn_to_json failed");
    }
    char *txt = cJSON_PrintUnformatted(j);
    if (!txt) {
        fz_fail("scenario JSON does not print");
    }
    cJSON *back = cJSON_Parse(txt);
    if (!back) {
        fz_fail("scenario JSON does not parse back: %s", txt);
    }
    cJSON_Delete(back);
    free(txt);
    cJSON_Delete(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    char *out = NULL;
    size_t outlen = 0;

    if (!text) {
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    FILE *errs = open_memstream(&out, &outlen);
    if (!errs) {
        free(text);
        return 0;
    }
    int rc = scn_load_string("fuzz.ini", text, &scn, errs);
    fclose(errs);
    if (rc != 0 && rc != -EINVAL && rc != -ENOMEM && rc != -EFBIG) {
        fz_fail("scn_load_string: %d", rc);
    }
    if (rc != 0 && outlen == 0) {
        fz_fail("scn_load_string: %d without a message", rc);
    }
    check_errors(out, outlen);
    if (rc == 0) {
        check_loaded(&scn);
    }
    free(out);
    free(text);
    return 0;
}

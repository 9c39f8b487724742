/*
 * fuzz_runner_iperf.c - libFuzzer target: the runner's ingestion of iperf
 * output (emu/runner/iperf.c): iperf3 -J JSON and iperf 2 -y C CSV.
 *
 * Input: [selector][text], the text NUL-terminated in an exact heap copy.
 * For iperf 2 the text is split at its first NUL into stdout and stderr,
 * and the selector also gives the UDP flag, the test duration and (bit 5)
 * the dual-test split iperf2_parse_dual() with the host listening on 5001
 * (its one-byte heap overflow on a CSV without a final newline,
 * docs/SECURITY.md R2, was neither fuzzed nor unit-tested before).
 * Checked: the parsers return an object (never NULL, never crash) with a
 * boolean "ok"; "error" is a string when present (one line for iperf 2,
 * whose parser keeps the first line of stderr); numbers it
 * reports are finite (infinities got through until 34fcf0e; the input
 * that showed it is corpus/regress_iperf2_lost_pct_inf); "intervals_bps" is an array of numbers; the object
 * prints as JSON and parses back.
 */
#include <math.h>

#include <cjson/cJSON.h>

#include "iperf.h"

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_result(cJSON *o, const char *who, bool one_line_error)
{
    const cJSON *ok, *err, *x;

    if (!cJSON_IsObject(o)) {
        fz_fail("%s: no object", who);
    }
    ok = cJSON_GetObjectItemCaseSensitive(o, "ok");
    if (!cJSON_IsBool(ok)) {
        fz_fail("%s: no boolean ok", who);
    }
    err = cJSON_GetObjectItemCaseSensitive(o, "error");
    if (err && (!cJSON_IsString(err) ||
                (one_line_error && strchr(err->valuestring, '\n')))) {
        fz_fail("%s: error is not a (one-line) string", who);
    }
    if (cJSON_IsFalse(ok) && !err) {
        fz_fail("%s: not ok without an error", who);
    }
    cJSON_ArrayForEach(x, o) {
        if (cJSON_IsNumber(x) && !isfinite(x->valuedouble)) {
            fz_fail("%s: %s = %g is not a finite number", who, x->string,
                    x->valuedouble);
        }
    }
    x = cJSON_GetObjectItemCaseSensitive(o, "intervals_bps");
    if (x) {
        const cJSON *e;
        if (!cJSON_IsArray(x)) {
            fz_fail("%s: intervals_bps is not an array", who);
        }
        cJSON_ArrayForEach(e, x) {
            if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble)) {
                fz_fail("%s: interval is not a finite number", who);
            }
        }
    }
    char *txt = cJSON_PrintUnformatted(o);
    if (!txt) {
        fz_fail("%s: result does not print", who);
    }
    cJSON *back = cJSON_Parse(txt);
    if (!cJSON_IsObject(back)) {
        fz_fail("%s: printed result does not parse: %s", who, txt);
    }
    cJSON_Delete(back);
    free(txt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    uint8_t sel = data[0];
    char *text = malloc(size);
    if (!text) {
        return 0;
    }
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';

    cJSON *o;
    if (sel & 1u) {
        /* stdout NUL stderr: the split point is where the text's NUL is */
        size_t outlen = strlen(text);
        const char *err = outlen + 1 < size - 1 ? text + outlen + 1 : "";
        static const double durations[8] = { 10, 0, 1, 2.5, 30, 1e9, -1, 0.5 };
        if (sel & 0x20u) {
            o = iperf2_parse_dual(text, err, (sel >> 1) & 1u, durations[(sel >> 2) & 7u], 5001);
            check_result(o, "iperf2_parse_dual", true);
        } else {
            o = iperf2_parse(text, err, (sel >> 1) & 1u, durations[(sel >> 2) & 7u]);
            check_result(o, "iperf2_parse", true);
        }
    } else {
        o = iperf3_parse(text);
        check_result(o, "iperf3_parse", false);
    }
    cJSON_Delete(o);
    free(text);
    return 0;
}

/*
 * fuzz_agent.c - libFuzzer target: the Linux guest agent's console command
 * parsing and the JSON flattening it applies to iperf3 -J output before
 * the runner ingests it (firmware/linux/agent/agent_cmd.c, host build).
 *
 * Input: [selector][text], the text NUL-terminated in an exact heap copy.
 *  - Command line: agent_split() gives at most AGENT_MAX_ARGS non-empty
 *    words without blanks, argv[argc] == NULL, or -E2BIG with argc 0;
 *    lookup, tool path and JSON-flag queries never fail; agent_parse_mask /
 *    agent_parse_bytes on each word: success only inside the documented
 *    ranges, the output untouched on failure.
 *  - JSON flattening: when it reports a span, the span starts with '{',
 *    ends with '}' (a ']' there was a bug, fixed: crashes-found/), lies inside the text and holds no raw CR/LF/TAB; if the
 *    original span was one JSON value (cJSON), the flattened one is the
 *    same value; nothing outside the span changes.
 */
#include <errno.h>

#include <cjson/cJSON.h>

#include "agent_cmd.h"

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void command(char *line)
{
    struct agent_argv a;

    memset(&a, 0x5A, sizeof(a));
    int rc = agent_split(line, &a);
    if (rc == -E2BIG) {
        if (a.argc != 0) {
            fz_fail("agent_split: -E2BIG with argc %d", a.argc);
        }
        return;
    }
    if (rc != 0 || a.argc < 0 || a.argc > AGENT_MAX_ARGS ||
        a.argv[a.argc] != NULL) {
        fz_fail("agent_split: rc %d argc %d", rc, a.argc);
    }
    for (int i = 0; i < a.argc; i++) {
        if (a.argv[i][0] == '\0' || strpbrk(a.argv[i], " \t\r\n")) {
            fz_fail("agent_split: bad word \"%s\"", a.argv[i]);
        }
    }
    enum agent_cmd c = agent_cmd_lookup(&a);
    if ((unsigned)c > AGENT_CMD_UNKNOWN || (a.argc == 0) != (c == AGENT_CMD_EMPTY)) {
        fz_fail("agent_cmd_lookup: %d for argc %d", c, a.argc);
    }
    if (a.argc) {
        const char *tool = agent_tool_path(a.argv[0]);
        if (tool && tool[0] != '/') {
            fz_fail("agent_tool_path(\"%s\") = \"%s\" is not absolute",
                    a.argv[0], tool);
        }
        (void)agent_args_want_json(a.argc, a.argv);
    }
    for (int i = 0; i < a.argc; i++) {
        unsigned long m = 0xA5A5u, b = 0xA5A5u;
        int r = agent_parse_mask(a.argv[i], &m);
        if (r == 0 ? (m == 0 || m > 0xFFFFFFFFul) : (r != -EINVAL || m != 0xA5A5u)) {
            fz_fail("agent_parse_mask(\"%s\") = %d, %lx", a.argv[i], r, m);
        }
        r = agent_parse_bytes(a.argv[i], &b);
        if (r == 0 ? (b < 4096 || b > (256ul << 20)) :
                     (r != -EINVAL || b != 0xA5A5u)) {
            fz_fail("agent_parse_bytes(\"%s\") = %d, %lu", a.argv[i], r, b);
        }
    }
}

static void flatten(char *text, size_t len)
{
    char *orig = malloc(len + 1);
    size_t start = (size_t)-1, end = (size_t)-1;

    if (!orig) {
        return;
    }
    memcpy(orig, text, len + 1);
    bool ok = agent_json_object_flatten(text, &start, &end);
    if (!ok) {
        free(orig);
        return;
    }
    /* Regression: a ']' closing the object (crashes-found/) is fixed. */
    if (start >= end || end > len || text[start] != '{' ||
        text[end - 1] != '}') {
        fz_fail("flatten: span [%zu, %zu) of %zu: '%c'..'%c'", start, end,
                len, start < len ? text[start] : '?',
                end && end <= len ? text[end - 1] : '?');
    }
    if (memcmp(text, orig, start) != 0 ||
        memcmp(text + end, orig + end, len - end) != 0) {
        fz_fail("flatten: changed text outside its span");
    }
    for (size_t i = start; i < end; i++) {
        if (text[i] == '\n' || text[i] == '\r' || text[i] == '\t') {
            fz_fail("flatten: raw control character left at %zu", i);
        }
    }
    /* Same JSON value before and after, when it was one. */
    char *before = strndup(orig + start, end - start);
    char *after = strndup(text + start, end - start);
    cJSON *jb = before ? cJSON_ParseWithOpts(before, NULL, true) : NULL;
    if (jb) {
        /* Compared as printed text: cJSON_Compare looks members up by
         * name and so calls {"e":{},"e":8} different from itself. */
        cJSON *ja = cJSON_ParseWithOpts(after, NULL, true);
        char *pb = cJSON_PrintUnformatted(jb);
        char *pa = ja ? cJSON_PrintUnformatted(ja) : NULL;
        if (!pa || !pb || strcmp(pa, pb) != 0) {
            fz_fail("flatten changed the JSON value: %s", before);
        }
        free(pa);
        free(pb);
        cJSON_Delete(ja);
        cJSON_Delete(jb);
    }
    free(before);
    free(after);
    free(orig);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    char *text = malloc(size);
    if (!text) {
        return 0;
    }
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    if (data[0] & 1u) {
        flatten(text, strlen(text));
    } else {
        command(text);
    }
    free(text);
    return 0;
}

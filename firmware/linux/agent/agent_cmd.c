/* agent_cmd.c - console command parsing (see agent_cmd.h). */
#include "agent_cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SOCKBUF_MIN 4096UL
#define SOCKBUF_MAX (256UL << 20)

static const struct {
    const char *name;
    enum agent_cmd cmd;
} cmd_table[] = {
    { "help", AGENT_CMD_HELP },
    { "stats", AGENT_CMD_STATS },
    { "link", AGENT_CMD_LINK },
    { "run", AGENT_CMD_RUN },
    { "irq-affinity", AGENT_CMD_IRQ_AFFINITY },
    { "sockbuf", AGENT_CMD_SOCKBUF },
    { "tcp-port", AGENT_CMD_TCP_PORT },
    { "advertise", AGENT_CMD_ADVERTISE },
    { "ring", AGENT_CMD_RING },
    { "downshift", AGENT_CMD_DOWNSHIFT },
    { "rps", AGENT_CMD_RPS },
};

static const struct {
    const char *name;
    const char *path;
} tool_table[] = {
    { "iperf3", "/usr/bin/iperf3" },
    { "iperf", "/usr/bin/iperf" },
};

int agent_split(char *line, struct agent_argv *a)
{
    static const char blanks[] = " \t\r\n";
    char *p = line;

    a->argc = 0;
    for (;;) {
        p += strspn(p, blanks);
        if (*p == '\0')
            break;
        if (a->argc == AGENT_MAX_ARGS) {
            a->argc = 0;
            a->argv[0] = NULL;
            return -E2BIG;
        }
        a->argv[a->argc++] = p;
        p += strcspn(p, blanks);
        if (*p != '\0')
            *p++ = '\0';
    }
    a->argv[a->argc] = NULL;
    return 0;
}

enum agent_cmd agent_cmd_lookup(const struct agent_argv *a)
{
    if (a->argc == 0)
        return AGENT_CMD_EMPTY;
    for (size_t i = 0; i < sizeof(cmd_table) / sizeof(cmd_table[0]); i++)
        if (strcmp(a->argv[0], cmd_table[i].name) == 0)
            return cmd_table[i].cmd;
    return AGENT_CMD_UNKNOWN;
}

const char *agent_tool_path(const char *name)
{
    for (size_t i = 0; i < sizeof(tool_table) / sizeof(tool_table[0]); i++)
        if (strcmp(name, tool_table[i].name) == 0)
            return tool_table[i].path;
    return NULL;
}

bool agent_args_want_json(int argc, char *const argv[])
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-J") == 0 || strcmp(argv[i], "--json") == 0)
            return true;
    return false;
}

int agent_parse_mask(const char *s, unsigned long *mask)
{
    char *end;
    unsigned long v;

    if (s == NULL || *s == '\0' || *s == '-' || *s == '+')
        return -EINVAL;
    errno = 0;
    v = strtoul(s, &end, 16);
    if (errno != 0 || *end != '\0' || v == 0 || v > 0xFFFFFFFFUL)
        return -EINVAL;
    *mask = v;
    return 0;
}

int agent_parse_ring(const char *s, unsigned *n)
{
    char *end;
    unsigned long v;

    if (s == NULL || *s < '0' || *s > '9')
        return -EINVAL;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno != 0 || *end != '\0' || v > 65535UL)
        return -EINVAL;
    *n = (unsigned)v;
    return 0;
}

int agent_parse_downshift(int argc, char *const argv[], unsigned *count)
{
    unsigned n = 8;

    if (argc == 2 && strcmp(argv[1], "off") == 0) {
        *count = 0;
        return 0;
    }
    if ((argc != 2 && argc != 3) || strcmp(argv[1], "on") != 0)
        return -EINVAL;
    if (argc == 3) {
        if (agent_parse_ring(argv[2], &n) != 0 || n < 1 || n > 8)
            return -EINVAL;
    }
    *count = n;
    return 0;
}

int agent_parse_advertise(const char *s, unsigned long *mask)
{
    /* ethtool(8) "advertise N": 0x001 10baseT Half .. 0x020 1000baseT Full,
     * 0x2000 Pause, 0x4000 Asym_Pause (what the board's PHY can do) */
    unsigned long v;

    if (agent_parse_mask(s, &v) != 0 || (v & ~0x603FUL) != 0 || (v & 0x3FUL) == 0)
        return -EINVAL;
    *mask = v;
    return 0;
}

int agent_parse_bytes(const char *s, unsigned long *bytes)
{
    char *end;
    unsigned long v, mul = 1;

    if (s == NULL || *s < '0' || *s > '9')
        return -EINVAL;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno != 0)
        return -EINVAL;
    if (*end == 'K' || *end == 'k')
        mul = 1UL << 10, end++;
    else if (*end == 'M' || *end == 'm')
        mul = 1UL << 20, end++;
    if (*end != '\0' || v > SOCKBUF_MAX / mul || v * mul < SOCKBUF_MIN)
        return -EINVAL;
    *bytes = v * mul;
    return 0;
}

#define AGENT_JSON_DEPTH_MAX 64

bool agent_json_object_flatten(char *text, size_t *start, size_t *end)
{
    /* Brackets must match by kind: a ']' never closes a '{' (found by
     * tests/fuzz/agent).  The stack bounds nesting; deeper text is not
     * something iperf3 -J prints, so it is refused. */
    char stack[AGENT_JSON_DEPTH_MAX];
    char *open = strchr(text, '{');
    int depth = 0;
    bool in_str = false, esc = false;

    if (open == NULL)
        return false;
    for (char *p = open; *p != '\0'; p++) {
        unsigned char c = (unsigned char)*p;

        if (in_str) {
            if (c < 0x20)
                return false;
            if (esc)
                esc = false;
            else if (c == '\\')
                esc = true;
            else if (c == '"')
                in_str = false;
            continue;
        }
        if (c == '"') {
            in_str = true;
        } else if (c == '{' || c == '[') {
            if (depth == AGENT_JSON_DEPTH_MAX)
                return false;
            stack[depth++] = (char)(c == '{' ? '}' : ']');
        } else if (c == '}' || c == ']') {
            if (depth == 0 || stack[depth - 1] != (char)c)
                return false;
            if (--depth == 0) {
                *start = (size_t)(open - text);
                *end = (size_t)(p - text) + 1;
                return true;
            }
        } else if (c == '\n' || c == '\r' || c == '\t') {
            *p = ' ';
        }
    }
    return false;
}

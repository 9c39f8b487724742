/*
 * fuzz_shell.c - libFuzzer target: the bare-metal firmware's UART shell
 * (apps/shell/shell.c: line editor, tokenizer, dispatch) and the apps'
 * argument parsers (lib/appargs.c), compiled for the host.
 *
 * Input: [selector][bytes...].
 *  - Shell: the bytes are UART input, fed through uart_getc() to
 *    shell_poll_input() as on the board (so CR/LF, backspace, Ctrl-U/C and
 *    overlong lines are exercised).  Commands iperf, echo, latency and
 *    sweep run the real argument parsers; "argv" only checks the
 *    tokenizer.  Every handler checks argc <= 16, argv[argc] == NULL,
 *    non-empty words without blanks, and that a parser's success gives
 *    values in their documented ranges (failure is exactly -EINVAL).
 *  - Number parsers: parse_u32 (bounds from the input), parse_rate,
 *    parse_size, parse_ipv4 on a NUL-terminated heap copy: on failure the
 *    output is untouched; on success the value is in range, and an address
 *    prints and parses back to itself.
 * The shell's console output goes to a stream that discards it.
 */
#define _GNU_SOURCE     /* fopencookie */
#include <errno.h>
#include <stdio.h>
#include <sys/types.h>

#include "appargs.h"
#include "bsp.h"        /* tests/fuzz/shell/stub/bsp.h: uart_getc() */
#include "shell.h"
#include "shell_priv.h"

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static const uint8_t *uart_p;
static size_t uart_n;

int uart_getc(void)
{
    if (!uart_n) {
        return -1;
    }
    uart_n--;
    return *uart_p++;
}

static void check_argv(int argc, char **argv)
{
    if (argc < 1 || argc > 16 || argv[argc] != NULL) {
        fz_fail("shell: argc %d", argc);
    }
    for (int i = 0; i < argc; i++) {
        if (argv[i][0] == '\0' || strpbrk(argv[i], " \t") ||
            strlen(argv[i]) >= 160) {
            fz_fail("shell: bad word \"%s\"", argv[i]);
        }
    }
}

static int expect_rc(int rc, const char *what)
{
    if (rc != 0 && rc != -EINVAL) {
        fz_fail("%s_args_parse: %d", what, rc);
    }
    return rc;
}

static int cmd_iperf(int argc, char **argv)
{
    struct iperf_args a;

    check_argv(argc, argv);
    if (expect_rc(iperf_args_parse(argc, argv, &a), "iperf")) {
        return -EINVAL;
    }
    if (a.action == IPERF_STOP) {
        return argc == 2 ? 0 : (fz_fail("iperf stop with %d words", argc), 0);
    }
    if (a.port == 0 || a.time_s > IPERF_MAX_TIME_S ||
        (a.action == IPERF_CLIENT && a.time_s == 0 && a.amount_bytes == 0) ||
        (a.udp && (a.len < IPERF_MIN_UDP_LEN || a.len > IPERF_MAX_UDP_LEN ||
                   a.rate_bps == 0)) ||     /* UDP -n is allowed (ea21236) */
        (!a.udp && a.rate_bps != 0) || a.interval_s > 3600 ||
        a.parallel < 1 || a.parallel > IPERF_MAX_PARALLEL ||
        /* -d, -r and -R: one stream, one of them */
        ((a.dual || a.tradeoff || a.reverse) && (a.parallel != 1 || a.dual + a.tradeoff + a.reverse > 1))) {
        fz_fail("iperf args out of range: port %u time %u len %u rate %llu -P %u",
                a.port, a.time_s, a.len, (unsigned long long)a.rate_bps, a.parallel);
    }
    return 0;
}

static int cmd_echo(int argc, char **argv)
{
    struct echo_args a;

    check_argv(argc, argv);
    if (expect_rc(echo_args_parse(argc, argv, &a), "echo")) {
        return -EINVAL;
    }
    if (!a.stop && a.port == 0) {
        fz_fail("echo port 0");
    }
    if (!a.stop && (a.idle_s < 1 || a.idle_s > ECHO_MAX_IDLE_S)) {
        fz_fail("echo -T out of range");
    }
    return 0;
}

static int cmd_latency(int argc, char **argv)
{
    struct latency_args a;

    check_argv(argc, argv);
    if (expect_rc(latency_args_parse(argc, argv, &a), "latency")) {
        return -EINVAL;
    }
    if (a.port == 0 || a.count < 1 || a.count > LATENCY_MAX_COUNT ||
        a.len < LATENCY_MIN_LEN || a.len > IPERF_MAX_UDP_LEN ||
        a.interval_ms > 60000 || a.timeout_ms < 1 || a.timeout_ms > 60000) {
        fz_fail("latency args out of range");
    }
    return 0;
}

static int cmd_sweep(int argc, char **argv)
{
    struct sweep_args a;

    check_argv(argc, argv);
    if (expect_rc(sweep_args_parse(argc, argv, &a), "sweep")) {
        return -EINVAL;
    }
    if (a.port == 0 || a.time_s < 1 || a.time_s > 600 || a.rate_bps == 0) {
        fz_fail("sweep args out of range");
    }
    return 0;
}

static int cmd_argv(int argc, char **argv)
{
    check_argv(argc, argv);
    return argc > 3 ? -1 : 0;       /* exercise the usage path too */
}

static const struct shell_cmd cmds[] = {
    { "iperf", "iperf -s|-c HOST ...", cmd_iperf },
    { "echo", "echo [-p PORT] [-T IDLE_S] | echo stop", cmd_echo },
    { "latency", "latency -c HOST ...", cmd_latency },
    { "sweep", "sweep -c HOST ...", cmd_sweep },
    { "argv", NULL, cmd_argv },
};

static ssize_t discard(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    (void)buf;
    return (ssize_t)n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    cookie_io_functions_t io = { .write = discard };
    FILE *sink = fopencookie(NULL, "w", io);

    (void)argc;
    (void)argv;
    if (sink) {
        stdout = sink;      /* the shell echoes every character */
    }
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        shell_register(&cmds[i]);
    }
    return 0;
}

static char *cstr(const uint8_t *p, size_t n)
{
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, p, n);
        s[n] = '\0';
    }
    return s;
}

static void numbers(uint8_t sel, const uint8_t *p, size_t n)
{
    struct fz f;
    uint32_t min = 0, max = UINT32_MAX, u = 0xA5A5A5A5u;
    uint64_t v = 0xA5A5A5A5A5A5A5A5ull;

    if (sel % 4u == 0) {        /* bounds first */
        fz_init(&f, p, n);
        min = fz_u32(&f);
        max = fz_u32(&f);
        p = f.p;
        n = f.n;
    }
    char *s = cstr(p, n);
    if (!s) {
        return;
    }
    int rc;
    switch (sel % 4u) {
    case 0:
        rc = parse_u32(s, min, max, &u);
        if (rc == 0 ? (u < min || u > max) : u != 0xA5A5A5A5u) {
            fz_fail("parse_u32(\"%s\", %u, %u) = %d, %u", s, min, max, rc, u);
        }
        break;
    case 1:
        rc = parse_rate(s, &v);
        if (rc == 0 ? (v == 0 || v > 100000000000ull) :
                      v != 0xA5A5A5A5A5A5A5A5ull) {
            fz_fail("parse_rate(\"%s\") = %d, %llu", s, rc,
                    (unsigned long long)v);
        }
        break;
    case 2:
        rc = parse_size(s, &v);
        if (rc == 0 ? v > (1ull << 40) : v != 0xA5A5A5A5A5A5A5A5ull) {
            fz_fail("parse_size(\"%s\") = %d, %llu", s, rc,
                    (unsigned long long)v);
        }
        break;
    default:
        rc = parse_ipv4(s, &u);
        if (rc == 0) {
            char back[16];
            uint32_t again = 0;
            snprintf(back, sizeof(back), "%u.%u.%u.%u", u >> 24,
                     (u >> 16) & 0xFFu, (u >> 8) & 0xFFu, u & 0xFFu);
            if (parse_ipv4(back, &again) != 0 || again != u) {
                fz_fail("parse_ipv4(\"%s\") = %s does not round-trip", s,
                        back);
            }
        } else if (u != 0xA5A5A5A5u) {
            fz_fail("parse_ipv4(\"%s\") failed but wrote", s);
        }
        break;
    }
    if (rc != 0 && rc != -EINVAL) {
        fz_fail("number parser %u: %d", sel % 4u, rc);
    }
    free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t reset[] = { 0x15 };    /* Ctrl-U: empty line */

    if (size < 1) {
        return 0;
    }
    if (data[0] & 0x80u) {
        numbers(data[0], data + 1, size - 1);
        return 0;
    }
    /* A fresh line, then the input, then CR so the last line runs. */
    uart_p = reset;
    uart_n = sizeof(reset);
    shell_poll_input();
    uart_p = data + 1;
    uart_n = size - 1;
    while (uart_n) {
        shell_poll_input();     /* at most 64 characters per call */
    }
    shell_input('\r');
    return 0;
}

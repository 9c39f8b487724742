/* iperf3_main.c - gemlab's iperf3 front end over libiperf (3.12).
 *
 * Why this file exists: the Debian mirror this project builds from serves
 * iperf3's debian.tar.xz and .dsc but not iperf3_3.12.orig.tar.gz (404), so
 * `apt-get source iperf3` cannot unpack.  Debian's libiperf-dev:armhf ships
 * libiperf.a, built from that same 3.12 source; upstream iperf3 is that
 * library plus a small main().  This is our own main() over the public API
 * in iperf_api.h, linked fully static (build.sh checks `readelf -d`).
 *
 * Known limitations: no pidfile cleanup on SIGTERM; -D daemonises after
 * argument parsing with daemon(0, 0), as upstream does.
 */
/* iperf_api.h uses uint64_t and bool without including their headers. */
#include <stdbool.h>
#include <stdint.h>
#include <sys/time.h>
#include <iperf_api.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int wants_daemon(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-D") == 0 || strcmp(argv[i], "--daemon") == 0)
            return 1;
    return 0;
}

static int run_server(struct iperf_test *test, int daemonize)
{
    if (daemonize && daemon(0, 0) < 0) {
        i_errno = IEDAEMON;
        iperf_errexit(test, "error - %s", iperf_strerror(i_errno));
    }
    if (iperf_create_pidfile(test) < 0) {
        i_errno = IEPIDFILE;
        iperf_errexit(test, "error - %s", iperf_strerror(i_errno));
    }
    for (;;) {
        int rc = iperf_run_server(test);

        if (rc < 0) {
            iperf_err(test, "error - %s", iperf_strerror(i_errno));
            if (rc < -1)
                iperf_errexit(test, "exiting");
        }
        iperf_reset_test(test);
        /* rc 2: the client was refused before a test ran (upstream main). */
        if (iperf_get_test_one_off(test) && rc != 2) {
            if (rc < 0 && i_errno == IEAUTHTEST)
                continue;
            break;
        }
    }
    iperf_delete_pidfile(test);
    return 0;
}

int main(int argc, char **argv)
{
    struct iperf_test *test;
    int rc = 0;

    signal(SIGPIPE, SIG_IGN);
    test = iperf_new_test();
    if (test == NULL) {
        fprintf(stderr, "iperf3: create new test error - %s\n", iperf_strerror(i_errno));
        return 1;
    }
    iperf_defaults(test);
    if (iperf_parse_arguments(test, argc, argv) < 0) {
        iperf_err(test, "parameter error - %s", iperf_strerror(i_errno));
        fprintf(stderr, "\n");
        usage();
        return 1;
    }
    switch (iperf_get_test_role(test)) {
    case 's':
        rc = run_server(test, wants_daemon(argc, argv));
        break;
    case 'c':
        if (iperf_create_pidfile(test) < 0) {
            i_errno = IEPIDFILE;
            iperf_errexit(test, "error - %s", iperf_strerror(i_errno));
        }
        if (iperf_run_client(test) < 0)
            iperf_errexit(test, "error - %s", iperf_strerror(i_errno));
        iperf_delete_pidfile(test);
        break;
    default:
        usage();
        rc = 1;
        break;
    }
    iperf_free_test(test);
    return rc;
}

/*
 * netns.c - private network namespaces with a tap inside, for --net tap
 * and `gemlab tap up|down`.  `ip` is spawned from argv arrays (no shell);
 * a tap only ever exists inside its namespace, and deleting the namespace
 * removes it.
 */
#include "netns.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "qemu.h"
#include "run.h"

const char *netns_ip_path(void)
{
    static const char *const cands[] = { "/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip" };

    for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++)
        if (access(cands[i], X_OK) == 0)
            return cands[i];
    return "ip";
}

static int ip_cmd(const char *a0, const char *a1, const char *a2, const char *a3, const char *a4,
                  const char *a5, const char *a6, const char *a7)
{
    char out[1024];
    char *argv[] = { (char *)netns_ip_path(), (char *)a0, (char *)a1, (char *)a2, (char *)a3, (char *)a4,
                     (char *)a5, (char *)a6, (char *)a7, NULL };
    return run_capture(argv, out, sizeof(out), 10000);
}

/* Create netns @ns holding tap @tap with the host side 10.0.2.2/24 (the
 * firmware's gateway; the board is 10.0.2.15).  The tap never exists
 * outside the namespace.  0 or -EIO (nothing left behind). */
int netns_tap_create(const char *ns, const char *tap)
{
    if (ip_cmd("netns", "add", ns, NULL, NULL, NULL, NULL, NULL) != 0)
        return -EEXIST;
    if (ip_cmd("-n", ns, "tuntap", "add", "dev", tap, "mode", "tap") != 0 ||
        ip_cmd("-n", ns, "addr", "add", "10.0.2.2/24", "dev", tap, NULL) != 0 ||
        ip_cmd("-n", ns, "link", "set", tap, "up", NULL, NULL) != 0 ||
        ip_cmd("-n", ns, "link", "set", "lo", "up", NULL, NULL) != 0) {
        ip_cmd("netns", "del", ns, NULL, NULL, NULL, NULL, NULL);
        return -EIO;
    }
    return 0;
}

void netns_tap_destroy(const char *ns)
{
    if (ns && ns[0])
        ip_cmd("netns", "del", ns, NULL, NULL, NULL, NULL, NULL);
}


int run_cmd_tap(int argc, char **argv)
{
    const char *name = argc >= 2 ? argv[1] : "gemlab0";
    char ns[64];

    if (argc < 1 || argc > 2 || (strcmp(argv[0], "up") && strcmp(argv[0], "down"))) {
        fprintf(stderr, "usage: gemlab tap up|down [NAME]\n");
        return RUN_EXIT_INPUT;
    }
    for (const char *p = name; *p; p++) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) || strlen(name) > 10) {
            fprintf(stderr, "gemlab tap: NAME must be 1..10 of [a-z0-9]\n");
            return RUN_EXIT_INPUT;
        }
    }
    if (geteuid() != 0) {
        fprintf(stderr, "gemlab tap: needs root (a private netns and a tap); use --net user for a rootless run\n");
        return RUN_EXIT_INPUT;
    }
    snprintf(ns, sizeof(ns), "gl-%s", name);
    if (!strcmp(argv[0], "down")) {
        int rc = ip_cmd("netns", "del", ns, NULL, NULL, NULL, NULL, NULL);
        printf("tap down: netns %s %s\n", ns, rc == 0 ? "deleted" : "was not there");
        return 0;
    }
    switch (netns_tap_create(ns, name)) {
    case 0:
        break;
    case -EEXIST:
        fprintf(stderr, "gemlab tap: cannot create netns %s (exists? try `gemlab tap down %s`)\n", ns, name);
        return RUN_EXIT_FAIL;
    default:
        fprintf(stderr, "gemlab tap: configuring %s in %s failed; the netns was removed\n", name, ns);
        return RUN_EXIT_FAIL;
    }
    printf("tap up: netns %s, tap %s 10.0.2.2/24 (board 10.0.2.15); remove with `gemlab tap down %s`\n", ns, name,
           name);
    return 0;
}

/*
 * cmd_tap.c - `gemlab tap up|down [NAME]`: its arguments and exit codes;
 * the netns and the tap are netns.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "netns.h"
#include "run.h"

int cmd_tap(int argc, char **argv)
{
    const char *name = argc >= 2 ? argv[1] : "gemlab0";
    char ns[64];

    if (argc < 1 || argc > 2 || (strcmp(argv[0], "up") && strcmp(argv[0], "down"))) {
        fprintf(stderr, "usage: gemlab tap up|down [NAME]\n");
        return RUN_EXIT_INPUT;
    }
    if (!*name || strlen(name) > 10 || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789") != strlen(name)) {
        fprintf(stderr, "gemlab tap: NAME must be 1..10 of [a-z0-9]\n");
        return RUN_EXIT_INPUT;
    }
    if (geteuid() != 0) {
        fprintf(stderr, "gemlab tap: needs root (a private netns and a tap); use --net user for a rootless run\n");
        return RUN_EXIT_INPUT;
    }
    snprintf(ns, sizeof(ns), "gl-%s", name);
    if (!strcmp(argv[0], "down")) {
        int rc = netns_delete(ns);
        printf("tap down: netns %s %s\n", ns, rc == 0 ? "deleted" : "was not there");
        return RUN_EXIT_PASS;
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
    return RUN_EXIT_PASS;
}

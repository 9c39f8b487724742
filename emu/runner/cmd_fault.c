/*
 * cmd_fault.c - `gemlab fault RUN_DIR ACTION...`: the action and its
 * values, checked with the scenario tables before QEMU is touched; the
 * work is fault.c's.  Exit codes: RUN_EXIT_INPUT for a bad action,
 * RUN_EXIT_FAIL when the instance cannot be reached or refuses it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "qemu.h"
#include "run.h"
#include "scenario.h"
#include "units.h"

int cmd_fault(int argc, char **argv)
{
    struct fault_action a;
    char msg[256];
    int rc;

    if (argc < 2) {
        fprintf(stderr, "usage: gemlab fault RUN_DIR link up|down | flap DUR | set KEY VALUE | restart-aneg | "
                        "starve-rx DUR\n");
        return RUN_EXIT_INPUT;
    }
    memset(&a, 0, sizeof(a));
    if (!strcmp(argv[1], "link") && argc == 3 && (!strcmp(argv[2], "up") || !strcmp(argv[2], "down"))) {
        a.kind = !strcmp(argv[2], "up") ? FAULT_LINK_UP : FAULT_LINK_DOWN;
    } else if (!strcmp(argv[1], "restart-aneg") && argc == 2) {
        a.kind = FAULT_RESTART_ANEG;
    } else if ((!strcmp(argv[1], "flap") || !strcmp(argv[1], "starve-rx")) && argc == 3) {
        a.kind = !strcmp(argv[1], "flap") ? FAULT_FLAP : FAULT_STARVE_RX;
        if (un_parse_time_ns(argv[2], &a.dur_ns) || a.dur_ns == 0 || a.dur_ns > 60000000000ull) {
            fprintf(stderr, "gemlab fault: %s: '%s' is not a duration in (0s, 60s]\n", argv[1], argv[2]);
            return RUN_EXIT_INPUT;
        }
    } else if (!strcmp(argv[1], "set") && argc >= 4) {
        int k = scn_key_lookup("link", argv[2]);
        char value[256];
        size_t n = 0;

        /* VALUE may be several words, as in the scenario (`set loss
         * random 1%`): the rest of the command line, joined by spaces */
        value[0] = '\0';
        for (int i = 3; i < argc && n < sizeof(value); i++)
            n += (size_t)snprintf(value + n, sizeof(value) - n, "%s%s", i > 3 ? " " : "", argv[i]);
        if (n >= sizeof(value)) {
            fprintf(stderr, "gemlab fault: set %s: the value is longer than %zu bytes\n", argv[2], sizeof(value) - 1);
            return RUN_EXIT_INPUT;
        }

        if (k < 0 || k == SK_LINK_SEED || !qemu_prop_for((enum scn_key)k)) {
            fprintf(stderr, "gemlab fault: set: '%s' is not a settable [link] key\n", argv[2]);
            return RUN_EXIT_INPUT;
        }
        a.kind = FAULT_SET;
        a.key = (enum scn_key)k;
        if (scn_parse_value(a.key, value, &a.val, msg, sizeof(msg))) {
            fprintf(stderr, "gemlab fault: set %s: %s\n", argv[2], msg);
            return RUN_EXIT_INPUT;
        }
    } else if (!strcmp(argv[1], "set")) {
        fprintf(stderr, "gemlab fault: set needs KEY VALUE (e.g. set loss random 1%%)\n");
        return RUN_EXIT_INPUT;
    } else {
        fprintf(stderr, "gemlab fault: unknown or malformed action '%s'\n", argv[1]);
        return RUN_EXIT_INPUT;
    }
    for (int i = 1, n = 0; i < argc && n < (int)sizeof(a.text); i++)
        n += snprintf(a.text + n, sizeof(a.text) - (size_t)n, "%s%s", i > 1 ? " " : "", argv[i]);
    rc = fault_apply(argv[0], &a, stderr);
    if (rc == -ESRCH || rc == -EPERM)
        return RUN_EXIT_INPUT;      /* not a running run, or one in virtual time */
    if (rc == -EINTR)
        return RUN_EXIT_INTERRUPTED;
    if (rc)
        return RUN_EXIT_FAIL;
    printf("fault applied: %s\n", argv[1]);
    return RUN_EXIT_PASS;
}

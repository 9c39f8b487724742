/*
 * fault.c - `gemlab fault RUN_DIR ACTION...`: change a running instance
 * through its second QMP socket (RUN_DIR/fault.sock).  Values are checked
 * with the scenario tables before QEMU is touched.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "qemu.h"
#include "qmp.h"
#include "qom.h"
#include "run.h"
#include "scenario.h"
#include "units.h"

#define QMP_TIMEOUT_MS 3000

/* set_link by netdev id, falling back to the NIC name (a board booted
 * without a netdev still has its GEM NICs). */
static int set_link_any(struct qmp *q, bool up)
{
    int rc = qmp_set_link(q, QEMU_NETDEV_ID, up, QMP_TIMEOUT_MS);

    if (rc == -EPROTO)
        rc = qmp_set_link(q, QEMU_GEM_DRIVER ".0", up, QMP_TIMEOUT_MS);
    return rc;
}

/* The model has no "restart-aneg" property (docs/SECURITY.md R10: the old qom-set of
 * one always failed).  Setting any link-partner property renegotiates
 * (patch 0003: GP_PARTNER -> gl_phy_set_partner -> gl_phy__restart), as a
 * partner restarting its autonegotiation does (IEEE 802.3 clause 28): the
 * partner's own autoneg setting is written back unchanged. */
static int restart_aneg(struct qmp *q, const char *gem)
{
    cJSON *v = NULL;
    int rc = qmp_qom_get(q, gem, "partner-autoneg", &v, QMP_TIMEOUT_MS);

    if (rc == 0 && !cJSON_IsBool(v)) {
        snprintf(q->last_error, sizeof(q->last_error), "qom-get partner-autoneg: not a boolean");
        rc = -EPROTO;
    }
    if (rc) {
        cJSON_Delete(v);
        return rc;
    }
    return qmp_qom_set(q, gem, "partner-autoneg", v, QMP_TIMEOUT_MS);     /* consumes v */
}

int run_cmd_fault(int argc, char **argv)
{
    static struct scenario s;
    struct qmp q;
    char sock[PATH_MAX + 16], gem[128], val[SCN_STR_MAX + 32], msg[256];
    struct scn_val v;
    int rc, code = RUN_EXIT_PASS;

    if (argc < 2) {
        fprintf(stderr, "usage: gemlab fault RUN_DIR link up|down | flap DUR | set KEY VALUE | restart-aneg | "
                        "starve-rx DUR\n");
        return RUN_EXIT_INPUT;
    }
    snprintf(sock, sizeof(sock), "%s/fault.sock", argv[0]);
    scn_init(&s, NULL);
    memset(&v, 0, sizeof(v));
    /* validate before touching QEMU */
    if (!strcmp(argv[1], "link") && argc == 3 && (!strcmp(argv[2], "up") || !strcmp(argv[2], "down"))) {
    } else if (!strcmp(argv[1], "restart-aneg") && argc == 2) {
    } else if ((!strcmp(argv[1], "flap") || !strcmp(argv[1], "starve-rx")) && argc == 3) {
        if (un_parse_time_ns(argv[2], &v.u) || v.u == 0 || v.u > 60000000000ull) {
            fprintf(stderr, "gemlab fault: %s: '%s' is not a duration in (0s, 60s]\n", argv[1], argv[2]);
            return RUN_EXIT_INPUT;
        }
    } else if (!strcmp(argv[1], "set") && argc == 4) {
        int k = scn_key_lookup("link", argv[2]);
        if (k < 0 || k == SK_LINK_SEED || !qemu_prop_for((enum scn_key)k)) {
            fprintf(stderr, "gemlab fault: set: '%s' is not a settable [link] key\n", argv[2]);
            return RUN_EXIT_INPUT;
        }
        if (scn_parse_value((enum scn_key)k, argv[3], &v, msg, sizeof(msg))) {
            fprintf(stderr, "gemlab fault: set %s: %s\n", argv[2], msg);
            return RUN_EXIT_INPUT;
        }
        qemu_prop_value(&s, (enum scn_key)k, &v, val, sizeof(val));
    } else {
        fprintf(stderr, "gemlab fault: unknown or malformed action '%s'\n", argv[1]);
        return RUN_EXIT_INPUT;
    }
    rc = qmp_open(&q, sock, 3000);
    if (rc) {
        fprintf(stderr, "gemlab fault: cannot reach %s: %s (is the run still going?)\n", sock, strerror(-rc));
        return RUN_EXIT_FAIL;
    }
    if (!strcmp(argv[1], "link")) {
        rc = set_link_any(&q, !strcmp(argv[2], "up"));
    } else if (!strcmp(argv[1], "flap")) {
        rc = set_link_any(&q, false);
        if (!rc) {
            struct timespec ts = { (time_t)(v.u / 1000000000ull), (long)(v.u % 1000000000ull) };
            nanosleep(&ts, NULL);
            rc = set_link_any(&q, true);
        }
    } else if ((rc = qom_find_gem(&q, gem, sizeof(gem))) == 0) {
        if (!strcmp(argv[1], "set"))
            rc = qmp_qom_set(&q, gem, qemu_prop_for((enum scn_key)scn_key_lookup("link", argv[2])),
                             qemu_prop_json(&s, (enum scn_key)scn_key_lookup("link", argv[2]), &v), QMP_TIMEOUT_MS);
        else if (!strcmp(argv[1], "restart-aneg"))
            rc = restart_aneg(&q, gem);
        else
            rc = qmp_qom_set(&q, gem, "rx-starve-ns", cJSON_CreateNumber((double)v.u), QMP_TIMEOUT_MS);
    }
    if (rc) {
        fprintf(stderr, "gemlab fault: %s\n", rc == -EPROTO ? q.last_error : strerror(-rc));
        code = RUN_EXIT_FAIL;
    } else {
        printf("fault applied: %s\n", argv[1]);
    }
    qmp_close(&q);
    return code;
}


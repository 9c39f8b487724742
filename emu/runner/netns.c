/*
 * netns.c - private network namespaces with a tap inside, for --net tap
 * and `gemlab tap up|down` (cmd_tap.c).  `ip` is spawned from argv arrays (no shell);
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

int netns_delete(const char *ns)
{
    return ip_cmd("netns", "del", ns, NULL, NULL, NULL, NULL, NULL);
}

void netns_tap_destroy(const char *ns)
{
    if (ns && ns[0])
        netns_delete(ns);
}

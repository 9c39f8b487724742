/*
 * netns.h - per-run private network namespace + tap (root only).
 * Errors: 0 or a negative errno (-EEXIST: the namespace already exists,
 * -EIO: configuring failed and the namespace was removed again).
 */
#ifndef GEMLAB_RUNNER_NETNS_H
#define GEMLAB_RUNNER_NETNS_H

/* Absolute path of `ip` (falls back to "ip"). */
const char *netns_ip_path(void);
/* Create netns @ns holding tap @tap, host side 10.0.2.2/24 (the board's
 * gateway; the board is 10.0.2.15). */
int netns_tap_create(const char *ns, const char *tap);
/* Delete @ns (and with it the tap): 0, or non-zero when `ip` failed
 * (no such namespace). */
int netns_delete(const char *ns);
/* The same, quietly; a no-op for "" or NULL. */
void netns_tap_destroy(const char *ns);

#endif

/*
 * peer_iperf3.h - the traffic peer's iperf3 client (peer_iperf3.c): the
 * command the runner starts as "iperf3 -c A.B.C.D ...", against the
 * Linux image's iperf 3.12 server (docs/PEER.md "iperf3").
 */
#ifndef GEMLAB_PEER_IPERF3_H
#define GEMLAB_PEER_IPERF3_H

#include <stddef.h>
#include <stdint.h>

#include "shell.h"

extern const struct shell_cmd iperf3_cmd;

/* Check a command's words without running it: 0, or -1 with the reason. */
int iperf3_check(int argc, char **argv, char *err, size_t errlen);
/* The poll hook (shell_register_poll): the test's clock. */
void iperf3_poll(uint32_t now_ms);
/* Drop a running test without a result line (the peer is going away). */
void iperf3_stop(void);

#endif /* GEMLAB_PEER_IPERF3_H */

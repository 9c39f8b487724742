/* appnet.h - helpers shared by the lwIP apps: clock, addresses, payload
 * pattern and the error/result output conventions of docs/schema.md. */
#ifndef GEMLAB_APPNET_H
#define GEMLAB_APPNET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lwip/ip_addr.h"
#include "glout.h"

#define APP_PATTERN_LEN 8192    /* payload source for TCP and UDP senders */
/* The longest run of app_pattern that ends on a whole "0123456789" period:
 * copies of it placed back to back continue the repeat. */
#define APP_PATTERN_CHUNK (APP_PATTERN_LEN - APP_PATTERN_LEN % 10)
#define APP_PEER_STR 24         /* "255.255.255.255:65535" */

extern uint8_t app_pattern[APP_PATTERN_LEN];

/* Fill app_pattern with iperf's "0123456789" repeat.  Idempotent. */
void app_pattern_init(void);
/* Write n bytes of the pattern, starting with '0', to dst: any n, copied
 * from app_pattern in APP_PATTERN_CHUNK pieces (never past its end). */
void app_pattern_fill(uint8_t *dst, size_t n);
/* Microsecond clock (BSP global timer). */
uint64_t app_now_us(void);
/* Millisecond clock (lwIP's sys_now()). */
uint32_t app_now_ms(void);
/* Host-order a.b.c.d -> lwIP address. */
void app_ip_set(ip_addr_t *ip, uint32_t host_order);
/* "a.b.c.d:port" into out (APP_PEER_STR bytes). */
char *app_peer_str(char *out, const ip_addr_t *ip, uint16_t port);
/* Emit an "error" line: {"app":app,"what":what,"err":code} + human line.
 * code is an lwIP err_t or a negative errno. */
void app_error(const char *app, const char *what, int code);
/* bits per second from bytes over us; 0 when us is 0. */
uint64_t app_bps(uint64_t bytes, uint64_t us);
/* Common result fields: bytes, duration_us, bps, mbps (3 decimals). */
void app_put_rate(struct glout *g, uint64_t bytes, uint64_t us);
/* apparp.c: true when a datagram to dst would leave at once (its Ethernet
 * next hop is in the ARP table, or none is needed).  Otherwise false, after
 * sending an ARP request for it when request is true. */
bool app_nexthop_ready(const ip_addr_t *dst, bool request);

struct tcp_pcb;
/*
 * tcp_write(), or ERR_MEM (back-pressure: try again from sent/poll) when
 * lwIP 2.1.3's tcp_write() would fail its "mss_local is too small"
 * assertion.  It cuts segments at min(MSS, half the largest window the
 * other end has advertised), or at the MSS while that half is 0, so a
 * window of 0 or 1 followed by one of 2 or 3 leaves a queued segment
 * longer than the new limit, and the next write asserts
 * (src/core/tcp_out.c): the firmware halts, gemlab's traffic peer
 * aborts QEMU (docs/SECURITY.md P5).  Every app writes through this.
 */
int8_t app_tcp_write(struct tcp_pcb *pcb, const void *data, uint16_t len, uint8_t flags);

#endif /* GEMLAB_APPNET_H */

/* lwip_stub.h - what the tests see of lwip_stub.c (see there). */
#ifndef GEMLAB_UNIT_LWIP_STUB_H
#define GEMLAB_UNIT_LWIP_STUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lwip/udp.h"
#include "lwip/sys.h"

#define STUB_SENT_MAX 8
#define STUB_PCBS 4

struct stub_sent {
    struct udp_pcb *pcb;
    uint8_t *data;
    size_t len;
    ip_addr_t dst;
    u16_t port;
};
struct stub_udp_pcb {
    bool used;
    u16_t port;
    udp_recv_fn recv;
    void *arg;
};

extern struct stub_sent stub_sent[STUB_SENT_MAX];
extern unsigned stub_nsent;           /* datagrams sent since stub_reset() */
extern uint64_t stub_now_us;          /* the clock sys_now()/timer_now_us() read */
extern struct stub_udp_pcb stub_pcbs[STUB_PCBS];
/* Called by udp_sendto() for every datagram instead of recording it in
 * stub_sent[] (NULL: record). */
extern void (*stub_send_hook)(struct udp_pcb *pcb, const struct pbuf *p);

/* app_nexthop_ready() (apps/common/apparp.c) answers stub_arp_ready and
 * counts the ARP requests it was asked to send. */
extern bool stub_arp_ready;
extern unsigned stub_arp_requests;
extern char stub_last_line[256];      /* the last glout line */

uint64_t timer_now_us(void);
void glout_putline(const char *line);
void stub_reset(void);
/* The last datagram sent (NULL when none). */
static inline const struct stub_sent *stub_last(void)
{
    return stub_nsent ? &stub_sent[(stub_nsent - 1) % STUB_SENT_MAX] : NULL;
}

#endif

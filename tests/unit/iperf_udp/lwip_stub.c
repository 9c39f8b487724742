/* lwip_stub.c - host stand-ins for the lwIP 2.1.3 RAW API calls that
 * apps/iperf/iperf_udp.c makes (headers in stub/lwip/), plus the BSP clock.
 *
 * Every udp_sendto() payload is copied into stub_sent[] (the most recent
 * STUB_SENT_MAX), so a test sees exactly the bytes the firmware would have
 * put on the wire.  pbufs are malloc'd with their exact length, so ASan
 * flags any access beyond a payload. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "lwip_stub.h"
#include "appnet.h"

const ip_addr_t stub_ip_addr_any = { 0 };
struct stub_sent stub_sent[STUB_SENT_MAX];
unsigned stub_nsent;
uint64_t stub_now_us;
struct stub_udp_pcb stub_pcbs[STUB_PCBS];
void (*stub_send_hook)(struct udp_pcb *pcb, const struct pbuf *p);
bool stub_arp_ready = true;
unsigned stub_arp_requests;
char stub_last_line[256];

struct pbuf *pbuf_alloc(pbuf_layer layer, u16_t length, pbuf_type type)
{
    struct pbuf *p = calloc(1, sizeof(*p));
    (void)layer;
    (void)type;
    if (!p)
        return NULL;
    p->payload = malloc(length ? length : 1);
    if (!p->payload) {
        free(p);
        return NULL;
    }
    p->len = p->tot_len = length;
    return p;
}

u8_t pbuf_free(struct pbuf *p)
{
    if (!p)
        return 0;
    free(p->payload);
    free(p);
    return 1;
}

u16_t pbuf_copy_partial(const struct pbuf *p, void *dataptr, u16_t len, u16_t offset)
{
    if (offset >= p->len)
        return 0;
    if (len > p->len - offset)
        len = (u16_t)(p->len - offset);
    memcpy(dataptr, (const uint8_t *)p->payload + offset, len);
    return len;
}

struct udp_pcb *udp_new_ip_type(u8_t type)
{
    (void)type;
    for (unsigned i = 0; i < STUB_PCBS; i++) {
        if (!stub_pcbs[i].used) {
            memset(&stub_pcbs[i], 0, sizeof(stub_pcbs[i]));
            stub_pcbs[i].used = true;
            return (struct udp_pcb *)&stub_pcbs[i];
        }
    }
    return NULL;
}

err_t udp_bind(struct udp_pcb *pcb, const ip_addr_t *ipaddr, u16_t port)
{
    (void)ipaddr;
    ((struct stub_udp_pcb *)pcb)->port = port ? port : 49152;
    return ERR_OK;
}

void udp_recv(struct udp_pcb *pcb, udp_recv_fn recv, void *recv_arg)
{
    ((struct stub_udp_pcb *)pcb)->recv = recv;
    ((struct stub_udp_pcb *)pcb)->arg = recv_arg;
}

err_t udp_sendto(struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *dst_ip, u16_t dst_port)
{
    struct stub_sent *s = &stub_sent[stub_nsent % STUB_SENT_MAX];
    if (stub_send_hook) {
        stub_send_hook(pcb, p);     /* the hook checks; nothing recorded */
        stub_nsent++;
        return ERR_OK;
    }
    free(s->data);
    s->data = malloc(p->tot_len ? p->tot_len : 1);
    if (!s->data)
        return ERR_MEM;
    memcpy(s->data, p->payload, p->tot_len);
    s->len = p->tot_len;
    s->pcb = pcb;
    s->dst = *dst_ip;
    s->port = dst_port;
    stub_nsent++;
    return ERR_OK;
}

void udp_remove(struct udp_pcb *pcb)
{
    ((struct stub_udp_pcb *)pcb)->used = false;
}

char *ipaddr_ntoa(const ip_addr_t *addr)
{
    static char buf[16];
    uint32_t a = ntohl(addr->addr);
    snprintf(buf, sizeof(buf), "%u.%u.%u.%u", (unsigned)(a >> 24), (unsigned)(a >> 16 & 0xff),
             (unsigned)(a >> 8 & 0xff), (unsigned)(a & 0xff));
    return buf;
}

u32_t sys_now(void)
{
    return (u32_t)(stub_now_us / 1000u);
}

uint64_t timer_now_us(void)
{
    return stub_now_us;
}

/* apps/common/apparp.c: the next hop is resolved when stub_arp_ready. */
bool app_nexthop_ready(const ip_addr_t *dst, bool request)
{
    (void)dst;
    if (!stub_arp_ready && request)
        stub_arp_requests++;
    return stub_arp_ready;
}

void stub_reset(void)
{
    stub_arp_ready = true;
    stub_arp_requests = 0;
    stub_last_line[0] = 0;
    for (unsigned i = 0; i < STUB_SENT_MAX; i++) {
        free(stub_sent[i].data);
        stub_sent[i].data = NULL;
        stub_sent[i].len = 0;
    }
    stub_nsent = 0;
}

/* Result lines are kept (the last one) but not printed: the test output
 * stays readable. */
void glout_putline(const char *line)
{
    snprintf(stub_last_line, sizeof(stub_last_line), "%s", line);
}

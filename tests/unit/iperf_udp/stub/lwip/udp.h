/* Host stand-in for lwIP 2.1.3's lwip/udp.h (RAW API calls the apps use). */
#ifndef GEMLAB_STUB_LWIP_UDP_H
#define GEMLAB_STUB_LWIP_UDP_H

#include "lwip/ip_addr.h"
#include "lwip/pbuf.h"

struct udp_pcb;
typedef void (*udp_recv_fn)(void *arg, struct udp_pcb *pcb, struct pbuf *p,
                            const ip_addr_t *addr, u16_t port);

struct udp_pcb *udp_new_ip_type(u8_t type);
err_t udp_bind(struct udp_pcb *pcb, const ip_addr_t *ipaddr, u16_t port);
void udp_recv(struct udp_pcb *pcb, udp_recv_fn recv, void *recv_arg);
err_t udp_sendto(struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *dst_ip, u16_t dst_port);
void udp_remove(struct udp_pcb *pcb);

#endif

/* Host stand-in for lwIP 2.1.3's lwip/ip_addr.h, IPv4 only (the firmware
 * is built with LWIP_IPV6 0): the address is kept in network byte order,
 * as lwIP does. */
#ifndef GEMLAB_STUB_LWIP_IP_ADDR_H
#define GEMLAB_STUB_LWIP_IP_ADDR_H

#include <arpa/inet.h>
#include "lwip/err.h"

typedef struct { u32_t addr; } ip4_addr_t;
typedef ip4_addr_t ip_addr_t;

#define IPADDR_TYPE_V4 0u
#define ip_2_ip4(ip) (ip)
#define ip4_addr_get_u32(a) ((a)->addr)
#define ip_addr_copy(dst, src) ((dst) = (src))
#define ip_addr_cmp(a, b) ((a)->addr == (b)->addr)
#define IP_ADDR4(ip, a, b, c, d) \
    ((ip)->addr = htonl((u32_t)(a) << 24 | (u32_t)(b) << 16 | (u32_t)(c) << 8 | (u32_t)(d)))
#define lwip_ntohl(x) ntohl(x)
#define lwip_htonl(x) htonl(x)

extern const ip_addr_t stub_ip_addr_any;
#define IP4_ADDR_ANY (&stub_ip_addr_any)

char *ipaddr_ntoa(const ip_addr_t *addr);

#endif

/*
 * lwipopts.h - lwIP 2.1.3 configuration of gemlab's traffic peer (the
 * host PC inside QEMU, docs/PEER.md in the gemlab repository).
 *
 * NO_SYS=1 with the raw API (lwIP doc/NO_SYS_SampleCode.c): everything
 * runs in QEMU's main loop, called from the netdev's receive callback and
 * from QEMU_CLOCK_VIRTUAL timers, never from a thread.  Memory comes from
 * the C heap (MEM_LIBC_MALLOC, MEMP_MEM_MALLOC: lwIP src/include/lwip/opt.h)
 * so that the pools do not bound a host-sized PC.  The option names and
 * defaults are lwIP's src/include/lwip/opt.h.
 */
#ifndef GEMLAB_PEER_LWIPOPTS_H
#define GEMLAB_PEER_LWIPOPTS_H

#include <stdint.h>

#define NO_SYS                     1
#define LWIP_SOCKET                0
#define LWIP_NETCONN               0
#define SYS_LIGHTWEIGHT_PROT       0
#define LWIP_TIMERS                1
/* the C library has htons() */
#define LWIP_DONT_PROVIDE_BYTEORDER_FUNCTIONS 1

#define MEM_LIBC_MALLOC            1
#define MEMP_MEM_MALLOC            1
#define MEM_ALIGNMENT              8
#define MEM_SIZE                   (4 * 1024 * 1024)
/*
 * With MEMP_MEM_MALLOC, memp.c takes every element from malloc and counts
 * none: these values bound nothing.  What bounds what the (untrusted)
 * board can make the peer hold is in the protocols: ARP's queue
 * (ARP_QUEUE_LEN), IP reassembly (IP_REASS_MAX_PBUFS) and TCP's
 * out-of-order queue (TCP_OOSEQ_MAX_*, below).
 */
#define PBUF_POOL_SIZE             4096
#define MEMP_NUM_PBUF              1024
#define MEMP_NUM_UDP_PCB           16
#define MEMP_NUM_TCP_PCB           32
#define MEMP_NUM_TCP_PCB_LISTEN    8
#define MEMP_NUM_SYS_TIMEOUT       (LWIP_NUM_SYS_TIMEOUT_INTERNAL + 8)

uint32_t gemlab_peer_rand(void);
#define LWIP_RAND()                gemlab_peer_rand()

#define LWIP_ARP                   1
#define ARP_TABLE_SIZE             16
#define ARP_QUEUEING               1
#define LWIP_ETHERNET              1
#define LWIP_IPV4                  1
#define LWIP_IPV6                  0
#define LWIP_ICMP                  1
#define LWIP_RAW                   1
#define LWIP_UDP                   1
#define LWIP_TCP                   1
#define LWIP_DHCP                  0
#define LWIP_AUTOIP                0
#define LWIP_IGMP                  0
#define LWIP_DNS                   0
#define IP_REASSEMBLY              1
#define IP_FRAG                    1
#define IP_REASS_MAX_PBUFS         64

/*
 * TCP: MSS for a 1500-byte MTU; the window is the largest without window
 * scaling (RFC 7323), lwIP's TCP_WND limit of 0xFFFF.
 */
#define TCP_MSS                    1460
#define TCP_WND                    (44 * TCP_MSS)
#define TCP_SND_BUF                (44 * TCP_MSS)
#define TCP_SND_QUEUELEN           ((4 * TCP_SND_BUF + TCP_MSS - 1) / TCP_MSS)
#define MEMP_NUM_TCP_SEG           (TCP_SND_QUEUELEN + 64)
#define TCP_QUEUE_OOSEQ            1
/*
 * A sender inside the window holds at most TCP_WND bytes out of order, in
 * at most TCP_WND / TCP_MSS full segments; without a limit a board that
 * sends 1-byte segments out of order makes the peer keep one pool pbuf
 * (about 1.5 KB) for each, tens of MB per connection (tcp_in.c
 * tcp_receive: the ooseq limits drop the queue's tail instead).
 */
#define TCP_OOSEQ_MAX_BYTES        TCP_WND
#define TCP_OOSEQ_MAX_PBUFS        (2 * TCP_WND / TCP_MSS)
#define TCP_LISTEN_BACKLOG         1
#define LWIP_TCP_KEEPALIVE         1
#define LWIP_CALLBACK_API          1
#define TCP_OVERSIZE               TCP_MSS

#define LWIP_NETIF_LINK_CALLBACK   0
#define LWIP_NETIF_STATUS_CALLBACK 0
#define LWIP_SINGLE_NETIF          1
#define ETH_PAD_SIZE               0

#define CHECKSUM_GEN_IP            1
#define CHECKSUM_GEN_UDP           1
#define CHECKSUM_GEN_TCP           1
#define CHECKSUM_GEN_ICMP          1
#define CHECKSUM_CHECK_IP          1
#define CHECKSUM_CHECK_UDP         1
#define CHECKSUM_CHECK_TCP         1
#define CHECKSUM_CHECK_ICMP        1

#define LWIP_STATS                 0
#define LWIP_DEBUG                 0

#endif /* GEMLAB_PEER_LWIPOPTS_H */

/* lwipopts.h - lwIP 2.1.3 configuration for the gemlab bare-metal firmware.
 *
 * NO_SYS=1 and the RAW API only: everything runs in the main loop; the GEM
 * ISR never calls lwIP (so SYS_LIGHTWEIGHT_PROT is off).  Every value can be
 * overridden from the make command line (-D...) thanks to #ifndef, e.g.
 *   make PBUF_POOL_SIZE=1024 TCP_WND=32768   (see the Makefile's LWIP_OPTS)
 * Sizes are chosen for throughput on QEMU with plenty of DDR: they cost
 * .bss, not text+data.
 */
#ifndef LWIPOPTS_H
#define LWIPOPTS_H

#include "gem.h"   /* GEM_CSUM_OFFLOAD, GEM_JUMBO, GEM_MTU */

/* ---- platform ---- */
#define NO_SYS                     1
#define LWIP_SOCKET                0
#define LWIP_NETCONN               0
#define SYS_LIGHTWEIGHT_PROT       0
#define LWIP_TIMERS                1
#define MEM_ALIGNMENT              4
#define LWIP_RAND()                gemlab_rand()

/* ---- memory ---- */
/* Heap for PBUF_RAM (TCP segments being sent, apps' buffers). */
#ifndef MEM_SIZE
#define MEM_SIZE                   (512 * 1024)
#endif
/* RX pbufs: the driver copies each frame into one (or a chain for jumbo).
 * Must cover the RX ring plus TCP's out-of-sequence queue and app backlog. */
#ifndef PBUF_POOL_SIZE
#define PBUF_POOL_SIZE             512
#endif
/* Default PBUF_POOL_BUFSIZE holds one 1514-byte frame. */
#ifndef MEMP_NUM_PBUF
#define MEMP_NUM_PBUF              64      /* PBUF_ROM/REF (zero-copy sends) */
#endif
#ifndef MEMP_NUM_UDP_PCB
#define MEMP_NUM_UDP_PCB           8
#endif
#ifndef MEMP_NUM_TCP_PCB
#define MEMP_NUM_TCP_PCB           16
#endif
#ifndef MEMP_NUM_TCP_PCB_LISTEN
#define MEMP_NUM_TCP_PCB_LISTEN    8
#endif
#define MEMP_NUM_SYS_TIMEOUT       (LWIP_NUM_SYS_TIMEOUT_INTERNAL + 8)

/* ---- protocols ---- */
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
#define LWIP_DHCP                  1
#define DHCP_DOES_ARP_CHECK        0
#define LWIP_IGMP                  1
#define LWIP_DNS                   0
#define IP_REASSEMBLY              1
#define IP_FRAG                    1
#define IP_REASS_MAX_PBUFS         32

/* ---- TCP ---- */
/* lwIP has no TCP timestamps by default: goodput is 1460/1538 of line rate. */
#ifndef TCP_MSS
#define TCP_MSS                    1460
#endif
/* No window scaling (slirp has none either): the window is <= 64 KiB. */
#ifndef TCP_WND
#define TCP_WND                    (44 * TCP_MSS)
#endif
#ifndef TCP_SND_BUF
#define TCP_SND_BUF                (44 * TCP_MSS)
#endif
#define TCP_SND_QUEUELEN           ((4 * TCP_SND_BUF + TCP_MSS - 1) / TCP_MSS)
#define MEMP_NUM_TCP_SEG           (TCP_SND_QUEUELEN + 64)
#define TCP_QUEUE_OOSEQ            1
#define TCP_LISTEN_BACKLOG         1
#define LWIP_TCP_KEEPALIVE         1
#define LWIP_CALLBACK_API          1
#define TCP_OVERSIZE               TCP_MSS

/* ---- netif ---- */
#define LWIP_NETIF_LINK_CALLBACK   1
#define LWIP_NETIF_STATUS_CALLBACK 1
#define LWIP_SINGLE_NETIF          1
#define ETH_PAD_SIZE               0

/* ---- checksums ---- */
/* With GEM_CSUM_OFFLOAD=1 the GEM inserts IP/TCP/UDP checksums on TX
 * (DMACFG csum_gen_offload_en) and checks them on RX (NWCFG
 * rx_chksum_offld_en), discarding frames whose checks fail.  But it checks
 * only what it can parse: the IPv4 header, and TCP/UDP of an UNFRAGMENTED
 * IPv4 (or extension-header-free IPv6) datagram behind an optional plain
 * 802.1Q tag (UG585 ch. 16 "Checksum Offloading").  What it verified is in
 * RX descriptor word 1 bits 23:22, so lwIP keeps its RX checks compiled in
 * and netif_gem.c switches them per frame (LWIP_CHECKSUM_CTRL_PER_NETIF):
 * off only for what the GEM reported checked.  Fragments (reassembled by
 * lwIP), VLAN-with-CFI and SNAP frames are thus checked in software.
 * ICMP is never offloaded. */
#if GEM_CSUM_OFFLOAD
#define CHECKSUM_GEN_IP            0
#define CHECKSUM_GEN_UDP           0
#define CHECKSUM_GEN_TCP           0
#define LWIP_CHECKSUM_CTRL_PER_NETIF 1
#else
#define CHECKSUM_GEN_IP            1
#define CHECKSUM_GEN_UDP           1
#define CHECKSUM_GEN_TCP           1
#endif
#define CHECKSUM_CHECK_IP          1
#define CHECKSUM_CHECK_UDP         1
#define CHECKSUM_CHECK_TCP         1
#define CHECKSUM_GEN_ICMP          1
#define CHECKSUM_CHECK_ICMP        1
#define LWIP_CHECKSUM_ON_COPY      0
/* 32-bit accumulation (lwIP's algorithm 3): fewer loop iterations per frame
 * than the default 16-bit loop on a 32-bit core. */
#ifndef LWIP_CHKSUM_ALGORITHM
#define LWIP_CHKSUM_ALGORITHM      3
#endif

/* ---- statistics (printed by the `stats` command) ---- */
#define LWIP_STATS                 1
#define LWIP_STATS_DISPLAY         1   /* also gives the pools their names */
/* 32-bit counters (lwIP opt.h LWIP_STATS_LARGE): the default u16_t wrapped
 * after 65 536 frames, which a 1 s test at 1G passes (82k frames read as
 * 16 197 in `stats`). */
#define LWIP_STATS_LARGE           1
#define LINK_STATS                 1
#define ETHARP_STATS               1
#define IP_STATS                   1
#define ICMP_STATS                 1
#define UDP_STATS                  1
#define TCP_STATS                  1
#define MEM_STATS                  1
#define MEMP_STATS                 1
#define SYS_STATS                  0
#define IPFRAG_STATS               1

/* ---- debugging ---- */
#define LWIP_DEBUG                 0
#define LWIP_NOASSERT_ON_ERROR     0

/* ---- apps ---- */
#define LWIPERF_CHECK_RX_DATA      0

#if TCP_WND > 0xFFFF || TCP_SND_BUF > 0xFFFF
#error "TCP_WND/TCP_SND_BUF above 64 KiB need LWIP_WND_SCALE (not configured)"
#endif
#if TCP_WND < 2 * TCP_MSS
#error "TCP_WND must be at least 2 * TCP_MSS"
#endif

#ifndef __ASSEMBLER__
#include <stdint.h>
uint32_t gemlab_rand(void);
#endif

#endif /* LWIPOPTS_H */

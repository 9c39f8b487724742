/*
 * fuzz_iperf_udp.c - libFuzzer target: the bare-metal firmware's iperf 2
 * UDP server and client glue (apps/iperf/iperf_udp.c: srv_recv, the
 * dual/tradeoff back test, uc_recv, the paced sender), compiled for the
 * host with lwIP stubbed (tests/unit/iperf_udp/lwip_stub.c; every pbuf an
 * exactly sized heap block, so ASan sees reads past a datagram).
 *
 * Input: up to 24 operations, each [op][args...]:
 *   0, 1  a datagram (u16 length, then its bytes) to the server from
 *         peer A (10.0.2.2, port 40000 + u8 % 4: a -P client's sockets)
 *         or peer B (10.0.2.3:u16 port)
 *   2     start the client (u16 length, u16 rate in kb/s - at most
 *         ~65 Mb/s keeps a poll's burst small -, u16 ms, bool -n mode,
 *         u8 % 10 streams: -P, 0 and 9 included)
 *   3     a datagram (u16 length, bytes) to one of the client's sockets
 *         (u8 picks it: with -P each is a stream of its own)
 *   4     advance the clock by a u16 of ms and run the poll hook
 * Checked on every datagram the firmware sends (docs/SECURITY.md F1 found
 * the sender reading past its pattern buffer): the server's are FIN-acks
 * of exactly IPERF2_FIN_ACK_LEN bytes, or the data of a -R test it sends
 * with the client engine; the client's are 16..8972 bytes
 * and, after the 16-byte datagram header and the client header, the
 * "0123456789" pattern to the last byte.  The client never runs with a
 * length or a stream count it refused, and the server's -P bookkeeping
 * stays in its bounds (running streams <= slots used <= UDP_MAX_XS).
 */
#include "lwip_stub.h"
#include "iperf_udp.c"      /* static srv_recv(), uc_recv(), state */

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t pattern[IPERF_MAX_UDP_LEN];     /* what a payload must be */

static void check_send(struct udp_pcb *pcb, const struct pbuf *p)
{
    const uint8_t *d = p->payload;
    uint32_t len = p->tot_len, h, start;

    if (pcb == us.pcb && us.pcb != NULL) {
        if (len == IPERF2_FIN_ACK_LEN)
            return;
        /* else only the sender of a -R test, through the server's socket */
        if (!uc.borrowed || uc.state == UC_IDLE)
            fz_fail("server sent %u bytes, not a FIN-ack", (unsigned)len);
    }
    if (len < IPERF2_UDP_HDR_LEN || len > IPERF_MAX_UDP_LEN)
        fz_fail("client datagram of %u bytes", (unsigned)len);
    h = len - IPERF2_UDP_HDR_LEN < uc.hdr_len ? len - IPERF2_UDP_HDR_LEN : uc.hdr_len;
    if (memcmp(d + IPERF2_UDP_HDR_LEN, uc.hdr, h) != 0)
        fz_fail("client header differs in a %u-byte datagram", (unsigned)len);
    start = IPERF2_UDP_HDR_LEN + h;
    if (memcmp(d + start, pattern, len - start) != 0) {
        uint32_t k = start;
        while (d[k] == pattern[k - start])
            k++;
        fz_fail("client datagram of %u bytes: byte %u is 0x%02x, not the pattern",
                (unsigned)len, (unsigned)k, d[k]);
    }
}

static struct pbuf *datagram(struct fz *f)
{
    uint16_t n = fz_u16(f) % 2048u;
    struct pbuf *p;

    if (n > f->n)
        n = (uint16_t)f->n;
    p = pbuf_alloc(PBUF_TRANSPORT, n, PBUF_RAM);
    if (!p)
        abort();
    memcpy(p->payload, f->p, n);
    f->p += n;
    f->n -= n;
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz f;
    ip_addr_t a, b;

    if (pattern[0] != '0')
        for (size_t i = 0; i < sizeof(pattern); i++)
            pattern[i] = (uint8_t)('0' + i % 10);
    fz_init(&f, data, size);
    stub_reset();
    stub_send_hook = check_send;
    stub_now_us = 1000000;
    IP_ADDR4(&a, 10, 0, 2, 2);
    IP_ADDR4(&b, 10, 0, 2, 3);
    if (iperf_udp_server_start(5001, fz_u8(&f) & 1u) != ERR_OK)
        fz_fail("server did not start");
    for (int step = 0; step < 24 && !fz_empty(&f); step++) {
        switch (fz_u8(&f) % 5u) {
        case 0: {
            u16_t port = (u16_t)(40000u + fz_u8(&f) % 4u);
            struct pbuf *p = datagram(&f);
            srv_recv(NULL, us.pcb, p, &a, port);
            break;
        }
        case 1: {
            uint16_t port = fz_u16(&f);
            struct pbuf *p = datagram(&f);
            srv_recv(NULL, us.pcb, p, &b, port);
            break;
        }
        case 2: {
            struct iperf_udp_client_cfg cfg = {
                .host = 0x0A000202u, .port = 5001, .quiet = fz_bool(&f),
            };
            cfg.len = fz_u16(&f);
            cfg.rate_bps = (uint64_t)fz_u16(&f) * 1000u;
            cfg.time_ms = fz_u16(&f);
            if (fz_bool(&f)) {
                cfg.amount_bytes = cfg.time_ms;
                cfg.time_ms = 0;
            }
            cfg.streams = fz_u8(&f) % 10u;
            bool busy = iperf_udp_client_busy();
            err_t err = iperf_udp_client_start(&cfg);
            bool bad = cfg.len < IPERF2_UDP_HDR_LEN || cfg.len > IPERF_MAX_UDP_LEN || cfg.rate_bps == 0 ||
                       cfg.streams > IPERF_MAX_PARALLEL;
            if (err == ERR_OK && (busy || bad))
                fz_fail("client started (busy %d) with len %u rate %u -P %u", busy, (unsigned)cfg.len,
                        (unsigned)cfg.rate_bps, cfg.streams);
            if (err == ERR_OK && cfg.streams > 1 && (ucg.n != cfg.streams || !iperf_udp_client_busy()))
                fz_fail("client -P %u started %u streams", cfg.streams, ucg.n);
            if (err != ERR_OK && !busy && iperf_udp_client_busy())
                fz_fail("client refused (err %d) but busy", (int)err);
            break;
        }
        case 3: {
            /* one of the client's sockets: udp_recv's argument says
             * which stream (lwip_stub.c keeps it) */
            struct stub_udp_pcb *sp = &stub_pcbs[fz_u8(&f) % STUB_PCBS];
            if (sp->used && sp->recv == uc_recv) {
                struct pbuf *p = datagram(&f);
                sp->recv(sp->arg, (struct udp_pcb *)sp, p, &a, 5001);
            }
            break;
        }
        default:
            stub_now_us += 1000u * (1u + fz_u16(&f) % 5000u);
            iperf_udp_poll((uint32_t)(stub_now_us / 1000u));
            break;
        }
        if (us.xs_open > us.nxs || us.nxs > UDP_MAX_XS || ucg.n > IPERF_MAX_PARALLEL || ucg.n == 1)
            fz_fail("-P bookkeeping: server %u open of %u slots, client group of %u",
                    us.xs_open, us.nxs, ucg.n);
    }
    iperf_udp_stop();
    stub_send_hook = NULL;
    stub_reset();
    return 0;
}

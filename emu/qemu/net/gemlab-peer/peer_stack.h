/*
 * peer_stack.h - the interface between gemlab's traffic peer netdev
 * (gemlab_peer.c: QEMU's side, timers, the frame queue) and its TCP/IP
 * stack (peer_stack.c: lwIP and the apps).  Plain C types only, so that
 * neither side includes the other's headers.
 *
 * Everything runs on QEMU's main loop; the stack's clock is
 * gp_now_us(), QEMU_CLOCK_VIRTUAL.
 */
#ifndef GEMLAB_PEER_STACK_H
#define GEMLAB_PEER_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GP_ERR_MAX 256

struct gp_stack_cfg {
    uint8_t mac[6];
    uint32_t ip;            /* host byte order */
    uint32_t netmask;
    uint32_t board_ip;
    uint64_t seed;
    /*
     * Hand one Ethernet frame (no FCS) to the NIC.  Returns 0, or -1 when
     * the NIC's queue is full (the frame is dropped, as a PC's driver
     * would when its ring is full).
     */
    int (*tx)(void *opaque, const uint8_t *frame, size_t len);
    /* One result (a JSON object, no newline) for the results file. */
    void (*result)(void *opaque, const char *json);
    void *opaque;
};

/* Provided by gemlab_peer.c: virtual time. */
uint64_t gp_now_us(void);

/*
 * Bring the stack up (once per process: lwIP's state is global).
 * Returns 0, or -1 with the reason in err.
 */
int gp_stack_init(const struct gp_stack_cfg *cfg, char *err, size_t errlen);
/* Take the netif down and stop every app. */
void gp_stack_fini(void);
/* One frame from the wire (the guest's NIC). */
void gp_stack_input(const uint8_t *frame, size_t len);
/* Run what is due: lwIP's timeouts and the apps' polls. */
void gp_stack_poll(void);
/* Milliseconds until gp_stack_poll() has work, or UINT32_MAX. */
uint32_t gp_stack_next_ms(void);
/*
 * Check a command line ("iperf -s", ...) without running it: 0, or -1
 * with the reason in err.
 */
int gp_stack_check(const char *cmd, char *err, size_t errlen);
/* Run a command line now: 0, or -1 with the reason in err. */
int gp_stack_run(const char *cmd, char *err, size_t errlen);

#endif /* GEMLAB_PEER_STACK_H */

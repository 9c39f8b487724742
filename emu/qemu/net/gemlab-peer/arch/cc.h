/*
 * arch/cc.h - lwIP's platform glue (lwIP src/include/lwip/arch.h) for
 * gemlab's traffic peer, compiled for the host into qemu-system-arm.
 */
#ifndef GEMLAB_PEER_ARCH_CC_H
#define GEMLAB_PEER_ARCH_CC_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#define LWIP_ERRNO_STDINCLUDE      1
#define LWIP_TIMEVAL_PRIVATE       0

/*
 * A failed lwIP assertion is a bug in the peer: report it and abort, as
 * QEMU's own assert() does.
 */
void gemlab_peer_lwip_assert(const char *msg, const char *file, int line)
    __attribute__((noreturn));
void gemlab_peer_diag(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
#define LWIP_PLATFORM_DIAG(x)      do { gemlab_peer_diag x; } while (0)
#define LWIP_PLATFORM_ASSERT(x) \
    gemlab_peer_lwip_assert((x), __FILE__, __LINE__)

#endif /* GEMLAB_PEER_ARCH_CC_H */

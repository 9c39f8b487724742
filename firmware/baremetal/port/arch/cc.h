/* arch/cc.h - lwIP compiler/platform glue for arm-none-eabi + newlib-nano. */
#ifndef LWIP_ARCH_CC_H
#define LWIP_ARCH_CC_H

#include <stdio.h>
#include <stdlib.h>

/* newlib provides errno.h, stdint.h, inttypes.h, limits.h. */
#define LWIP_ERRNO_STDINCLUDE      1
#define LWIP_TIMEVAL_PRIVATE       0
#include <sys/time.h>

/* Diagnostics go to the console; an assertion is fatal (print + halt). */
#define LWIP_PLATFORM_DIAG(x)      do { printf x; } while (0)
void gemlab_lwip_assert(const char *msg, const char *file, int line) __attribute__((noreturn));
#define LWIP_PLATFORM_ASSERT(x)    gemlab_lwip_assert((x), __FILE__, __LINE__)

#endif

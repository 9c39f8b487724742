/* sys_arch.c - NO_SYS port: time and randomness for lwIP. */
#include <stdio.h>
#include "lwip/sys.h"
#include "bsp.h"

/* lwIP timeouts: milliseconds from the global timer (wraps after 49 days,
 * which lwIP handles). */
u32_t sys_now(void)
{
    return timer_now_ms();
}

/* xorshift32 seeded from the global timer at first use: ports, ISNs and
 * DHCP xids only need to differ between boots. */
uint32_t gemlab_rand(void)
{
    static uint32_t s;
    if (s == 0)
        s = (uint32_t)timer_ticks() | 1u;
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

void gemlab_lwip_assert(const char *msg, const char *file, int line)
{
    irq_disable();
    printf("@gemlab {\"v\":1,\"src\":\"baremetal\",\"type\":\"fault\",\"kind\":\"lwip_assert\","
           "\"msg\":\"%s\",\"file\":\"%s\",\"line\":%d}\n", msg, file, line);
    printf("FATAL: lwIP assertion \"%s\" failed at %s:%d\n", msg, file, line);
    for (;;)
        __asm__ volatile("wfi");
}

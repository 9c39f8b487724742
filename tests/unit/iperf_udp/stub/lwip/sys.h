/* Host stand-in for lwIP 2.1.3's lwip/sys.h: the millisecond clock. */
#ifndef GEMLAB_STUB_LWIP_SYS_H
#define GEMLAB_STUB_LWIP_SYS_H

#include "lwip/err.h"

u32_t sys_now(void);

#endif

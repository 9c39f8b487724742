/* Host stand-in for lwIP 2.1.3's lwip/err.h (src/include/lwip/err.h):
 * only what the firmware apps under test use.  The values are lwIP's. */
#ifndef GEMLAB_STUB_LWIP_ERR_H
#define GEMLAB_STUB_LWIP_ERR_H

#include <stdint.h>

typedef uint8_t u8_t;
typedef int8_t s8_t;
typedef uint16_t u16_t;
typedef uint32_t u32_t;
typedef s8_t err_t;

#define ERR_OK        0
#define ERR_MEM      -1
#define ERR_VAL      -6
#define ERR_USE      -8
#define ERR_ALREADY  -9
#define ERR_IF      -12

#endif

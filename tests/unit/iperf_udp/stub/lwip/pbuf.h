/* Host stand-in for lwIP 2.1.3's lwip/pbuf.h: one contiguous buffer per
 * pbuf (what PBUF_RAM gives on the firmware), malloc'd by the stub so
 * ASan sees its bounds. */
#ifndef GEMLAB_STUB_LWIP_PBUF_H
#define GEMLAB_STUB_LWIP_PBUF_H

#include "lwip/err.h"

typedef enum { PBUF_TRANSPORT, PBUF_IP, PBUF_LINK, PBUF_RAW } pbuf_layer;
typedef enum { PBUF_RAM, PBUF_ROM, PBUF_REF, PBUF_POOL } pbuf_type;

struct pbuf {
    struct pbuf *next;
    void *payload;
    u16_t tot_len;
    u16_t len;
};

struct pbuf *pbuf_alloc(pbuf_layer layer, u16_t length, pbuf_type type);
u8_t pbuf_free(struct pbuf *p);
u16_t pbuf_copy_partial(const struct pbuf *p, void *dataptr, u16_t len, u16_t offset);

#endif

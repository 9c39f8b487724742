/* apptcp.c - the apps' TCP write (appnet.h app_tcp_write), apart from
 * appnet.c so that UDP-only host builds (tests/unit/iperf_udp) need no
 * lwIP TCP headers. */
#include "appnet.h"

#include "lwip/tcp.h"
#include "lwip/priv/tcp_priv.h"

int8_t app_tcp_write(struct tcp_pcb *pcb, const void *data, uint16_t len, uint8_t flags)
{
    /* tcp_write()'s own limit and option length (lwIP 2.1.3 src/core/tcp_out.c;
     * no LWIP_HOOK_TCP_OUT_TCPOPT_LENGTH here) */
    u16_t mss_local = LWIP_MIN(pcb->mss, TCPWND_MIN16(pcb->snd_wnd_max / 2));
    struct tcp_seg *last = pcb->unsent;

    mss_local = mss_local ? mss_local : pcb->mss;
    if (last) {
        while (last->next)
            last = last->next;
        if (last->len + LWIP_TCP_OPT_LENGTH(last->flags) > mss_local)
            return ERR_MEM;
    }
    return tcp_write(pcb, data, len, flags);
}

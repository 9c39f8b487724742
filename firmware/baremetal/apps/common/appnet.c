/* appnet.c - shared helpers for the lwIP apps. */
#include "appnet.h"

#include <string.h>

#include "lwip/sys.h"

/* From the BSP (bsp/bsp.h): the 64-bit global timer in microseconds. */
uint64_t timer_now_us(void);

uint8_t app_pattern[APP_PATTERN_LEN];

void app_pattern_init(void)
{
    if (app_pattern[0] == '0')
        return;
    for (size_t i = 0; i < APP_PATTERN_LEN; i++)
        app_pattern[i] = (uint8_t)('0' + i % 10);
}

void app_pattern_fill(uint8_t *dst, size_t n)
{
    while (n) {
        size_t k = n < APP_PATTERN_CHUNK ? n : APP_PATTERN_CHUNK;
        memcpy(dst, app_pattern, k);
        dst += k;
        n -= k;
    }
}

uint64_t app_now_us(void)
{
    return timer_now_us();
}

uint32_t app_now_ms(void)
{
    return sys_now();
}

void app_ip_set(ip_addr_t *ip, uint32_t a)
{
    IP_ADDR4(ip, (u8_t)(a >> 24), (u8_t)(a >> 16), (u8_t)(a >> 8), (u8_t)a);
}

char *app_peer_str(char *out, const ip_addr_t *ip, uint16_t port)
{
    char num[21];
    const char *s = ipaddr_ntoa(ip);
    size_t n = strlen(s);

    if (n > APP_PEER_STR - 7)
        n = APP_PEER_STR - 7;
    memcpy(out, s, n);
    out[n++] = ':';
    glout_fmt_u64(num, port);
    memcpy(out + n, num, strlen(num) + 1);
    return out;
}

void app_error(const char *app, const char *what, int code)
{
    char buf[GLOUT_LINE_MAX];
    struct glout g;

    glout_begin(&g, buf, sizeof(buf), "error");
    glout_str(&g, "app", app);
    glout_str(&g, "what", what);
    glout_int(&g, "err", code);
    glout_emit(&g);
    glout_textf("%s: error: %s (%d)", app, what, code);
}

uint64_t app_bps(uint64_t bytes, uint64_t us)
{
    if (us == 0)
        return 0;
    /* bytes * 8e6 overflows above ~2.3 PB; tests are far smaller */
    return bytes * 8000000ull / us;
}

void app_put_rate(struct glout *g, uint64_t bytes, uint64_t us)
{
    uint64_t bps = app_bps(bytes, us);
    glout_u64(g, "bytes", bytes);
    glout_u64(g, "duration_us", us);
    glout_u64(g, "bps", bps);
    glout_dbl(g, "mbps", (double)bps / 1e6, 3);
}

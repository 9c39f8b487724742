/* apps.c - registers the benchmark apps with the UART shell. */
#include "shell.h"
#include "apps.h"

#include "common/appnet.h"

void app_status(const char *app, const char *state, const char *proto, unsigned port)
{
    char buf[GLOUT_LINE_MAX];
    struct glout g;

    glout_begin(&g, buf, sizeof(buf), "status");
    glout_str(&g, "app", app);
    glout_str(&g, "state", state);
    if (proto)
        glout_str(&g, "proto", proto);
    if (port)
        glout_u64(&g, "port", port);
    glout_emit(&g);
    if (port)
        glout_textf("%s: %s %s port %u", app, state, proto ? proto : "", port);
    else
        glout_textf("%s: %s", app, state);
}

void apps_register_all(void)
{
    app_pattern_init();
    iperf_register();
    echo_register();
    latency_register();
    sweep_register();
}

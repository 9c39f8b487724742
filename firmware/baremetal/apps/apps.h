/* apps.h - registration entry points of the lwIP apps (apps.c calls them). */
#ifndef GEMLAB_APPS_H
#define GEMLAB_APPS_H

void iperf_register(void);
void echo_register(void);
void latency_register(void);
void sweep_register(void);

/* Shared "status" line: {"app":app,"state":state,"proto":proto,"port":port}. */
void app_status(const char *app, const char *state, const char *proto, unsigned port);

#endif /* GEMLAB_APPS_H */

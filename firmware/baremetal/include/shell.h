/* shell.h - UART command shell: the interface apps code against.
 *
 * An app defines a `const struct shell_cmd` and registers it from
 * apps_register_all() (apps/apps.c).  Commands run on the main loop; they
 * must not block.  Long-running work is started in fn() and continues via
 * lwIP callbacks or a poll hook registered with shell_register_poll().
 */
#ifndef GEMLAB_SHELL_H
#define GEMLAB_SHELL_H

#include <stdint.h>

struct shell_cmd {
    const char *name;
    const char *usage;                  /* one line, printed on bad args */
    int (*fn)(int argc, char **argv);   /* 0 ok; <0 -> shell prints usage; long-running work is started here and continues via lwIP callbacks / poll hooks */
};
void shell_register(const struct shell_cmd *cmd);
/* apps needing periodic work (pacing UDP sends, reporting) register a poll hook called from the main loop: */
void shell_register_poll(void (*poll)(uint32_t now_ms));

/* Called once at boot by main(); the default (weak) version registers
 * nothing.  apps/apps.c provides the real one. */
void apps_register_all(void);

#endif /* GEMLAB_SHELL_H */

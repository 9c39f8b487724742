/* shell_priv.h - shell internals shared with main.c and the built-ins. */
#ifndef SHELL_PRIV_H
#define SHELL_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include "shell.h"

void shell_builtins_register(void);
void shell_poll_input(void);            /* consume buffered UART input */
void shell_input(int c);
void shell_prompt(void);
int shell_execute(char *line);          /* modifies line; returns fn's rc */
void shell_run_polls(uint32_t now_ms);
unsigned shell_commands(const struct shell_cmd *const **out);

#endif

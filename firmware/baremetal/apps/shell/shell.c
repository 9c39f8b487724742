/* shell.c - UART line editor and command table (interface: include/shell.h).
 *
 * Input is consumed a character at a time from the main loop (never blocks).
 * Editing: printable characters, backspace/DEL, Ctrl-U (kill line), Ctrl-C
 * (abandon line).  A line is split on blanks into at most SHELL_MAX_ARGS
 * words; the first selects the command.  A command returning < 0 gets its
 * usage line printed; the firmware keeps serving either way.  A line longer
 * than SHELL_LINE_MAX - 1 characters is refused with an error when it
 * ends: running what fitted would run a command nobody typed.
 */
#include <stdio.h>
#include <string.h>
#include "shell.h"
#include "shell_priv.h"
#include "bsp.h"

#define SHELL_MAX_CMDS   48
#define SHELL_MAX_POLLS  16
#define SHELL_LINE_MAX   160
#define SHELL_MAX_ARGS   16
#define SHELL_PROMPT     "gemlab> "

static const struct shell_cmd *cmds[SHELL_MAX_CMDS];
static unsigned ncmds;
static void (*polls[SHELL_MAX_POLLS])(uint32_t now_ms);
static unsigned npolls;
static char line[SHELL_LINE_MAX];
static unsigned len;
static bool last_cr;
static bool overflow;           /* the line being typed lost characters */

void shell_register(const struct shell_cmd *cmd)
{
    if (!cmd || !cmd->name || !cmd->fn)
        return;
    for (unsigned i = 0; i < ncmds; i++) {
        if (strcmp(cmds[i]->name, cmd->name) == 0) {
            cmds[i] = cmd;      /* later registration wins */
            return;
        }
    }
    if (ncmds < SHELL_MAX_CMDS)
        cmds[ncmds++] = cmd;
    else
        printf("shell: command table full, '%s' not registered\n", cmd->name);
}

void shell_register_poll(void (*poll)(uint32_t now_ms))
{
    if (!poll)
        return;
    for (unsigned i = 0; i < npolls; i++)
        if (polls[i] == poll)
            return;
    if (npolls < SHELL_MAX_POLLS)
        polls[npolls++] = poll;
    else
        printf("shell: poll table full\n");
}

void shell_run_polls(uint32_t now_ms)
{
    for (unsigned i = 0; i < npolls; i++)
        polls[i](now_ms);
}

unsigned shell_commands(const struct shell_cmd *const **out)
{
    *out = cmds;
    return ncmds;
}

int shell_execute(char *s)
{
    char *argv[SHELL_MAX_ARGS + 1];
    int argc = 0;
    char *save = 0;
    for (char *tok = strtok_r(s, " \t", &save); tok; tok = strtok_r(0, " \t", &save)) {
        if (argc == SHELL_MAX_ARGS) {
            printf("error: too many arguments (max %d)\n", SHELL_MAX_ARGS);
            return -1;
        }
        argv[argc++] = tok;
    }
    argv[argc] = 0;
    if (argc == 0)
        return 0;
    for (unsigned i = 0; i < ncmds; i++) {
        if (strcmp(cmds[i]->name, argv[0]) == 0) {
            int rc = cmds[i]->fn(argc, argv);
            if (rc < 0)
                printf("usage: %s\n", cmds[i]->usage ? cmds[i]->usage : cmds[i]->name);
            return rc;
        }
    }
    printf("unknown command '%s' (try 'help')\n", argv[0]);
    return -1;
}

void shell_prompt(void)
{
    fputs(SHELL_PROMPT, stdout);
    fflush(stdout);
}

void shell_input(int c)
{
    if (c == '\r' || c == '\n') {
        if (c == '\n' && last_cr) {     /* CR LF counts once */
            last_cr = false;
            return;
        }
        last_cr = (c == '\r');
        fputs("\n", stdout);
        line[len] = '\0';
        len = 0;
        if (overflow) {
            /* what is left is not what was typed: run nothing */
            overflow = false;
            printf("error: line too long (max %d characters), not executed\n", SHELL_LINE_MAX - 1);
        } else {
            (void)shell_execute(line);
        }
        shell_prompt();
        return;
    }
    last_cr = false;
    if (c == 0x08 || c == 0x7F) {
        if (len) {
            len--;
            fputs("\b \b", stdout);
            fflush(stdout);
        }
    } else if (c == 0x15 || c == 0x03) {  /* Ctrl-U, Ctrl-C */
        len = 0;
        overflow = false;
        fputs(c == 0x03 ? "^C\n" : "\n", stdout);
        shell_prompt();
    } else if (c >= 0x20 && c < 0x7F) {
        if (len < SHELL_LINE_MAX - 1) {
            line[len++] = (char)c;
            putchar(c);
            fflush(stdout);
        } else {
            if (!overflow) {            /* one bell, not one per dropped char:
                                         * echoing each one slowed the drain
                                         * of the 256-byte UART RX ring */
                putchar('\a');
                fflush(stdout);
            }
            overflow = true;            /* refused at the end of the line */
        }
    }
}

void shell_poll_input(void)
{
    int c;
    for (unsigned n = 0; n < 64 && (c = uart_getc()) >= 0; n++)
        shell_input(c);
}

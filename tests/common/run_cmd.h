/* tests/common/run_cmd.h - run a `gemlab` subcommand's cmd_*() (emu/
 * runner/cmd.h) inside the test, as the CLI would: its stdout thrown
 * away, its stderr kept for the test to read.  The cmd_*() files own
 * option parsing and exit codes, so their tests call them this way. */
#ifndef GEMLAB_TESTS_RUN_CMD_H
#define GEMLAB_TESTS_RUN_CMD_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* @cmd(@argc, @argv): its exit code, and what it wrote to stderr in @msg
 * (@len bytes at most, NUL-terminated).  Aborts when the descriptors
 * cannot be redirected: no test result would mean anything then. */
static inline int run_cmd(int (*cmd)(int, char **), int argc, char **argv, char *msg, size_t len)
{
    FILE *out = tmpfile(), *err = tmpfile();
    int saved_out, saved_err, rc;
    size_t n;

    fflush(stdout);
    fflush(stderr);
    saved_out = dup(1);
    saved_err = dup(2);
    if (!out || !err || saved_out < 0 || saved_err < 0 || dup2(fileno(out), 1) < 0 || dup2(fileno(err), 2) < 0)
        abort();
    rc = cmd(argc, argv);
    fflush(stdout);
    fflush(stderr);
    if (dup2(saved_out, 1) < 0 || dup2(saved_err, 2) < 0)
        abort();
    close(saved_out);
    close(saved_err);
    rewind(err);
    n = fread(msg, 1, len - 1, err);
    msg[n] = '\0';
    fclose(out);
    fclose(err);
    return rc;
}

#endif

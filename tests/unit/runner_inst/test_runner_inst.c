/* QEMU's process handling in emu/runner/inst.c against real children
 * (runner_spawn, /bin/sh): inst_stop() signals QEMU's process group only
 * while its leader is unreaped (security review R5: kill(-pid) after the
 * leader was reaped hits whatever group reuses that ID), still kills the
 * whole group of a live leader, reaps it, and reports how it ended.
 * kill() is wrapped (-Wl,--wrap=kill): a group signal whose leader is no
 * longer our child (waitid says ECHILD) is counted as a violation.
 * STYLE.md: `#include "module.c"` to reach static functions. */
#include "../../../emu/runner/inst.c"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#undef malloc
#undef calloc
#undef realloc
#undef free

int __real_kill(pid_t pid, int sig);
int __wrap_kill(pid_t pid, int sig);

static int group_signals, group_signals_after_reap;

int __wrap_kill(pid_t pid, int sig)
{
    if (pid < -1) {
        siginfo_t si;
        group_signals++;
        /* is the group's leader still ours (alive or a zombie)? */
        if (waitid(P_PID, (id_t)-pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD)
            group_signals_after_reap++;
    }
    return __real_kill(pid, sig);
}

static void inst_for(struct inst *in, char *const argv[])
{
    memset(in, 0, sizeof(*in));
    in->serial_fd = -1;
    in->qmp.fd = -1;
    in->quiet = true;
    assert_int_equal(runner_spawn(&in->pid, argv, "/dev/null", NULL), 0);
    group_signals = group_signals_after_reap = 0;
}

static bool reaped(pid_t pid)
{
    return waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD;
}

/* The review's case: QEMU exits on its own, the run notices (inst_wait ->
 * -ECHILD, seconds before cleanup), then inst_stop(): its "helpers too"
 * group kill must not come after the leader was reaped. */
static void test_group_is_not_signalled_after_its_leader_was_reaped(void **state)
{
    static struct inst in;
    char *const argv[] = { "/bin/sh", "-c", "exit 3", NULL };
    char why[64];
    (void)state;

    inst_for(&in, argv);
    for (int k = 0; k < 500 && !inst_exited(&in); k++)
        usleep(10000);
    assert_true(inst_exited(&in));
    inst_describe_exit(&in, why, sizeof(why));
    assert_string_equal(why, "exited with status 3");
    usleep(50000);      /* the review's window between noticing and cleanup */
    inst_stop(&in);
    assert_int_equal(group_signals_after_reap, 0);
    assert_true(reaped(in.pid));    /* inst_stop() reaps it, no zombie left */
    inst_stop(&in);                 /* idempotent: nothing more is sent */
    assert_int_equal(group_signals_after_reap, 0);
}

/* A live QEMU that ignores the polite way: SIGTERM to its group takes it
 * and its helper (a child in the same group) down; both are gone. */
static void test_stop_kills_the_group_of_a_live_leader(void **state)
{
    static struct inst in;
    char pidfile[64], buf[32] = "";
    char *argv[] = { "/bin/sh", "-c", NULL, NULL };
    char script[160];
    pid_t helper = 0;
    FILE *f;
    (void)state;

    snprintf(pidfile, sizeof(pidfile), "/tmp/gemlab-inst-test-%d.pid", (int)getpid());
    snprintf(script, sizeof(script), "sleep 60 & echo $! > %s; wait", pidfile);
    argv[2] = script;
    inst_for(&in, argv);
    for (int k = 0; k < 500 && !helper; k++) {
        usleep(10000);
        f = fopen(pidfile, "r");
        if (f && fgets(buf, sizeof(buf), f))
            helper = (pid_t)atoi(buf);
        if (f)
            fclose(f);
    }
    assert_true(helper > 0);
    assert_false(inst_exited(&in));
    inst_stop(&in);
    assert_true(group_signals > 0);
    assert_int_equal(group_signals_after_reap, 0);
    assert_true(reaped(in.pid));
    /* the helper (reparented, maybe a zombie of init) no longer runs */
    for (int k = 0; k < 200; k++) {
        char stat[64], st = 0;
        snprintf(stat, sizeof(stat), "/proc/%d/stat", (int)helper);
        f = fopen(stat, "r");
        if (f) {
            if (fscanf(f, "%*d %*s %c", &st) != 1)
                st = 0;
            fclose(f);
        }
        if (!f || st == 'Z')
            break;
        usleep(10000);
        assert_true(k < 199);
    }
    unlink(pidfile);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_group_is_not_signalled_after_its_leader_was_reaped),
        cmocka_unit_test(test_stop_kills_the_group_of_a_live_leader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

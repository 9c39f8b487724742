/* QEMU's process handling in emu/runner/inst.c against real children
 * (runner_spawn, /bin/sh): inst_stop() signals QEMU's process group only
 * while its leader is unreaped (docs/SECURITY.md R5: kill(-pid) after the
 * leader was reaped hits whatever group reuses that ID), still kills the
 * whole group of a live leader, reaps it, and reports how it ended.
 * kill() is wrapped (-Wl,--wrap=kill): a group signal whose leader is no
 * longer our child (waitid says ECHILD) is counted as a violation.
 * inst_send() to a console nobody reads gives up (docs/SECURITY.md R10): on a stop
 * signal, when QEMU is gone, and at its deadline.
 * The module is included (`#include "module.c"`) to reach its static
 * functions. */
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

/* The finding's case (docs/SECURITY.md R5): QEMU exits on its own, the run notices (inst_wait ->
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
    usleep(50000);      /* the finding's window between noticing and cleanup */
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

static long long ms_since(long long t0)
{
    return inst_now_ms() - t0;
}

/* docs/SECURITY.md R10: a guest that stops reading its UART fills the serial
 * socket; inst_send() used to retry EAGAIN every 1 ms forever, deaf to
 * ^C.  Now a stop signal ends it at once, so does QEMU's exit, and
 * INST_SEND_TIMEOUT_MS bounds it otherwise. */
static void test_send_to_a_console_nobody_reads_gives_up(void **state)
{
    static struct inst in;
    char *const argv[] = { "/bin/sleep", "30", NULL };
    int sv[2], small = 4096;
    char junk[4096];
    long long t0;
    (void)state;

    alarm(INST_SEND_TIMEOUT_MS / 1000 + 20);    /* the old loop never returns */
    inst_for(&in, argv);
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
    fcntl(sv[0], F_SETFL, O_NONBLOCK);
    memset(junk, 'x', sizeof(junk));
    while (write(sv[0], junk, sizeof(junk)) > 0)
        ;
    in.serial_fd = sv[0];

    inst_stop_signal = SIGINT;
    t0 = inst_now_ms();
    assert_int_equal(inst_send(&in, "stats"), -EINTR);
    assert_true(ms_since(t0) < 1000);
    inst_stop_signal = 0;

    t0 = inst_now_ms();
    assert_int_equal(inst_send(&in, "stats"), -ETIMEDOUT);
    assert_true(ms_since(t0) >= INST_SEND_TIMEOUT_MS - 100 && ms_since(t0) < INST_SEND_TIMEOUT_MS + 2000);

    __real_kill(in.pid, SIGKILL);
    for (int k = 0; k < 500 && !inst_exited(&in); k++)
        usleep(10000);
    t0 = inst_now_ms();
    assert_int_equal(inst_send(&in, "stats"), -ECHILD);
    assert_true(ms_since(t0) < 1000);
    in.serial_fd = -1;
    inst_stop(&in);
    assert_true(reaped(in.pid));
    close(sv[0]);
    close(sv[1]);
    alarm(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_group_is_not_signalled_after_its_leader_was_reaped),
        cmocka_unit_test(test_stop_kills_the_group_of_a_live_leader),
        cmocka_unit_test(test_send_to_a_console_nobody_reads_gives_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

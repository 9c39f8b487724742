/* QMP client against a scripted fake QEMU (a forked child on a unix
 * socket): handshake, replies, events queued while waiting, error replies,
 * a server that never answers (timeout), one that hangs up, one that
 * sends a line with no end (size limit), one that answers after the
 * client gave up (request ids).  Like QEMU, the fake copies a request's
 * "id" into its reply (docs/interop/qmp-spec.rst, "Commands responses"). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#undef malloc
#undef calloc
#undef realloc
#undef free

#include "qmp.h"

static char sock_path[108];
static pid_t server;

/* `"id": ID, ` of the request line @req (QEMU echoes it verbatim), or "". */
static void id_of(const char *req, char *out, size_t len)
{
    cJSON *o = cJSON_Parse(req), *id = cJSON_GetObjectItemCaseSensitive(o, "id");
    char *t = id ? cJSON_PrintUnformatted(id) : NULL;

    snprintf(out, len, t ? "\"id\": %s, " : "", t);
    free(t);
    cJSON_Delete(o);
}

/* Fake QEMU: greeting, then per received line: look at "execute". */
static void serve(int lfd)
{
    int fd = accept(lfd, NULL, NULL);
    char buf[4096];
    size_t len = 0;

    if (fd < 0)
        _exit(1);
    dprintf(fd, "{\"QMP\": {\"version\": {}, \"capabilities\": []}}\r\n");
    for (;;) {
        ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);
        char *nl;
        if (n <= 0)
            _exit(0);
        len += (size_t)n;
        buf[len] = '\0';
        while ((nl = strchr(buf, '\n'))) {
            char id[64];
            *nl = '\0';
            id_of(buf, id, sizeof(id));
            if (strstr(buf, "\"qmp_capabilities\""))
                dprintf(fd, "{%s\"return\": {}}\r\n", id);
            else if (strstr(buf, "\"with-event\""))
                dprintf(fd, "{\"event\": \"NIC_RX_FILTER_CHANGED\", \"data\": {}}\r\n{%s\"return\": 42}\r\n", id);
            else if (strstr(buf, "\"bad\""))
                dprintf(fd, "{%s\"error\": {\"class\": \"GenericError\", \"desc\": \"Property not found\"}}\r\n", id);
            else if (strstr(buf, "\"late\"")) {
                /* a loaded host: the answer comes after the client's timeout */
                struct timespec ts = { 0, 600 * 1000 * 1000 };
                nanosleep(&ts, NULL);
                dprintf(fd, "{%s\"return\": \"late reply\"}\r\n", id);
            } else if (strstr(buf, "\"stray\""))
                dprintf(fd, "{\"id\": 999999, \"return\": \"not yours\"}\r\n{%s\"return\": \"yours\"}\r\n", id);
            else if (strstr(buf, "\"silent\""))
                ;   /* hung QEMU */
            else if (strstr(buf, "\"hangup\""))
                _exit(0);
            else if (strstr(buf, "\"flood\"")) {
                static char big[8192];
                memset(big, 'x', sizeof(big));
                for (int i = 0; i < 200; i++)   /* 1.6 MB without a newline */
                    if (write(fd, big, sizeof(big)) < 0)
                        _exit(0);
            } else if (strstr(buf, "\"qom-get\""))
                dprintf(fd, "{%s\"return\": true}\r\n", id);
            else
                dprintf(fd, "{%s\"return\": {}}\r\n", id);
            memmove(buf, nl + 1, strlen(nl + 1) + 1);
            len = strlen(buf);
        }
    }
}

static int setup(void **state)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    int lfd;

    (void)state;
    snprintf(sock_path, sizeof(sock_path), "/tmp/gemlab-qmp-test-%d.sock", (int)getpid());
    unlink(sock_path);
    strcpy(sa.sun_path, sock_path);
    lfd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 1))
        return -1;
    server = fork();
    if (server == 0)
        serve(lfd);
    close(lfd);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kill(server, SIGKILL);
    waitpid(server, NULL, 0);
    unlink(sock_path);
    return 0;
}

static void test_handshake_and_reply(void **state)
{
    struct qmp q;
    cJSON *ret = NULL;
    (void)state;
    assert_int_equal(qmp_open(&q, sock_path, 2000), 0);
    assert_int_equal(qmp_exec(&q, "query-status", NULL, &ret, 1000), 0);
    assert_true(cJSON_IsObject(ret));
    cJSON_Delete(ret);
    assert_int_equal(qmp_qom_get(&q, "/machine/gem0", "link-up", &ret, 1000), 0);
    assert_true(cJSON_IsTrue(ret));
    cJSON_Delete(ret);
    qmp_close(&q);
}

static void test_event_before_reply_is_queued(void **state)
{
    struct qmp q;
    cJSON *ret = NULL, *ev;
    (void)state;
    assert_int_equal(qmp_open(&q, sock_path, 2000), 0);
    assert_int_equal(qmp_exec(&q, "with-event", NULL, &ret, 1000), 0);
    assert_int_equal(ret->valueint, 42);
    cJSON_Delete(ret);
    ev = qmp_take_event(&q);
    assert_non_null(ev);
    assert_string_equal(cJSON_GetObjectItem(ev, "event")->valuestring, "NIC_RX_FILTER_CHANGED");
    cJSON_Delete(ev);
    assert_null(qmp_take_event(&q));
    qmp_close(&q);
}

static void test_error_reply_gives_eproto_with_desc(void **state)
{
    struct qmp q;
    (void)state;
    assert_int_equal(qmp_open(&q, sock_path, 2000), 0);
    assert_int_equal(qmp_exec(&q, "bad", NULL, NULL, 1000), -EPROTO);
    assert_string_equal(q.last_error, "bad: Property not found");
    /* the connection stays usable */
    assert_int_equal(qmp_exec(&q, "query-status", NULL, NULL, 1000), 0);
    qmp_close(&q);
}

static void test_silent_server_times_out(void **state)
{
    struct qmp q;
    struct timespec a, b;
    long ms;
    (void)state;
    assert_int_equal(qmp_open(&q, sock_path, 2000), 0);
    clock_gettime(CLOCK_MONOTONIC, &a);
    assert_int_equal(qmp_exec(&q, "silent", NULL, NULL, 300), -ETIMEDOUT);
    clock_gettime(CLOCK_MONOTONIC, &b);
    ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
    assert_true(ms >= 250 && ms < 2000);
    qmp_close(&q);
}

static void test_hangup_gives_econnreset_and_quit_succeeds(void **state)
{
    struct qmp q;
    (void)state;
    assert_int_equal(qmp_open(&q, sock_path, 2000), 0);
    assert_int_equal(qmp_exec(&q, "hangup", NULL, NULL, 1000), -ECONNRESET);
    qmp_close(&q);
}

static void test_endless_line_is_bounded(void **state)
{
    struct qmp q;
    (void)state;
    assert_int_equal(qmp_open(&q, sock_path, 2000), 0);
    assert_int_equal(qmp_exec(&q, "flood", NULL, NULL, 5000), -EPROTO);
    qmp_close(&q);
}

/* R4 (docs/SECURITY.md): the reply to a command that timed out arrives
 * later; the next command must get its own reply, not the late one, and
 * the pairing must stay right for every command after it. */
static void test_late_reply_after_timeout_is_not_taken_by_the_next_command(void **state)
{
    struct qmp q;
    cJSON *ret = NULL;
    (void)state;
    assert_int_equal(qmp_open(&q, sock_path, 2000), 0);
    assert_int_equal(qmp_exec(&q, "late", NULL, &ret, 200), -ETIMEDOUT);
    assert_null(ret);
    assert_int_equal(qmp_qom_get(&q, "/machine/gem0", "link-up", &ret, 3000), 0);
    assert_non_null(ret);
    assert_true(cJSON_IsTrue(ret));     /* the old client got "late reply" */
    assert_int_equal(q.stale_replies, 1);
    cJSON_Delete(ret);
    assert_int_equal(qmp_exec(&q, "with-event", NULL, &ret, 1000), 0);
    assert_true(cJSON_IsNumber(ret) && ret->valueint == 42);
    cJSON_Delete(ret);
    qmp_close(&q);
}

/* A reply carrying another request's id is dropped, ours is taken. */
static void test_reply_with_foreign_id_is_skipped(void **state)
{
    struct qmp q;
    cJSON *ret = NULL;
    (void)state;
    assert_int_equal(qmp_open(&q, sock_path, 2000), 0);
    assert_int_equal(qmp_exec(&q, "stray", NULL, &ret, 1000), 0);
    assert_true(cJSON_IsString(ret));
    assert_string_equal(ret->valuestring, "yours");
    cJSON_Delete(ret);
    qmp_close(&q);
}

static void test_missing_socket_times_out(void **state)
{
    struct qmp q;
    (void)state;
    assert_int_equal(qmp_open(&q, "/tmp/gemlab-no-such.sock", 100), -ETIMEDOUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_handshake_and_reply, setup, teardown),
        cmocka_unit_test_setup_teardown(test_event_before_reply_is_queued, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_reply_gives_eproto_with_desc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_silent_server_times_out, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hangup_gives_econnreset_and_quit_succeeds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_endless_line_is_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_late_reply_after_timeout_is_not_taken_by_the_next_command, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_reply_with_foreign_id_is_skipped, setup, teardown),
        cmocka_unit_test(test_missing_socket_times_out),
    };
    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests for firmware/linux/agent/agent_proc.c on text captured from
 * Linux 6.1 /proc files (formats: net-procfs.c, kernel/irq/proc.c,
 * fs/proc/stat.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "agent_proc.h"

static const char netdev_txt[] =
    "Inter-|   Receive                                                |  Transmit\n"
    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
    "    lo:     960      12    0    0    0     0          0         0      960      12    0    0    0     0       0          0\n"
    "  eth0: 123456789 98765    3    4    5     6          0         7 55555    444    8    9   10    11      12          0\n"
    " eth10: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n";

static void test_netdev_eth0_columns_in_order(void **state)
{
    struct proc_netdev nd;

    (void)state;
    assert_int_equal(proc_netdev_parse(netdev_txt, "eth0", &nd), 0);
    assert_int_equal(nd.rx_bytes, 123456789);
    assert_int_equal(nd.rx_packets, 98765);
    assert_int_equal(nd.rx_errs, 3);
    assert_int_equal(nd.rx_drop, 4);
    assert_int_equal(nd.rx_fifo, 5);
    assert_int_equal(nd.rx_frame, 6);
    assert_int_equal(nd.rx_multicast, 7);
    assert_int_equal(nd.tx_bytes, 55555);
    assert_int_equal(nd.tx_errs, 8);
    assert_int_equal(nd.tx_colls, 11);
    assert_int_equal(nd.tx_carrier, 12);
}

static void test_netdev_prefix_name_does_not_match(void **state)
{
    struct proc_netdev nd;

    (void)state;
    assert_int_equal(proc_netdev_parse(netdev_txt, "eth1", &nd), -ENOENT);
    assert_int_equal(proc_netdev_parse(netdev_txt, "eth10", &nd), 0);
    assert_int_equal(nd.tx_compressed, 16);
}

static void test_netdev_short_line_is_einval(void **state)
{
    struct proc_netdev nd;

    (void)state;
    assert_int_equal(proc_netdev_parse("x\ny\n  eth0: 1 2 3\n", "eth0", &nd), -EINVAL);
}

static const char irq_2cpu_txt[] =
    "           CPU0       CPU1       \n"
    " 24:          0          0     GIC-0  27 Edge      gt\n"
    " 27:      10234       5000     GIC-0  54 Level     eth0\n"
    " 28:         17          0     GIC-0  82 Level     xuartps\n"
    " 40:          1          2     GIC-0  77 Level     eth1\n"
    "IPI0:          0          0  CPU wakeup interrupts\n"
    "Err:          0\n";

static void test_interrupts_finds_gem_lines_with_per_cpu_counts(void **state)
{
    static const char *const needles[] = { "eth", NULL };
    struct proc_irq irqs[4];

    (void)state;
    assert_int_equal(proc_interrupts_find(irq_2cpu_txt, needles, irqs, 4), 2);
    assert_int_equal(irqs[0].irq, 27);
    assert_int_equal(irqs[0].ncpu, 2);
    assert_int_equal(irqs[0].count[0], 10234);
    assert_int_equal(irqs[0].count[1], 5000);
    assert_string_equal(irqs[0].chip, "GIC-0");
    assert_string_equal(irqs[0].hwirq, "54");
    assert_string_equal(irqs[0].name, "eth0");
    assert_int_equal(irqs[1].irq, 40);
    assert_string_equal(irqs[1].hwirq, "77");
}

static void test_interrupts_max_limits_results(void **state)
{
    static const char *const needles[] = { "eth", NULL };
    struct proc_irq irqs[1];

    (void)state;
    assert_int_equal(proc_interrupts_find(irq_2cpu_txt, needles, irqs, 1), 1);
    assert_int_equal(irqs[0].irq, 27);
}

static void test_interrupts_one_cpu_and_no_match(void **state)
{
    static const char *const uart[] = { "xuartps", NULL };
    static const char *const none[] = { "macb", NULL };
    static const char txt[] =
        "           CPU0       \n"
        " 28:        170     GIC-0  82 Level     xuartps\n";
    struct proc_irq irqs[2];

    (void)state;
    assert_int_equal(proc_interrupts_find(txt, uart, irqs, 2), 1);
    assert_int_equal(irqs[0].ncpu, 1);
    assert_int_equal(irqs[0].count[0], 170);
    assert_int_equal(proc_interrupts_find(txt, none, irqs, 2), 0);
    assert_int_equal(proc_interrupts_find("no header\n", none, irqs, 2), -EINVAL);
}

static void test_stat_aggregate_first_and_idle_includes_iowait(void **state)
{
    static const char txt[] =
        "cpu  100 0 50 800 50 0 0 0 0 0\n"
        "cpu0 60 0 20 400 20 0 0 0 0 0\n"
        "cpu1 40 0 30 400 30 0 0 0 0 0\n"
        "intr 12345 0 0\n"
        "ctxt 999\n";
    struct proc_cpu c[4];

    (void)state;
    assert_int_equal(proc_stat_parse(txt, c, 4), 3);
    assert_int_equal(c[0].cpu, -1);
    assert_int_equal(c[0].total, 1000);
    assert_int_equal(c[0].idle, 850);
    assert_int_equal(c[2].cpu, 1);
    assert_int_equal(c[2].idle, 430);
    assert_int_equal(c[2].softirq, 0);
}

/* The seventh column is softirq, not the sixth (irq) nor the eighth
 * (steal): proc.rst 1.8's order. */
static void test_stat_softirq_is_the_seventh_column(void **state)
{
    static const char txt[] =
        "cpu  10 0 20 30 0 5 70 9 0 0\n"
        "cpu0 10 0 20 30 0 5 70 9\n";
    struct proc_cpu c[2];
    struct proc_cpu before = { .cpu = 0, .total = 44, .idle = 30, .softirq = 0 };

    (void)state;
    assert_int_equal(proc_stat_parse(txt, c, 2), 2);
    assert_int_equal(c[1].softirq, 70);
    assert_int_equal(c[1].total, 144);
    /* 70 of the 100 jiffies since `before` were softirq */
    assert_true(proc_softirq_pct(&before, &c[1]) > 69.99 && proc_softirq_pct(&before, &c[1]) < 70.01);
    assert_true(proc_softirq_pct(&c[1], &c[1]) < 0.0);
}

static void test_idle_pct_between_samples(void **state)
{
    struct proc_cpu a = { .cpu = 0, .total = 1000, .idle = 900 };
    struct proc_cpu b = { .cpu = 0, .total = 1200, .idle = 950 };

    (void)state;
    assert_true(proc_idle_pct(&a, &b) > 24.99 && proc_idle_pct(&a, &b) < 25.01);
    assert_true(proc_idle_pct(&b, &b) < 0.0);
}

static void test_affinity_words_and_bad_text(void **state)
{
    unsigned long m = 0;

    (void)state;
    assert_int_equal(proc_parse_affinity("3\n", &m), 0);
    assert_int_equal(m, 3);
    assert_int_equal(proc_parse_affinity("00000000,00000002\n", &m), 0);
    assert_int_equal(m, 2);
    assert_int_equal(proc_parse_affinity("\n", &m), -EINVAL);
    assert_int_equal(proc_parse_affinity("0-1\n", &m), -EINVAL);
}

/* net/ipv4/tcp_ipv4.c and net/ipv6/tcp_ipv6.c formats: iperf3 -s on 5201
 * (0x1451) listening on ::, a control connection the server still holds
 * (CLOSE_WAIT), one in TIME_WAIT, and a client socket whose REMOTE port is
 * 5201 (must not count). */
static const char tcp_txt[] =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    "   0: 0F02000A:1451 0202000A:C9A4 08 00000000:00000000 00:00000000 00000000     0        0 0 1 00000000 20 4 0 10 -1\n"
    "   1: 0F02000A:D2F0 0202000A:1451 01 00000000:00000000 00:00000000 00000000     0        0 77 1 00000000 20 4 0 10 -1\n"
    "   2: 0F02000A:1451 0202000A:C9B0 06 00000000:00000000 03:00000F9E 00000000     0        0 0 3 00000000\n";
static const char tcp6_txt[] =
    "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    "   0: 00000000000000000000000000000000:1451 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1234 1 00000000 100 0 0 10 0\n"
    "   1: 0000000000000000FFFF00000F02000A:1451 0000000000000000FFFF00000202000A:CAFE 01 00000000:00000000 00:00000000 00000000     0        0 99 1 00000000 20 4 0 10 -1\n";

static void test_tcp_port_states_summed_over_tcp_and_tcp6(void **state)
{
    unsigned c[PROC_TCP_STATES] = { 0 };

    (void)state;
    assert_int_equal(proc_tcp_port_states(tcp_txt, 5201, c), 2);
    assert_int_equal(c[8], 1);  /* CLOSE_WAIT */
    assert_int_equal(c[6], 1);  /* TIME_WAIT */
    assert_int_equal(c[1], 0);  /* the client socket's remote port is 5201 */
    assert_int_equal(proc_tcp_port_states(tcp6_txt, 5201, c), 2);
    assert_int_equal(c[10], 1); /* LISTEN */
    assert_int_equal(c[1], 1);  /* ESTABLISHED, v4-mapped */
    assert_int_equal(c[8], 1);
}

static void test_tcp_port_other_port_and_bad_text(void **state)
{
    unsigned c[PROC_TCP_STATES] = { 0 };

    (void)state;
    assert_int_equal(proc_tcp_port_states(tcp_txt, 5202, c), 0);
    assert_int_equal(proc_tcp_port_states(tcp6_txt, 0x1451 * 16, c), 0);
    for (int i = 0; i < PROC_TCP_STATES; i++)
        assert_int_equal(c[i], 0);
    assert_int_equal(proc_tcp_port_states("", 5201, c), -EINVAL);
    assert_int_equal(proc_tcp_port_states("   0: 0F02000A:1451 0202000A:C9A4 08\n", 5201, c), -EINVAL);
}

/* A device tree string property (phy-mode) as sysfs gives it: the string
 * and its NUL; anything else is refused, not printed half. */
static void test_dt_string_property(void **state)
{
    char out[16];
    (void)state;

    assert_int_equal(proc_dt_string("rgmii-id", 9, out, sizeof(out)), 8);
    assert_string_equal(out, "rgmii-id");
    /* a stringlist: the first one */
    assert_int_equal(proc_dt_string("rgmii\0gmii", 11, out, sizeof(out)), 5);
    assert_string_equal(out, "rgmii");
    assert_int_equal(proc_dt_string("rgmii-id", 8, out, sizeof(out)), -EINVAL);   /* no NUL */
    assert_int_equal(proc_dt_string("", 1, out, sizeof(out)), -EINVAL);
    assert_int_equal(proc_dt_string("rg\001mii", 7, out, sizeof(out)), -EINVAL);
    assert_int_equal(proc_dt_string("rgmii-id", 9, out, 8), -EINVAL);            /* too long */
    assert_int_equal(proc_dt_string(NULL, 0, out, sizeof(out)), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_netdev_eth0_columns_in_order),
        cmocka_unit_test(test_netdev_prefix_name_does_not_match),
        cmocka_unit_test(test_netdev_short_line_is_einval),
        cmocka_unit_test(test_interrupts_finds_gem_lines_with_per_cpu_counts),
        cmocka_unit_test(test_interrupts_max_limits_results),
        cmocka_unit_test(test_interrupts_one_cpu_and_no_match),
        cmocka_unit_test(test_stat_aggregate_first_and_idle_includes_iowait),
        cmocka_unit_test(test_idle_pct_between_samples),
        cmocka_unit_test(test_stat_softirq_is_the_seventh_column),
        cmocka_unit_test(test_affinity_words_and_bad_text),
        cmocka_unit_test(test_tcp_port_states_summed_over_tcp_and_tcp6),
        cmocka_unit_test(test_tcp_port_other_port_and_bad_text),
        cmocka_unit_test(test_dt_string_property),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

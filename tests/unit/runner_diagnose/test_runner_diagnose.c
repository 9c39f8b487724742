/* The rule engine: each rule fires on a synthetic results.json showing its
 * signature and stays silent on a near miss.  One table row per case. */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
/* the code under test allocates with libc (open_memstream, cJSON) */
#undef malloc
#undef calloc
#undef realloc
#undef free

#include "diagnose.h"

struct rcase {
    const char *json;
    enum dg_code code;
    bool fires;
};

/* A clean bare-metal gigabit TCP run at line rate: no rule fires on it. */
#define CLEAN_COND "\"conditions\":{\"firmware\":\"baremetal\",\"cpus\":1,\"tool\":\"iperf3\",\"board_tool\":\"iperf3\"," \
                   "\"protocol\":\"tcp\",\"parallel\":4,\"omit_s\":2,\"duration_s\":10,\"phy_mode\":\"rgmii-id\",\"rx_bds\":64}"
#define CLEAN_LINK "\"link\":{\"up\":true,\"speed_mbps\":1000,\"full_duplex\":true,\"mac_speed_mbps\":1000,\"flaps\":0,\"downshift\":false,\"partner_autoneg\":true}"
#define CLEAN_GEM "\"gem\":{\"rx_frames\":100000,\"rx_fcs_errors\":0,\"rx_resource_errors\":0,\"rx_overruns\":0,\"late_collisions\":0}"
#define CLEAN_IPERF "\"iperf\":{\"ok\":true,\"throughput_bps\":930e6,\"retransmits\":0}"
#define CLEAN "{" CLEAN_COND "," CLEAN_LINK "," CLEAN_GEM "," CLEAN_IPERF "}"

static const struct rcase cases[] = {
    /* physical */
    { "{\"link\":{\"up\":false}}", DG_PHY_NO_LINK, true },
    { CLEAN, DG_PHY_NO_LINK, false },
    { "{\"link\":{\"up\":true,\"speed_mbps\":100,\"full_duplex\":true}}", DG_PHY_SPEED_BELOW_EXPECTED, true },
    { CLEAN, DG_PHY_SPEED_BELOW_EXPECTED, false },
    { "{\"link\":{\"up\":false,\"speed_mbps\":100}}", DG_PHY_SPEED_BELOW_EXPECTED, false },
    { "{\"link\":{\"up\":true,\"speed_mbps\":100,\"downshift\":true}}", DG_PHY_DOWNSHIFT, true },
    { "{\"link\":{\"up\":true,\"speed_mbps\":100,\"downshift\":false}}", DG_PHY_DOWNSHIFT, false },
    { "{\"link\":{\"up\":true,\"speed_mbps\":1000,\"flaps\":3}}", DG_PHY_LINK_FLAPS, true },
    { CLEAN, DG_PHY_LINK_FLAPS, false },
    { "{\"gem\":{\"rx_frames\":1000,\"rx_fcs_errors\":12}}", DG_PHY_FCS_ERRORS, true },
    { "{\"gem\":{\"rx_frames\":1000,\"rx_symbol_errors\":1}}", DG_PHY_FCS_ERRORS, true },
    { CLEAN, DG_PHY_FCS_ERRORS, false },
    { "{\"link\":{\"up\":true,\"speed_mbps\":100,\"full_duplex\":false,\"partner_autoneg\":false},"
      "\"gem\":{\"late_collisions\":40}}", DG_PHY_DUPLEX_MISMATCH, true },
    { "{\"link\":{\"up\":true,\"speed_mbps\":100,\"full_duplex\":true,\"duplex_mismatch\":true}}", DG_PHY_DUPLEX_MISMATCH, true },
    /* half duplex against an autonegotiating half-duplex hub, clean: no mismatch */
    { "{\"link\":{\"up\":true,\"speed_mbps\":100,\"full_duplex\":false,\"partner_autoneg\":true},"
      "\"gem\":{\"late_collisions\":0,\"rx_fcs_errors\":0}}", DG_PHY_DUPLEX_MISMATCH, false },
    { CLEAN, DG_PHY_DUPLEX_MISMATCH, false },
    { "{\"conditions\":{\"phy_mode\":\"rgmii\"},\"link\":{\"up\":true,\"speed_mbps\":1000,\"full_duplex\":true},"
      "\"gem\":{\"rx_fcs_errors\":50}}", DG_PHY_RGMII_DELAY, true },
    { "{\"conditions\":{\"phy_mode\":\"rgmii-id\"},\"link\":{\"up\":true,\"speed_mbps\":1000,\"full_duplex\":true},"
      "\"gem\":{\"rx_fcs_errors\":50},\"model\":{\"wire_skew_errors\":50}}", DG_PHY_RGMII_DELAY, true },
    /* same errors at 100: RGMII at 25 MHz has margin, not the delay */
    { "{\"conditions\":{\"phy_mode\":\"rgmii\"},\"link\":{\"up\":true,\"speed_mbps\":100,\"full_duplex\":true},"
      "\"gem\":{\"rx_fcs_errors\":50}}", DG_PHY_RGMII_DELAY, false },
    /* errors at 1000 with the right phy-mode and no skew: cable, not RGMII */
    { "{\"conditions\":{\"phy_mode\":\"rgmii-id\"},\"link\":{\"up\":true,\"speed_mbps\":1000,\"full_duplex\":true},"
      "\"gem\":{\"rx_fcs_errors\":50},\"model\":{\"wire_skew_errors\":0}}", DG_PHY_RGMII_DELAY, false },
    /* MAC */
    { "{\"link\":{\"up\":true,\"speed_mbps\":100,\"mac_speed_mbps\":1000}}", DG_MAC_SPEED_MISMATCH, true },
    { CLEAN, DG_MAC_SPEED_MISMATCH, false },
    { "{\"link\":{\"up\":true,\"speed_mbps\":100},\"model\":{\"mac_matches_phy\":false}}", DG_MAC_SPEED_MISMATCH, true },
    { "{\"link\":{\"up\":true,\"speed_mbps\":100,\"mac_speed_mbps\":100},\"model\":{\"mac_matches_phy\":true}}",
      DG_MAC_SPEED_MISMATCH, false },
    { "{\"conditions\":{\"rx_bds\":4},\"gem\":{\"rx_resource_errors\":812}}", DG_MAC_RX_RESOURCE_ERRORS, true },
    { "{\"gem\":{\"rx_overruns\":3}}", DG_MAC_RX_RESOURCE_ERRORS, true },
    { CLEAN, DG_MAC_RX_RESOURCE_ERRORS, false },
    { "{\"link\":{\"up\":true,\"flaps\":0},\"iperf\":{\"intervals_bps\":[143.7e6,7e6,0,0,0,0]}}", DG_MAC_RX_STALL, true },
    { "{\"link\":{\"up\":true,\"flaps\":2},\"iperf\":{\"intervals_bps\":[143.7e6,7e6,0,0,0,0]}}", DG_MAC_RX_STALL, false },
    { "{\"link\":{\"up\":true,\"flaps\":0},\"iperf\":{\"intervals_bps\":[143.7e6,7e6,90e6,0,0,80e6]}}", DG_MAC_RX_STALL, false },
    { "{\"link\":{\"up\":true,\"flaps\":0},\"iperf\":{\"intervals_bps\":[0,0,0,0,0,0]}}", DG_MAC_RX_STALL, false },
    { "{\"conditions\":{\"cpus\":2},\"irq\":{\"gem_per_cpu\":[50000,12]}}", DG_MAC_IRQ_SINGLE_CPU, true },
    { "{\"conditions\":{\"cpus\":2},\"irq\":{\"gem_per_cpu\":[30000,20000]}}", DG_MAC_IRQ_SINGLE_CPU, false },
    { "{\"conditions\":{\"cpus\":2},\"irq\":{\"gem_per_cpu\":[50,0]}}", DG_MAC_IRQ_SINGLE_CPU, false },
    { "{\"conditions\":{\"cpus\":1},\"irq\":{\"gem_per_cpu\":[50000]}}", DG_MAC_IRQ_SINGLE_CPU, false },
    { "{\"iperf\":{\"tx_bps\":300e6,\"rx_bps\":900e6}}", DG_MAC_TX_RX_ASYMMETRY, true },
    { "{\"iperf\":{\"tx_bps\":850e6,\"rx_bps\":900e6}}", DG_MAC_TX_RX_ASYMMETRY, false },
    { "{\"sweep\":[{\"length_bytes\":64,\"throughput_bps\":148e6},{\"length_bytes\":1472,\"throughput_bps\":922e6}]}",
      DG_MAC_PPS_LIMIT, true },
    { "{\"sweep\":[{\"length_bytes\":64,\"throughput_bps\":600e6},{\"length_bytes\":1472,\"throughput_bps\":922e6}]}",
      DG_MAC_PPS_LIMIT, false },
    { "{\"sweep\":[{\"length_bytes\":64,\"throughput_bps\":1e6}]}", DG_MAC_PPS_LIMIT, false },
    /* protocol */
    { "{\"conditions\":{\"protocol\":\"tcp\",\"window_bytes\":65536,\"latency_ns\":10e6},"
      "\"link\":{\"up\":true,\"speed_mbps\":1000},\"iperf\":{\"throughput_bps\":25e6}}", DG_PROTO_WINDOW_LIMITED, true },
    /* same window, but the measured rate is far above what the window explains: not the window */
    { "{\"conditions\":{\"protocol\":\"tcp\",\"window_bytes\":65536,\"latency_ns\":10e6},"
      "\"link\":{\"up\":true,\"speed_mbps\":1000},\"iperf\":{\"throughput_bps\":500e6}}", DG_PROTO_WINDOW_LIMITED, false },
    /* far below window/RTT: the window is not what limits (CPU, loss) */
    { "{\"conditions\":{\"protocol\":\"tcp\",\"window_bytes\":262144},"
      "\"link\":{\"up\":true,\"speed_mbps\":1000},\"iperf\":{\"throughput_bps\":28e6,\"rtt_min_us\":11200}}",
      DG_PROTO_WINDOW_LIMITED, false },
    /* big enough window at low RTT */
    { "{\"conditions\":{\"protocol\":\"tcp\",\"window_bytes\":262144},"
      "\"link\":{\"up\":true,\"speed_mbps\":1000},\"iperf\":{\"throughput_bps\":300e6,\"rtt_us\":500}}", DG_PROTO_WINDOW_LIMITED, false },
    { "{\"conditions\":{\"protocol\":\"tcp\"},\"iperf\":{\"retransmits\":17}}", DG_PROTO_RETRANSMITS, true },
    { CLEAN, DG_PROTO_RETRANSMITS, false },
    { "{\"conditions\":{\"protocol\":\"tcp\",\"tool\":\"iperf2\"},\"model\":{\"stat_rx_wire_dropped_loss\":40}}",
      DG_PROTO_RETRANSMITS, true },
    { "{\"conditions\":{\"protocol\":\"udp\"},\"model\":{\"stat_rx_wire_dropped_loss\":40}}", DG_PROTO_RETRANSMITS, false },
    { "{\"conditions\":{\"protocol\":\"udp\"},\"iperf\":{\"udp_lost_pct\":1.2}}", DG_PROTO_UDP_LOSS, true },
    { "{\"conditions\":{\"protocol\":\"udp\"},\"iperf\":{\"udp_lost_pct\":0.0004}}", DG_PROTO_UDP_LOSS, false },
    { "{\"conditions\":{\"protocol\":\"udp\"},\"iperf\":{\"udp_jitter_ms\":1.2}}", DG_PROTO_UDP_JITTER, true },
    { "{\"conditions\":{\"protocol\":\"udp\"},\"iperf\":{\"udp_jitter_ms\":0.4}}", DG_PROTO_UDP_JITTER, false },
    { "{\"conditions\":{\"protocol\":\"udp\"},\"expect\":{\"jitter_max_ms\":2},\"iperf\":{\"udp_jitter_ms\":1.2}}",
      DG_PROTO_UDP_JITTER, false },
    /* method */
    { "{\"conditions\":{\"firmware\":\"linux\",\"cpus\":2,\"protocol\":\"tcp\",\"parallel\":1},"
      "\"link\":{\"up\":true,\"speed_mbps\":1000},\"iperf\":{\"throughput_bps\":400e6}}", DG_METHOD_SINGLE_STREAM, true },
    { "{\"conditions\":{\"firmware\":\"linux\",\"cpus\":2,\"protocol\":\"tcp\",\"parallel\":4},"
      "\"link\":{\"up\":true,\"speed_mbps\":1000},\"iperf\":{\"throughput_bps\":400e6}}", DG_METHOD_SINGLE_STREAM, false },
    { "{\"conditions\":{\"firmware\":\"linux\",\"cpus\":2,\"protocol\":\"tcp\",\"parallel\":1},"
      "\"link\":{\"up\":true,\"speed_mbps\":1000},\"iperf\":{\"throughput_bps\":935e6}}", DG_METHOD_SINGLE_STREAM, false },
    { CLEAN, DG_METHOD_SINGLE_STREAM, false },
    { "{\"conditions\":{\"tool\":\"iperf3\",\"board_tool\":\"iperf2\"}}", DG_METHOD_IPERF_VERSION_MISMATCH, true },
    { "{\"conditions\":{\"tool\":\"iperf3\",\"board_tool\":\"iperf3\"},\"iperf\":{\"ok\":false,"
      "\"error\":\"unable to receive control message: Connection reset by peer\"}}", DG_METHOD_IPERF_VERSION_MISMATCH, true },
    { "{\"conditions\":{\"tool\":\"iperf3\",\"board_tool\":\"iperf3\"},\"iperf\":{\"ok\":false,"
      "\"error\":\"unable to connect to server: No route to host\"}}", DG_METHOD_IPERF_VERSION_MISMATCH, false },
    { CLEAN, DG_METHOD_IPERF_VERSION_MISMATCH, false },
    { "{\"conditions\":{\"protocol\":\"tcp\",\"window_bytes\":65536,\"latency_ns\":10e6},"
      "\"link\":{\"up\":true,\"speed_mbps\":1000}}", DG_METHOD_WINDOW_BELOW_BDP, true },
    { "{\"conditions\":{\"protocol\":\"tcp\",\"window_bytes\":262144},"
      "\"link\":{\"up\":true,\"speed_mbps\":1000},\"iperf\":{\"rtt_us\":500}}", DG_METHOD_WINDOW_BELOW_BDP, false },
    /* a loaded mean RTT (queueing) must not make a 256K window look small */
    { "{\"conditions\":{\"protocol\":\"tcp\",\"window_bytes\":262144},"
      "\"link\":{\"up\":true,\"speed_mbps\":1000},\"iperf\":{\"rtt_us\":23740,\"rtt_min_us\":900}}",
      DG_METHOD_WINDOW_BELOW_BDP, false },
    { "{\"conditions\":{\"tool\":\"iperf3\",\"omit_s\":0},\"iperf\":{\"intervals_bps\":[300e6,900e6,910e6,905e6]}}",
      DG_METHOD_NO_OMIT, true },
    { "{\"conditions\":{\"tool\":\"iperf3\",\"omit_s\":0}}", DG_METHOD_NO_OMIT, true },
    { CLEAN, DG_METHOD_NO_OMIT, false },
    { "{\"conditions\":{\"tool\":\"iperf2\",\"omit_s\":0}}", DG_METHOD_NO_OMIT, false },
    { "{\"conditions\":{\"protocol\":\"tcp\"},\"expect\":{\"reference_bps\":100e6},"
      "\"link\":{\"up\":true,\"speed_mbps\":100},\"iperf\":{\"throughput_bps\":94.5e6}}", DG_METHOD_WRONG_REFERENCE, true },
    { "{\"conditions\":{\"protocol\":\"tcp\"},\"expect\":{\"throughput_min_bps\":1000e6},"
      "\"link\":{\"up\":true,\"speed_mbps\":1000}}", DG_METHOD_WRONG_REFERENCE, true },
    { "{\"conditions\":{\"protocol\":\"tcp\",\"firmware\":\"linux\"},\"expect\":{\"reference_bps\":941.5e6},"
      "\"link\":{\"up\":true,\"speed_mbps\":1000}}", DG_METHOD_WRONG_REFERENCE, false },
    { "{\"conditions\":{\"protocol\":\"tcp\"},\"expect\":{\"reference_bps\":94.15e6},"
      "\"link\":{\"up\":true,\"speed_mbps\":100}}", DG_METHOD_WRONG_REFERENCE, false },
    /* baseline */
    { "{\"iperf\":{\"throughput_bps\":800e6},\"baseline\":{\"throughput_bps\":920e6,\"tolerance_pct\":5}}",
      DG_BASELINE_REGRESSION, true },
    { "{\"iperf\":{\"throughput_bps\":900e6},\"baseline\":{\"throughput_bps\":920e6,\"tolerance_pct\":5}}",
      DG_BASELINE_REGRESSION, false },
    { CLEAN, DG_BASELINE_REGRESSION, false },
};

static void test_rule_case(void **state)
{
    const struct rcase *c = *state;
    cJSON *root = cJSON_Parse(c->json);
    struct dg_in in;
    struct dg_report rep;

    assert_non_null(root);
    dg_in_from_json(root, &in);
    dg_run(&in, &rep);
    if (dg_report_has(&rep, c->code) != c->fires)
        fail_msg("%s %s on %s", dg_code_name(c->code), c->fires ? "did not fire" : "fired", c->json);
    /* a fired rule always carries a summary and evidence */
    for (int i = 0; i < rep.n; i++) {
        assert_true(rep.f[i].summary[0] != '\0');
        assert_non_null(rep.f[i].evidence);
        assert_non_null(rep.f[i].remedy);
    }
    dg_report_free(&rep);
    cJSON_Delete(root);
}

static void test_clean_run_has_no_findings(void **state)
{
    cJSON *root = cJSON_Parse(CLEAN);
    struct dg_in in;
    struct dg_report rep;
    (void)state;
    dg_in_from_json(root, &in);
    dg_run(&in, &rep);
    assert_int_equal(rep.n, 0);
    cJSON_Delete(root);
}

static void test_mistyped_members_are_unknown_not_crashes(void **state)
{
    static const char *junk[] = {
        "{}", "{\"link\":5}", "{\"link\":{\"up\":\"yes\",\"speed_mbps\":\"1000\"}}",
        "{\"irq\":{\"gem_per_cpu\":[1,\"x\",3]}}", "{\"sweep\":[1,2,{\"length_bytes\":0}]}",
        "{\"iperf\":{\"intervals_bps\":{\"a\":1}}}", "{\"conditions\":[]}",
    };
    (void)state;
    for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
        cJSON *root = cJSON_Parse(junk[i]);
        struct dg_in in;
        struct dg_report rep;
        assert_non_null(root);
        dg_in_from_json(root, &in);
        dg_run(&in, &rep);
        assert_false(dg_report_has(&rep, DG_PHY_NO_LINK));
        dg_report_free(&rep);
        cJSON_Delete(root);
    }
}

static void test_ceilings_match_facts(void **state)
{
    (void)state;
    assert_true(fabs(dg_ceiling_bps(1000, false, true) - 941.5e6) < 0.1e6);
    assert_true(fabs(dg_ceiling_bps(100, false, true) - 94.15e6) < 0.01e6);
    assert_true(fabs(dg_ceiling_bps(1000, false, false) - 949.3e6) < 0.1e6);
    assert_true(fabs(dg_ceiling_bps(1000, true, false) - 957.1e6) < 0.1e6);
}

static void test_findings_follow_layer_order(void **state)
{
    cJSON *root = cJSON_Parse("{\"conditions\":{\"tool\":\"iperf3\",\"board_tool\":\"iperf2\",\"omit_s\":0},"
                              "\"link\":{\"up\":true,\"speed_mbps\":100,\"flaps\":2},"
                              "\"gem\":{\"rx_resource_errors\":5}}");
    struct dg_in in;
    struct dg_report rep;
    (void)state;
    dg_in_from_json(root, &in);
    dg_run(&in, &rep);
    assert_true(rep.n >= 4);
    for (int i = 1; i < rep.n; i++)
        assert_true(dg_code_layer(rep.f[i - 1].code) <= dg_code_layer(rep.f[i].code));
    dg_report_free(&rep);
    cJSON_Delete(root);
}

static void test_expectations_checked_against_findings(void **state)
{
    cJSON *root = cJSON_Parse("{\"expect\":{\"speed_mbps\":100,\"duplex\":\"full\",\"throughput_max_bps\":96e6,"
                              "\"diag\":[\"PHY_SPEED_BELOW_EXPECTED\",\"PHY_DOWNSHIFT\"],"
                              "\"diag_absent\":[\"PHY_LINK_FLAPS\"]},"
                              "\"link\":{\"up\":true,\"speed_mbps\":100,\"full_duplex\":true,\"flaps\":1},"
                              "\"iperf\":{\"throughput_bps\":94e6}}");
    struct dg_in in;
    struct dg_report rep;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int checks = 0, nfail;
    (void)state;
    dg_in_from_json(root, &in);
    dg_run(&in, &rep);
    nfail = dg_check_expect(root, &rep, f, &checks);
    fclose(f);
    assert_int_equal(checks, 6);
    assert_int_equal(nfail, 2);
    assert_non_null(strstr(buf, "diagnosis PHY_DOWNSHIFT expected but not produced"));
    assert_non_null(strstr(buf, "diagnosis PHY_LINK_FLAPS produced but must be absent"));
    free(buf);
    dg_report_free(&rep);
    cJSON_Delete(root);
}

static void test_failed_traffic_fails_unless_expected(void **state)
{
    cJSON *bad = cJSON_Parse("{\"expect\":{\"diag\":[]},\"iperf\":{\"ok\":false,\"error\":\"refused\"}}");
    cJSON *exp = cJSON_Parse("{\"expect\":{\"diag\":[\"METHOD_IPERF_VERSION_MISMATCH\"]},"
                             "\"conditions\":{\"tool\":\"iperf3\",\"board_tool\":\"iperf2\"},\"iperf\":{\"ok\":false}}");
    struct dg_in in;
    struct dg_report rep;
    int checks;
    (void)state;
    dg_in_from_json(bad, &in);
    dg_run(&in, &rep);
    assert_int_equal(dg_check_expect(bad, &rep, NULL, &checks), 1);
    dg_report_free(&rep);
    dg_in_from_json(exp, &in);
    dg_run(&in, &rep);
    assert_int_equal(dg_check_expect(exp, &rep, NULL, &checks), 0);
    dg_report_free(&rep);
    cJSON_Delete(bad);
    cJSON_Delete(exp);
}

/* No link (issue 20): the runner skips traffic; that passes only with
 * `link = down` expected, and PHY_NO_LINK comes from link.up (the board's
 * BMSR), not from the expectation. */
static void test_no_link_skipped_traffic_passes_only_when_link_down_expected(void **state)
{
    static const char *const down =
        "{\"expect\":{\"link\":\"down\",\"diag\":[\"PHY_NO_LINK\"],\"diag_absent\":[\"PHY_DOWNSHIFT\"]},"
        "\"link\":{\"up\":false,\"downshift\":false,\"downshift_enabled\":false},"
        "\"iperf\":{\"skipped\":\"no link: the board reported no link up before traffic\"}}";
    static const char *const up =
        "{\"expect\":{\"link\":\"up\",\"diag_absent\":[\"PHY_NO_LINK\"]},\"link\":{\"up\":false},"
        "\"iperf\":{\"skipped\":\"no link: the board reported no link up before traffic\"}}";
    static const char *const noexp =
        "{\"expect\":{\"diag\":[]},\"link\":{\"up\":false},\"iperf\":{\"skipped\":\"no link\"}}";
    struct dg_in in;
    struct dg_report rep;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    int checks = 0;
    cJSON *root;
    (void)state;

    root = cJSON_Parse(down);
    dg_in_from_json(root, &in);
    dg_run(&in, &rep);
    assert_true(dg_report_has(&rep, DG_PHY_NO_LINK));
    assert_int_equal(dg_check_expect(root, &rep, NULL, &checks), 0);
    assert_int_equal(checks, 4);
    dg_report_free(&rep);
    cJSON_Delete(root);

    root = cJSON_Parse(up);
    dg_in_from_json(root, &in);
    dg_run(&in, &rep);
    f = open_memstream(&buf, &len);
    assert_int_equal(dg_check_expect(root, &rep, f, &checks), 3);
    fclose(f);
    assert_non_null(strstr(buf, "link: expected up, got down"));
    assert_non_null(strstr(buf, "traffic: skipped (no link"));
    assert_non_null(strstr(buf, "PHY_NO_LINK produced but must be absent"));
    free(buf);
    dg_report_free(&rep);
    cJSON_Delete(root);

    root = cJSON_Parse(noexp);
    dg_in_from_json(root, &in);
    dg_run(&in, &rep);
    assert_int_equal(dg_check_expect(root, &rep, NULL, &checks), 1);
    dg_report_free(&rep);
    cJSON_Delete(root);
}

static void test_diagnose_dir_writes_diagnosis_json(void **state)
{
    char dir[] = "/tmp/gemlab-dg-XXXXXX", path[256];
    FILE *f;
    int failed = -1;
    cJSON *out;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/results.json", dir);
    f = fopen(path, "w");
    fputs("{\"link\":{\"up\":false}}", f);
    fclose(f);
    f = fopen("/dev/null", "w");
    assert_int_equal(dg_diagnose_dir(dir, f, f, &failed), 0);
    fclose(f);
    assert_int_equal(failed, 0);
    snprintf(path, sizeof(path), "%s/diagnosis.json", dir);
    assert_int_equal(dg_load_json(path, &out, stderr), 0);
    assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(out, "findings"), 0)->child->valuestring, "PHY_NO_LINK");
    cJSON_Delete(out);
    unlink(path);
    snprintf(path, sizeof(path), "%s/results.json", dir);
    f = fopen(path, "w");
    fputs("{\"link\": [tru", f);
    fclose(f);
    f = fopen("/dev/null", "w");
    assert_int_equal(dg_diagnose_dir(dir, f, f, &failed), -EINVAL);
    fclose(f);
    unlink(path);
    rmdir(dir);
}


int main(void)
{
    struct CMUnitTest tests[sizeof(cases) / sizeof(cases[0]) + 8];
    char names[sizeof(cases) / sizeof(cases[0])][96];
    size_t n = 0;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(names[i], sizeof(names[i]), "test_%s_%s_%zu", dg_code_name(cases[i].code),
                 cases[i].fires ? "fires" : "silent", i);
        tests[n++] = (struct CMUnitTest){ names[i], test_rule_case, NULL, NULL, (void *)&cases[i] };
    }
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_clean_run_has_no_findings);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_mistyped_members_are_unknown_not_crashes);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_ceilings_match_facts);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_findings_follow_layer_order);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_expectations_checked_against_findings);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_diagnose_dir_writes_diagnosis_json);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_failed_traffic_fails_unless_expected);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_no_link_skipped_traffic_passes_only_when_link_down_expected);
    return _cmocka_run_group_tests("runner_diagnose", tests, n, NULL, NULL);
}

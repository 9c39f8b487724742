/* gemlab campaign: the sampler draws only valid, reproducible scenarios
 * whose faults fit together, and the score is precision/recall as defined
 * in campaign.c. */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
/* the code under test allocates with libc (cJSON, open_memstream) */
#undef malloc
#undef calloc
#undef realloc
#undef free

#include "campaign.h"
#include "scenario.h"

#define BIT(c) (UINT64_C(1) << (c))

static int fault_of(const struct cp_sample *s, const char *name)
{
    int fi = cp_fault_lookup(name);
    for (int i = 0; i < s->nfaults; i++)
        if (s->fault[i] == fi)
            return 1;
    return 0;
}

/* Every generated scenario passes the same validation `gemlab check`
 * applies, for single faults and pairs, on both firmwares. */
static void test_every_sample_is_a_valid_scenario(void **state)
{
    static struct scenario sc;
    (void)state;
    for (int pairs = 0; pairs < 2; pairs++)
        for (uint64_t seed = 1; seed <= 20; seed++)
            for (unsigned i = 0; i < 50; i++) {
                struct cp_opts o = { .seed = seed, .runs = 50, .pairs = pairs,
                                     .fw_mask = CP_FW_BAREMETAL | CP_FW_LINUX, .duration_s = 6 };
                struct cp_sample s;
                char name[64];
                assert_int_equal(cp_sample_draw(&o, i, &s, stderr), 0);
                snprintf(name, sizeof(name), "seed%llu-sample%u.ini", (unsigned long long)seed, i);
                if (scn_load_string(name, s.scenario, &sc, stderr) != 0) {
                    fprintf(stderr, "%s", s.scenario);
                    fail_msg("sample %u of seed %llu is not a valid scenario", i, (unsigned long long)seed);
                }
                /* what the sampler says it drew is what the file asks */
                assert_int_equal(strcmp(scn_enum_str(&sc, SK_BOARD_FIRMWARE), s.fw == CP_FW_LINUX ? "linux" : "baremetal"), 0);
                assert_int_equal(strcmp(scn_enum_str(&sc, SK_TRAFFIC_PROTOCOL), s.udp ? "udp" : "tcp"), 0);
                assert_true(s.expect || fault_of(&s, "clean"));
                assert_int_equal(s.expect & s.allow, 0);
            }
}

/* Sample i is a function of (seed, i) only: --only i reproduces a miss. */
static void test_samples_reproduce(void **state)
{
    struct cp_opts a = { .seed = 77, .runs = 200, .fw_mask = CP_FW_BAREMETAL, .duration_s = 6 };
    struct cp_opts b = a;
    struct cp_sample x, y;
    int differ = 0;
    (void)state;
    b.runs = 13;
    for (unsigned i = 0; i < 13; i++) {
        assert_int_equal(cp_sample_draw(&a, i, &x, NULL), 0);
        assert_int_equal(cp_sample_draw(&b, i, &y, NULL), 0);
        assert_memory_equal(&x, &y, sizeof(x));
    }
    /* and another seed draws another campaign */
    b.seed = 78;
    for (unsigned i = 0; i < 13; i++) {
        assert_int_equal(cp_sample_draw(&a, i, &x, NULL), 0);
        assert_int_equal(cp_sample_draw(&b, i, &y, NULL), 0);
        differ += strcmp(x.scenario, y.scenario) != 0;
    }
    assert_true(differ >= 10);
}

/* The weights reach every fault; masks are obeyed. */
static void test_fault_and_firmware_masks(void **state)
{
    unsigned seen[64] = { 0 };
    struct cp_opts o = { .seed = 5, .runs = 3000, .fw_mask = CP_FW_BAREMETAL | CP_FW_LINUX, .duration_s = 6 };
    struct cp_sample s;
    int lin = cp_fault_lookup("irq_cpu0"), rx = cp_fault_lookup("rx_ring");
    (void)state;
    assert_true(lin >= 0 && rx >= 0);
    for (unsigned i = 0; i < 3000; i++) {
        assert_int_equal(cp_sample_draw(&o, i, &s, NULL), 0);
        seen[s.fault[0]]++;
        if (s.fault[0] == lin)
            assert_int_equal(s.fw, CP_FW_LINUX);
        if (s.fault[0] == rx) { /* bare-metal only, and UDP */
            assert_int_equal(s.fw, CP_FW_BAREMETAL);
            assert_true(s.udp);
        }
    }
    for (int f = 0; f < cp_nfaults(); f++)
        if (!seen[f])
            fail_msg("fault %s never drawn in 3000 samples", cp_fault_name(f));
    /* bare-metal only: no Linux-only fault */
    o.fw_mask = CP_FW_BAREMETAL;
    for (unsigned i = 0; i < 1000; i++) {
        assert_int_equal(cp_sample_draw(&o, i, &s, NULL), 0);
        assert_int_not_equal(s.fault[0], lin);
        assert_int_equal(s.fw, CP_FW_BAREMETAL);
    }
    /* --faults loss,window */
    o.fault_mask = BIT(cp_fault_lookup("loss")) | BIT(cp_fault_lookup("window"));
    for (unsigned i = 0; i < 300; i++) {
        assert_int_equal(cp_sample_draw(&o, i, &s, NULL), 0);
        assert_true(fault_of(&s, "loss") || fault_of(&s, "window"));
        if (fault_of(&s, "window"))
            assert_false(s.udp);
    }
    /* a mask with only a Linux fault under bare-metal draws nothing */
    o.fault_mask = BIT(lin);
    assert_int_equal(cp_sample_draw(&o, 0, &s, NULL), -EINVAL);
}

/* --clock virtual: bare metal only, only the faults the in-emulator peer
 * can run, every scenario in virtual time against it (--net sim, the
 * default): flaps during traffic, window through the peer's -w (no tap). */
static void test_virtual_time_samples(void **state)
{
    static struct scenario sc;
    static const char *const never[] = { "version_mismatch", "irq_cpu0" };
    unsigned flaps = 0, flaps_paired = 0, window = 0, pairs_seen = 0;
    (void)state;
    for (int pairs = 0; pairs < 2; pairs++)
        for (unsigned i = 0; i < 1500; i++) {
            struct cp_opts o = { .seed = 3, .runs = 1500, .pairs = pairs, .fw_mask = CP_FW_BAREMETAL,
                                 .duration_s = 2, .vt = true };
            struct cp_sample s;
            assert_int_equal(cp_sample_draw(&o, i, &s, stderr), 0);
            assert_int_equal(s.fw, CP_FW_BAREMETAL);
            assert_int_equal(scn_load_string("vt.ini", s.scenario, &sc, stderr), 0);
            assert_int_equal(strcmp(scn_enum_str(&sc, SK_BOARD_CLOCK), "virtual"), 0);
            for (size_t k = 0; k < sizeof(never) / sizeof(never[0]); k++)
                assert_false(fault_of(&s, never[k]));
            assert_string_equal(s.net, "");
            if (fault_of(&s, "flaps")) {
                flaps++;
                flaps_paired += s.nfaults == 2;
                assert_true(s.expect & BIT(DG_PHY_LINK_FLAPS));
                assert_true(sc.nevents == 1 && sc.v[SK_TRAFFIC_DURATION].u >= 10000000000ull);
            }
            if (fault_of(&s, "window")) {
                window++;
                assert_true(sc.v[SK_TRAFFIC_WINDOW].set && sc.v[SK_LINK_LATENCY].set && !s.udp);
                assert_true(s.expect & BIT(DG_PROTO_WINDOW_LIMITED));
            }
            pairs_seen += s.nfaults == 2;
        }
    assert_true(flaps > 20 && flaps_paired > 5);
    assert_true(window > 20);
    assert_true(pairs_seen > 500);
    /* the same sample in real time is another scenario (no clock key) */
    {
        struct cp_opts o = { .seed = 3, .runs = 10, .fw_mask = CP_FW_BAREMETAL, .duration_s = 2 };
        struct cp_sample s;
        assert_int_equal(cp_sample_draw(&o, 0, &s, NULL), 0);
        assert_null(strstr(s.scenario, "clock = virtual"));
    }
}

/* --pairs: two different faults that fit together, each one's codes expected. */
static void test_pairs_fit_together(void **state)
{
    struct cp_opts o = { .seed = 9, .runs = 2000, .pairs = true, .fw_mask = CP_FW_BAREMETAL, .duration_s = 6 };
    struct cp_sample s, one;
    unsigned two = 0;
    (void)state;
    for (unsigned i = 0; i < 2000; i++) {
        assert_int_equal(cp_sample_draw(&o, i, &s, NULL), 0);
        assert_false(fault_of(&s, "clean"));
        assert_false(fault_of(&s, "no_link"));
        if (s.nfaults < 2)
            continue;
        two++;
        assert_int_not_equal(s.fault[0], s.fault[1]);
        /* never two faults that both decide what autonegotiation resolves */
        assert_false((fault_of(&s, "partner_slow") || fault_of(&s, "downshift")) &&
                     (fault_of(&s, "partner_forced_full") || fault_of(&s, "partner_forced_half")));
        /* RGMII errors only show at 1000: never with a 10/100 link */
        if (fault_of(&s, "rgmii"))
            assert_false(fault_of(&s, "partner_slow") || fault_of(&s, "downshift") ||
                         fault_of(&s, "partner_forced_full") || fault_of(&s, "partner_forced_half"));
        /* a window limit shows only on a clean path at full speed (at
         * 10 Mb/s 64 KB over 16 ms is above the line) */
        if (fault_of(&s, "rtt"))
            fail_msg("rtt drawn with %s", cp_fault_name(s.fault[s.fault[0] == cp_fault_lookup("rtt")]));
        if (fault_of(&s, "bottleneck"))
            fail_msg("bottleneck drawn with %s",
                     cp_fault_name(s.fault[s.fault[0] == cp_fault_lookup("bottleneck")]));
        /* a partner forced to half is no mismatch, with corrupt frames
         * too: FCS errors at the half end are the cable's (r_duplex) */
        if (fault_of(&s, "partner_forced_half"))
            assert_false((s.allow | s.expect) & BIT(DG_PHY_DUPLEX_MISMATCH));
        /* the window fault needs a clean path at full speed: at 10 Mb/s
         * W/RTT can be above the line, and no window code is then true */
        if (fault_of(&s, "window"))
            assert_false(fault_of(&s, "loss") || fault_of(&s, "corrupt") || fault_of(&s, "flaps") ||
                         fault_of(&s, "partner_slow") || fault_of(&s, "partner_forced_full") ||
                         fault_of(&s, "partner_forced_half") || fault_of(&s, "downshift") ||
                         fault_of(&s, "mac_unprogrammed"));
        /* a duplex mismatch shows only in traffic: never with a version
         * mismatch, which carries none */
        assert_false(fault_of(&s, "partner_forced_full") && fault_of(&s, "version_mismatch"));
    }
    /* every first draw has a partner but rtt, window and bottleneck,
     * which pair with nothing (a window limit needs a clean path at full
     * speed; the hop sets the traffic's rate): 3 of the 16 weights, 1500
     * of these 2000 draws */
    assert_true(two >= 1400);
    /* a downshift sample expects both its codes */
    o.pairs = false;
    o.fault_mask = BIT(cp_fault_lookup("downshift"));
    assert_int_equal(cp_sample_draw(&o, 0, &one, NULL), 0);
    assert_int_equal(one.expect, BIT(DG_PHY_DOWNSHIFT) | BIT(DG_PHY_SPEED_BELOW_EXPECTED));
    assert_non_null(strstr(one.scenario, "cable = 2pair"));
}

/* Loss is named by the protocol's own evidence. */
static void test_loss_expectation_follows_protocol(void **state)
{
    struct cp_opts o = { .seed = 3, .runs = 400, .fw_mask = CP_FW_BAREMETAL, .duration_s = 6 };
    struct cp_sample s;
    unsigned udp = 0, tcp = 0;
    (void)state;
    o.fault_mask = BIT(cp_fault_lookup("loss"));
    for (unsigned i = 0; i < 400; i++) {
        assert_int_equal(cp_sample_draw(&o, i, &s, NULL), 0);
        if (s.udp) {
            udp++;
            assert_int_equal(s.expect, BIT(DG_PROTO_UDP_LOSS));
            assert_non_null(strstr(s.scenario, "bandwidth = "));
        } else {
            tcp++;
            assert_int_equal(s.expect, BIT(DG_PROTO_RETRANSMITS));
        }
    }
    assert_true(udp > 50 && tcp > 200);
}

static void test_score_definitions(void **state)
{
    struct cp_score sc;
    struct cp_sample s, clean;
    struct cp_opts o = { .seed = 1, .runs = 1, .fw_mask = CP_FW_BAREMETAL, .duration_s = 6 };
    (void)state;
    memset(&sc, 0, sizeof(sc));
    memset(&s, 0, sizeof(s));
    s.nfaults = 1;
    s.fault[0] = cp_fault_lookup("corrupt");
    s.expect = BIT(DG_PHY_FCS_ERRORS) | BIT(DG_PHY_RGMII_DELAY);
    s.allow = BIT(DG_PROTO_RETRANSMITS);
    /* named: FCS (TP), RGMII missing (FN), retransmits (allowed), NO_LINK (FP) */
    cp_score_add(&sc, &s, BIT(DG_PHY_FCS_ERRORS) | BIT(DG_PROTO_RETRANSMITS) | BIT(DG_PHY_NO_LINK));
    assert_int_equal(sc.tp[DG_PHY_FCS_ERRORS], 1);
    assert_int_equal(sc.fn[DG_PHY_RGMII_DELAY], 1);
    assert_int_equal(sc.fp[DG_PHY_NO_LINK], 1);
    assert_int_equal(sc.tp[DG_PROTO_RETRANSMITS] + sc.fp[DG_PROTO_RETRANSMITS] + sc.fn[DG_PROTO_RETRANSMITS], 0);
    assert_int_equal(sc.all_named, 0);
    cp_score_add(&sc, &s, BIT(DG_PHY_FCS_ERRORS) | BIT(DG_PHY_RGMII_DELAY));
    assert_int_equal(sc.all_named, 1);
    assert_true(fabs(cp_recall(&sc, DG_PHY_RGMII_DELAY) - 50.0) < 1e-9);
    assert_true(fabs(cp_precision(&sc, DG_PHY_FCS_ERRORS) - 100.0) < 1e-9);
    assert_true(fabs(cp_precision(&sc, DG_PHY_NO_LINK) - 0.0) < 1e-9);
    assert_true(isnan(cp_recall(&sc, DG_PHY_NO_LINK)));
    assert_true(isnan(cp_precision(&sc, DG_MAC_PPS_LIMIT)));
    /* a clean sample: a method code is no false alarm, a MAC code is */
    o.fault_mask = BIT(cp_fault_lookup("clean"));
    assert_int_equal(cp_sample_draw(&o, 0, &clean, NULL), 0);
    assert_int_equal(clean.expect, 0);
    cp_score_add(&sc, &clean, BIT(DG_METHOD_NO_OMIT));
    assert_int_equal(sc.clean, 1);
    assert_int_equal(sc.clean_false_alarms, 0);
    cp_score_add(&sc, &clean, BIT(DG_MAC_RX_RESOURCE_ERRORS));
    assert_int_equal(sc.clean_false_alarms, 1);
    assert_int_equal(sc.fp[DG_MAC_RX_RESOURCE_ERRORS], 1);
    assert_int_equal(sc.samples, 4);
}

/* The blind diagnosis never sees scenario or truth. */
static void test_blind_codes_drop_scenario_and_truth(void **state)
{
    cJSON *r;
    (void)state;
    r = cJSON_Parse("{\"link\":{\"up\":false}}");
    assert_true(cp_blind_codes(r) & BIT(DG_PHY_NO_LINK));
    cJSON_Delete(r);
    /* the same fact only under truth is not evidence */
    r = cJSON_Parse("{\"link\":{\"up\":true,\"speed_mbps\":1000,\"full_duplex\":true},"
                    "\"truth\":{\"link\":{\"up\":false}},\"scenario\":{\"link\":{\"up\":false}}}");
    assert_false(cp_blind_codes(r) & BIT(DG_PHY_NO_LINK));
    /* and the caller's tree is not modified */
    assert_non_null(cJSON_GetObjectItemCaseSensitive(r, "truth"));
    assert_non_null(cJSON_GetObjectItemCaseSensitive(r, "scenario"));
    cJSON_Delete(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_sample_is_a_valid_scenario),
        cmocka_unit_test(test_samples_reproduce),
        cmocka_unit_test(test_fault_and_firmware_masks),
        cmocka_unit_test(test_pairs_fit_together),
        cmocka_unit_test(test_virtual_time_samples),
        cmocka_unit_test(test_loss_expectation_follows_protocol),
        cmocka_unit_test(test_score_definitions),
        cmocka_unit_test(test_blind_codes_drop_scenario_and_truth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

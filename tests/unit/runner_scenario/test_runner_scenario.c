/* Scenario parser and validator: every error names file:line, nothing
 * crashes on garbage, and every scenario in the library loads clean. */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

#include <cjson/cJSON.h>

#include "gemlab/link_props.h"
#include "link_keys.h"
#include "scenario.h"
#include "qemu.h"
#include "units.h"
#include "util.h"

static struct scenario scn;
static char *errbuf;

/* Load @text; return rc and leave the error text in errbuf. */
static int load(const char *text)
{
    size_t len = 0;
    FILE *f;
    int rc;

    free(errbuf);
    errbuf = NULL;
    f = open_memstream(&errbuf, &len);
    assert_non_null(f);
    rc = scn_load_string("t.ini", text, &scn, f);
    fclose(f);
    return rc;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_minimal_file_loads_with_defaults(void **state)
{
    (void)state;
    assert_int_equal(load("[board]\nfirmware = linux\ncpus = 2\n"), 0);
    assert_string_equal(errbuf, "");
    assert_string_equal(scn_enum_str(&scn, SK_BOARD_FIRMWARE), "linux");
    assert_int_equal(scn.v[SK_BOARD_CPUS].u, 2);
    assert_int_equal(scn.v[SK_BOARD_CPUS].line, 3);
    assert_false(scn.v[SK_TRAFFIC_PARALLEL].set);
    assert_int_equal(scn.v[SK_TRAFFIC_PARALLEL].u, 1);
    assert_int_equal(scn.v[SK_TRAFFIC_DURATION].u, 10000000000ull);
    assert_string_equal(scn_enum_str(&scn, SK_TRAFFIC_TOOL), "auto");
    assert_string_equal(scn_host_tool(&scn), "iperf3");    /* the Linux agent runs iperf3 */
}

/* Each [board] profile word has its board facts (same order), and the
 * 10/100 profile's PHY has no 1000BASE-T. */
static void test_board_profiles_match_their_words(void **state)
{
    static const char *const words[] = { "zc702", "zc706", "zedboard", "zc702-100m" };
    char text[64];
    (void)state;
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        snprintf(text, sizeof(text), "[board]\nprofile = %s\n", words[i]);
        assert_int_equal(load(text), 0);
        assert_string_equal(scn_board_profile(&scn)->name, words[i]);
        assert_int_equal(scn_board_profile(&scn)->phy_max_speed_mbps, i == 3 ? 100 : 1000);
        /* the upstream DTs' rgmii-id: no Zynq board here delays RGMII on the PCB */
        assert_false(scn_board_profile(&scn)->pcb_rx_delay || scn_board_profile(&scn)->pcb_tx_delay);
    }
    assert_int_not_equal(load("[board]\nprofile = nucleo\n"), 0);
    assert_non_null(strstr(errbuf, "profile"));
}

static void test_baremetal_tool_defaults_to_iperf2_and_rejects_omit(void **state)
{
    (void)state;
    assert_int_equal(load("[traffic]\nduration = 5s\n"), 0);
    assert_string_equal(scn_board_tool(&scn), "iperf2");   /* lwiperf */
    assert_string_equal(scn_host_tool(&scn), "iperf2");
    assert_int_equal(load("[traffic]\nomit = 2s\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [traffic] omit: iperf 2 has no -O"));
    assert_int_equal(load("[traffic]\ntool = iperf3\nomit = 2s\n"), 0);
    assert_string_equal(scn_board_tool(&scn), "iperf2");   /* a version mismatch, allowed on purpose */
}

/* The Linux image's side: iperf3 against the host's tools; in virtual
 * time iperf 2.1.8 against the peer, or iperf3 when the peer's side is
 * its iperf3 client. */
static void test_linux_board_tool_follows_the_clock_and_the_peers_tool(void **state)
{
    (void)state;
    assert_int_equal(load("[board]\nfirmware = linux\n"), 0);
    assert_string_equal(scn_board_tool(&scn), "iperf3");
    assert_int_equal(load("[board]\nfirmware = linux\nclock = virtual\n"), 0);
    assert_string_equal(scn_board_tool(&scn), "iperf2");
    assert_string_equal(scn_host_tool(&scn), "iperf2");
    assert_int_equal(load("[board]\nfirmware = linux\nclock = virtual\n[traffic]\ntool = iperf3\nomit = 1s\n"), 0);
    assert_string_equal(scn_board_tool(&scn), "iperf3");
    assert_string_equal(scn_host_tool(&scn), "iperf3");
    assert_int_equal(load("[board]\nclock = virtual\n[traffic]\ntool = iperf3\n"), 0);
    assert_string_equal(scn_board_tool(&scn), "iperf2");   /* bare-metal: lwiperf whatever the peer speaks */
}

static void test_full_file_parses_every_type(void **state)
{
    (void)state;
    assert_int_equal(load(
        "; comment\n"
        "[scenario]\nname = full_one\ndescription = everything at once\n"
        "[board]\nfirmware = linux\ncpus = 2\nrx_bds = 16\nirq_affinity = cpu0\n"
        "[link]\npartner = 100FD,100HD\ncable = 2pair\nlatency = 2.5ms\njitter = 100us\n"
        "loss = 1%\nrate = 941.5M\ncorrupt = 0.1\n"
        "[traffic]\nprotocol = udp\nbandwidth = 200M\nwindow = 256K\nlength = 1470\n"
        "omit = 2s\nduration = 20s\nparallel = 4\n"
        "[timeline]\nat = 2s link down\nat = 2.5s link up\nat = 3s flap 500ms 3 1s\n"
        "at = 8s set loss 5%\nat = 9s restart-aneg\nat = 10s starve-rx 200ms\nat = 11s fw stats now\n"
        "[expect]\nspeed = 100\nduplex = full\nthroughput_min = 90M\nloss_max = 2%\n"
        "diag = PHY_SPEED_BELOW_EXPECTED, PHY_DOWNSHIFT\ndiag = PROTO_UDP_LOSS\n"
        "diag_absent = MAC_RX_RESOURCE_ERRORS\n"), 0);
    assert_string_equal(errbuf, "");
    assert_int_equal(scn.v[SK_LINK_LATENCY].u, 2500000);
    assert_int_equal(scn.v[SK_LINK_JITTER].u, 100000);
    assert_true(scn.v[SK_LINK_RATE].d == 941.5e6);
    assert_int_equal(scn.v[SK_TRAFFIC_WINDOW].u, 262144);
    assert_int_equal(scn.nevents, 7);
    assert_int_equal(scn.events[0].act, SCN_ACT_LINK_DOWN);
    assert_int_equal(scn.events[2].act, SCN_ACT_FLAP);
    assert_int_equal(scn.events[2].count, 3);
    assert_int_equal(scn.events[2].period_ns, 1000000000ull);
    assert_int_equal(scn.events[3].act, SCN_ACT_SET);
    assert_int_equal(scn.events[3].key, SK_LINK_LOSS);
    assert_int_equal(scn.events[5].dur_ns, 200000000ull);
    assert_int_equal(scn.events[6].act, SCN_ACT_FW);
    assert_string_equal(scn.events[6].text, "stats now");
    assert_true(scn.diag[DG_PHY_DOWNSHIFT]);
    assert_true(scn.diag[DG_PROTO_UDP_LOSS]);
    assert_true(scn.diag_absent[DG_MAC_RX_RESOURCE_ERRORS]);
    assert_false(scn.diag[DG_MAC_RX_RESOURCE_ERRORS]);
}

static void test_unknown_key_in_every_section_reports_each_line(void **state)
{
    (void)state;
    assert_int_equal(load("[scenario]\nbogus = 1\n[board]\nbogus = 1\n[link]\nbogus = 1\n"
                          "[timeline]\nbogus = 1\n[traffic]\nbogus = 1\n[expect]\nbogus = 1\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [scenario] unknown key 'bogus'"));
    assert_non_null(strstr(errbuf, "t.ini:4: [board] unknown key 'bogus'"));
    assert_non_null(strstr(errbuf, "t.ini:6: [link] unknown key 'bogus'"));
    assert_non_null(strstr(errbuf, "t.ini:8: [timeline] unknown key 'bogus'"));
    assert_non_null(strstr(errbuf, "t.ini:10: [traffic] unknown key 'bogus'"));
    assert_non_null(strstr(errbuf, "t.ini:12: [expect] unknown key 'bogus'"));
    assert_int_equal(count_lines(errbuf), 6);
}

static void test_unknown_section_reported_once_keys_skipped(void **state)
{
    (void)state;
    assert_int_equal(load("[board]\ncpus = 1\n\n[nonsense]\na = 1\nb = 2\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:4: unknown section [nonsense]"));
    assert_int_equal(count_lines(errbuf), 1);
}

static void test_bad_values_name_key_and_range(void **state)
{
    (void)state;
    assert_int_equal(load("[board]\ncpus = 3\nrx_bds = 0x10\nfirmware = rtos\n"
                          "[link]\nlatency = 5\nloss = 150%\n"
                          "[traffic]\nparallel = 99999999999999999999999999\nwindow = -4K\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [board] cpus: '3' is out of range [1, 2]"));
    assert_non_null(strstr(errbuf, "t.ini:3: [board] rx_bds: '0x10' is not a whole number"));
    assert_non_null(strstr(errbuf, "t.ini:4: [board] firmware: 'rtos' is not one of baremetal|linux"));
    assert_non_null(strstr(errbuf, "t.ini:6: [link] latency: '5' is not a duration"));
    assert_non_null(strstr(errbuf, "t.ini:7: [link] loss:"));
    assert_non_null(strstr(errbuf, "t.ini:9: [traffic] parallel: '99999999999999999999999999' is out of range [1, 128]"));
    assert_non_null(strstr(errbuf, "t.ini:10: [traffic] window: '-4K' is not a byte count"));

    /* a rate's unit is never assumed: bare 900 beside speed (Mb/s) is
     * not 900 bit/s; 0 needs none, and bps says bit/s */
    assert_int_equal(load("[expect]\nspeed = 1000\nthroughput_min = 900\nreference = 941.5\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [expect] throughput_min: '900' has no unit: write 900M for Mb/s"));
    assert_non_null(strstr(errbuf, "t.ini:4: [expect] reference: '941.5' has no unit"));
    assert_int_equal(load("[expect]\nthroughput_min = 900.\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [expect] throughput_min: '900.' has no unit"));
    assert_int_equal(load("[expect]\nthroughput_min = 0\nthroughput_max = 900Mb/s\nreference = 5000bps\n"), 0);
    assert_true(scn.v[SK_EXPECT_REFERENCE].d == 5000.0);
    assert_int_equal(load("[timeline]\nat = 1s set rate 100\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [timeline] at: set rate: '100' has no unit"));
}

/* lists: each item as strict as the scalar, and no empty item */
static void test_list_items_are_strict(void **state)
{
    (void)state;
    assert_int_equal(load("[traffic]\nparallel_sweep = +1,2\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [traffic] parallel_sweep: '+1' is not a count"));
    assert_int_equal(load("[traffic]\nparallel_sweep = 1,,2\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [traffic] parallel_sweep: '1,,2' has an empty item"));
    assert_int_equal(load("[traffic]\nprotocol = udp\nsweep = 64, 128,\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [traffic] sweep: '64, 128,' has an empty item"));
    assert_int_equal(load("[link]\nloss = 1%\n[expect]\ndiag = ,PROTO_RETRANSMITS\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:4: [expect] diag: ',PROTO_RETRANSMITS' has an empty item"));
    assert_int_equal(load("[traffic]\nparallel_sweep = 1, 2 ,4\n"), 0);
    assert_int_equal(scn.npsweep, 3);
    assert_int_equal(scn.psweep[2], 4);
    assert_int_equal(load("[traffic]\nprotocol = udp\nsweep = 64 128\n"), 0);
    assert_int_equal(scn.nsweep, 2);
    /* each item in the key's range, both ends: sweep 16..65507 bytes,
     * parallel_sweep 1..128 streams */
    assert_int_equal(load("[traffic]\nprotocol = udp\nsweep = 16, 65507\n"), 0);
    assert_int_equal(load("[traffic]\nprotocol = udp\nsweep = 64, 15\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [traffic] sweep: '15' is not a byte count in [16, 65507]"));
    assert_int_equal(load("[traffic]\nprotocol = udp\nsweep = 65508\n"), -EINVAL);
    assert_int_equal(load("[traffic]\nparallel_sweep = 1, 128\n"), 0);
    assert_int_equal(load("[traffic]\nparallel_sweep = 0, 2\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [traffic] parallel_sweep: '0' is not a count in [1, 128]"));
    assert_int_equal(load("[traffic]\nparallel_sweep = 129\n"), -EINVAL);
}

/* [board] peer = baremetal (--net pair): one firmware iperf stream. */
static void test_peer_baremetal_limits(void **state)
{
    (void)state;
    assert_int_equal(load("[board]\nfirmware = baremetal\n"), 0);
    assert_string_equal(scn_enum_str(&scn, SK_BOARD_PEER), "host");
    assert_int_equal(load("[board]\npeer = baremetal\n[traffic]\nprotocol = udp\nbandwidth = 20M\nreverse = yes\n"), 0);
    assert_string_equal(scn_enum_str(&scn, SK_BOARD_PEER), "baremetal");
    assert_int_equal(load("[board]\npeer = linux\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [board] peer: 'linux' is not one of host|baremetal"));
    assert_int_equal(load("[board]\nfirmware = linux\npeer = baremetal\n[traffic]\nparallel = 4\n"
                          "window = 64K\nbidir = yes\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [board] peer: baremetal needs firmware = baremetal"));
    assert_non_null(strstr(errbuf, "t.ini:5: [traffic] parallel: not with [board] peer = baremetal"));
    assert_non_null(strstr(errbuf, "t.ini:6: [traffic] window: not with [board] peer = baremetal"));
    assert_non_null(strstr(errbuf, "t.ini:7: [traffic] bidir: not with [board] peer = baremetal"));
}

/* [traffic] client: which end runs iperf's client against the peer; the
 * sending end by default, the other end with iperf 2.1's -R. */
static void test_traffic_client(void **state)
{
    (void)state;
    assert_int_equal(load("[traffic]\nreverse = no\n"), 0);
    assert_string_equal(scn_enum_str(&scn, SK_TRAFFIC_CLIENT), "auto");
    assert_false(scn_board_client(&scn));
    assert_int_equal(load("[traffic]\nreverse = yes\n"), 0);
    assert_true(scn_board_client(&scn));
    assert_false(scn_iperf_reverse(&scn));
    assert_int_equal(load("[board]\nclock = virtual\n[traffic]\nclient = board\n"), 0);
    assert_true(scn_board_client(&scn));
    assert_true(scn_iperf_reverse(&scn));
    assert_false(scn.v[SK_TRAFFIC_REVERSE].b);
    assert_int_equal(load("[board]\nclock = virtual\n[traffic]\nreverse = yes\nclient = peer\n"), 0);
    assert_false(scn_board_client(&scn));
    assert_int_equal(load("[traffic]\nclient = host\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [traffic] client: 'host' is not one of auto|board|peer"));
    assert_int_equal(load("[traffic]\nbidir = yes\nclient = board\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [traffic] client: conflicts with bidir (line 2)"));
    assert_int_equal(load("[board]\npeer = baremetal\n[traffic]\nclient = board\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:4: [traffic] client: not with [board] peer = baremetal"));
}

/* [board] clock and mips (issue 18, docs/VIRTUAL_TIME.md): real by
 * default, the profile's mips unless given, bad values and a
 * second QEMU in virtual time named with file:line. */
static void test_board_clock_and_mips(void **state)
{
    (void)state;
    assert_int_equal(load("[board]\nprofile = zc706\n"), 0);
    assert_false(scn_clock_virtual(&scn));
    assert_int_equal(scn_board_mips(&scn), 500);
    assert_int_equal(load("[board]\nclock = virtual\nmips = 667\n"), 0);
    assert_true(scn_clock_virtual(&scn));
    assert_int_equal(scn_board_mips(&scn), 667);
    assert_int_equal(load("[board]\nclock = fast\nmips = 0\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [board] clock: 'fast' is not one of real|virtual"));
    assert_non_null(strstr(errbuf, "t.ini:3: [board] mips: '0' is out of range [1, 1000000]"));
    assert_int_equal(load("[board]\nmips = 5e2\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [board] mips: '5e2' is not a whole number in [1, 1000000]"));
    assert_int_equal(load("[board]\nclock = virtual\npeer = baremetal\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [board] peer: baremetal is not with clock = virtual (line 2)"));
    /* in real time the host sets the speed: a mips would be ignored */
    assert_int_equal(load("[board]\nmips = 100\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [board] mips: needs clock = virtual"));
    /* check says what run would: the client is chosen against the peer only */
    assert_int_equal(load("[traffic]\nclient = board\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [traffic] client: only against the in-emulator peer"));
    assert_int_equal(load("[board]\nclock = virtual\n[traffic]\nclient = board\n"), 0);
    /* a typed command's echo must not pass for the firmware's telemetry */
    assert_int_equal(load("[traffic]\nfw_cmd = @gemlab {\"type\":\"link\",\"up\":false}\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [traffic] fw_cmd: holds '@gemlab'"));
    /* each command keeps its own line, for the run's "the firmware does
     * not know it" (it named the first one's) */
    assert_int_equal(load("[traffic]\nfw_cmd = stats\n\nfw_cmd = bogus 1\n"), 0);
    assert_int_equal(scn.nfw_cmds, 2);
    assert_int_equal(scn.fw_cmd_line[0], 2);
    assert_int_equal(scn.fw_cmd_line[1], 4);
    /* pbufs is the bare-metal lwIP pool */
    assert_int_equal(load("[board]\nfirmware = linux\npbufs = 1024\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [board] pbufs: a bare-metal lwIP build option"));
    /* the command line's --clock real on a virtual-time file: rechecked */
    assert_int_equal(load("[board]\nclock = virtual\nmips = 100\n"), 0);
    scn.v[SK_BOARD_CLOCK].e = 0;
    {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        assert_int_equal(scn_recheck(&scn, "with --clock real", f), -EINVAL);
        fclose(f);
        assert_non_null(strstr(text, "t.ini:3: [board] mips: needs clock = virtual"));
        assert_non_null(strstr(text, "not a valid scenario with --clock real"));
        free(text);
    }
}

/* [board] quantum (parallel virtual time, QEMU patch 0045): 10 us by
 * default with two CPUs, none with one; only for two CPUs in virtual
 * time, within the patch's 1 us .. 100 ms. */
static void test_board_quantum(void **state)
{
    (void)state;
    assert_int_equal(load("[board]\nclock = virtual\nfirmware = linux\n"), 0);
    assert_int_equal(scn_board_quantum_ns(&scn), 0);
    assert_int_equal(load("[board]\nclock = virtual\nfirmware = linux\ncpus = 2\n"), 0);
    assert_int_equal(scn_board_quantum_ns(&scn), SCN_QUANTUM_DEFAULT_NS);
    assert_int_equal(load("[board]\nclock = virtual\nfirmware = linux\ncpus = 2\nquantum = 2us\n"), 0);
    assert_int_equal(scn_board_quantum_ns(&scn), 2000);
    assert_int_equal(load("[board]\nclock = virtual\nfirmware = linux\nquantum = 2us\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:4: [board] quantum: parallel virtual time is for cpus = 2"));
    assert_int_equal(load("[board]\nfirmware = linux\ncpus = 2\nquantum = 2us\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:4: [board] quantum: needs clock = virtual"));
    assert_int_equal(load("[board]\nclock = virtual\nfirmware = linux\ncpus = 2\nquantum = 500ns\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:5: [board] quantum: '500ns' is out of range [1us, 100ms]"));
}

/* [board] dma_line (QEMU patch 0046, -icount dmaline=NS): none unless set,
 * only in virtual time, within the patch's 0 .. 100 us; the -icount
 * string carries it only when it is not 0. */
static void test_board_dma_line(void **state)
{
    char ic[96];

    (void)state;
    assert_int_equal(load("[board]\nclock = virtual\nfirmware = linux\ncpus = 2\n"), 0);
    assert_int_equal(scn_board_dma_line_ns(&scn), 0);
    assert_int_equal(load("[board]\nclock = virtual\nfirmware = linux\ncpus = 2\ndma_line = 60ns\n"), 0);
    assert_int_equal(scn_board_dma_line_ns(&scn), 60);
    assert_int_equal(load("[board]\nfirmware = linux\ndma_line = 60ns\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [board] dma_line: needs clock = virtual"));
    assert_int_equal(load("[board]\nclock = virtual\ndma_line = 101us\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [board] dma_line: '101us' is out of range [0ns, 100us]"));
    qemu_icount_opts(93, 10000, 60, ic, sizeof(ic));
    assert_string_equal(ic, "mips=93,sleep=off,align=off,quantum=10000,dmaline=60");
    qemu_icount_opts(500, 0, 0, ic, sizeof(ic));
    assert_string_equal(ic, "mips=500,sleep=off,align=off");
    qemu_icount_opts(500, 0, 25, ic, sizeof(ic));
    assert_string_equal(ic, "mips=500,sleep=off,align=off,dmaline=25");
}

/* Model-checked values: the model's own label ("loss:", "abilities:",
 * "cable:") is not repeated after the key. */
static void test_model_errors_name_the_key_once(void **state)
{
    (void)state;
    assert_int_equal(load("[link]\nloss = bogus\ncable = xx\npartner = weird\n"
                          "jitter_dist = zzz\n[traffic]\nduration = 10s\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [link] loss: unknown model 'bogus'"));
    assert_non_null(strstr(errbuf, "t.ini:3: [link] cable: unknown value \"xx\""));
    assert_non_null(strstr(errbuf, "t.ini:4: [link] partner: unknown token \"weird\""));
    assert_non_null(strstr(errbuf, "t.ini:5: [link] jitter_dist: 'zzz' is not one of"));
    assert_int_equal(load("[link]\nloss = state 80 10 10 10 40\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [link] loss: p13 + p14 = 1.2 exceeds 1"));
    assert_int_equal(load("[traffic]\nduration = 10s\n[timeline]\nat = 1s set loss bogus\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:4: [timeline] at: set loss: unknown model 'bogus'"));
    assert_null(strstr(errbuf, "loss: loss:"));
    assert_null(strstr(errbuf, "abilities:"));
    /* a timeline value keeps its words, as [link] does */
    assert_int_equal(load("[traffic]\nduration = 10s\n[timeline]\nat = 1s set loss random 1%\n"
                          "at = 2s set loss gemodel 1% 20%\n"), 0);
    assert_int_equal(scn.nevents, 2);
    assert_string_equal(scn.events[0].val.s, "random 1%");
    assert_string_equal(scn.events[1].val.s, "gemodel 1% 20%");
    assert_int_equal(load("[traffic]\nduration = 10s\n[timeline]\nat = 1s set loss\n"
                          "at = 2s set latency 5ms later\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:4: [timeline] at: unknown or malformed action"));
    assert_non_null(strstr(errbuf, "t.ini:5: [timeline] at: set latency: '5ms later' is not a duration"));
}

static void test_duplicate_key_names_first_line(void **state)
{
    (void)state;
    assert_int_equal(load("[board]\ncpus = 1\nrx_bds = 8\ncpus = 1\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:4: [board] cpus: given twice (first at line 2)"));
    /* a first value that was refused (or empty) still counts as given */
    assert_int_equal(load("[link]\nloss = abc\nlatency =\nloss = 1%\nlatency = 1ms\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [link] loss: unknown model 'abc'"));
    assert_non_null(strstr(errbuf, "t.ini:3: [link] latency: empty value"));
    assert_non_null(strstr(errbuf, "t.ini:4: [link] loss: given twice (first at line 2)"));
    assert_non_null(strstr(errbuf, "t.ini:5: [link] latency: given twice (first at line 3)"));
}

static void test_syntax_errors_each_reported(void **state)
{
    (void)state;
    assert_int_equal(load("[board\ncpus = 1\n[link]\njust words\n= 5\n[traffic]\nduration = 5s\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:1: section header without ']'"));
    assert_non_null(strstr(errbuf, "t.ini:4: expected 'key = value'"));
    assert_non_null(strstr(errbuf, "t.ini:5: missing key"));
    assert_int_equal(count_lines(errbuf), 3);
    /* a '=' after an inline comment separates nothing; reported beside
     * the file's other error, not hidden by it */
    assert_int_equal(load("[link]\nlatency ; = 5ms\nrate = 5x\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: expected 'key = value', got 'latency ; = 5ms'"));
    assert_non_null(strstr(errbuf, "t.ini:3: [link] rate: '5x' is not a rate"));
    assert_int_equal(count_lines(errbuf), 2);
    assert_int_equal(load("[link]\nlatency = 5ms ; a comment = ok\n"), 0);
    assert_int_equal(scn.v[SK_LINK_LATENCY].u, 5000000);
}

static void test_key_outside_section_rejected(void **state)
{
    (void)state;
    assert_int_equal(load("cpus = 2\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:1: 'cpus' is outside any section"));
}

static void test_overlong_line_rejected_and_next_line_counted(void **state)
{
    char text[4096];
    (void)state;
    memset(text, 'x', sizeof(text));
    memcpy(text, "[scenario]\ndescription = ", 25);
    strcpy(text + 3000, "\n[board]\ncpus = 7\n");
    assert_int_equal(load(text), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: line is too long"));
    assert_non_null(strstr(errbuf, "t.ini:4: [board] cpus: '7' is out of range"));
}

/* the limit counts what a line says, whatever ends it (README: 197 bytes) */
static void test_line_limit_ignores_the_line_end(void **state)
{
    char text[512];
    (void)state;
    for (int crlf = 0; crlf < 2; crlf++) {
        /* "description = " is 14 bytes: 183 more make 197 */
        int o = snprintf(text, sizeof(text), "[scenario]%s\ndescription = ", crlf ? "\r" : "");
        memset(text + o, 'x', 183);
        strcpy(text + o + 183, crlf ? "\r\n" : "\n");
        assert_int_equal(load(text), 0);
        /* 198 bytes on the last line, with no line end at all */
        memset(text + o, 'x', 184);
        text[o + 184] = '\0';
        assert_int_equal(load(text), -EINVAL);
        assert_non_null(strstr(errbuf, "t.ini:2: line is too long (198 bytes, at most 197)"));
    }
}

static void test_binary_garbage_never_crashes(void **state)
{
    char text[2048];
    unsigned x = 12345;
    (void)state;
    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof(text) - 1; i++) {
            x = x * 1103515245u + 12345u;
            text[i] = (char)((x >> 16) % 255 + 1);   /* no NUL: string API */
        }
        text[sizeof(text) - 1] = '\0';
        (void)load(text);
    }
    assert_int_equal(load("\xff\xfe[board]\x01\n\x7f=\x7f\n"), -EINVAL);
}

static void test_too_many_errors_are_capped(void **state)
{
    static char text[64 * 1024];
    size_t off = 0;
    (void)state;
    off += (size_t)snprintf(text + off, sizeof(text) - off, "[board]\n");
    for (int i = 0; i < 500; i++)
        off += (size_t)snprintf(text + off, sizeof(text) - off, "k%d = 1\n", i);
    assert_int_equal(load(text), -EINVAL);
    assert_non_null(strstr(errbuf, "too many errors"));
    assert_true(count_lines(errbuf) <= SCN_MAX_ERRORS);
}

static void test_timeline_errors(void **state)
{
    (void)state;
    assert_int_equal(load("[traffic]\nduration = 10s\n[timeline]\n"
                          "at = 5 link down\n"           /* 4: no unit */
                          "at = 1s link sideways\n"      /* 5 */
                          "at = 2s set seed 4\n"         /* 6: seed not settable */
                          "at = 2s set latency banana\n" /* 7 */
                          "at = 3s flap 0s\n"            /* 8 */
                          "at = 4s flap 100ms 3\n"       /* 9: count without period */
                          "at = 20s restart-aneg\n"      /* 10: past duration */
                          "at = 1s restart-aneg\n"       /* 11: out of order */
                          "at = 1s fw\n"                 /* 12 */
                          "at = 1s dance\n"), -EINVAL);  /* 13 */
    assert_non_null(strstr(errbuf, "t.ini:4: [timeline] at: '5' is not a time"));
    assert_non_null(strstr(errbuf, "t.ini:5: [timeline] at: unknown or malformed action"));
    assert_non_null(strstr(errbuf, "t.ini:6: [timeline] at: set: 'seed' is not a settable"));
    assert_non_null(strstr(errbuf, "t.ini:7: [timeline] at: set latency: 'banana' is not a duration"));
    assert_non_null(strstr(errbuf, "t.ini:8: [timeline] at: flap down-time"));
    assert_non_null(strstr(errbuf, "t.ini:9: [timeline] at: flap with a count needs a period"));
    assert_non_null(strstr(errbuf, "t.ini:10: [timeline] at: event ends at 20.000s, after the traffic"));
    assert_non_null(strstr(errbuf, "t.ini:11: [timeline] at: events must be in time order"));
    assert_non_null(strstr(errbuf, "t.ini:12: [timeline] at: fw needs a command"));
    assert_non_null(strstr(errbuf, "t.ini:13: [timeline] at: unknown or malformed action '1s dance'"));
    /* the seed's range ends at 2^64 - 1, not at the double it rounds to */
    assert_int_equal(load("[link]\nseed = 18446744073709551616\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [link] seed: '18446744073709551616' is out of range "
                                   "[0, 18446744073709551615]"));
    assert_int_equal(load("[link]\nseed = 18446744073709551615\n"), 0);
    assert_int_equal(load("[timeline]\nat = 2s set seed 4\n"), -EINVAL);
    /* the list of what is settable does not offer the seed it refused */
    assert_non_null(strstr(errbuf, "partner_ms; the seed is fixed for the run)"));
    assert_null(strstr(errbuf, ", seed"));
}

static void test_cross_checks_name_the_later_line(void **state)
{
    (void)state;
    /* an expectation that can never pass is an error, not a FAIL later */
    assert_int_equal(load("[expect]\nlink = down\nspeed = 1000\nduplex = full\nthroughput_min = 1M\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [expect] speed: can never hold with link = down (line 2)"));
    assert_non_null(strstr(errbuf, "t.ini:4: [expect] duplex: can never hold with link = down (line 2)"));
    assert_non_null(strstr(errbuf, "t.ini:5: [expect] throughput_min: can never hold with link = down (line 2)"));
    assert_int_equal(load("[expect]\nlink = down\n"), 0);
    assert_int_equal(load("[expect]\nlink = up\nspeed = 1000\n"), 0);
    /* every problem at once: the models' verdict on [link] beside errors
     * in other sections (it was dropped whenever the file had any), but
     * not beside an error of [link]'s own, which it would only echo */
    assert_int_equal(load("[link]\nreorder = 5%\n[traffic]\nduration = 10\nfoo = 1\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:4: [traffic] duration:"));
    assert_non_null(strstr(errbuf, "t.ini:5: [traffic] unknown key 'foo'"));
    assert_non_null(strstr(errbuf, "t.ini:2: [link] reorder: wire.reorder_pct: 5 needs latency_ns > 0"));
    assert_int_equal(load("[link]\nreorder = 5%\njitter = x\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [link] jitter:"));
    assert_null(strstr(errbuf, "reorder_pct"));
    /* the MAC speed fault is the bare-metal driver's (Linux's macb sets it) */
    assert_int_equal(load("[board]\nfirmware = linux\nmac_speed = 100\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [board] mac_speed: needs firmware = baremetal"));
    assert_int_equal(load("[board]\nfirmware = linux\nmac_speed = auto\n"), 0);
    assert_int_equal(load("[board]\nmac_speed = 100\n"), 0);
    assert_int_equal(load("[board]\ncpus = 2\n[link]\npartner_speed = 100\n"
                          "[traffic]\nbandwidth = 10M\nomit = 3s\nduration = 3s\n"
                          "[expect]\nthroughput_min = 900M\nthroughput_max = 100M\n"
                          "diag = PHY_DOWNSHIFT\ndiag_absent = PHY_DOWNSHIFT\ndiag = NOT_A_CODE\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [board] cpus: bare-metal firmware runs on one CPU"));
    assert_non_null(strstr(errbuf, "t.ini:4: [link] partner_speed: only meaningful with partner_autoneg = off"));
    assert_non_null(strstr(errbuf, "t.ini:6: [traffic] bandwidth: only for protocol = udp"));
    assert_non_null(strstr(errbuf, "t.ini:7: [traffic] omit: 3s leaves nothing of duration 3s"));
    assert_non_null(strstr(errbuf, "t.ini:11: [expect] throughput_max: below throughput_min"));
    assert_non_null(strstr(errbuf, "t.ini:13: [expect] diag_absent: PHY_DOWNSHIFT is also in diag"));
    assert_non_null(strstr(errbuf, "t.ini:14: [expect] diag: unknown diagnosis code 'NOT_A_CODE'"));
}

static void test_model_rejects_bad_abilities_and_loss(void **state)
{
    (void)state;
    assert_int_equal(load("[link]\npartner = 100FD,2500FD\nloss = gemodel banana\ncable = 3pair\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [link] partner:"));
    assert_non_null(strstr(errbuf, "t.ini:3: [link] loss:"));
    assert_non_null(strstr(errbuf, "t.ini:4: [link] cable:"));
}

static void test_forced_partner_needs_speed_and_duplex(void **state)
{
    (void)state;
    assert_int_equal(load("[link]\npartner_autoneg = off\npartner_speed = 100\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [link] partner_autoneg = off needs partner_speed and partner_duplex"));
    assert_int_equal(load("[link]\npartner_autoneg = off\npartner_speed = 100\npartner_duplex = full\n"), 0);
}

static void test_missing_file_and_directory_rejected(void **state)
{
    size_t len = 0;
    FILE *f;
    (void)state;
    free(errbuf);
    f = open_memstream(&errbuf, &len);
    assert_int_equal(scn_load("/nonexistent/x.ini", &scn, f), -ENOENT);
    assert_int_equal(scn_load("/", &scn, f), -EINVAL);
    {
        /* a FIFO with no writer: refused at once, not waited on */
        char dir[] = "/tmp/gemlab-scn-fifo-XXXXXX", fifo[sizeof(dir) + 8];
        assert_non_null(mkdtemp(dir));
        snprintf(fifo, sizeof(fifo), "%s/s.ini", dir);
        assert_int_equal(mkfifo(fifo, 0600), 0);
        assert_int_equal(scn_load(fifo, &scn, f), -EINVAL);
        unlink(fifo);
        rmdir(dir);
    }
    fclose(f);
    assert_non_null(strstr(errbuf, "/nonexistent/x.ini: cannot open"));
    assert_non_null(strstr(errbuf, "/: not a regular file"));
    assert_non_null(strstr(errbuf, "/s.ini: not a regular file"));
}

static void test_units_reject_junk(void **state)
{
    uint64_t u;
    double d;
    (void)state;
    assert_int_equal(un_parse_u64("18446744073709551616", &u), -ERANGE);
    assert_int_equal(un_parse_u64("18446744073709551615", &u), 0);
    assert_int_equal(un_parse_u64("", &u), -EINVAL);
    assert_int_equal(un_parse_u64("1 ", &u), -EINVAL);
    assert_int_equal(un_parse_time_ns("1e3s", &u), -EINVAL);
    assert_int_equal(un_parse_time_ns("nan s", &u), -EINVAL);
    assert_int_equal(un_parse_time_ns("1.5us", &u), 0);
    assert_int_equal(u, 1500);
    assert_int_equal(un_parse_time_ns("99999999999999s", &u), -ERANGE);
    assert_int_equal(un_parse_rate_bps("inf", &d), -EINVAL);
    assert_int_equal(un_parse_rate_bps("94.15Mbps", &d), 0);
    assert_true(d > 94.149e6 && d < 94.151e6);
    /* bytes per second is not bits per second */
    assert_int_equal(un_parse_rate_bps("100MB/s", &d), -EINVAL);
    assert_int_equal(un_parse_rate_bps("100MBps", &d), -EINVAL);
    assert_int_equal(un_parse_rate_bps("1GBPS", &d), -EINVAL);
    assert_int_equal(un_parse_rate_bps("1Gbit/s", &d), 0);
    assert_true(d == 1e9);
    assert_int_equal(un_parse_bytes("256K", &u), 0);
    assert_int_equal(u, 262144);
    assert_int_equal(un_parse_bytes("99999999999G", &u), -ERANGE);
    assert_int_equal(un_parse_pct("100.1%", &d), -ERANGE);
    assert_int_equal(un_parse_pct("-1", &d), -EINVAL);
}

/* Every scenario shipped in scenarios/ loads without a single error. */
static void test_library_scenarios_all_valid(void **state)
{
    DIR *d = opendir(SCENARIO_DIR);
    struct dirent *e;
    int n = 0;
    (void)state;
    assert_non_null(d);
    while ((e = readdir(d))) {
        char path[1024];
        size_t len = strlen(e->d_name), elen = 0;
        char *eb = NULL;
        FILE *f;
        int rc;
        if (len < 5 || strcmp(e->d_name + len - 4, ".ini"))
            continue;
        snprintf(path, sizeof(path), "%s/%s", SCENARIO_DIR, e->d_name);
        f = open_memstream(&eb, &elen);
        rc = scn_load(path, &scn, f);
        fclose(f);
        if (rc)
            fprintf(stderr, "%s", eb);
        assert_int_equal(rc, 0);
        /* each library scenario says what diagnosis it must produce, or
         * which codes must stay absent */
        bool any = false;
        for (int i = 0; i < DG_NCODES; i++)
            any |= scn.diag[i] || scn.diag_absent[i];
        assert_true(any);
        free(eb);
        n++;
    }
    closedir(d);
    assert_true(n >= 18);
}

static int teardown(void **state)
{
    (void)state;
    free(errbuf);
    errbuf = NULL;
    return 0;
}

/* docs/SECURITY.md R9: the name taken from the file name goes into the run
 * directory and from there into QEMU's option strings; it must pass the
 * [scenario] name check, or the file is refused with a message naming
 * it.  A [scenario] name in the file makes the file name irrelevant. */
/* [link] downshift (issue 20): the board's PHY driver is told to keep
 * it: bare metal `phy downshift` (firmware/baremetal/apps/shell), Linux the
 * agent's `downshift` (ethtool --set-phy-tunable); not set: no command. */
static void test_link_downshift_becomes_the_phy_driver_command(void **state)
{
    char cmd[48];
    (void)state;
    assert_int_equal(load("[link]\ncable = 2pair\ndownshift = off\n"), 0);
    assert_int_equal(scn_downshift_cmd(&scn, cmd, sizeof(cmd)), 1);
    assert_string_equal(cmd, "phy downshift off");
    assert_int_equal(load("[link]\ndownshift = on\ndownshift_attempts = 2\n"), 0);
    assert_int_equal(scn_downshift_cmd(&scn, cmd, sizeof(cmd)), 1);
    assert_string_equal(cmd, "phy downshift on 2");
    assert_int_equal(load("[link]\ndownshift = on\n"), 0);
    assert_int_equal(scn_downshift_cmd(&scn, cmd, sizeof(cmd)), 1);
    assert_string_equal(cmd, "phy downshift on");
    assert_int_equal(load("[link]\ncable = 2pair\n"), 0);
    assert_int_equal(scn_downshift_cmd(&scn, cmd, sizeof(cmd)), 0);
    assert_int_equal(load("[board]\nfirmware = linux\n[link]\ndownshift = off\n"), 0);
    assert_int_equal(scn_downshift_cmd(&scn, cmd, sizeof(cmd)), 1);
    assert_string_equal(cmd, "downshift off");
    assert_int_equal(load("[board]\nfirmware = linux\n[link]\ndownshift = on\ndownshift_attempts = 3\n"), 0);
    assert_int_equal(scn_downshift_cmd(&scn, cmd, sizeof(cmd)), 1);
    assert_string_equal(cmd, "downshift on 3");
}

static void test_file_name_that_is_no_scenario_name_is_refused(void **state)
{
    size_t len = 0;
    FILE *f;
    (void)state;
    free(errbuf);
    errbuf = NULL;
    f = open_memstream(&errbuf, &len);
    assert_int_equal(scn_load_string("dir/a,b=c\x1b[2J.ini", "[traffic]\nduration = 5s\n", &scn, f), -EINVAL);
    fclose(f);
    assert_non_null(strstr(errbuf, "dir/a,b=c"));
    assert_non_null(strstr(errbuf, "file name"));
    assert_non_null(strstr(errbuf, "[scenario] name"));
    assert_non_null(strstr(errbuf, "'a,b=c?[2J'"));   /* the name shown cleaned */
    free(errbuf);
    errbuf = NULL;
    f = open_memstream(&errbuf, &len);
    assert_int_equal(scn_load_string("dir/a,b.ini", "[scenario]\nname = ok_name\n", &scn, f), 0);
    fclose(f);
    assert_string_equal(scn.v[SK_SCENARIO_NAME].s, "ok_name");
    assert_int_equal(load("[traffic]\nduration = 5s\n"), 0);     /* t.ini: fine */
    assert_string_equal(scn.v[SK_SCENARIO_NAME].s, "t");
}

/* An empty file, or one of comments, passed `check` as every default: the
 * wrong file more often than a wish.  A file name longer than a name may
 * be was cut to 63 characters without a word. */
static void test_empty_file_and_long_file_name_are_refused(void **state)
{
    char path[128], want[256];
    size_t len = 0;
    FILE *f;

    (void)state;
    assert_int_equal(load(""), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini: no section: the file is empty or only comments"));
    assert_int_equal(load("; a comment\n\n# another\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "no section"));
    assert_int_equal(load("[scenario]\n"), 0);     /* every default, asked for */

    snprintf(path, sizeof(path), "dir/%070d.ini", 0);
    snprintf(want, sizeof(want), "%s: the scenario name taken from the file name is 70 characters, more than 63", path);
    free(errbuf);
    errbuf = NULL;
    f = open_memstream(&errbuf, &len);
    assert_int_equal(scn_load_string(path, "[scenario]\n", &scn, f), -EINVAL);
    fclose(f);
    assert_non_null(strstr(errbuf, want));
    free(errbuf);
    errbuf = NULL;
    f = open_memstream(&errbuf, &len);
    assert_int_equal(scn_load_string(path, "[scenario]\nname = short\n", &scn, f), 0);
    fclose(f);
    snprintf(path, sizeof(path), "%063d.ini", 0);     /* 63: fits */
    free(errbuf);
    errbuf = NULL;
    f = open_memstream(&errbuf, &len);
    assert_int_equal(scn_load_string(path, "[scenario]\n", &scn, f), 0);
    fclose(f);
    assert_int_equal(strlen(scn.v[SK_SCENARIO_NAME].s), 63);
}

/* [board] advertise (issue 20): the partner's vocabulary, a file:line
 * error on a bad value, and the command each firmware gets. */
static void test_board_advertise_key_and_command(void **state)
{
    char cmd[96];
    (void)state;
    assert_int_equal(load("[board]\nadvertise = 100FD,100HD\n"), 0);
    assert_int_equal(scn_advertise_cmd(&scn, cmd, sizeof(cmd)), 1);
    assert_string_equal(cmd, "phy advertise 100FD,100HD");
    assert_true(scn_cmd_renegotiates(cmd));
    assert_int_equal(load("[board]\nfirmware = linux\nadvertise = 1000FD,100FD,PAUSE\n"), 0);
    assert_int_equal(scn_advertise_cmd(&scn, cmd, sizeof(cmd)), 1);
    assert_string_equal(cmd, "advertise 0x2028");       /* ethtool(8) ADVERTISED_* bits */
    assert_true(scn_cmd_renegotiates(cmd));
    assert_int_equal(load("[traffic]\nduration = 5s\n"), 0);
    assert_int_equal(scn_advertise_cmd(&scn, cmd, sizeof(cmd)), 0);   /* not set: no command */

    assert_int_equal(load("[board]\n\nadvertise = 100FD,2500FD\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [board] advertise:"));
    assert_int_equal(load("[board]\nadvertise = 100T4,100FD\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [board] advertise: 100T4"));
    assert_int_equal(load("[board]\nadvertise = PAUSE\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [board] advertise: needs at least one"));
}

/* The commands after which the runner waits for the link to come back
 * before traffic (run.c wait_relink; issue 20). */
static void test_renegotiating_commands(void **state)
{
    (void)state;
    assert_true(scn_cmd_renegotiates("phy restart"));
    assert_true(scn_cmd_renegotiates("phy aneg"));
    assert_true(scn_cmd_renegotiates("phy force 100 full"));
    assert_true(scn_cmd_renegotiates("phy advertise 100FD"));
    assert_true(scn_cmd_renegotiates("advertise 0x00c"));
    assert_false(scn_cmd_renegotiates("phy"));
    assert_false(scn_cmd_renegotiates("phy dump"));
    assert_false(scn_cmd_renegotiates("gem rxbd 8"));
    assert_false(scn_cmd_renegotiates("stats"));
    assert_false(scn_cmd_renegotiates(""));
}


/* [control]: the negative control is the same scenario without its fault,
 * expecting only that the scenario's codes are absent. */
static void test_control_unsets_sets_and_derives_expect(void **state)
{
    static struct scenario c;
    (void)state;
    assert_int_equal(load("[board]\nrx_bds = 8\n[link]\nloss = 2%\nlatency = 5ms\npartner = 100FD\n"
                          "[timeline]\nat = 1s flap 100ms\nat = 2s restart-aneg\n[traffic]\nfw_cmd = stats\n"
                          "[expect]\nspeed = 100\ndiag = PROTO_RETRANSMITS, MAC_RX_RESOURCE_ERRORS\n"
                          "diag_absent = PHY_FCS_ERRORS\n"
                          "[control]\nunset = link.loss, timeline, traffic.fw_cmd\nunset = link.partner\n"
                          "set = board.rx_bds 64\nset = link.latency 0ms\n"), 0);
    assert_int_equal(scn.control_line, 17);
    assert_int_equal(scn_make_control(&scn, &c, stderr), 0);
    assert_string_equal(c.v[SK_SCENARIO_NAME].s, "t_control");
    assert_false(c.v[SK_LINK_LOSS].set);
    assert_false(c.v[SK_LINK_PARTNER].set);
    assert_int_equal(c.nevents, 0);
    assert_int_equal(c.nfw_cmds, 0);
    assert_int_equal(c.v[SK_BOARD_RX_BDS].u, 64);
    assert_int_equal(c.v[SK_LINK_LATENCY].u, 0);
    /* expectations: only the codes, now absent */
    assert_false(c.v[SK_EXPECT_SPEED].set);
    assert_true(c.diag_absent[DG_PROTO_RETRANSMITS] && c.diag_absent[DG_MAC_RX_RESOURCE_ERRORS]);
    assert_false(c.diag_absent[DG_PHY_FCS_ERRORS]);
    for (int d = 0; d < DG_NCODES; d++)
        assert_false(c.diag[d]);
    assert_false(c.v[SK_SCENARIO_TODO].set);
    /* the original is untouched */
    assert_true(scn.v[SK_LINK_LOSS].set);
    assert_int_equal(scn.nevents, 2);
}

/* timeline.at is the events' list: unsetting it removes every event, as
 * `unset = timeline` does (it cleared only the key, the fault stayed) */
static void test_control_unset_timeline_at_removes_the_events(void **state)
{
    static struct scenario c;
    (void)state;
    assert_int_equal(load("[link]\nseed = 1\n[timeline]\nat = 1s link down\n[traffic]\nduration = 5s\n"
                          "[expect]\ndiag = PHY_NO_LINK\n[control]\nunset = timeline.at\n"), 0);
    assert_int_equal(scn.nevents, 1);
    assert_int_equal(scn_make_control(&scn, &c, stderr), 0);
    assert_int_equal(c.nevents, 0);
    assert_false(c.v[SK_TIMELINE_AT].set);
    assert_true(c.diag_absent[DG_PHY_NO_LINK]);
    /* a TAB separates SECTION.KEY from its value as a space does */
    assert_int_equal(load("[link]\nloss = 2%\n[traffic]\nduration = 5s\n[expect]\ndiag = PROTO_RETRANSMITS\n"
                          "[control]\nset = link.loss\t0%\n"), 0);
    assert_int_equal(scn_make_control(&scn, &c, stderr), 0);
    assert_true(c.v[SK_LINK_LOSS].set);
}

/* free text is UTF-8 (it goes into results.json), and an error quoting
 * the file never hands the terminal an escape sequence */
static void test_text_is_utf8_and_errors_are_clean(void **state)
{
    static const char *bad[] = {
        "caf\xe9",             /* Latin-1 */
        "\xff\xfe",           /* never in UTF-8 */
        "\xc0\xaf",           /* overlong '/' */
        "\xed\xa0\x80",       /* a surrogate */
        "\xf4\x90\x80\x80",   /* above U+10FFFF */
        "\xc2\x9b",           /* U+009B, a C1 control (CSI) */
        "\xe2\x82",           /* cut short */
    };
    char text[128];
    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(text, sizeof(text), "[scenario]\ndescription = x%sy\n", bad[i]);
        if (load(text) != -EINVAL)
            fail_msg("description with bytes #%zu accepted", i);
        assert_non_null(strstr(errbuf, "t.ini:2: [scenario] description: "));
    }
    assert_int_equal(load("[scenario]\ndescription = caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x93\xa1\n"), 0);
    assert_int_equal(load("[scenario]\ndescription = \x1b]0;pwned\x07\x1b[2J\n[b\x1b[2Jx]\n"), -EINVAL);
    assert_null(strchr(errbuf, '\x1b'));
    assert_null(strchr(errbuf, '\x07'));
    assert_non_null(strstr(errbuf, "'^[]0;pwned^G^[[2J'"));
    assert_non_null(strstr(errbuf, "t.ini:3: unknown section [b^[[2Jx]"));
}

static void test_control_errors_name_the_line(void **state)
{
    static struct scenario c;
    (void)state;
    assert_int_equal(load("[expect]\ndiag = PHY_NO_LINK\n[control]\nunset = expect.link\nunset = link.nope\n"
                          "set = link.cable sideways\nset = traffic.sweep 64\nset = link.latency\nwhat = 1\n"),
                     -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:4: [control] expect.link: [expect] keys cannot be changed"));
    assert_non_null(strstr(errbuf, "t.ini:5: [control] unknown key 'link.nope'"));
    assert_non_null(strstr(errbuf, "t.ini:6: [control] set link.cable: "));
    assert_non_null(strstr(errbuf, "t.ini:7: [control] set: traffic.sweep is a list"));
    assert_non_null(strstr(errbuf, "t.ini:8: [control] set: 'link.latency' is not SECTION.KEY VALUE"));
    assert_non_null(strstr(errbuf, "t.ini:9: [control] unknown key 'what' (known: unset, set, todo)"));
    /* each key is changed once: a second word for it would silently win */
    assert_int_equal(load("[expect]\ndiag = PHY_NO_LINK\n[control]\nset = link.loss 2%\nset = link.loss 3%\n"
                          "unset = link.loss\nunset = timeline, timeline\nunset = link.latency\n"
                          "set = link.latency 1ms\nunset = ,\n"),
                     -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:5: [control] set: link.loss is already changed by the control"));
    assert_non_null(strstr(errbuf, "t.ini:6: [control] unset: link.loss is already changed by the control"));
    assert_non_null(strstr(errbuf, "t.ini:7: [control] unset: timeline is already changed by the control"));
    assert_non_null(strstr(errbuf, "t.ini:9: [control] set: link.latency is already changed by the control"));
    assert_non_null(strstr(errbuf, "t.ini:10: [control] unset: no SECTION.KEY given"));
    /* [control] todo: the control's known gap, not the scenario's; the
     * scenario's own todo does not carry over */
    assert_int_equal(load("[scenario]\ntodo = the scenario gap\n[link]\nloss = 1%\n[expect]\ndiag = PROTO_RETRANSMITS\n"
                          "[control]\nunset = link.loss\ntodo = real time: still lossy\n"), 0);
    assert_int_equal(scn_make_control(&scn, &c, NULL), 0);
    assert_true(c.v[SK_SCENARIO_TODO].set);
    assert_string_equal(c.v[SK_SCENARIO_TODO].s, "real time: still lossy");
    assert_int_equal(load("[scenario]\ntodo = the scenario gap\n[link]\nloss = 1%\n[expect]\ndiag = PROTO_RETRANSMITS\n"
                          "[control]\nunset = link.loss\n"), 0);
    assert_int_equal(scn_make_control(&scn, &c, NULL), 0);
    assert_false(c.v[SK_SCENARIO_TODO].set);
    /* unsetting what the file never set: the control would be the scenario */
    {
        char *msg = NULL;
        size_t len = 0;
        FILE *f;
        assert_int_equal(load("[link]\nloss = 1%\n[expect]\ndiag = PROTO_RETRANSMITS\n[control]\nunset = link.latency\n"),
                         0);
        f = open_memstream(&msg, &len);
        assert_int_equal(scn_make_control(&scn, &c, f), -EINVAL);
        fclose(f);
        if (!strstr(msg, "t.ini:6: [control] unset link.latency: the scenario does not set it"))
            fail_msg("%s", msg);
        free(msg);
        assert_int_equal(load("[link]\nloss = 1%\n[expect]\ndiag = PROTO_RETRANSMITS\n[control]\n"
                              "set = traffic.duration 3s\nunset = link.loss\nunset = timeline\n"),
                         0);
        msg = NULL;
        f = open_memstream(&msg, &len);
        assert_int_equal(scn_make_control(&scn, &c, f), -EINVAL);
        fclose(f);
        assert_non_null(strstr(msg, "t.ini:8: [control] unset timeline: the scenario does not set it"));
        free(msg);
    }
    /* no [control]; or one without codes to be absent */
    assert_int_equal(load("[expect]\ndiag = PHY_NO_LINK\n"), 0);
    assert_int_equal(scn_make_control(&scn, &c, NULL), -EINVAL);
    assert_int_equal(load("[link]\nloss = 1%\n[control]\nunset = link.loss\n"), 0);
    assert_int_equal(scn_make_control(&scn, &c, NULL), -EINVAL);
    /* a control that breaks a cross-check is refused: partner_speed needs
     * partner_autoneg = off */
    assert_int_equal(load("[link]\npartner_autoneg = off\npartner_speed = 100\npartner_duplex = full\n"
                          "[expect]\ndiag = PHY_DUPLEX_MISMATCH\n[control]\nunset = link.partner_autoneg\n"), 0);
    assert_int_equal(scn_make_control(&scn, &c, NULL), -EINVAL);
}

/* Every committed scenario with a [control] yields a valid control. */
static void test_committed_controls_are_valid(void **state)
{
    static struct scenario s, c;
    char path[1024];
    FILE *ls;
    int n = 0;
    (void)state;
    ls = popen("ls " SCENARIO_DIR "/*.ini", "r");
    assert_non_null(ls);
    while (fgets(path, sizeof(path), ls)) {
        path[strcspn(path, "\n")] = '\0';
        assert_int_equal(scn_load(path, &s, stderr), 0);
        if (!s.control_line)
            continue;
        if (scn_make_control(&s, &c, stderr))
            fail_msg("%s: its [control] is not a valid scenario", path);
        n++;
    }
    pclose(ls);
    assert_true(n >= 1);
}

/* scenarios/README.md documents every key under its section: the key
 * list (scenario.h, link_keys.h) and the user's reference cannot drift. */
static void test_every_key_is_documented(void **state)
{
    char *doc = runner_read_file(SCENARIO_DIR "/README.md", 1u << 20, NULL);
    (void)state;
    assert_non_null(doc);
    for (int k = 0; k < SK_COUNT; k++) {
        char sec[64], a[80], b[80];
        const char *at;

        snprintf(sec, sizeof(sec), "## [%s]", scn_key_section((enum scn_key)k));
        snprintf(a, sizeof(a), "`%s`", scn_key_name((enum scn_key)k));
        snprintf(b, sizeof(b), "`%s =", scn_key_name((enum scn_key)k));
        at = strstr(doc, sec);
        if (!at) {
            fail_msg("scenarios/README.md has no section %s", sec);
        } else {
            const char *next = strstr(at + 1, "\n## ");   /* the section ends at the next one */
            char *body = strndup(at, next ? (size_t)(next - at) : strlen(at));

            assert_non_null(body);
            if (!strstr(body, a) && !strstr(body, b))
                fail_msg("scenarios/README.md does not document [%s] %s", scn_key_section((enum scn_key)k),
                         scn_key_name((enum scn_key)k));
            free(body);
        }
    }
    free(doc);
}

/* Every QOM property the runner writes is a settable property of the
 * link model as models/include/gemlab/link_props.h describes it, the
 * table QEMU's gemlab-link is made of: each [link] key's (link_keys.h)
 * and the ones the runner names itself (qemu.c: the board's PHY and
 * RGMII delays, the capture; fault.c and run.c: rx-starve-ns,
 * partner-autoneg).  A rename on either side fails here, without a QEMU
 * (the link-keys suite then checks the built QEMU). */
static bool settable(const char *name)
{
#define PHY_NAME(n, st, field, t, desc) n,
#define WIRE_NAME(n, field, t, desc) n,
#define CONTROL_NAME(n, ident, t, desc) n,
    static const char *const one[] = { GL_LINK_PHY_PROPS(PHY_NAME) GL_LINK_CONTROL_PROPS(CONTROL_NAME) };
    static const char *const wire[] = { GL_LINK_WIRE_FIELDS(WIRE_NAME) };
    static const char *const side[] = { GL_LINK_WIRE_BOTH, GL_LINK_WIRE_TX, GL_LINK_WIRE_RX };
#undef PHY_NAME
#undef WIRE_NAME
#undef CONTROL_NAME
    char full[96];

    for (size_t k = 0; k < sizeof(one) / sizeof(one[0]); k++)
        if (strcmp(name, one[k]) == 0)
            return true;
    for (size_t sd = 0; sd < 3; sd++)
        for (size_t k = 0; k < sizeof(wire) / sizeof(wire[0]); k++) {
            snprintf(full, sizeof(full), "%s%s", side[sd], wire[k]);
            if (strcmp(name, full) == 0)
                return true;
        }
    return false;
}

static void test_runner_properties_are_the_link_tables(void **state)
{
#define KEY_PROPS(a, id, word, type, min, max, words, def, prop, prop2, ...) prop, prop2,
    static const char *const keys[] = { LINK_KEYS(KEY_PROPS, _) };
#undef KEY_PROPS
    static const char *const own[] = { "max-speed", "rgmii-timing", "rgmii-pcb-rx-delay", "rgmii-pcb-tx-delay",
                                       "pcap", "pcap-max-bytes", "pcap-snaplen", "rx-starve-ns", "partner-autoneg" };
    size_t n = 0;
    (void)state;
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        if (!keys[k])
            continue;
        n++;
        if (!settable(keys[k]))
            fail_msg("link_keys.h names %s, which link_props.h lacks", keys[k]);
    }
    assert_int_equal(n, 23);    /* 22 keys, the seed with two properties */
    for (size_t k = 0; k < sizeof(own) / sizeof(own[0]); k++)
        if (!settable(own[k]))
            fail_msg("the runner writes %s, which link_props.h lacks", own[k]);
    /* and the check can fail: a misspelt or read-only name is refused */
    assert_false(settable("wire-dup-pctx"));
    assert_false(settable("link-up"));
    assert_true(settable("tx-loss-pct"));
}

/* A timeline past SCN_MAX_EVENTS is said once, at the first event too
 * many, whatever follows; the error after it still shows. */
static void test_too_many_events_is_said_once(void **state)
{
    char *text = malloc(200 * 32 + 64), *p;
    (void)state;
    assert_non_null(text);
    p = text + sprintf(text, "[timeline]\n");
    for (int i = 0; i < 200; i++)
        p += sprintf(p, "at = %dms link up\n", i + 1);
    sprintf(p, "[link]\nnope = 1\n");
    assert_int_equal(load(text), -EINVAL);
    free(text);
    assert_int_equal(count_lines(errbuf), 2);
    assert_non_null(strstr(errbuf, "t.ini:66: [timeline] at: more than 64 events (from this line on)\n"));
    assert_non_null(strstr(errbuf, "t.ini:203: "));
}

/* Keys that some runs would drop or could never satisfy are refused at
 * load, naming their line: the run would otherwise pass or fail for a
 * reason the file does not show. */
static void test_keys_a_run_would_drop_are_refused(void **state)
{
    static const struct { const char *text, *err; } bad[] = {
        { "[traffic]\nprotocol = udp\nsweep = 64,1470\n[timeline]\nat = 2s link down\nat = 4s link up\n",
          "t.ini:3: [traffic] sweep with a [timeline] (line 5)" },
        { "[board]\nfirmware = linux\n[traffic]\nparallel_sweep = 1,2\n[timeline]\nat = 1s restart-aneg\n",
          "t.ini:4: [traffic] parallel_sweep with a [timeline] (line 6)" },
        { "[expect]\nretransmits_max = 10\n", "t.ini:2: [expect] retransmits_max: iperf 2 reports no" },
        { "[board]\nfirmware = linux\n[traffic]\nprotocol = udp\n[expect]\nretransmits_max = 10\n",
          "t.ini:6: [expect] retransmits_max: UDP has no retransmissions" },
        { "[traffic]\nboard_tool = iperf3\n", "t.ini:2: [traffic] board_tool = iperf3: the bare-metal firmware" },
        { "[board]\nclock = virtual\n[traffic]\ninterval = 5s\n",
          "t.ini:4: [traffic] interval: only 1s with clock = virtual" },
        { "[board]\npeer = baremetal\n[traffic]\ninterval = 500ms\n",
          "t.ini:4: [traffic] interval: only 1s with peer = baremetal" },
        { "[expect]\ntraffic = fail\nthroughput_min = 900M\n",
          "t.ini:3: [expect] throughput_min: can never hold with traffic = fail (line 2)" },
        { "[traffic]\nprotocol = udp\nsweep = 64,512,1470\n[expect]\nthroughput_min = 9M\n",
          "t.ini:5: [expect] throughput_min with [traffic] sweep (line 3): one bound cannot judge every size" },
        { "[scenario]\nname = a234567890123456789012345678901234567890123456789012345X\n[link]\nloss = 1%\n"
          "[expect]\ndiag = PROTO_RETRANSMITS\n[control]\nunset = link.loss\n",
          "t.ini:2: a scenario with a [control] runs it as NAME_control: its name "
          "'a234567890123456789012345678901234567890123456789012345X' is 56 characters, more than 55" },
    };
    static const char *const good[] = {
        "[board]\nfirmware = linux\n[expect]\nretransmits_max = 10\n",     /* Linux: the host's iperf3 */
        "[board]\nfirmware = linux\n[traffic]\nboard_tool = iperf3\n",
        "[traffic]\ninterval = 5s\n",                                         /* real time, host iperf -i 5 */
        "[board]\nclock = virtual\n[traffic]\ninterval = 1s\n",
        "[traffic]\nprotocol = udp\nsweep = 64,1470\n",
        "[expect]\ntraffic = fail\nthroughput_min = 0\nthroughput_max = 1M\n",
    };
    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(load(bad[i].text), -EINVAL);
        if (!strstr(errbuf, bad[i].err))
            fail_msg("case %zu: want '%s' in '%s'", i, bad[i].err, errbuf);
    }
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
        if (load(good[i]))
            fail_msg("good case %zu refused: %s", i, errbuf);
}

/* The model's verdict names the key and its line, not the [link]
 * header; and each [timeline] set is checked over the [link] the sets
 * before it left, as QEMU checks it mid-run. */
static void test_model_verdicts_name_the_key_and_timeline_sets(void **state)
{
    (void)state;
    assert_int_equal(load("[link]\nlatency = 1ms\nqueue_frames = 5000\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [link] queue_frames: wire.queue_frames: 5000 is out of range [1, 1024]"));
    assert_int_equal(load("[link]\naneg_time = 0ms\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [link] aneg_time: phy.aneg_ns: 0 is out of range"));
    assert_int_equal(load("[link]\nlatency = 1ms\n[timeline]\nat = 1s set queue_frames 5000\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:4: [timeline] at: set queue_frames: wire.queue_frames: 5000"));
    assert_int_equal(load("[timeline]\nat = 1s set reorder 5%\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [timeline] at: set reorder: wire.reorder_pct"));
    /* the second set takes away what the first needs */
    assert_int_equal(load("[link]\nlatency = 2ms\n[timeline]\nat = 1s set reorder 5%\nat = 2s set latency 0ms\n"),
                     -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:5: [timeline] at: set latency: wire.reorder_pct"));
    /* '#' after a value is no comment to inih: refused, not passed on */
    assert_int_equal(load("[traffic]\nfw_cmd = phy restart   # renegotiate\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [traffic] fw_cmd: '#' inside the value"));
    assert_int_equal(load("[timeline]\nat = 1s fw phy restart\t#x\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [timeline] at: '#' inside the value"));
    assert_int_equal(load("# a comment\n[traffic]\nfw_cmd = phy restart ; renegotiate\n"), 0);
    assert_string_equal(scn.fw_cmds[0], "phy restart");
    /* free text may say "#42" */
    assert_int_equal(load("[scenario]\ndescription = issue #42 regression\ntodo = see #7\n"), 0);
    /* a link change inside a flap's window: its link-ups would undo it */
    assert_int_equal(load("[timeline]\nat = 1s flap 3s\nat = 2s link down\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [timeline] at: a link change at 2.000s, inside the flap of line 2 "
                                   "(1.000s to 4.000s)"));
    /* at one time, in either order */
    assert_int_equal(load("[timeline]\nat = 2s link down\nat = 2s flap 500ms\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:2: [timeline] at: a link change at 2.000s, inside the flap of line 3"));
    assert_int_equal(load("[timeline]\nat = 2s flap 500ms\nat = 2s flap 300ms\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [timeline] at: a link change at 2.000s, inside the flap of line 2"));
    assert_int_equal(count_lines(errbuf), 1);
    /* at the flap's end its link is up again: a change there stands */
    assert_int_equal(load("[traffic]\nduration = 20s\n[timeline]\nat = 2s flap 500ms 3 4s\n"
                          "at = 10500ms link down\n"), 0);
    assert_int_equal(load("[timeline]\nat = 1s flap 100ms 3 1s\nat = 3s restart-aneg\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [timeline] at: a link change at 3.000s, inside the flap of line 2"));
    assert_int_equal(load("[timeline]\nat = 1s flap 100ms 3 1s\nat = 3100ms link down\nat = 4s set latency 1ms\n"),
                     0);
    /* more steps than the runner applies: refused, not cut */
    assert_int_equal(load("[timeline]\nat = 1s flap 1ms 1000 2ms\nat = 4s flap 1ms 1000 2ms\n"), -EINVAL);
    assert_non_null(strstr(errbuf, "t.ini:3: [timeline] at: the timeline expands to more than 2046 steps"));
    assert_int_equal(load("[timeline]\nat = 1s flap 1ms 1000 2ms\nat = 4s flap 1ms 23 2ms\n"), 0);
    /* in order, each valid over the one before */
    assert_int_equal(load("[timeline]\nat = 1s set latency 2ms\nat = 2s set reorder 5%\nat = 3s set queue_frames 64\n"),
                     0);
}

/* A seed above 2^53 keeps every digit in the resolved scenario a
 * results.json carries (a double would round it, RFC 8259 6): the
 * figure a user copies from it must be the seed that ran. */
static void test_resolved_seed_keeps_every_digit(void **state)
{
    static const struct { const char *seed, *json; } c[] = {
        { "18446744073709551615", "\"seed\":18446744073709551615" },
        { "9007199254740993", "\"seed\":9007199254740993" },
        { "9007199254740992", "\"seed\":9007199254740992" },
        { "1234567890123456", "\"seed\":1234567890123456" },
        { "999999999999999", "\"seed\":999999999999999" },
        { "7", "\"seed\":7" },
    };
    (void)state;
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        char text[128];
        cJSON *j;
        char *out;
        snprintf(text, sizeof(text), "[link]\nseed = %s\n", c[i].seed);
        assert_int_equal(load(text), 0);
        j = scn_to_json(&scn);
        out = cJSON_PrintUnformatted(j);
        if (!strstr(out, c[i].json))
            fail_msg("seed %s: %s", c[i].seed, out);
        free(out);
        cJSON_Delete(j);
    }
}

/* `gemlab show` fills in the defaults that depend on other keys, as a
 * run takes them: virtual time's mips (the profile's, 500 for the ZC702)
 * and, with two CPUs, the quantum (10 us); a real-time file has neither,
 * a key given is shown as given; Linux's rings are the driver's. */
static void test_resolved_fills_the_derived_defaults(void **state)
{
    static const struct { const char *text, *has, *hasnt; } c[] = {
        { "[board]\nclock = virtual\n", "\"mips\":500", "\"quantum\"" },
        { "[board]\nfirmware = linux\nclock = virtual\ncpus = 2\n", "\"quantum\":10000", NULL },
        { "[board]\nfirmware = linux\nclock = virtual\ncpus = 2\nquantum = 2us\nmips = 150\n",
          "\"mips\":150,\"quantum\":2000", NULL },
        { "[board]\nclock = real\n", "\"clock\":\"real\"", "\"mips\"" },
        /* Linux keeps the driver's rings (512) unless told; bare metal 64 */
        { "[board]\nfirmware = linux\n", "\"rx_bds\":512,\"tx_bds\":512", NULL },
        { "[board]\nfirmware = linux\nrx_bds = 128\n", "\"rx_bds\":128,\"tx_bds\":512", NULL },
        { "[board]\n", "\"rx_bds\":64,\"tx_bds\":64", NULL },
    };
    (void)state;
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        cJSON *j;
        char *out;
        assert_int_equal(load(c[i].text), 0);
        j = scn_to_json(&scn);
        out = cJSON_PrintUnformatted(j);
        if (!strstr(out, c[i].has) || (c[i].hasnt && strstr(out, c[i].hasnt)))
            fail_msg("case %zu: %s", i, out);
        free(out);
        cJSON_Delete(j);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_minimal_file_loads_with_defaults, teardown),
        cmocka_unit_test_teardown(test_resolved_fills_the_derived_defaults, teardown),
        cmocka_unit_test_teardown(test_board_profiles_match_their_words, teardown),
        cmocka_unit_test_teardown(test_control_unsets_sets_and_derives_expect, teardown),
        cmocka_unit_test_teardown(test_control_unset_timeline_at_removes_the_events, teardown),
        cmocka_unit_test_teardown(test_control_errors_name_the_line, teardown),
        cmocka_unit_test_teardown(test_list_items_are_strict, teardown),
        cmocka_unit_test_teardown(test_line_limit_ignores_the_line_end, teardown),
        cmocka_unit_test_teardown(test_text_is_utf8_and_errors_are_clean, teardown),
        cmocka_unit_test_teardown(test_committed_controls_are_valid, teardown),
        cmocka_unit_test_teardown(test_every_key_is_documented, teardown),
        cmocka_unit_test_teardown(test_runner_properties_are_the_link_tables, teardown),
        cmocka_unit_test_teardown(test_baremetal_tool_defaults_to_iperf2_and_rejects_omit, teardown),
        cmocka_unit_test_teardown(test_linux_board_tool_follows_the_clock_and_the_peers_tool, teardown),
        cmocka_unit_test_teardown(test_full_file_parses_every_type, teardown),
        cmocka_unit_test_teardown(test_unknown_key_in_every_section_reports_each_line, teardown),
        cmocka_unit_test_teardown(test_unknown_section_reported_once_keys_skipped, teardown),
        cmocka_unit_test_teardown(test_bad_values_name_key_and_range, teardown),
        cmocka_unit_test_teardown(test_model_errors_name_the_key_once, teardown),
        cmocka_unit_test_teardown(test_peer_baremetal_limits, teardown),
        cmocka_unit_test_teardown(test_traffic_client, teardown),
        cmocka_unit_test_teardown(test_board_clock_and_mips, teardown),
        cmocka_unit_test_teardown(test_board_quantum, teardown),
        cmocka_unit_test_teardown(test_board_dma_line, teardown),
        cmocka_unit_test_teardown(test_duplicate_key_names_first_line, teardown),
        cmocka_unit_test_teardown(test_syntax_errors_each_reported, teardown),
        cmocka_unit_test_teardown(test_key_outside_section_rejected, teardown),
        cmocka_unit_test_teardown(test_overlong_line_rejected_and_next_line_counted, teardown),
        cmocka_unit_test_teardown(test_binary_garbage_never_crashes, teardown),
        cmocka_unit_test_teardown(test_too_many_errors_are_capped, teardown),
        cmocka_unit_test_teardown(test_timeline_errors, teardown),
        cmocka_unit_test_teardown(test_cross_checks_name_the_later_line, teardown),
        cmocka_unit_test_teardown(test_model_rejects_bad_abilities_and_loss, teardown),
        cmocka_unit_test_teardown(test_forced_partner_needs_speed_and_duplex, teardown),
        cmocka_unit_test_teardown(test_missing_file_and_directory_rejected, teardown),
        cmocka_unit_test_teardown(test_units_reject_junk, teardown),
        cmocka_unit_test_teardown(test_library_scenarios_all_valid, teardown),
        cmocka_unit_test_teardown(test_link_downshift_becomes_the_phy_driver_command, teardown),
        cmocka_unit_test_teardown(test_file_name_that_is_no_scenario_name_is_refused, teardown),
        cmocka_unit_test_teardown(test_empty_file_and_long_file_name_are_refused, teardown),
        cmocka_unit_test_teardown(test_board_advertise_key_and_command, teardown),
        cmocka_unit_test_teardown(test_renegotiating_commands, teardown),
        cmocka_unit_test_teardown(test_resolved_seed_keeps_every_digit, teardown),
        cmocka_unit_test_teardown(test_keys_a_run_would_drop_are_refused, teardown),
        cmocka_unit_test_teardown(test_too_many_events_is_said_once, teardown),
        cmocka_unit_test_teardown(test_model_verdicts_name_the_key_and_timeline_sets, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_runner_cmd_campaign.c - the flags of `gemlab campaign`
 * (emu/runner/cmd_campaign.c): whole numbers are plain decimals in their
 * range (units.h), refused with one message naming the flag and exit 2
 * (explore27 #13, #16).  Every call is a --dry-run into a scratch
 * directory, so a flag that is wrongly taken writes scenarios, never runs
 * QEMU. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include "../../common/slurp.h"
#include "../../common/rm_tree.h"
#include "../../common/run_cmd.h"

#include "cmd.h"

static char top[64];

/* `gemlab campaign FLAG VALUE --dry-run --out TOP/cp`: the exit code, and
 * stderr in @msg */
static int campaign(const char *flag, const char *value, char *msg, size_t len)
{
    char out[128];
    char *argv[] = { (char *)flag, (char *)value, "--dry-run", "--out", out, NULL };
    int rc;

    snprintf(out, sizeof(out), "%s/cp", top);
    rc = run_cmd(cmd_campaign, 5, argv, msg, len);
    rm_tree(top);
    assert_int_equal(mkdir(top, 0700), 0);
    return rc;
}

static int setup(void **state)
{
    (void)state;
    snprintf(top, sizeof(top), "/tmp/gemlab-cmdcp-XXXXXX");
    return mkdtemp(top) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rm_tree(top);
    return 0;
}

/* strtoull took "+2", " 2", and " -1" as 2^64-1 (the v[0] == '-' check saw
 * the blank) */
static void test_signs_and_blanks_are_refused(void **state)
{
    static const struct { const char *flag, *value, *range; } bad[] = {
        { "--runs", "+2", "1..100000" },      { "--runs", " 2", "1..100000" },
        { "--runs", "2 ", "1..100000" },      { "--runs", "-1", "1..100000" },
        { "--runs", "0x10", "1..100000" },    { "--runs", "1e2", "1..100000" },
        { "--seed", " -1", "0..18446744073709551615" },
        { "--seed", "+1", "0..18446744073709551615" },
        { "--seed", "18446744073709551616", "0..18446744073709551615" },
        { "--only", "+0", "0..100000" },      { "--duration", " 5", "2..600" },
        { "--timeout", "+9", "1..86400" },    { "--min-recall", " 50", "0..100" },
        { "--min-precision", "-0", "0..100" },
    };
    char msg[1024], want[256];

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(campaign(bad[i].flag, bad[i].value, msg, sizeof(msg)), 2);
        snprintf(want, sizeof(want), "gemlab campaign: %s: '%s' is not a whole number in %s\n", bad[i].flag,
                 bad[i].value, bad[i].range);
        if (strcmp(msg, want))
            fail_msg("%s '%s': '%s', wanted '%s'", bad[i].flag, bad[i].value, msg, want);
    }
}

/* `--runs abc` printed a second, wrong error ("--runs: at least 1"); so
 * did --duration and --timeout.  One message, naming the range. */
static void test_one_message_per_bad_value(void **state)
{
    static const struct { const char *flag, *value, *want; } bad[] = {
        { "--runs", "abc", "gemlab campaign: --runs: 'abc' is not a whole number in 1..100000\n" },
        { "--runs", "0", "gemlab campaign: --runs: '0' is not a whole number in 1..100000\n" },
        { "--runs", "", "gemlab campaign: --runs: '' is not a whole number in 1..100000\n" },
        { "--duration", "abc", "gemlab campaign: --duration: 'abc' is not a whole number in 2..600\n" },
        { "--duration", "1", "gemlab campaign: --duration: '1' is not a whole number in 2..600\n" },
        { "--timeout", "x", "gemlab campaign: --timeout: 'x' is not a whole number in 1..86400\n" },
        { "--timeout", "0", "gemlab campaign: --timeout: '0' is not a whole number in 1..86400\n" },
    };
    char msg[1024];

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(campaign(bad[i].flag, bad[i].value, msg, sizeof(msg)), 2);
        if (strcmp(msg, bad[i].want))
            fail_msg("%s '%s': '%s'", bad[i].flag, bad[i].value, msg);
    }
}

/* the ends of each range are taken */
static void test_plain_decimals_in_range_are_taken(void **state)
{
    static const struct { const char *flag, *value; } good[] = {
        { "--runs", "1" },       { "--runs", "3" },          { "--seed", "0" },
        { "--seed", "18446744073709551615" },                  { "--seed", "007" },
        { "--duration", "2" },   { "--duration", "600" },    { "--timeout", "86400" },
        { "--min-recall", "100" }, { "--min-precision", "0" },
    };
    char msg[1024];

    (void)state;
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
        if (campaign(good[i].flag, good[i].value, msg, sizeof(msg)) != 0)
            fail_msg("%s '%s' refused: %s", good[i].flag, good[i].value, msg);
}

/* `--faults loss,,flaps` was taken as loss,flaps: an empty name is a
 * typo.  Blanks around a name are not; a list that names them is fine. */
static void test_faults_list_with_an_empty_name_is_refused(void **state)
{
    static const struct { const char *value, *want; } bad[] = {
        { "loss,,flaps", "gemlab campaign: --faults 'loss,,flaps': name 2 is empty\n" },
        { ",loss", "gemlab campaign: --faults ',loss': name 1 is empty\n" },
        { "loss,", "gemlab campaign: --faults 'loss,': name 2 is empty\n" },
        { "", "gemlab campaign: --faults '': name 1 is empty\n" },
        { "loss flaps", "gemlab campaign: --faults: unknown fault 'loss flaps' (see gemlab campaign --help)\n" },
    };
    char msg[1024];

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(campaign("--faults", bad[i].value, msg, sizeof(msg)), 2);
        if (strcmp(msg, bad[i].want))
            fail_msg("--faults '%s': '%s'", bad[i].value, msg);
    }
    assert_int_equal(campaign("--faults", "loss, flaps", msg, sizeof(msg)), 0);
    assert_int_equal(campaign("--faults", "loss", msg, sizeof(msg)), 0);
}

/* --out into a directory of other files wrote campaign.json and
 * sample-NNN/ among them; refused now.  Its own directory is taken again. */
static void test_out_dir_of_other_files_is_refused(void **state)
{
    char dir[128], file[160], msg[1024], want[256];
    char *argv[] = { "--runs", "1", "--dry-run", "--out", dir, NULL };
    FILE *f;

    (void)state;
    snprintf(dir, sizeof(dir), "%s/others", top);
    snprintf(file, sizeof(file), "%s/notes.txt", dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_non_null(f = fopen(file, "w"));
    fclose(f);
    assert_int_equal(run_cmd(cmd_campaign, 5, argv, msg, sizeof(msg)), 2);
    snprintf(want, sizeof(want), "gemlab campaign: --out %s: holds other files and no campaign", dir);
    if (!strstr(msg, want))
        fail_msg("'%s'", msg);
    snprintf(file, sizeof(file), "%s/sample-000", dir);
    assert_int_not_equal(access(file, F_OK), 0);
    snprintf(dir, sizeof(dir), "%s/cp", top);
    assert_int_equal(run_cmd(cmd_campaign, 5, argv, msg, sizeof(msg)), 0);
    assert_int_equal(run_cmd(cmd_campaign, 5, argv, msg, sizeof(msg)), 0);     /* its own, again */
}

/* Sample i is a function of (seed, i) alone (docs/CAMPAIGN.md): --only 17
 * with --runs 5 draws the sample a 30-run campaign's sample-017 holds; it
 * was refused ("the campaign has samples 0..4"). */
static void test_only_draws_a_sample_whatever_runs_was(void **state)
{
    char one[128], all[128], msg[1024], path[200];
    char *a1[] = { "--runs", "5", "--only", "17", "--seed", "3", "--dry-run", "--out", one, NULL };
    char *a2[] = { "--runs", "30", "--seed", "3", "--dry-run", "--out", all, NULL };
    char *x, *y;

    (void)state;
    snprintf(one, sizeof(one), "%s/only17", top);
    snprintf(all, sizeof(all), "%s/all30", top);
    assert_int_equal(run_cmd(cmd_campaign, 9, a1, msg, sizeof(msg)), 0);
    assert_int_equal(run_cmd(cmd_campaign, 7, a2, msg, sizeof(msg)), 0);
    snprintf(path, sizeof(path), "%s/sample-017/scenario.ini", one);
    assert_non_null(x = slurp(path));
    snprintf(path, sizeof(path), "%s/sample-017/scenario.ini", all);
    assert_non_null(y = slurp(path));
    assert_string_equal(x, y);
    free(x);
    free(y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signs_and_blanks_are_refused),
        cmocka_unit_test(test_only_draws_a_sample_whatever_runs_was),
        cmocka_unit_test(test_one_message_per_bad_value),
        cmocka_unit_test(test_plain_decimals_in_range_are_taken),
        cmocka_unit_test(test_faults_list_with_an_empty_name_is_refused),
        cmocka_unit_test(test_out_dir_of_other_files_is_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* results_schema: the one definition of results.json's fields.  The
 * writer's real output (the runner_diagnose fixtures, results.json files of
 * real runs) must stay inside it, with the types it states, and
 * docs/schema.md must carry the table it generates. */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* the code under test allocates with libc (cJSON, open_memstream) */
#undef malloc
#undef calloc
#undef realloc
#undef free

#include <cjson/cJSON.h>

#include "diagnose.h"
#include "results_schema.h"
#include "util.h"

#define DOC_BEGIN "<!-- results-fields: begin (generated: gemlab schema) -->\n"
#define DOC_END "<!-- results-fields: end -->\n"

/* Whether @j may be the value of a field of type @t (null: unknown). */
static bool type_ok(enum rs_type t, const cJSON *j)
{
    if (cJSON_IsNull(j))
        return true;
    switch (t) {
    case RS_NUM:
        return cJSON_IsNumber(j);
    case RS_STR:
        return cJSON_IsString(j);
    case RS_BOOL:
        return cJSON_IsBool(j);
    case RS_ARR:
        return cJSON_IsArray(j);
    case RS_TREE:
        return cJSON_IsObject(j) || cJSON_IsArray(j);
    }
    return false;
}

/* Whether some row lies below @path (an object on the way to rows). */
static bool is_parent(const char *path)
{
    size_t n = strlen(path);

    for (size_t i = 0; i < RS_COUNT; i++)
        if (!strncmp(rs_fields[i].path, path, n) && rs_fields[i].path[n] == '.')
            return true;
    return false;
}

/* Walk @j at @path: each member must have a row (its own or a tree's) of
 * a type that fits, or be an object on the way to rows.  The first
 * offence goes to @bad; returns their count. */
static int check(const cJSON *j, const char *path, char *bad, size_t len)
{
    const struct rs_field *f = path[0] ? rs_lookup(path) : NULL;
    bool parent = !path[0] || (cJSON_IsObject(j) && is_parent(path));
    int n = 0;

    if (!f && !parent) {
        if (!bad[0])
            snprintf(bad, len, "%s: not in results_schema.h", path);
        return 1;
    }
    if (f && !strcmp(f->path, path) && !type_ok(f->type, j)) {
        if (!bad[0])
            snprintf(bad, len, "%s: not of the type results_schema.h states", path);
        return 1;
    }
    if (!parent)
        return 0;               /* a row; a tree is described in RESULTS.md */
    {
        const cJSON *c;
        cJSON_ArrayForEach(c, j) {
            char sub[512];
            snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] ? "." : "", c->string);
            n += check(c, sub, bad, len);
        }
    }
    return n;
}

static void test_real_results_files_stay_inside_the_schema(void **state)
{
    DIR *d = opendir(FIXTURE_DIR);
    struct dirent *e;
    int files = 0;

    (void)state;
    assert_non_null(d);
    while ((e = readdir(d))) {
        char path[1024], bad[600] = "";
        cJSON *root;
        size_t n = strlen(e->d_name);

        if (n < 6 || strcmp(e->d_name + n - 5, ".json"))
            continue;
        snprintf(path, sizeof(path), "%s/%s", FIXTURE_DIR, e->d_name);
        assert_int_equal(dg_load_json(path, &root, stderr), 0);
        if (check(root, "", bad, sizeof(bad)))
            fail_msg("%s: %s", e->d_name, bad);
        cJSON_Delete(root);
        files++;
    }
    closedir(d);
    assert_true(files >= 10);
}

/* The checker itself: a misspelt or mistyped field is caught. */
static void test_a_stray_field_is_caught(void **state)
{
    static const char *const bad_files[] = {
        "{\"iperf\":{\"throughput_bsp\":1}}",           /* misspelt */
        "{\"link\":{\"up\":\"yes\"}}",                  /* a string for a boolean */
        "{\"gem\":{\"rx_frames\":[1]}}",                /* an array for a number */
        "{\"extra\":1}",                                /* unknown top level */
    };
    char bad[600];

    (void)state;
    for (size_t i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
        cJSON *j = cJSON_Parse(bad_files[i]);
        bad[0] = '\0';
        assert_non_null(j);
        assert_int_equal(check(j, "", bad, sizeof(bad)), 1);
        cJSON_Delete(j);
    }
    {
        cJSON *j = cJSON_Parse("{\"link\":{\"up\":null,\"speed_mbps\":1000},\"phy\":{\"regs\":{\"17\":3}},"
                               "\"truth\":{\"anything\":{\"at\":[1]}}}");
        bad[0] = '\0';
        assert_int_equal(check(j, "", bad, sizeof(bad)), 0);
        cJSON_Delete(j);
    }
}

static void test_lookup_rows_and_trees(void **state)
{
    (void)state;
    assert_string_equal(rs_lookup("link.speed_mbps")->path, "link.speed_mbps");
    assert_int_equal(rs_lookup("link.speed_mbps")->type, RS_NUM);
    assert_string_equal(rs_lookup("phy.regs.17")->path, "phy.regs");
    assert_string_equal(rs_lookup("firmware_stats.gem.drv.tx_ring_full")->path,
                        "firmware_stats.gem.drv.tx_ring_full");
    assert_string_equal(rs_lookup("firmware_stats.lwip.tcp")->path, "firmware_stats");
    assert_null(rs_lookup("link.speed"));
    assert_null(rs_lookup("phy.regsX"));     /* a prefix is not a member */
    assert_null(rs_lookup("link"));          /* an object without a row of its own */
    assert_string_equal(RS(IPERF_METHOD_OMIT_S), "iperf.method.omit_s");
}

static void test_rows_are_unique_and_named_well(void **state)
{
    (void)state;
    for (size_t i = 0; i < RS_COUNT; i++) {
        const struct rs_field *f = &rs_fields[i];

        assert_true(f->path[0] && f->doc[0]);
        assert_int_equal(strspn(f->path, "abcdefghijklmnopqrstuvwxyz0123456789_."), strlen(f->path));
        assert_true(f->path[0] != '.' && f->path[strlen(f->path) - 1] != '.' && !strstr(f->path, ".."));
        for (size_t k = 0; k < i; k++)
            if (!strcmp(f->path, rs_fields[k].path))
                fail_msg("%s: two rows", f->path);
    }
}

/* docs/schema.md holds exactly the table `gemlab schema` prints. */
static void test_docs_carry_the_generated_table(void **state)
{
    char *doc = runner_read_file(SCHEMA_DOC, 1u << 20, NULL), *gen = NULL, *b, *e;
    size_t glen = 0;
    FILE *m = open_memstream(&gen, &glen);

    (void)state;
    assert_non_null(doc);
    assert_non_null(m);
    rs_write_markdown(m);
    fclose(m);
    b = strstr(doc, DOC_BEGIN);
    assert_non_null(b);
    b += strlen(DOC_BEGIN);
    e = strstr(b, DOC_END);
    assert_non_null(e);
    *e = '\0';
    if (strcmp(b, gen))
        fail_msg("docs/schema.md is stale: regenerate it with `make -C emu/runner schema-doc`");
    free(doc);
    free(gen);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_results_files_stay_inside_the_schema),
        cmocka_unit_test(test_a_stray_field_is_caught),
        cmocka_unit_test(test_lookup_rows_and_trees),
        cmocka_unit_test(test_rows_are_unique_and_named_well),
        cmocka_unit_test(test_docs_carry_the_generated_table),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* cmd_merge.c - `gemlab merge`: options and exit codes; the work is in merge.c. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "merge.h"

int cmd_merge(int argc, char **argv)
{
    struct mg_opts o = { .out = "build/qemu-test-merged" };
    const char **inputs;
    struct cmd_seen seen = { .n = 0 };
    bool pass;
    int rc;

    /* GitHub Actions sets CI=true in every step ("Default environment
     * variables", docs.github.com/en/actions/learn-github-actions/variables) */
    o.skips_fail = getenv("CI") && !strcmp(getenv("CI"), "true");
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            puts("usage: gemlab merge [--out DIR] [--expect-shards N] INPUT...\n"
                 "  INPUT: a shard's output directory (searched for JUnit *.xml and run directories\n"
                 "  with results.json) or a JUnit file.  Writes DIR/junit.xml, report.md, index.html,\n"
                 "  index.json (DIR default build/qemu-test-merged).\n"
                 "  Skipped scenarios are counted apart; a <skipped> case whose message starts with TODO\n"
                 "  (a scenario marked `todo`) counts as todo.  With CI=true in the environment a skip\n"
                 "  that is not a todo fails the merge.\n"
                 "  exit: 0 every shard present and passed, 1 a shard failed or is missing (or, CI=true,\n"
                 "  a scenario was skipped), 2 bad input");
            return 0;
        }
    inputs = calloc((size_t)argc + 1, sizeof(*inputs));
    if (!inputs)
        return 2;
    o.inputs = inputs;
    rc = 2;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--out") || !strcmp(argv[i], "--expect-shards")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "gemlab merge: %s needs a value\n", argv[i]);
                goto out;
            }
            if (cmd_given_twice(&seen, "gemlab merge", argv[i]))
                goto out;
            if (!strcmp(argv[i], "--out"))
                o.out = argv[++i];
            else {
                char *e;
                long n = strtol(argv[++i], &e, 10);
                if (e == argv[i] || *e || n < 1 || n > MG_MAX_SHARDS) {
                    fprintf(stderr, "gemlab merge: --expect-shards wants 1..%d, got '%s'\n", MG_MAX_SHARDS,
                            argv[i]);
                    goto out;
                }
                o.expect_n = (int)n;
            }
            continue;
        }
        if (argv[i][0] == '-') {
            fprintf(stderr, "gemlab merge: unexpected argument '%s'\n", argv[i]);
            goto out;
        }
        inputs[o.ninputs++] = argv[i];
    }
    if (!o.ninputs) {
        fprintf(stderr, "gemlab merge: no INPUT given (shard output directories or JUnit files)\n");
        goto out;
    }
    rc = mg_merge(&o, &pass, stdout, stderr) ? 2 : pass ? 0 : 1;
out:
    free(inputs);
    return rc;
}

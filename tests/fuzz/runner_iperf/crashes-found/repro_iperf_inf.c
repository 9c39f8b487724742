/*
 * repro_iperf_inf.c - the iperf ingestion passes infinities through.
 *
 * Found by tests/fuzz/runner_iperf (input: iperf2_lost_pct_inf.bin, a UDP
 * server report line whose lost-percent field reads "21e3080").
 * emu/runner/iperf.c filters NaN (add_num) and checks that bits/s is
 * finite, but udp_jitter_ms / udp_lost_pct (iperf2_parse, strtod) and every
 * number of iperf3_parse (cJSON parses 1e999 as inf) may be +-inf.  cJSON
 * prints an infinity as null, so results.json silently loses the value and
 * the diagnosis sees "unknown" where iperf printed garbage.  Not a crash.
 * Possible fix: treat !isfinite() like NaN in add_num() and check the
 * strtod results of the UDP fields as bps already is.
 *
 *   cc -Iemu/runner -Imodels/include tests/fuzz/runner_iperf/crashes-found/repro_iperf_inf.c \
 *      emu/runner/iperf.c emu/runner/qemu.c emu/runner/scenario.c emu/runner/units.c \
 *      emu/runner/codes.c emu/runner/model_glue.c build/host/models/libgemlab-models.a \
 *      -lcjson -linih -lm && ./a.out
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "iperf.h"

static int show(const char *who, cJSON *o)
{
    char *txt = cJSON_PrintUnformatted(o);
    const cJSON *x;
    int inf = 0;

    cJSON_ArrayForEach(x, o) {
        if (cJSON_IsNumber(x) && isinf(x->valuedouble)) {
            printf("%s: %s = %g\n", who, x->string, x->valuedouble);
            inf = 1;
        }
    }
    printf("%s prints: %s\n", who, txt);
    free(txt);
    cJSON_Delete(o);
    return inf;
}

int main(void)
{
    int bug = 0;

    bug |= show("iperf2_parse", iperf2_parse(
        "x,a,1,b,2,-1,0.0-10.0,100,1000,0.012,1,10,1e999,0\n", "", 1, 10.0));
    bug |= show("iperf3_parse", iperf3_parse(
        "{\"end\":{\"sum_received\":{\"bits_per_second\":1e999}}}"));
    return bug;     /* 1 = bug present */
}

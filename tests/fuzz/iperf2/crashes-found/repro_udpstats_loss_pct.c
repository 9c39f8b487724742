/*
 * repro_udpstats_loss_pct.c - udpstats_loss_pct() can exceed 100 %.
 *
 * Found by tests/fuzz/iperf2 (input: udpstats_loss_pct_above_100.bin).
 * With seq64 datagram ids above 2^53, 100.0 * lost / max_seq is rounded
 * in double and gives 100.00000000000001 although lost < max_seq.  Only a
 * broken or hostile peer sends such ids; the printed value ("100.000") is
 * unaffected at 3 decimals, but a consumer checking loss_pct <= 100 fails.
 * Possible fix (firmware/baremetal/lib/udpstats.c): clamp the result to
 * 100.0, or compute 100.0 - 100.0 * (max_seq - lost) / max_seq.
 *
 *   cc -Ifirmware/baremetal/include firmware/baremetal/lib/udpstats.c \
 *      tests/fuzz/iperf2/crashes-found/repro_udpstats_loss_pct.c && ./a.out
 */
#include <stdio.h>

#include "udpstats.h"

int main(void)
{
    struct udpstats s;
    const unsigned long long n = 1778833546936299439ull;

    udpstats_init(&s);
    udpstats_rx(&s, 1, 1470, 0, 0);
    udpstats_rx(&s, n, 1470, 0, 0);     /* a jump: n - 2 lost */
    printf("lost %llu of %llu = %.17g %%\n",
           (unsigned long long)udpstats_lost(&s),
           (unsigned long long)udpstats_expected(&s), udpstats_loss_pct(&s));
    return udpstats_loss_pct(&s) > 100.0;   /* 1 = bug present */
}

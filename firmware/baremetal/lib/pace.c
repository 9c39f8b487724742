/* pace.c - token bucket in milli-bits; see pace.h for granularity. */
#include "pace.h"

#define MBIT_PER_BYTE 8000u   /* 8 bits, in milli-bits */

void pace_init(struct pace *p, uint64_t rate_bps, uint32_t dgram_bytes,
               uint32_t burst_bytes, uint32_t now_ms)
{
    uint64_t min_burst = 2ull * dgram_bytes * MBIT_PER_BYTE;

    p->rate_bps = rate_bps;
    if (burst_bytes) {
        p->burst_mbit = (uint64_t)burst_bytes * MBIT_PER_BYTE;
    } else {
        /* bits/s * ms = milli-bits */
        p->burst_mbit = rate_bps * PACE_BURST_MS;
        if (p->burst_mbit < min_burst)
            p->burst_mbit = min_burst;
    }
    p->credit_mbit = (uint64_t)dgram_bytes * MBIT_PER_BYTE;
    if (p->credit_mbit > p->burst_mbit)
        p->credit_mbit = p->burst_mbit;
    p->last_ms = now_ms;
}

void pace_refill(struct pace *p, uint32_t now_ms)
{
    uint32_t dt = now_ms - p->last_ms;      /* modular: survives the 49-day wrap */

    if (dt == 0 || (int32_t)dt < 0)         /* same ms, or a stale reading */
        return;
    p->last_ms = now_ms;
    /* a long stall would overflow the product; the cap applies anyway */
    if (dt > 1000u || p->credit_mbit + p->rate_bps * dt >= p->burst_mbit)
        p->credit_mbit = p->burst_mbit;
    else
        p->credit_mbit += p->rate_bps * dt;
}

bool pace_refill_before(struct pace *p, uint32_t deadline_ms, uint32_t dgram_bytes)
{
    if (p->credit_mbit >= (uint64_t)dgram_bytes * MBIT_PER_BYTE)
        return false;
    pace_refill(p, deadline_ms);
    if (p->credit_mbit)
        p->credit_mbit--;
    return true;
}

bool pace_take(struct pace *p, uint32_t bytes)
{
    uint64_t cost = (uint64_t)bytes * MBIT_PER_BYTE;
    if (p->credit_mbit < cost)
        return false;
    p->credit_mbit -= cost;
    return true;
}

/* gem_ring.c - see gem_ring.h.  Descriptor layout: gem_regs.h. */
#include <errno.h>
#include "gem_ring.h"
#include "gem_regs.h"

int gem_rx_ring_init(struct gem_rx_ring *r, struct gem_bd *bd, uint32_t n,
                     const uint32_t *buf)
{
    if (n == 0 || !bd || !buf)
        return -EINVAL;
    for (uint32_t i = 0; i < n; i++)
        if (buf[i] & ~GEM_RXBD_ADDR_MASK)
            return -EINVAL;
    for (uint32_t i = 0; i < n; i++) {
        bd[i].word1 = 0;
        bd[i].word0 = buf[i] | (i == n - 1 ? GEM_RXBD_WRAP : 0);
    }
    GEM_RING_BARRIER();
    r->bd = bd;
    r->n = n;
    r->head = 0;
    return 0;
}

bool gem_rx_ring_peek(const struct gem_rx_ring *r, uint32_t *index, uint32_t *word1)
{
    const struct gem_bd *d = &r->bd[r->head];
    if (!(d->word0 & GEM_RXBD_OWN_SW))
        return false;
    GEM_RING_BARRIER();     /* read word1 only after seeing ownership */
    *index = r->head;
    *word1 = d->word1;
    return true;
}

void gem_rx_ring_rearm(struct gem_rx_ring *r)
{
    struct gem_bd *d = &r->bd[r->head];
    d->word1 = 0;
    GEM_RING_BARRIER();
    d->word0 &= ~GEM_RXBD_OWN_SW;
    r->head = (r->head + 1 == r->n) ? 0 : r->head + 1;
}

int gem_tx_ring_init(struct gem_tx_ring *r, struct gem_bd *bd, uint32_t n)
{
    if (n == 0 || !bd)
        return -EINVAL;
    for (uint32_t i = 0; i < n; i++) {
        bd[i].word0 = 0;
        bd[i].word1 = GEM_TXBD_USED | (i == n - 1 ? GEM_TXBD_WRAP : 0);
    }
    GEM_RING_BARRIER();
    r->bd = bd;
    r->n = n;
    r->head = r->tail = r->count = 0;
    return 0;
}

uint32_t gem_tx_ring_space(const struct gem_tx_ring *r)
{
    return r->n - r->count;
}

int gem_tx_ring_enqueue(struct gem_tx_ring *r, uint32_t addr, uint32_t len)
{
    if (len == 0 || len > GEM_TXBD_LEN_MASK)
        return -EINVAL;
    if (r->count == r->n)
        return -ENOSPC;
    uint32_t i = r->head;
    struct gem_bd *d = &r->bd[i];
    d->word0 = addr;
    GEM_RING_BARRIER();     /* address visible before ownership moves */
    d->word1 = len | GEM_TXBD_LAST | (i == r->n - 1 ? GEM_TXBD_WRAP : 0);
    r->head = (i + 1 == r->n) ? 0 : i + 1;
    r->count++;
    return (int)i;
}

bool gem_tx_ring_reclaim(struct gem_tx_ring *r, struct gem_tx_done *done)
{
    if (r->count == 0)
        return false;
    struct gem_bd *d = &r->bd[r->tail];
    uint32_t w1 = d->word1;
    if (!(w1 & GEM_TXBD_USED))
        return false;
    done->index = r->tail;
    done->status = w1;
    /* Back to the free state; the GEM may have left error bits behind. */
    d->word1 = GEM_TXBD_USED | (r->tail == r->n - 1 ? GEM_TXBD_WRAP : 0);
    r->tail = (r->tail + 1 == r->n) ? 0 : r->tail + 1;
    r->count--;
    return true;
}

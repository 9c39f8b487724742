/* gem_ring.h - GEM buffer-descriptor rings: ownership, wrap and accounting.
 *
 * Hardware independent (plain memory, no registers) so it is unit tested on
 * the host (tests/unit/gem_ring).  The driver owns the memory: `bd` arrays
 * in non-cacheable memory on target, ordinary arrays on the host.
 *
 * RX ring: every descriptor belongs to the GEM until it sets OWN_SW in word0
 * (frame written).  The driver consumes in order from `head` and gives the
 * descriptor back with gem_rx_ring_rearm().
 * TX ring: producer `head`, consumer `tail`, `count` in flight.  A free
 * descriptor has USED set; gem_tx_ring_enqueue() writes the address, then
 * word1 with USED clear (after a barrier); the GEM sets USED on the first
 * descriptor of each frame when sent.  One descriptor per frame.
 */
#ifndef GEM_RING_H
#define GEM_RING_H

#include <stdbool.h>
#include <stdint.h>

struct gem_bd {
    volatile uint32_t word0;
    volatile uint32_t word1;
};

struct gem_rx_ring {
    struct gem_bd *bd;
    uint32_t n;
    uint32_t head;          /* next descriptor to inspect */
};

struct gem_tx_ring {
    struct gem_bd *bd;
    uint32_t n;
    uint32_t head;          /* next free descriptor to fill */
    uint32_t tail;          /* oldest in-flight descriptor */
    uint32_t count;         /* descriptors in flight */
};

/* Result of one TX reclaim: a finished descriptor's index and status. */
struct gem_tx_done {
    uint32_t index;
    uint32_t status;        /* word1 as written back (error bits) */
};

/* Give every descriptor to the GEM: word0 = buf[i] | (WRAP on the last).
 * `buf[i]` must be 4-byte aligned.  Returns 0, or -EINVAL for n == 0 or
 * misaligned buffers. */
int gem_rx_ring_init(struct gem_rx_ring *r, struct gem_bd *bd, uint32_t n,
                     const uint32_t *buf);
/* If the descriptor at head holds a received buffer, return true and set
 * *index and *word1; the caller must gem_rx_ring_rearm() it after copying. */
bool gem_rx_ring_peek(const struct gem_rx_ring *r, uint32_t *index, uint32_t *word1);
/* Return the descriptor at head to the GEM (clears OWN_SW, keeps WRAP and
 * the address) and advance head. */
void gem_rx_ring_rearm(struct gem_rx_ring *r);

/* All descriptors free (USED, WRAP on the last).  Returns 0 or -EINVAL. */
int gem_tx_ring_init(struct gem_tx_ring *r, struct gem_bd *bd, uint32_t n);
uint32_t gem_tx_ring_space(const struct gem_tx_ring *r);
/* Queue one whole frame.  Returns the descriptor index, or -ENOSPC when the
 * ring is full, -EINVAL for a zero/oversized length or misaligned address. */
int gem_tx_ring_enqueue(struct gem_tx_ring *r, uint32_t addr, uint32_t len);
/* Reclaim the oldest in-flight descriptor if the GEM has finished with it.
 * Returns true and fills *done; false when nothing is finished. */
bool gem_tx_ring_reclaim(struct gem_tx_ring *r, struct gem_tx_done *done);

/* Memory barrier between descriptor writes: `dmb` on target, a compiler
 * barrier on the host. */
#if defined(__arm__)
#define GEM_RING_BARRIER() __asm__ volatile("dmb" ::: "memory")
#else
#define GEM_RING_BARRIER() __asm__ volatile("" ::: "memory")
#endif

#endif

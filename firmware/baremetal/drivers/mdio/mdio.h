/* mdio.h - clause 22 MDIO through the GEM's PHY maintenance register.
 * Error convention: 0 or a negative errno.
 *
 * Two ways to use the bus:
 *  - split transactions for the PHY state machine, which must not wait:
 *    mdio_begin() starts one frame, mdio_end() reports -EINPROGRESS until it
 *    is done;
 *  - mdio_read()/mdio_write(): a whole transaction with a bounded wait, for
 *    user commands (register dumps).  They first finish a split transaction
 *    in flight and keep its result for mdio_end().
 */
#ifndef MDIO_H
#define MDIO_H

#include <stdbool.h>
#include <stdint.h>

#define MDIO_ADDR_MAX  31u
#define MDIO_REG_MAX   31u

/* Set MDC <= 2.5 MHz from `pclk_hz` (cpu_1x) and enable the management port
 * of the GEM at `gem_base`.  Returns 0 or -EINVAL. */
int mdio_init(uintptr_t gem_base, uint32_t pclk_hz);

/* Start a read (write == false) or a write of `val`.  Returns 0 (started),
 * -EBUSY (a split transaction is still open or the bus is busy), -EINVAL,
 * -ENODEV (mdio_init not done). */
int mdio_begin(uint8_t addr, uint8_t reg, bool write, uint16_t val);
/* Finish the split transaction: 0 (done; *val = read data, or the written
 * value), -EINPROGRESS (still on the bus), -ETIMEDOUT (the bus never went
 * idle within the bound; the transaction is abandoned), -EINVAL (none open). */
int mdio_end(uint16_t *val);

/* Whole transactions with a bounded wait.  0, -EINVAL, -ETIMEDOUT. */
int mdio_read(uint8_t addr, uint8_t reg, uint16_t *val);
int mdio_write(uint8_t addr, uint8_t reg, uint16_t val);

/* Transactions that timed out since boot. */
uint32_t mdio_timeouts(void);
/* Longest time a transaction took, in microseconds. */
uint32_t mdio_max_wait_us(void);

#endif

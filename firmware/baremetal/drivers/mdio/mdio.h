/* mdio.h - clause 22 MDIO through the GEM's PHY maintenance register.
 * Error convention: 0 or a negative errno. */
#ifndef MDIO_H
#define MDIO_H

#include <stdint.h>

#define MDIO_ADDR_MAX  31u
#define MDIO_REG_MAX   31u

/* Set MDC <= 2.5 MHz from `pclk_hz` (cpu_1x) and enable the management port
 * of the GEM at `gem_base`.  Returns 0 or -EINVAL. */
int mdio_init(uintptr_t gem_base, uint32_t pclk_hz);
/* Returns 0, -EINVAL (bad addr/reg), -ETIMEDOUT (bus never went idle). */
int mdio_read(uint8_t addr, uint8_t reg, uint16_t *val);
int mdio_write(uint8_t addr, uint8_t reg, uint16_t val);
/* Transactions that timed out since boot. */
uint32_t mdio_timeouts(void);

#endif

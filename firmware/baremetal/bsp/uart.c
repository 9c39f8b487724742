/* uart.c - Cadence UART console (UG585 ch.19, registers B.33).
 *
 * TX polls the FIFO-full flag with a bounded wait (a stuck UART drops
 * characters instead of hanging the firmware).  RX is interrupt driven into a
 * ring buffer so typing wakes the main loop from WFI.
 * The UART resets with CR = 0x128, TX and RX disabled (UG585 appendix B,
 * XUARTPS_CR; QEMU hw/char/cadence_uart.c does the same): we always write
 * CR explicitly.
 */
#include "bsp.h"
#include "board.h"
#include "zynq7000.h"

#define UART_CR          0x00u
#define UART_MR          0x04u
#define UART_IER         0x08u
#define UART_IDR         0x0Cu
#define UART_ISR         0x14u
#define UART_BAUDGEN     0x18u
#define UART_RXTOUT      0x1Cu
#define UART_RXWM        0x20u
#define UART_SR          0x2Cu
#define UART_FIFO        0x30u
#define UART_BAUDDIV     0x34u
/* CR: [8] STPBRK [5] TXDIS [4] TXEN [3] RXDIS [2] RXEN [1] TXRST [0] RXRST */
#define UART_CR_RXRST    BIT(0)
#define UART_CR_TXRST    BIT(1)
#define UART_CR_RXEN     BIT(2)
#define UART_CR_TXEN     BIT(4)
#define UART_CR_STPBRK   BIT(8)
/* MR: [9:8] CHMODE normal  [7:6] NBSTOP 1  [5:3] PAR 1xx = none  [2:1] CHRL 8 */
#define UART_MR_PAR_NONE (0x4u << 3)
/* SR / ISR bits */
#define UART_SR_RXEMPTY  BIT(1)
#define UART_SR_TXFULL   BIT(4)
#define UART_INT_RTRIG   BIT(0)
#define UART_INT_ROVR    BIT(5)
#define UART_INT_TOUT    BIT(8)
#define UART_BDIV        6u          /* BAUDDIV: baud = ref / (CD * (BDIV+1)) */
#define UART_TX_SPIN_MAX 10000000u   /* backstop if the timer is not running */
#define UART_TX_WAIT_US  200000u
#define UART_RX_RING     256u

#define UREG(off) (BOARD_UART_BASE + (off))

static volatile uint8_t rx_ring[UART_RX_RING];
static volatile uint32_t rx_head, rx_tail, rx_overruns;
static bool tx_stuck;
static uint32_t tx_drops;

static void uart_isr(void *arg)
{
    (void)arg;
    uint32_t isr = reg_read(UREG(UART_ISR));
    reg_write(UREG(UART_ISR), isr);
    if (isr & UART_INT_ROVR)
        rx_overruns++;
    for (unsigned n = 0; n < 64 && !(reg_read(UREG(UART_SR)) & UART_SR_RXEMPTY); n++) {
        uint8_t c = (uint8_t)reg_read(UREG(UART_FIFO));
        uint32_t next = (rx_head + 1) % UART_RX_RING;
        if (next == rx_tail) {
            rx_overruns++;
            continue;
        }
        rx_ring[rx_head] = c;
        rx_head = next;
    }
}

void uart_init(void)
{
    uint32_t cd = (BOARD_UART_REF_HZ + BOARD_UART_BAUD * (UART_BDIV + 1) / 2) /
                  (BOARD_UART_BAUD * (UART_BDIV + 1));
    reg_write(UREG(UART_IDR), 0x1FFFu);
    reg_write(UREG(UART_CR), UART_CR_RXRST | UART_CR_TXRST | UART_CR_STPBRK);
    reg_write(UREG(UART_MR), UART_MR_PAR_NONE);
    reg_write(UREG(UART_BAUDGEN), cd);
    reg_write(UREG(UART_BAUDDIV), UART_BDIV);
    reg_write(UREG(UART_RXWM), 1);
    reg_write(UREG(UART_RXTOUT), 10);
    reg_write(UREG(UART_CR), UART_CR_TXEN | UART_CR_RXEN | UART_CR_STPBRK);
    reg_write(UREG(UART_ISR), 0x1FFFu);
    reg_write(UREG(UART_IER), UART_INT_RTRIG | UART_INT_ROVR | UART_INT_TOUT);
}

/* Called after gic_init(): console RX interrupts. */
void uart_irq_enable(void);
void uart_irq_enable(void)
{
    gic_enable(BOARD_UART_IRQ, uart_isr, 0, 0xA0);
}

/* Wait for FIFO space for up to UART_TX_WAIT_US (a full 64-byte FIFO drains
 * in 5.6 ms at 115200; under QEMU the host reader may lag by more).  After a
 * timeout the console is treated as stuck: characters are dropped without
 * waiting until the FIFO has room again, so a dead console cannot stall the
 * firmware. */
void uart_putc(char c)
{
    uint64_t t0 = 0;
    for (uint32_t i = 0; i < UART_TX_SPIN_MAX; i++) {
        if (!(reg_read(UREG(UART_SR)) & UART_SR_TXFULL)) {
            reg_write(UREG(UART_FIFO), (uint8_t)c);
            tx_stuck = false;
            return;
        }
        if (tx_stuck)
            break;
        if (i == 0)
            t0 = timer_now_us();
        else if (timer_now_us() - t0 > UART_TX_WAIT_US)
            break;
    }
    tx_stuck = true;
    tx_drops++;
}

uint32_t uart_tx_drops(void)
{
    return tx_drops;
}

void uart_write(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            uart_putc('\r');
        uart_putc(s[i]);
    }
}

int uart_getc(void)
{
    if (rx_tail == rx_head)
        return -1;
    int c = rx_ring[rx_tail];
    rx_tail = (rx_tail + 1) % UART_RX_RING;
    return c;
}

bool uart_rx_pending(void)
{
    return rx_tail != rx_head;
}

uint32_t uart_rx_overruns(void)
{
    return rx_overruns;
}

/*
 * qspi_stripe.S - guest for test_qspi_striped_rx_overflow_is_flagged.
 *
 * Runs the QSPI controller (0xE000D000, UG585 B.32) in dual-parallel
 * mode (LQSPI_CFG TWO_MEM | SEP_BUS), chip select 0 by hand: a
 * FAST_READ (0x0B), 3 address bytes and a dummy byte leave 5 bytes in
 * the 256-byte RX FIFO, then each striped data byte pushes one byte per
 * bus, and RX is never read.  At 255 bytes the second push aborted QEMU
 * (fifo8_push's assertion).  Then it prints 'A' on UART0 if the
 * interrupt status (0x04) shows RX overflow (bit 0), 'X' if not.
 *
 * Regenerate the words in test_device.c, in this directory, with:
 *   arm-none-eabi-as -march=armv7-a qspi_stripe.S -o x.o &&
 *   arm-none-eabi-objcopy -O binary x.o x.bin && od -An -tx4 -v x.bin
 */
    .include "verdict.inc"
    .syntax unified
    .arm
    .text
start:
    ldr     r2, =0xE000D000         @ QSPI
    ldr     r1, =0x60000000         @ LQSPI_CFG: TWO_MEM, SEP_BUS
    str     r1, [r2, #0xA0]
    ldr     r1, =0x00007800         @ CONFIG: manual CS, CS0 asserted
    str     r1, [r2, #0x00]
    mov     r1, #1
    str     r1, [r2, #0x14]         @ EN
    mov     r1, #0x0B               @ FAST_READ
    str     r1, [r2, #0x80]         @ TXD1
    mov     r1, #0
    str     r1, [r2, #0x80]         @ address
    str     r1, [r2, #0x80]
    str     r1, [r2, #0x80]
    str     r1, [r2, #0x80]         @ dummy
    mov     r3, #400
1:  str     r1, [r2, #0x80]         @ data; RX never read
    subs    r3, r3, #1
    bne     1b
    ldr     r4, [r2, #0x04]         @ interrupt status
    and     r4, r4, #1
    verdict r4, 1                  @ verdict.inc: 'A' or 'X' on UART0
    .ltorg

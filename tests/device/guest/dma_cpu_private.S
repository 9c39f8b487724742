/*
 * dma_cpu_private.S - guest for test_dma_to_cpu_private_region_is_refused.
 *
 * Points GEM0's DMA at the Cortex-A9 MPCore private region, which only
 * the CPUs reach (ARM DDI 0407 1.5; UG585 4.1 Table 4-1): the second TX
 * descriptor's buffer at the GIC CPU interface (0xF8F00100), read by the
 * device's TX timer, and, in local loopback (UG585 B.18 net_ctrl bit 1),
 * the RX buffer at the global timer (0xF8F00200), written from the same
 * timer with the first frame, 64 bytes of 0x01.  Those timers run on
 * QEMU's main loop, where the MPCore's registers found no CPU and QEMU
 * crashed.  Then it waits, reads the global timer's control register
 * (0xF8F00208: the frame would have set its enable bit) and prints 'A'
 * on UART0 if it still reads 0, 'X' if not.
 *
 * Regenerate the words in test_device.c, in this directory, with:
 *   arm-none-eabi-as -march=armv7-a dma_cpu_private.S -o x.o &&
 *   arm-none-eabi-objcopy -O binary x.o x.bin && od -An -tx4 -v x.bin
 */
    .include "verdict.inc"
    .syntax unified
    .arm
    .text
start:
    ldr     r0, =0x00110000         @ TX buffer: 64 bytes of 0x01
    ldr     r1, =0x01010101
    mov     r2, #16
1:  str     r1, [r0], #4
    subs    r2, r2, #1
    bne     1b
    ldr     r0, =0x00100000         @ TX descriptors
    ldr     r1, =0x00110000
    str     r1, [r0]
    ldr     r1, =0x00008040         @ LAST, 64 bytes
    str     r1, [r0, #4]
    ldr     r1, =0xF8F00100         @ GIC CPU interface
    str     r1, [r0, #8]
    ldr     r1, =0x40008010         @ WRAP, LAST, 16 bytes
    str     r1, [r0, #12]
    ldr     r3, =0x00120000         @ RX descriptor: the global timer, WRAP
    ldr     r1, =0xF8F00202
    str     r1, [r3]
    mov     r1, #0
    str     r1, [r3, #4]
    ldr     r2, =0xE000B000         @ GEM0
    ldr     r1, =0x00080010         @ net_cfg: copy all frames, MDC /32
    str     r1, [r2, #4]
    str     r3, [r2, #0x18]         @ rx_qbar
    str     r0, [r2, #0x1c]         @ tx_qbar
    ldr     r1, =0x20e              @ TSTART | TXEN | RXEN | LOOPBACK_LOCAL
    str     r1, [r2]
    ldr     r3, =0x01000000         @ let the timers run
2:  subs    r3, r3, #1
    bne     2b
    ldr     r0, =0xF8F00208         @ global timer control
    ldr     r4, [r0]
    verdict r4, 0                  @ verdict.inc: 'A' or 'X' on UART0
    .ltorg

/*
 * pl330_loop.S - guest for test_pl330_endless_program_leaves_qemu_alive.
 *
 * Starts PL330 channel 0 (0xF8003000, UG585 B.11) through the debug
 * interface on a one-byte program that never ends: DMALPEND with no
 * loop count, branching to itself (ARM DDI 0424, PL330 TRM, 4.3.5).
 * QEMU ran the channel to completion inside the DBGCMD write, with the
 * BQL held, and hung.  Then it prints 'A' on UART0 if channel 0's
 * status (CSR0, 0x100) still reads Executing (1), 'X' if not.
 *
 * Regenerate the words in test_device.c, in this directory, with:
 *   arm-none-eabi-as -march=armv7-a pl330_loop.S -o x.o &&
 *   arm-none-eabi-objcopy -O binary x.o x.bin && od -An -tx4 -v x.bin
 */
    .include "verdict.inc"
    .syntax unified
    .arm
    .text
start:
    ldr     r0, =0x00100000         @ channel program
    mov     r1, #0x28               @ DMALPEND, for ever, back 0: itself
    str     r1, [r0]
    ldr     r2, =0xF8003000         @ PL330, secure
    ldr     r1, =0x00A20000         @ DBGINST0: manager, DMAGO ns, channel 0
    str     r1, [r2, #0xD08]
    str     r0, [r2, #0xD0C]        @ DBGINST1: the program's address
    mov     r1, #0
    str     r1, [r2, #0xD04]        @ DBGCMD: execute
    ldr     r3, =0x00100000         @ let the channel run
2:  subs    r3, r3, #1
    bne     2b
    ldr     r4, [r2, #0x100]        @ CSR0
    and     r4, r4, #0xF
    verdict r4, 1                  @ verdict.inc: 'A' or 'X' on UART0
    .ltorg

/*
 * sdhci_adma_bs0.S - guest for test_sdhci_adma_block_size_0_stops.
 *
 * Parks SDHCI0's ADMA2 engine (SD Host Controller Simplified
 * Specification 3.00, 1.13) on a LINK to itself, which moves no data,
 * so the block size register stays writable; zeroes it; then turns the
 * descriptor into a 512-byte TRAN.  QEMU's transfer timer moved 0 bytes
 * a pass for ever on the main loop (a hang).  Then it prints 'A' on
 * UART0 if the ADMA error status (0x54) shows a length mismatch in
 * ST_TFR (7), 'X' if not.
 *
 * Regenerate the words in test_device.c, in this directory, with:
 *   arm-none-eabi-as -march=armv7-a sdhci_adma_bs0.S -o x.o &&
 *   arm-none-eabi-objcopy -O binary x.o x.bin && od -An -tx4 -v x.bin
 */
    .include "verdict.inc"
    .syntax unified
    .arm
    .text
start:
    ldr     r0, =0x00100000         @ ADMA2 descriptor table
    mov     r1, #0x31               @ VALID, LINK
    str     r1, [r0, #0]
    str     r0, [r0, #4]            @ ... to itself
    ldr     r2, =0xE0100000         @ SDHCI0
    ldr     r1, =0x000E0005         @ clock control: internal + SD clock on
    str     r1, [r2, #0x2c]
    mov     r1, #0x10               @ host control 1: ADMA2, 32-bit
    str     r1, [r2, #0x28]
    str     r0, [r2, #0x58]         @ ADMA system address
    ldr     r1, =0x00000200         @ block size 512, block count 0
    str     r1, [r2, #0x04]
    ldr     r1, =0x18200001         @ CMD24, data present, no response; DMA
    str     r1, [r2, #0x0c]
    ldr     r3, =0x00100000
1:  subs    r3, r3, #1
    bne     1b
    mov     r1, #0                  @ block size 0
    str     r1, [r2, #0x04]
    ldr     r1, =0x02000021         @ VALID, TRAN, 512 bytes
    ldr     r4, =0x00200000
    str     r4, [r0, #4]
    str     r1, [r0, #0]
    ldr     r3, =0x01000000         @ let the transfer timer run
2:  subs    r3, r3, #1
    bne     2b
    ldr     r4, [r2, #0x54]         @ ADMA error status
    and     r4, r4, #7
    verdict r4, 7                  @ verdict.inc: 'A' or 'X' on UART0
    .ltorg

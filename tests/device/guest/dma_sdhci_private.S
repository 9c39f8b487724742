/*
 * dma_sdhci_private.S - guest for test_sdhci_adma_to_cpu_private_region.
 *
 * Leads SDHCI0's ADMA2 descriptor chain (SD Host Controller Simplified
 * Specification 3.00, 1.13) into the Cortex-A9 MPCore private region,
 * which only the CPUs reach (ARM DDI 0407 1.5; UG585 4.1 Table 4-1):
 * four NOP descriptors and a LINK to the global timer (0xF8F00200).
 * QEMU's SDHCI runs five descriptors per pass and the next pass from a
 * timer on the main loop, where the global timer found no CPU and QEMU
 * crashed.  A write with no card and no response expected (CMD24, data
 * present) starts the transfer.  Then it waits and prints 'A' on UART0
 * if the ADMA error status (0x54) shows the engine stopped fetching a
 * descriptor (ST_FDS: the read came back as a bus error, 0), 'X' if not.
 *
 * Regenerate the words in test_device.c, in this directory, with:
 *   arm-none-eabi-as -march=armv7-a dma_sdhci_private.S -o x.o &&
 *   arm-none-eabi-objcopy -O binary x.o x.bin && od -An -tx4 -v x.bin
 */
    .include "verdict.inc"
    .syntax unified
    .arm
    .text
start:
    ldr     r0, =0x00100000         @ ADMA2 descriptor table
    mov     r1, #0x01               @ VALID, NOP
    mov     r2, #0
    str     r1, [r0, #0]
    str     r2, [r0, #4]
    str     r1, [r0, #8]
    str     r2, [r0, #12]
    str     r1, [r0, #16]
    str     r2, [r0, #20]
    str     r1, [r0, #24]
    str     r2, [r0, #28]
    mov     r1, #0x31               @ VALID, LINK
    str     r1, [r0, #32]
    ldr     r1, =0xF8F00200         @ the next table: the global timer
    str     r1, [r0, #36]
    ldr     r2, =0xE0100000         @ SDHCI0
    ldr     r1, =0x000E0005         @ clock control: internal + SD clock on
    str     r1, [r2, #0x2c]
    mov     r1, #0x10               @ host control 1: ADMA2, 32-bit
    str     r1, [r2, #0x28]
    str     r0, [r2, #0x58]         @ ADMA system address
    ldr     r1, =0x00010200         @ one block of 512 bytes
    str     r1, [r2, #0x04]
    ldr     r1, =0x18200001         @ CMD24, data present, no response; DMA
    str     r1, [r2, #0x0c]
    ldr     r3, =0x01000000         @ let the timers run
2:  subs    r3, r3, #1
    bne     2b
    ldr     r4, [r2, #0x54]         @ ADMA error status
    and     r4, r4, #3
    verdict r4, 1                  @ verdict.inc: 'A' or 'X' on UART0
    .ltorg

/*
 * dma_ehci_private.S - guest for test_ehci_async_list_in_cpu_private_region.
 *
 * Points USB0's EHCI asynchronous list (EHCI 1.0, 2.3.7 ASYNCLISTADDR;
 * Zynq's ChipIdea controller at 0xE0002000, UG585 B.34) at the
 * Cortex-A9 MPCore's global timer (0xF8F00200), which only the CPUs
 * reach (ARM DDI 0407 1.5; UG585 4.1 Table 4-1), and starts the
 * schedule.  QEMU's EHCI walks that list from a bottom half on the main
 * loop, where the global timer found no CPU and QEMU crashed.  Then it
 * waits and prints 'A' on UART0 if the controller fetched the entry,
 * 'X' if not.  The fetch reads 0, no queue head, and QEMU's EHCI resets
 * itself on that ("processing error"): USBCMD's run bit is clear again
 * and USBSTS shows HCHalted (bit 12).
 *
 * Regenerate the words in test_device.c, in this directory, with:
 *   arm-none-eabi-as -march=armv7-a dma_ehci_private.S -o x.o &&
 *   arm-none-eabi-objcopy -O binary x.o x.bin && od -An -tx4 -v x.bin
 */
    .include "verdict.inc"
    .syntax unified
    .arm
    .text
start:
    ldr     r2, =0xE0002140         @ USB0 EHCI operational registers
    ldr     r1, =0xF8F00200         @ ASYNCLISTADDR: the global timer
    str     r1, [r2, #0x18]
    ldr     r1, =0x00080021         @ USBCMD: run, asynchronous schedule
    str     r1, [r2, #0x00]
    ldr     r3, =0x01000000         @ let the schedule run
2:  subs    r3, r3, #1
    bne     2b
    ldr     r4, [r2, #0x04]         @ USBSTS
    ldr     r5, [r2, #0x00]         @ USBCMD
    and     r4, r4, #0x1000         @ HCHalted
    and     r5, r5, #1              @ run/stop
    eor     r4, r4, #0x1000         @ 0 if halted
    orr     r4, r4, r5              @ 0 if halted and stopped
    verdict r4, 0                  @ verdict.inc: 'A' or 'X' on UART0
    .ltorg

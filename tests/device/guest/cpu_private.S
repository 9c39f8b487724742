/*
 * cpu_private.S - guest for test_cpu_reaches_its_private_region, the
 * control of the dma_*_private guests: the CPU's own accesses to the
 * Cortex-A9 MPCore private region pass the board's gate.  It enables the
 * global timer (ARM DDI 0407 4.4: control at 0xF8F00208, counter at
 * 0xF8F00200), waits, and prints on UART0 '1' if the counter has moved
 * ('0' if it reads 0), then the control register plus '@' ('A' when it
 * reads back 1).
 *
 * Regenerate the words in test_device.c with:
 *   arm-none-eabi-as -march=armv7-a cpu_private.S -o x.o &&
 *   arm-none-eabi-objcopy -O binary x.o x.bin && od -An -tx4 -v x.bin
 */
    .syntax unified
    .arm
    .text
start:
    ldr     r2, =0xF8F00200         @ global timer
    mov     r1, #1
    str     r1, [r2, #8]            @ control: timer enable
    ldr     r3, =0x00100000
2:  subs    r3, r3, #1
    bne     2b
    ldr     r4, [r2, #0]            @ counter, low word
    ldr     r5, [r2, #8]            @ control
    ldr     r0, =0xE0000000         @ UART0
    ldr     r1, =0x114              @ CR: TX and RX enabled
    str     r1, [r0]
    cmp     r4, #0
    moveq   r1, #0x30               @ '0'
    movne   r1, #0x31               @ '1'
    str     r1, [r0, #0x30]
    add     r1, r5, #0x40           @ control + '@'
    str     r1, [r0, #0x30]
3:  b       3b
    .ltorg

/*
 * smp_release.S - guest for test_smp_cpu1_runs_only_after_slcr_release.
 *
 * Runs on CPU0 (loaded as a raw image at 0x10000 behind QEMU's boot
 * stub).  Like Linux's zynq_cpun_start() (arch/arm/mach-zynq/platsmp.c):
 * copy a trampoline to address 0, hold CPU1 in reset with its clock
 * stopped through SLCR A9_CPU_RST_CTRL, then release reset and clock.
 * CPU1 then starts at its reset vector, 0, and prints 'B'; CPU0 prints
 * 'A'.  With RELEASE=0 the SLCR writes are skipped: only 'A' may appear.
 *
 * Regenerate the words in test_device.c with:
 *   arm-none-eabi-as -march=armv7-a smp_release.S -o x.o &&
 *   arm-none-eabi-objcopy -O binary x.o x.bin && od -An -tx4 -v x.bin
 */
    .syntax unified
    .arm
    .text
start:
    mov     r0, #0
    adr     r1, cpu1_code
    adr     r2, cpu1_end
1:  ldr     r3, [r1], #4
    str     r3, [r0], #4
    cmp     r1, r2
    blo     1b
    movw    r0, #0x0000
    movt    r0, #0xF800             @ SLCR
    movw    r1, #0xDF0D
    str     r1, [r0, #0x008]        @ SLCR_UNLOCK
    movw    r2, #0x244              @ A9_CPU_RST_CTRL
    mov     r1, #0x22               @ A9_CLKSTOP1 | A9_RST1
    str     r1, [r0, r2]
    mov     r1, #0x20               @ release reset, clock still stopped
    str     r1, [r0, r2]
    mov     r1, #0x00               @ start the clock
    str     r1, [r0, r2]
    movw    r0, #0x0000
    movt    r0, #0xE000             @ UART0
    movw    r1, #0x114              @ CR: TX and RX enabled
    str     r1, [r0]
    mov     r1, #'A'
    str     r1, [r0, #0x30]         @ TX FIFO
2:  b       2b

cpu1_code:                          @ position independent, copied to 0
    movw    r0, #0x0000
    movt    r0, #0xE000
    movw    r1, #0x114
    str     r1, [r0]
    mov     r1, #'B'
    str     r1, [r0, #0x30]
3:  b       3b
cpu1_end:

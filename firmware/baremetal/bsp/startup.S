/* startup.S - reset entry, exception vectors and IRQ entry (ARMv7-A, ARM state)
 *
 * Entered at _start with the MMU off, either by QEMU's -kernel loader or by
 * the debugger/FSBL on silicon (which may have left caches/MMU on: we turn
 * them off and invalidate before touching memory).
 * Per-mode stacks come from the linker script.  main() runs in SVC mode.
 * The IRQ entry saves the AAPCS caller-saved core and VFP registers (the
 * firmware is built hard-float, so C handlers may touch d0-d7/d16-d31).
 */
    .syntax unified
    .arm

    .equ MODE_FIQ, 0x11
    .equ MODE_IRQ, 0x12
    .equ MODE_SVC, 0x13
    .equ MODE_ABT, 0x17
    .equ MODE_UND, 0x1B
    .equ PSR_I,    0x80
    .equ PSR_F,    0x40

    .section .vectors, "ax"
    .align 5
    .global _vectors
_vectors:
    ldr pc, =_start
    ldr pc, =undef_entry
    ldr pc, =svc_entry
    ldr pc, =pabt_entry
    ldr pc, =dabt_entry
    nop
    ldr pc, =irq_entry
    ldr pc, =fiq_entry
    .ltorg

    .section .text.boot, "ax"
    .global _start
_start:
    cpsid if
    /* SCTLR: MMU, D-cache, I-cache, branch prediction off; keep V=0 */
    mrc p15, 0, r0, c1, c0, 0
    bic r0, r0, #0x1            /* M */
    bic r0, r0, #0x4            /* C */
    bic r0, r0, #0x1000         /* I */
    bic r0, r0, #0x800          /* Z */
    bic r0, r0, #0x2000         /* V: vectors at VBAR */
    mcr p15, 0, r0, c1, c0, 0
    isb
    mov r0, #0
    mcr p15, 0, r0, c7, c5, 0   /* ICIALLU */
    mcr p15, 0, r0, c7, c5, 6   /* BPIALL */
    mcr p15, 0, r0, c8, c7, 0   /* TLBIALL */
    bl  l1_dcache_invalidate_all
    dsb
    isb
    ldr r0, =_vectors
    mcr p15, 0, r0, c12, c0, 0  /* VBAR */

    /* Per-mode stacks, IRQ/FIQ masked everywhere */
    cps #MODE_IRQ
    ldr sp, =__irq_stack_top
    cps #MODE_FIQ
    ldr sp, =__fiq_stack_top
    cps #MODE_ABT
    ldr sp, =__abt_stack_top
    cps #MODE_UND
    ldr sp, =__und_stack_top
    cps #MODE_SVC
    ldr sp, =__svc_stack_top

    /* VFP/NEON: CPACR cp10/cp11 full access, then FPEXC.EN */
    mrc p15, 0, r0, c1, c0, 2
    orr r0, r0, #(0xF << 20)
    mcr p15, 0, r0, c1, c0, 2
    isb
    mov r0, #0x40000000
    vmsr fpexc, r0

    /* Zero .bss (.data is loaded in place: we run where we are loaded) */
    ldr r0, =__bss_start__
    ldr r1, =__bss_end__
    mov r2, #0
1:  cmp r0, r1
    strlo r2, [r0], #4
    blo 1b

    bl  bsp_early_init          /* MMU, caches, GIC, timers, console */
    bl  __libc_init_array
    bl  main
2:  wfi
    b   2b

/* l1_dcache_invalidate_all: invalidate L1 D by set/way (32 KiB, 4-way,
 * 32-byte lines on the A9: 256 sets).  Clobbers r0-r3. */
    .global l1_dcache_invalidate_all
l1_dcache_invalidate_all:
    mov r0, #0
    mcr p15, 2, r0, c0, c0, 0   /* CSSELR = L1 D */
    isb
    mrc p15, 1, r0, c0, c0, 0   /* CCSIDR */
    ubfx r1, r0, #13, #15       /* NumSets - 1 */
    ubfx r2, r0, #3, #10        /* Assoc - 1 */
3:  mov r3, r2
4:  lsl r0, r3, #30             /* way in [31:30] */
    orr r0, r0, r1, lsl #5      /* set in [12:5] */
    mcr p15, 0, r0, c7, c6, 2   /* DCISW */
    subs r3, r3, #1
    bge 4b
    subs r1, r1, #1
    bge 3b
    dsb
    bx lr

/* l1_dcache_clean_invalidate_all: same walk with DCCISW (used before reboot) */
    .global l1_dcache_clean_invalidate_all
l1_dcache_clean_invalidate_all:
    mov r0, #0
    mcr p15, 2, r0, c0, c0, 0
    isb
    mrc p15, 1, r0, c0, c0, 0
    ubfx r1, r0, #13, #15
    ubfx r2, r0, #3, #10
5:  mov r3, r2
6:  lsl r0, r3, #30
    orr r0, r0, r1, lsl #5
    mcr p15, 0, r0, c7, c14, 2  /* DCCISW */
    subs r3, r3, #1
    bge 6b
    subs r1, r1, #1
    bge 5b
    dsb
    bx lr

/* IRQ: no nesting.  Save r0-r3, r12, lr, FPSCR and d0-d7, d16-d31. */
    .text
    .global irq_entry
irq_entry:
    sub lr, lr, #4
    push {r0-r3, r12, lr}
    vmrs r0, fpscr
    push {r0, r1}               /* keep 8-byte alignment */
    vpush {d0-d7}
    vpush {d16-d31}
    bl  irq_dispatch
    vpop {d16-d31}
    vpop {d0-d7}
    pop {r0, r1}
    vmsr fpscr, r0
    ldm sp!, {r0-r3, r12, pc}^

fiq_entry:
    subs pc, lr, #4

/* Faults: report through bsp_fault(kind, pc, spsr) and never return. */
undef_entry:
    mov r0, #0
    sub r1, lr, #4
    b fault_common
svc_entry:
    mov r0, #1
    sub r1, lr, #4
    b fault_common
pabt_entry:
    mov r0, #2
    sub r1, lr, #4
    b fault_common
dabt_entry:
    mov r0, #3
    sub r1, lr, #8
fault_common:
    mrs r2, spsr
    bl  bsp_fault
7:  b 7b

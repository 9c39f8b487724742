/* bsp.h stand-in for the host build of apps/shell/shell.c in the fuzzer:
 * the shell needs only the UART input hook from the real bsp.h
 * (firmware/baremetal/bsp/bsp.h, which also carries ARM inline assembly). */
#ifndef GEMLAB_FUZZ_STUB_BSP_H
#define GEMLAB_FUZZ_STUB_BSP_H

int uart_getc(void);                    /* -1 when nothing is buffered */

#endif

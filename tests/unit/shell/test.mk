# apps/shell/shell.c's line editor on the host; bsp.h is the fuzzer's stub
# (tests/fuzz/shell/stub: only uart_getc()).
shell_SRCS := firmware/baremetal/apps/shell/shell.c
shell_CFLAGS := -I$(TOP)/tests/fuzz/shell/stub -I$(TOP)/firmware/baremetal/include \
                -I$(TOP)/firmware/baremetal/apps/shell
shell_NOMODELS := 1

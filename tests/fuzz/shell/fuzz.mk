# The shell's line editor and tokenizer build for the host once bsp.h is
# replaced by a stub (stub/ comes first on the include path; shell.c's own
# directory has no bsp.h).
shell_SRCS := firmware/baremetal/apps/shell/shell.c firmware/baremetal/lib/appargs.c
shell_CFLAGS := -I$(CURDIR)/shell/stub -I$(TOP)/firmware/baremetal/include -I$(TOP)/firmware/baremetal/apps/shell
shell_NOMODELS := 1
shell_ARGS := -max_len=1024

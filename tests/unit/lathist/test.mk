lathist_SRCS := firmware/baremetal/lib/lathist.c
lathist_CFLAGS := -I$(TOP)/firmware/baremetal/include
lathist_NOMODELS := 1

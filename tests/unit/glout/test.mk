glout_SRCS := firmware/baremetal/lib/glout.c
glout_CFLAGS := -I$(TOP)/firmware/baremetal/include
glout_NOMODELS := 1

pace_SRCS := firmware/baremetal/lib/pace.c
pace_CFLAGS := -I$(TOP)/firmware/baremetal/include
pace_NOMODELS := 1

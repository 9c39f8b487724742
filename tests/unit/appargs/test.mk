appargs_SRCS := firmware/baremetal/lib/appargs.c
appargs_CFLAGS := -I$(TOP)/firmware/baremetal/include
appargs_NOMODELS := 1

glout_SRCS := firmware/baremetal/lib/glout.c
glout_CFLAGS := -I$(TOP)/firmware/baremetal/include
glout_LDLIBS := -lcjson
glout_NOMODELS := 1
glout_ARGS := -max_len=2048

iperf2_SRCS := firmware/baremetal/lib/iperf2.c
iperf2_CFLAGS := -I$(TOP)/firmware/baremetal/include
iperf2_NOMODELS := 1

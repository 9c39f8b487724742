iperf2_SRCS := firmware/baremetal/lib/iperf2.c firmware/baremetal/lib/udpstats.c
iperf2_CFLAGS := -I$(TOP)/firmware/baremetal/include
iperf2_NOMODELS := 1
iperf2_ARGS := -max_len=2048

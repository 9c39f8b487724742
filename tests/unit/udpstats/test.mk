udpstats_SRCS := firmware/baremetal/lib/udpstats.c
udpstats_CFLAGS := -I$(TOP)/firmware/baremetal/include
udpstats_NOMODELS := 1

# apps/iperf/iperf_udp.c with lwIP stubbed (tests/unit/iperf_udp's stub
# headers and lwip_stub.c); fuzz_iperf_udp.c #includes iperf_udp.c.
iperf_udp_SRCS := firmware/baremetal/apps/common/appnet.c firmware/baremetal/lib/glout.c \
                  firmware/baremetal/lib/iperf2.c firmware/baremetal/lib/pace.c \
                  firmware/baremetal/lib/udpstats.c tests/unit/iperf_udp/lwip_stub.c
iperf_udp_CFLAGS := -I$(TOP)/tests/unit/iperf_udp -I$(TOP)/tests/unit/iperf_udp/stub \
                    -I$(TOP)/firmware/baremetal/include -I$(TOP)/firmware/baremetal/apps/iperf \
                    -I$(TOP)/firmware/baremetal/apps/common
iperf_udp_NOMODELS := 1
iperf_udp_ARGS := -max_len=4096

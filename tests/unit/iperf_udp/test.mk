# apps/iperf/iperf_udp.c on the host: test_iperf_udp.c #includes it (to
# reach the static sender) and links the firmware libraries it calls; lwIP
# is replaced by stub/lwip/ headers and lwip_stub.c.
iperf_udp_SRCS := firmware/baremetal/apps/common/appnet.c firmware/baremetal/lib/glout.c \
                  firmware/baremetal/lib/iperf2.c firmware/baremetal/lib/pace.c \
                  firmware/baremetal/lib/udpstats.c
iperf_udp_CFLAGS := -I$(TOP)/tests/unit/iperf_udp -I$(TOP)/tests/unit/iperf_udp/stub \
                    -I$(TOP)/firmware/baremetal/include -I$(TOP)/firmware/baremetal/apps/iperf \
                    -I$(TOP)/firmware/baremetal/apps/common
iperf_udp_NOMODELS := 1

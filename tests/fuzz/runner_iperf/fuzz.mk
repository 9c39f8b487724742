runner_iperf_SRCS := emu/runner/util.c emu/runner/iperf.c emu/runner/qemu.c emu/runner/scenario.c emu/runner/units.c \
                     emu/runner/codes.c emu/runner/model_glue.c
runner_iperf_CFLAGS := -I$(TOP)/emu/runner
runner_iperf_LDLIBS := -lcjson -linih
runner_iperf_ARGS := -max_len=8192

runner_qmp_SRCS := emu/runner/qmp.c
runner_qmp_CFLAGS := -I$(TOP)/emu/runner
runner_qmp_LDLIBS := -lcjson
runner_qmp_NOMODELS := 1

runner_util_SRCS := emu/runner/util.c
runner_util_CFLAGS := -I$(TOP)/emu/runner
runner_util_LDLIBS := -lcjson
runner_util_NOMODELS := 1

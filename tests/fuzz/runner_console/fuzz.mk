# inst.c is #included by the target (pump_serial is static).
runner_console_SRCS := emu/runner/qmp.c emu/runner/util.c emu/runner/diagnose.c emu/runner/codes.c
runner_console_CFLAGS := -I$(TOP)/emu/runner
runner_console_LDLIBS := -lcjson
runner_console_NOMODELS := 1
runner_console_ARGS := -max_len=16384

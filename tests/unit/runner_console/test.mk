# inst.c is #included by the test (pump_serial and handle_line are static).
runner_console_SRCS := emu/runner/qmp.c emu/runner/util.c
runner_console_CFLAGS := -I$(TOP)/emu/runner
runner_console_LDLIBS := -lcjson
runner_console_NOMODELS := 1

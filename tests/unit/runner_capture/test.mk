runner_capture_SRCS := emu/runner/capture.c
runner_capture_CFLAGS := -I$(TOP)/emu/runner
runner_capture_LDLIBS := -lcjson

runner_baseline_SRCS := emu/runner/util.c emu/runner/baseline.c emu/runner/diagnose.c emu/runner/codes.c
runner_baseline_CFLAGS := -I$(TOP)/emu/runner
runner_baseline_LDLIBS := -lcjson
runner_baseline_NOMODELS := 1

runner_merge_SRCS := emu/runner/util.c emu/runner/merge.c emu/runner/diagnose.c emu/runner/codes.c
runner_merge_CFLAGS := -I$(TOP)/emu/runner
runner_merge_LDLIBS := -lcjson
runner_merge_NOMODELS := 1

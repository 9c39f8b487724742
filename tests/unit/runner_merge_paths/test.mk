# merge.c is #included by the test (relpath is static).
runner_merge_paths_SRCS := emu/runner/util.c emu/runner/diagnose.c emu/runner/codes.c
runner_merge_paths_CFLAGS := -I$(TOP)/emu/runner
runner_merge_paths_LDLIBS := -lcjson
runner_merge_paths_NOMODELS := 1

runner_diagnose_SRCS := emu/runner/util.c emu/runner/diagnose.c emu/runner/codes.c
runner_diagnose_CFLAGS := -I$(TOP)/emu/runner -DFIXTURE_DIR=\"$(TOP)/tests/unit/runner_diagnose/fixtures\"
runner_diagnose_LDLIBS := -lcjson
runner_diagnose_NOMODELS := 1

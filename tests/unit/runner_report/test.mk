runner_report_SRCS := emu/runner/util.c emu/runner/report.c emu/runner/diagnose.c emu/runner/codes.c
runner_report_CFLAGS := -I$(TOP)/emu/runner
runner_report_LDLIBS := -lcjson
runner_report_NOMODELS := 1

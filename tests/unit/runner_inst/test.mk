# inst.c is #included by the test; kill() is wrapped to check every
# process-group signal (docs/SECURITY.md R5).
runner_inst_SRCS := emu/runner/qmp.c emu/runner/util.c
runner_inst_CFLAGS := -I$(TOP)/emu/runner
runner_inst_LDLIBS := -lcjson -Wl,--wrap=kill
runner_inst_NOMODELS := 1

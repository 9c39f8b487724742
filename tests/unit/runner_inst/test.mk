# inst.c is #included by the test; kill() is wrapped to check every
# process-group signal (docs/SECURITY.md R5).
runner_inst_LIBGEMLAB := 1
runner_inst_LDLIBS := -Wl,--wrap=kill

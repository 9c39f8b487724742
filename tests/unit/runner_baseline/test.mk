runner_baseline_LIBGEMLAB := 1
# cmd_baseline.c (the CLI's flags; not in libgemlab): its exit codes and messages
runner_baseline_SRCS := emu/runner/cmd_baseline.c

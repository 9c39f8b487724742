runner_baseline_LIBGEMLAB := 1
# cmd_baseline.c, cmd_diagnose.c and cmd_opts.c (the CLI's flags; not in
# libgemlab): their exit codes and messages
runner_baseline_SRCS := emu/runner/cmd_baseline.c emu/runner/cmd_diagnose.c emu/runner/cmd_opts.c

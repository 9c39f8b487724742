runner_baseline_LIBGEMLAB := 1

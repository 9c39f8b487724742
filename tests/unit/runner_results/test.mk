runner_results_LIBGEMLAB := 1

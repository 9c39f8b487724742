runner_merge_LIBGEMLAB := 1

runner_util_LIBGEMLAB := 1

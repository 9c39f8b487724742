# merge.c is #included by the test (relpath is static).
runner_merge_paths_LIBGEMLAB := 1

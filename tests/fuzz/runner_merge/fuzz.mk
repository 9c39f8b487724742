runner_merge_LIBGEMLAB := 1
runner_merge_ARGS := -max_len=4096

scenario_LIBGEMLAB := 1
scenario_ARGS := -max_len=4096

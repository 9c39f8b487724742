capture_LIBGEMLAB := 1
capture_ARGS := -max_len=4096

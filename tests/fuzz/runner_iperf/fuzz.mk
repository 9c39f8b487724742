runner_iperf_LIBGEMLAB := 1
runner_iperf_ARGS := -max_len=8192

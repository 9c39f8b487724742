runner_iperf_LIBGEMLAB := 1
runner_iperf_CFLAGS := -DFIXTURES=\"$(TOP)/tests/unit/runner_iperf/fixtures\"

runner_qmp_LIBGEMLAB := 1

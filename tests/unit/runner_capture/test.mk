runner_capture_LIBGEMLAB := 1

runner_report_LIBGEMLAB := 1

runner_diagnose_LIBGEMLAB := 1
runner_diagnose_CFLAGS := -DFIXTURE_DIR=\"$(TOP)/tests/unit/runner_diagnose/fixtures\"

runner_results_schema_LIBGEMLAB := 1
runner_results_schema_CFLAGS := -DFIXTURE_DIR=\"$(TOP)/tests/unit/runner_diagnose/fixtures\" \
                                -DSCHEMA_DOC=\"$(TOP)/docs/schema.md\"

runner_scenario_LIBGEMLAB := 1
runner_scenario_CFLAGS := -DSCENARIO_DIR=\"$(TOP)/scenarios\"

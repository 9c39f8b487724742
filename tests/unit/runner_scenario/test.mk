runner_scenario_SRCS := emu/runner/scenario.c emu/runner/units.c emu/runner/codes.c emu/runner/model_glue.c
runner_scenario_CFLAGS := -I$(TOP)/emu/runner -DSCENARIO_DIR=\"$(TOP)/scenarios\"
runner_scenario_LDLIBS := -linih -lcjson

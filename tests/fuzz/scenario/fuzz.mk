scenario_SRCS := emu/runner/scenario.c emu/runner/units.c emu/runner/codes.c emu/runner/model_glue.c
scenario_CFLAGS := -I$(TOP)/emu/runner
scenario_LDLIBS := -lcjson -linih
scenario_ARGS := -max_len=4096

runner_campaign_SRCS := emu/runner/campaign.c emu/runner/scenario.c emu/runner/units.c emu/runner/codes.c \
                        emu/runner/model_glue.c emu/runner/diagnose.c emu/runner/util.c
runner_campaign_CFLAGS := -I$(TOP)/emu/runner
runner_campaign_LDLIBS := -linih -lcjson

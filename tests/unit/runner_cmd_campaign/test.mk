# cmd_campaign.c (and cmd_opts.c): the CLI's flags (not in libgemlab, which has the campaign)
runner_cmd_campaign_LIBGEMLAB := 1
runner_cmd_campaign_SRCS := emu/runner/cmd_campaign.c emu/runner/cmd_opts.c

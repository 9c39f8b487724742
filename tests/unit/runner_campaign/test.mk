runner_campaign_LIBGEMLAB := 1

# gem_stats: the firmware's statistics-register totals, on the host.
gem_stats_SRCS := firmware/baremetal/drivers/gem/gem_stats.c
gem_stats_CFLAGS := -I$(TOP)/firmware/baremetal/drivers/gem
gem_stats_NOMODELS := 1

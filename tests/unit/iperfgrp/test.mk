iperfgrp_SRCS := firmware/baremetal/lib/iperfgrp.c
iperfgrp_CFLAGS := -I$(TOP)/firmware/baremetal/include
iperfgrp_NOMODELS := 1

# gem_ring: the firmware's hardware-independent BD ring module, on the host.
gem_ring_SRCS := firmware/baremetal/drivers/gem/gem_ring.c
gem_ring_CFLAGS := -I$(TOP)/firmware/baremetal/drivers/gem
gem_ring_NOMODELS := 1

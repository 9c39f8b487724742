# The traffic peer's stack as QEMU links it (docs/PEER.md): the file list
# of emu/qemu/net/gemlab-peer/meson.build, read here rather than copied,
# with lwIP from the firmware's cache (firmware/baremetal/lwip/fetch.sh,
# fetched on first use) for lwip/src/ and firmware/baremetal/ for fw/.
PS_DIR := $(TOP)/emu/qemu/net/gemlab-peer
PS_LWIP := $(GEMLAB_CACHE)/lwip/$(LWIP_VERSION)
PS_FILES := $(shell sed -n "s/^ *'\([^']*\.c\)',\{0,1\}$$/\1/p" $(PS_DIR)/meson.build)
PS_OBJS := $(patsubst lwip/src/%.c,$(FZO)/peer_stack/lwip/%.o,$(filter lwip/src/%,$(PS_FILES))) \
           $(patsubst fw/%.c,$(FZO)/peer_stack/fw/%.o,$(filter fw/%,$(PS_FILES))) \
           $(patsubst %.c,$(FZO)/peer_stack/peer/%.o,$(filter-out lwip/% fw/%,$(PS_FILES)))
# lwIP's headers as system headers: third-party code under our warnings.
# The peer includes "fw/apps/..." (build.sh copies the firmware to fw/):
# here fw is a link to firmware/baremetal in the build directory.
PS_FW_LINK := $(FZO)/peer_stack/inc/fw
PS_INC := -I$(PS_DIR) -I$(dir $(PS_FW_LINK)) -isystem $(PS_LWIP)/src/include \
          -I$(TOP)/firmware/baremetal/include
# as meson.build builds them (its c_args)
PS_OUR_CFLAGS := $(PS_INC) -DGLOUT_SRC='"peer"' -Wno-missing-prototypes -Wno-redundant-decls \
                 -Wno-undef -Wno-shadow

peer_stack_CFLAGS := $(PS_INC)
peer_stack_NOMODELS := 1
peer_stack_EXTOBJS := $(PS_OBJS)
peer_stack_ARGS := -max_len=4096

$(PS_LWIP)/.gemlab-fetched:
	$(Q)$(MAKE) --no-print-directory -C $(TOP)/firmware/baremetal lwip-fetch

$(PS_FW_LINK):
	@mkdir -p $(@D)
	$(Q)ln -sfn $(TOP)/firmware/baremetal $@

$(FZO)/peer_stack/fuzz_peer_stack.o: $(PS_LWIP)/.gemlab-fetched | $(PS_FW_LINK)

# lwIP: not our code, built as the firmware builds it (-Wall, no -Werror)
$(FZO)/peer_stack/lwip/%.o: $(PS_LWIP)/src/%.c $(PS_LWIP)/.gemlab-fetched | $(PS_FW_LINK)
	@mkdir -p $(@D)
	$(call msg,FUZZCC,lwip/$*.c)
	$(Q)$(FUZZ_CC) -std=c11 -D_DEFAULT_SOURCE -g -O2 -Wall -Wno-address -MD -MP \
	    -fsanitize=fuzzer-no-link $(SANITIZE) $(PS_INC) -c $< -o $@

$(FZO)/peer_stack/fw/%.o: $(TOP)/firmware/baremetal/%.c $(PS_LWIP)/.gemlab-fetched | $(PS_FW_LINK)
	@mkdir -p $(@D)
	$(call msg,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(PS_OUR_CFLAGS) -c $< -o $@

$(FZO)/peer_stack/peer/%.o: $(PS_DIR)/%.c $(PS_LWIP)/.gemlab-fetched | $(PS_FW_LINK)
	@mkdir -p $(@D)
	$(call msg,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(PS_OUR_CFLAGS) -c $< -o $@

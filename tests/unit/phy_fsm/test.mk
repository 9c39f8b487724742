# phy_fsm: the firmware's PHY state machine on the host, MDIO mocked with
# --wrap (phy.c's split transactions, mdio_begin/mdio_end, land in the test).
phy_fsm_SRCS := firmware/baremetal/drivers/phy/phy.c
phy_fsm_CFLAGS := -I$(TOP)/firmware/baremetal/drivers/phy -I$(TOP)/firmware/baremetal/drivers/mdio
phy_fsm_LDLIBS := -Wl,--wrap=mdio_begin -Wl,--wrap=mdio_end
phy_fsm_NOMODELS := 1

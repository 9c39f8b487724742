# phy_fsm: the firmware's PHY state machine on the host, MDIO mocked with
# --wrap (phy.c's calls to mdio_read/mdio_write land in the test).
phy_fsm_SRCS := firmware/baremetal/drivers/phy/phy.c
phy_fsm_CFLAGS := -I$(TOP)/firmware/baremetal/drivers/phy -I$(TOP)/firmware/baremetal/drivers/mdio
phy_fsm_LDLIBS := -Wl,--wrap=mdio_read -Wl,--wrap=mdio_write
phy_fsm_NOMODELS := 1

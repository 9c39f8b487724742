# gemlab: the Zynq-7000 machine only (xilinx-zynq-a9), for QEMU 10.0.
# configure --without-default-devices --with-devices-arm=gemlab reads this
# (QEMU docs/devel/kconfig.rst, "Guidelines for writing Kconfig files":
# a board is "default y" and is built only if named here).  ZYNQ selects
# everything the machine instantiates (hw/arm/Kconfig); target/arm/Kconfig
# selects ARM_V7M and the semihosting options itself.  The qtest
# accelerator is always built.
CONFIG_ZYNQ=y
# xilinx_zynq.c creates unimplemented-device regions (hw/misc/unimp.c)
# since QEMU 9.2, but config ZYNQ does not select UNIMP: without this
# the machine stops at startup with "unknown type 'unimplemented-device'".
CONFIG_UNIMP=y

"""gemlab_test - the one Python library of gemlab's tests and benchmarks.

  qmp      the QMP client (QEMU's docs/interop/qmp-spec.txt)
  console  the serial console reader (@gemlab JSON lines, docs/schema.md)
  board    the Zynq QEMU command line and a booted board
  net      free ports, network namespaces and taps
  proc     /proc readers (CPU time, RSS, schedstat)
  pcapng   the pcapng reader (draft-ietf-opsawg-pcapng)
  iperf    host iperf 2 / iperf 3 drivers and their output parsers
  results  accessors for a run directory's results.json
  junit    JUnit XML for the suites that are not pytest (qemu-test.sh)
  paths    where the tree, the build and our QEMU are

Add tests/lib to sys.path (tests/pytest.ini does it with `pythonpath`).
"""

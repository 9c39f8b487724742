# inst.c is #included by the test (pump_serial and handle_line are static).
runner_console_LIBGEMLAB := 1

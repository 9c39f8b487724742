# inst.c is #included by the target (pump_serial is static).
runner_console_LIBGEMLAB := 1
runner_console_ARGS := -max_len=16384

pcapng_ARGS := -max_len=2048

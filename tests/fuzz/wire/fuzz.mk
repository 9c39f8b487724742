wire_ARGS := -max_len=1024

wire_ARGS := -max_len=384

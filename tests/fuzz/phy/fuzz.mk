phy_ARGS := -max_len=512

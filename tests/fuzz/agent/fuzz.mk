agent_SRCS := firmware/linux/agent/agent_cmd.c
agent_CFLAGS := -I$(TOP)/firmware/linux/agent
agent_LDLIBS := -lcjson
agent_NOMODELS := 1
agent_ARGS := -max_len=4096

agent_cmd_SRCS := firmware/linux/agent/agent_cmd.c
agent_cmd_CFLAGS := -I$(TOP)/firmware/linux/agent
agent_cmd_NOMODELS := 1

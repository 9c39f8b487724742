agent_proc_SRCS := firmware/linux/agent/agent_proc.c
agent_proc_CFLAGS := -I$(TOP)/firmware/linux/agent
agent_proc_NOMODELS := 1

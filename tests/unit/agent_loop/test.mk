# The Linux guest agent's console loop (firmware/linux/agent/agent.c main)
# on the host: test_agent_loop.c #includes agent.c with main renamed and
# links the rest of the agent as the image build does.
agent_loop_SRCS := firmware/linux/agent/agent_cmd.c firmware/linux/agent/agent_net.c \
                   firmware/linux/agent/agent_proc.c firmware/linux/agent/agent_run.c \
                   firmware/baremetal/lib/glout.c
agent_loop_CFLAGS := -I$(TOP)/firmware/linux/agent -I$(TOP)/firmware/baremetal/include \
                     -DGLOUT_SRC='"linux"'
agent_loop_NOMODELS := 1

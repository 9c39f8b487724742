/*
 * repro_flatten_bracket.c - agent_json_object_flatten() can report a span
 * that ends in ']' instead of the matching '}'.
 *
 * Found by tests/fuzz/agent (input: flatten_span_ends_in_bracket.bin).
 * firmware/linux/agent/agent_cmd.c counts '{' and '[' as one depth, so in
 * 'x { "a": ] }' the ']' closes the object and the span is '{ "a": ]':
 * "true with [*start, *end)" but not a JSON object, contrary to agent_cmd.h
 * ("from the first '{' to the matching '}'").  Harmless for well-formed
 * iperf3 output; with garbled output the runner receives a line that is
 * not JSON instead of the agent saying there is no object.  Possible fix:
 * keep a small stack of expected closers (or return false when a closer
 * does not match its opener).
 *
 *   cc -Ifirmware/linux/agent firmware/linux/agent/agent_cmd.c \
 *      tests/fuzz/agent/crashes-found/repro_flatten_bracket.c && ./a.out
 */
#include <stdio.h>

#include "agent_cmd.h"

int main(void)
{
    char text[] = "x { \"a\": ] }";
    size_t start, end;

    if (!agent_json_object_flatten(text, &start, &end)) {
        puts("no object (fixed)");
        return 0;
    }
    printf("span: %.*s\n", (int)(end - start), text + start);
    return text[end - 1] != '}';    /* 1 = bug present */
}

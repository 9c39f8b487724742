/* codes.c - the code table behind codes.h. */
#include "codes.h"

#include <string.h>

static const struct {
    const char *name;
    enum dg_layer layer;
} codes[DG_NCODES] = {
#define DG_ROW(name, layer) { #name, DG_LAYER_##layer },
    DG_CODES(DG_ROW)
#undef DG_ROW
};

const char *dg_code_name(enum dg_code c)
{
    return (unsigned)c < DG_NCODES ? codes[c].name : NULL;
}

int dg_code_lookup(const char *name)
{
    for (int i = 0; i < DG_NCODES; i++)
        if (strcmp(codes[i].name, name) == 0)
            return i;
    return -1;
}

enum dg_layer dg_code_layer(enum dg_code c)
{
    return codes[c].layer;
}

const char *dg_layer_name(enum dg_layer l)
{
    static const char *names[] = { "physical", "mac", "protocol", "method", "baseline" };
    return (unsigned)l < sizeof(names) / sizeof(names[0]) ? names[l] : "?";
}

/* results_schema.c - see results_schema.h. */
#include "results_schema.h"

#include <string.h>

const struct rs_field rs_fields[RS_COUNT] = {
#define RS_ROW(id, p, t, d) [RS_##id] = { p, t, d },
    RESULTS_FIELDS(RS_ROW)
#undef RS_ROW
};

const struct rs_field *rs_lookup(const char *path)
{
    const struct rs_field *tree = NULL;

    for (size_t i = 0; i < RS_COUNT; i++) {
        const struct rs_field *f = &rs_fields[i];
        size_t n = strlen(f->path);

        if (!strcmp(f->path, path))
            return f;
        /* inside a tree: "tree." or "tree[" follows its path */
        if (f->type == RS_TREE && !strncmp(f->path, path, n) && (path[n] == '.' || path[n] == '['))
            tree = f;
    }
    return tree;
}

static const char *type_word(enum rs_type t)
{
    switch (t) {
    case RS_NUM:
        return "number";
    case RS_STR:
        return "string";
    case RS_BOOL:
        return "boolean";
    case RS_ARR:
        return "array";
    case RS_TREE:
        return "object (RESULTS.md)";
    }
    return "?";
}

void rs_write_markdown(FILE *out)
{
    fputs("| field | type | what |\n|---|---|---|\n", out);
    for (size_t i = 0; i < RS_COUNT; i++)
        fprintf(out, "| `%s` | %s | %s |\n", rs_fields[i].path, type_word(rs_fields[i].type), rs_fields[i].doc);
}

/*
 * fuzz_glout.c - libFuzzer target: the firmware's "@gemlab {json}" line
 * writer (firmware/baremetal/lib/glout.c) under arbitrary member
 * sequences, keys and values (any bytes, control characters, NaN,
 * infinities, deep nesting, tiny buffers).
 *
 * The target mirrors every call into a cJSON tree of what the line should
 * say.  When glout_end() returns 0 the line must be the marker plus one
 * JSON object that cJSON parses, with "v":1, "src" and "type", equal to
 * the mirror (numbers from glout_dbl within half a unit of the last digit;
 * NaN, infinities and values too large for the fixed-point writer as
 * null).  Otherwise it returns -ENOSPC, which it must do whenever the
 * nesting was too deep or unbalanced (and may do when the line does not
 * fit; that length is not modelled here).  The line
 * buffer is an exact heap allocation so ASan sees any write past cap.
 * glout_fmt_fixed() is also checked on its own against strtod.
 */
#include <errno.h>
#include <float.h>
#include <math.h>

#include <cjson/cJSON.h>

#include "glout.h"

#include "../common/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The firmware's console hook; never called (the target uses glout_end). */
void glout_putline(const char *line)
{
    (void)line;
}

static double fixed_value(double v, unsigned prec, bool *is_null)
{
    char tmp[40];

    glout_fmt_fixed(tmp, sizeof(tmp), v, prec);
    *is_null = tmp[0] == '\0' || strcmp(tmp, "null") == 0;
    return *is_null ? 0.0 : strtod(tmp, NULL);
}

static void check_fixed(double v, unsigned prec, size_t cap)
{
    char out[48];
    bool null;

    memset(out, 'X', sizeof(out));
    glout_fmt_fixed(out, cap, v, prec);
    if (cap && !memchr(out, '\0', cap)) {
        fz_fail("fmt_fixed(%g, %u, cap %zu): not terminated", v, prec, cap);
    }
    if (cap < sizeof(out) && out[cap] != 'X') {
        fz_fail("fmt_fixed(%g, %u, cap %zu): wrote past cap", v, prec, cap);
    }
    double got = fixed_value(v, prec, &null);
    unsigned p = prec > 9 ? 9 : prec;
    if (!null) {
        double tol = 0.5 * pow(10.0, -(double)p) * (1.0 + 1e-9) +
                     fabs(v) * 4 * DBL_EPSILON;
        if (!isfinite(v) || fabs(got - v) > tol) {
            fz_fail("fmt_fixed(%.17g, %u) = %.17g", v, prec, got);
        }
    } else if (isfinite(v) && fabs(v) * pow(10.0, p) < 1e18) {
        fz_fail("fmt_fixed(%.17g, %u) = null", v, prec);
    }
}

/* Member by member in order: keys may repeat, which cJSON_Compare's
 * lookup by name cannot tell apart. */
static bool same(const cJSON *a, const cJSON *b)
{
    if ((a->type & 0xFF) != (b->type & 0xFF) ||
        (a->string == NULL) != (b->string == NULL) ||
        (a->string && strcmp(a->string, b->string) != 0)) {
        return false;
    }
    if (cJSON_IsString(a)) {
        return strcmp(a->valuestring, b->valuestring) == 0;
    }
    if (cJSON_IsNumber(a)) {
        return a->valuedouble == b->valuedouble ||
               fabs(a->valuedouble - b->valuedouble) <=
               fabs(a->valuedouble) * 4 * DBL_EPSILON;
    }
    if (cJSON_IsArray(a) || cJSON_IsObject(a)) {
        const cJSON *x = a->child, *y = b->child;
        for (; x && y; x = x->next, y = y->next) {
            if (!same(x, y)) {
                return false;
            }
        }
        return x == NULL && y == NULL;
    }
    return true;    /* true, false, null: the type said it all */
}

struct level {
    cJSON *node;        /* mirror object or array */
    bool array;
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct level st[GLOUT_MAX_DEPTH + 2];
    int depth = 0;
    bool misuse = false;        /* too deep / unbalanced: must fail */
    struct glout g;
    struct fz f;
    char type[24], key[64], val[200];

    fz_init(&f, data, size);
    size_t cap = fz_u8(&f) & 0x80u ? fz_u16(&f) % 1024u : GLOUT_LINE_MAX;
    char *buf = malloc(cap ? cap : 1);
    if (!buf) {
        return 0;
    }
    fz_str(&f, type, sizeof(type) - 1);
    glout_begin(&g, buf, cap, type);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "v", GLOUT_VERSION);
    cJSON_AddStringToObject(root, "src", GLOUT_SRC);
    cJSON_AddStringToObject(root, "type", type);
    st[0] = (struct level){ root, false };

    while (!fz_empty(&f)) {
        uint8_t op = fz_u8(&f);
        bool arr = st[depth].array;
        const char *k = NULL;
        cJSON *item = NULL;

        /* A key exactly inside objects: glout trusts its caller here
         * (a NULL key in an object or a key in an array is not detected). */
        if (!arr) {
            fz_str(&f, key, sizeof(key) - 1);
            k = key;
        }
        switch (op & 0xFu) {
        case 0:
        case 1:
            fz_str(&f, val, sizeof(val) - 1);
            glout_str(&g, k, val);
            item = cJSON_CreateString(val);
            break;
        case 2: {
            int64_t v = (int64_t)fz_u64(&f);
            glout_int(&g, k, v);
            item = cJSON_CreateNumber((double)v);
            break;
        }
        case 3: {
            uint64_t v = fz_u64(&f);
            glout_u64(&g, k, v);
            item = cJSON_CreateNumber((double)v);
            break;
        }
        case 4:
            glout_bool(&g, k, op & 0x10u);
            item = cJSON_CreateBool(op & 0x10u);
            break;
        case 5:
            glout_null(&g, k);
            item = cJSON_CreateNull();
            break;
        case 6:
        case 7: {
            double v = fz_double(&f, 1e6);
            unsigned prec = fz_u8(&f) % 12u;
            bool null;
            double want = fixed_value(v, prec, &null);
            glout_dbl(&g, k, v, prec);
            item = null ? cJSON_CreateNull() : cJSON_CreateNumber(want);
            check_fixed(v, prec, fz_u8(&f) % 48u);
            break;
        }
        case 8:
        case 9:
        case 10:
        case 11: {
            bool a = op & 1u;
            if (a) {
                glout_arr_begin(&g, k);
            } else {
                glout_obj_begin(&g, k);
            }
            if (depth >= GLOUT_MAX_DEPTH) {
                misuse = true;
                break;
            }
            cJSON *n = a ? cJSON_CreateArray() : cJSON_CreateObject();
            if (k) {
                cJSON_AddItemToObject(st[depth].node, k, n);
            } else {
                cJSON_AddItemToArray(st[depth].node, n);
            }
            st[++depth] = (struct level){ n, a };
            break;
        }
        default: {
            bool a = op & 1u;   /* which closer: may not match (misuse) */
            if (a) {
                glout_arr_end(&g);
            } else {
                glout_obj_end(&g);
            }
            if (depth == 0 || st[depth].array != a) {
                misuse = true;
            } else {
                depth--;
            }
            break;
        }
        }
        if (item) {
            if (k) {
                cJSON_AddItemToObject(st[depth].node, k, item);
            } else {
                cJSON_AddItemToArray(st[depth].node, item);
            }
        }
    }

    int rc = glout_end(&g);
    if (rc == 0) {
        if (misuse) {
            fz_fail("glout_end accepted an unbalanced or too deep line");
        }
        if (memchr(buf, '\0', cap) == NULL ||
            strncmp(buf, GLOUT_MARKER, strlen(GLOUT_MARKER)) != 0) {
            fz_fail("line without marker or NUL");
        }
        const char *end = NULL;
        cJSON *got = cJSON_ParseWithOpts(buf + strlen(GLOUT_MARKER), &end,
                                         true);
        if (!cJSON_IsObject(got)) {
            fz_fail("line is not one JSON object: %s", buf);
        }
        if (!same(got, root)) {
            char *want = cJSON_PrintUnformatted(root);
            fz_fail("line says %s\nwant %s", buf, want ? want : "?");
        }
        cJSON_Delete(got);
    } else if (rc != -ENOSPC) {
        fz_fail("glout_end: %d", rc);
    }
    cJSON_Delete(root);
    free(buf);
    return 0;
}

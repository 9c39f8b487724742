/* glout.h - one-line JSON result writer behind the "@gemlab " marker.
 *
 * Every result, progress report and event the firmware prints is one line:
 *
 *   @gemlab {"v":1,"src":"baremetal","type":"result",...}
 *
 * The schema is in docs/schema.md.  The writer formats into a caller-owned
 * buffer (no malloc, no printf: newlib-nano's printf has neither floats nor
 * long long), then hands the finished line to glout_putline(), a weak hook
 * the platform may override (default: puts()).
 *
 * A write that does not fit sets a sticky overflow flag; glout_end() then
 * fails and nothing is printed, so a truncated JSON line never reaches the
 * host parser.
 */
#ifndef GEMLAB_GLOUT_H
#define GEMLAB_GLOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GLOUT_MARKER "@gemlab "
#define GLOUT_VERSION 1
#ifndef GLOUT_SRC
#define GLOUT_SRC "baremetal"
#endif
#define GLOUT_MAX_DEPTH 4       /* nested objects/arrays below the envelope */
#define GLOUT_LINE_MAX 512      /* size of the buffer glout_line users keep */

struct glout {
    char *buf;          /* caller-owned; holds the line being built */
    size_t cap;
    size_t len;
    bool overflow;      /* sticky: some write did not fit */
    uint8_t depth;      /* 0 = envelope object */
    bool need_comma[GLOUT_MAX_DEPTH + 1];
    char closer[GLOUT_MAX_DEPTH + 1]; /* '}' or ']' for each open container */
};

/* Start a line: marker plus envelope {"v":1,"src":GLOUT_SRC,"type":type. */
void glout_begin(struct glout *g, char *buf, size_t cap, const char *type);

/* Members.  key is the member name inside an object; pass NULL for an
 * element inside an array. */
void glout_str(struct glout *g, const char *key, const char *val);
void glout_int(struct glout *g, const char *key, int64_t val);
void glout_u64(struct glout *g, const char *key, uint64_t val);
void glout_bool(struct glout *g, const char *key, bool val);
void glout_null(struct glout *g, const char *key);
/* val with exactly prec (0..9) digits after the point, rounded half away
 * from zero; NaN and infinities are written as null (JSON has neither). */
void glout_dbl(struct glout *g, const char *key, double val, unsigned prec);
void glout_obj_begin(struct glout *g, const char *key);
void glout_obj_end(struct glout *g);
void glout_arr_begin(struct glout *g, const char *key);
void glout_arr_end(struct glout *g);

/* Close the envelope (and any object/array left open).  Returns 0 and the
 * NUL-terminated line stays in buf, or -ENOSPC if anything was dropped. */
int glout_end(struct glout *g);
/* glout_end() then glout_putline().  Returns glout_end()'s result. */
int glout_emit(struct glout *g);

/* Console hook, weak: the default writes the line and a newline with puts(). */
void glout_putline(const char *line);

/* printf-style human-readable line through glout_putline() (truncated at
 * GLOUT_LINE_MAX).  Integer conversions only on firmware: use the
 * formatters below for uint64_t and fixed-point values. */
void glout_textf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Decimal text of v into out (at least 21 bytes).  Returns out. */
char *glout_fmt_u64(char *out, uint64_t v);
/* Fixed-point text of v with prec digits into out (cap bytes).  Returns out
 * ("null" for NaN/inf, "" if it does not fit). */
char *glout_fmt_fixed(char *out, size_t cap, double v, unsigned prec);

#endif /* GEMLAB_GLOUT_H */

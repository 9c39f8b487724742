/*
 * fuzz_input.h - consume a libFuzzer input as typed values (the C shape of
 * LLVM's FuzzedDataProvider), so every target reads bytes the same way.
 *
 * Reading past the end yields zeros and never fails: a short input is a
 * valid, shorter program.  All readers are little-endian.
 */
#ifndef GEMLAB_FUZZ_INPUT_H
#define GEMLAB_FUZZ_INPUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fz {
    const uint8_t *p;
    size_t n;
};

static inline void fz_init(struct fz *f, const uint8_t *data, size_t size)
{
    f->p = data;
    f->n = size;
}

static inline bool fz_empty(const struct fz *f)
{
    return f->n == 0;
}

static inline uint8_t fz_u8(struct fz *f)
{
    if (!f->n) {
        return 0;
    }
    f->n--;
    return *f->p++;
}

static inline uint16_t fz_u16(struct fz *f)
{
    uint16_t lo = fz_u8(f);
    return (uint16_t)(lo | (uint16_t)fz_u8(f) << 8);
}

static inline uint32_t fz_u32(struct fz *f)
{
    uint32_t lo = fz_u16(f);
    return lo | (uint32_t)fz_u16(f) << 16;
}

static inline uint64_t fz_u64(struct fz *f)
{
    uint64_t lo = fz_u32(f);
    return lo | (uint64_t)fz_u32(f) << 32;
}

static inline bool fz_bool(struct fz *f)
{
    return fz_u8(f) & 1u;
}

/* Up to @max bytes (at most what is left) into a NUL-terminated string;
 * the length is the next byte.  @buf holds max + 1. */
static inline size_t fz_str(struct fz *f, char *buf, size_t max)
{
    size_t len = fz_u8(f);

    if (len > max) {
        len = max;
    }
    if (len > f->n) {
        len = f->n;
    }
    memcpy(buf, f->p, len);
    buf[len] = '\0';
    f->p += len;
    f->n -= len;
    return len;
}

/* A double that is often a "nice" value near a range: the selector byte
 * picks a special (NaN, infinities, negative, huge, boundary) or a raw
 * 64-bit pattern, or a fraction of @hi. */
static inline double fz_double(struct fz *f, double hi)
{
    uint8_t k = fz_u8(f);
    switch (k & 7u) {
    case 0:
        return 0.0;
    case 1:
        return hi;
    case 2: {
        uint64_t bits = fz_u64(f);
        double d;
        memcpy(&d, &bits, sizeof(d));
        return d;               /* anything: NaN, inf, denormals */
    }
    case 3:
        return -(double)fz_u16(f) / 100.0;
    case 4:
        return hi + (double)fz_u16(f) / 1000.0;
    default:
        return hi * ((double)fz_u16(f) / 65535.0);
    }
}

/* Abort with a message: libFuzzer records the input as a crash. */
__attribute__((noreturn, format(printf, 1, 2)))
static inline void fz_fail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fputs("fuzz invariant broken: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

#endif /* GEMLAB_FUZZ_INPUT_H */

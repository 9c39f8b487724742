/* err.c - error messages for the model library (see gemlab/err.h). */
#include "gemlab/err.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

int gl_err_set(struct gl_err *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
    }
    return code;
}

int gl_check_u64(struct gl_err *err, const char *field, unsigned long long v,
                 unsigned long long lo, unsigned long long hi, const char *unit)
{
    if (v >= lo && v <= hi) {
        return 0;
    }
    return gl_err_set(err, -EINVAL, "%s: %llu is out of range [%llu, %llu]%s%s",
                      field, v, lo, hi, unit ? " " : "", unit ? unit : "");
}

int gl_check_double(struct gl_err *err, const char *field, double v,
                    double lo, double hi, const char *unit)
{
    /* NaN fails both comparisons and is rejected. */
    if (v >= lo && v <= hi) {
        return 0;
    }
    return gl_err_set(err, -EINVAL, "%s: %g is out of range [%g, %g]%s%s",
                      field, v, lo, hi, unit ? " " : "", unit ? unit : "");
}

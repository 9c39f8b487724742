/*
 * gemlab/err.h - the model library's one error convention.
 *
 * Every configuration call returns 0 on success or a negative errno
 * (-EINVAL for a value out of range).  When it fails it also fills an
 * optional struct gl_err with a message that names the field and the
 * allowed range, e.g. "wire.loss_pct: 120 is out of range [0, 100]".
 * Callers that do not care pass NULL.  Nothing in the library asserts or
 * aborts on user input; asserts guard internal invariants only.
 */
#ifndef GEMLAB_ERR_H
#define GEMLAB_ERR_H

#include <errno.h>
#include <stddef.h>

#define GL_ERR_MSG_MAX 200

struct gl_err {
    char msg[GL_ERR_MSG_MAX];
};

/*
 * Format a message into @err (if non-NULL) and return @code (a negative
 * errno) so a validator can write `return gl_err_set(err, -EINVAL, ...)`.
 */
int gl_err_set(struct gl_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Range checks used by every validator.  They return 0 when @v lies in
 * [lo, hi], otherwise -EINVAL with "FIELD: V is out of range [LO, HI] UNIT".
 */
int gl_check_u64(struct gl_err *err, const char *field, unsigned long long v,
                 unsigned long long lo, unsigned long long hi, const char *unit);
int gl_check_double(struct gl_err *err, const char *field, double v,
                    double lo, double hi, const char *unit);

#endif /* GEMLAB_ERR_H */

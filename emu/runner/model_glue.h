/*
 * model_glue.h - the runner's only door into the model library's parsers
 * and validators (models/include/gemlab/{phy,wire}.h), so scenario values
 * are judged by exactly the code QEMU's properties use.
 *
 * Returns 0 or a negative errno; @msg receives the model's message.
 */
#ifndef GEMLAB_RUNNER_MODEL_GLUE_H
#define GEMLAB_RUNNER_MODEL_GLUE_H

#include <stddef.h>

#include <gemlab/err.h>

struct scenario;

enum glue_kind {
    GLUE_ABILITIES,     /* gl_phy_parse_abilities */
    GLUE_LOSS,          /* gl_wire_parse_loss */
    GLUE_CABLE,         /* gl_phy_parse_cable */
    GLUE_JITTER_DIST,   /* gl_wire_parse_jitter_dist */
    GLUE_MS,            /* gl_phy_parse_ms */
};

int glue_check(enum glue_kind kind, const char *text, char *msg, size_t len);

/* Build the PHY and wire parameters a scenario's [link] describes and run
 * the model's own validators over them (cross-field rules such as
 * reorder needing latency).  On an error, *@key (when not NULL) is the
 * SK_LINK_* key whose model field the message names, or -1. */
int glue_validate_link(const struct scenario *s, char *msg, size_t len, int *key);

/* Resolved abilities bitmask (GL_ABIL_*) of a partner string; 0 on error. */
unsigned glue_abilities(const char *text);

#endif

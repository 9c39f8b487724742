/*
 * qom.h - QMP/QOM look-ups on a running instance.  0 or a negative errno.
 */
#ifndef GEMLAB_RUNNER_QOM_H
#define GEMLAB_RUNNER_QOM_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "qmp.h"

/* The GEM's QOM path: the first child<cadence_gem> under /machine (ours:
 * gem0) or /machine/unattached (stock).  -ENOENT if none. */
int qom_find_gem(struct qmp *q, char *path, size_t len);
/* 10/100/1000 from GEM0's NWCFG (side-effect-free monitor read); NAN if unknown. */
double qom_read_mac_speed(struct qmp *q);
/* The model's read-only link state and counters that @props (the device's
 * property list) offers, names with '-' -> '_'.  Caller frees. */
cJSON *qom_collect_model(struct qmp *q, const char *gem, const char *props);

#endif

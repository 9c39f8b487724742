/*
 * qom.h - QMP/QOM look-ups on a running instance.  0 or a negative errno.
 */
#ifndef GEMLAB_RUNNER_QOM_H
#define GEMLAB_RUNNER_QOM_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "qmp.h"

/* The QOM path of the link model's properties: GEM/gemlab-link on our
 * QEMU 10.0, the GEM itself on our 7.2 and stock QEMU (the GEM is the
 * first child<cadence_gem> under /machine, or /machine/unattached on
 * stock).  -ENOENT if there is no GEM. */
int qom_find_link(struct qmp *q, char *path, size_t len);
/* 10/100/1000 from GEM0's NWCFG (side-effect-free monitor read); NAN if unknown. */
double qom_read_mac_speed(struct qmp *q);
/* The model's read-only link state and counters that @props (the device's
 * property list) offers, names with '-' -> '_'.  Caller frees. */
cJSON *qom_collect_model(struct qmp *q, const char *gem, const char *props);

#endif

/*
 * gemlab/time.h - time conventions shared by every model.
 *
 * Time is always an input: a uint64_t count of nanoseconds on the host's
 * clock (QEMU_CLOCK_VIRTUAL in the emulator, a plain counter in tests).
 * A model's step function returns its next deadline on that clock, or
 * GL_NEVER when nothing is pending until the caller changes something.
 */
#ifndef GEMLAB_TIME_H
#define GEMLAB_TIME_H

#include <stdint.h>

/* "No deadline": the largest representable time. */
#define GL_NEVER UINT64_MAX

#define GL_NS_PER_US 1000ULL
#define GL_NS_PER_MS 1000000ULL
#define GL_NS_PER_S  1000000000ULL

#endif /* GEMLAB_TIME_H */

/*
 * units.h - strict parsers for the numbers scenario files and flags carry.
 *
 * Error convention (the whole runner): functions return 0 on success or a
 * negative errno (-EINVAL malformed, -ERANGE out of range).  Parsers never
 * accept leading/trailing junk, signs, NaN/inf or hex; the caller adds the
 * file:line.  Ranges are checked by the caller against its key table.
 */
#ifndef GEMLAB_RUNNER_UNITS_H
#define GEMLAB_RUNNER_UNITS_H

#include <stdbool.h>
#include <stdint.h>

/* Plain decimal integer, no sign, no suffix. */
int un_parse_u64(const char *s, uint64_t *out);

/* Non-negative finite decimal number ("2.5"); no exponent, no sign. */
int un_parse_num(const char *s, double *out);

/* Duration with a mandatory unit ns|us|ms|s ("0" alone is allowed):
 * "2.5s" -> 2500000000.  At most 1e15 ns (about 11.5 days). */
int un_parse_time_ns(const char *s, uint64_t *ns);

/* Bit rate, decimal multipliers as iperf uses them: "200M", "941.5M",
 * "1G", "64k", optional "bps" / "bit/s" / "b/s" suffix, lower case: a
 * byte rate ("100MB/s", "1GBps") is refused.  At most 1e12. */
int un_parse_rate_bps(const char *s, double *bps);

/* Byte count, binary multipliers like iperf's -w/-l: "256K" = 262144,
 * "1M"; optional "B".  At most 2^40. */
int un_parse_bytes(const char *s, uint64_t *bytes);

/* Percentage 0..100 with an optional '%' ("1%", "0.5"). */
int un_parse_pct(const char *s, double *pct);

/* yes|no|on|off|true|false|1|0 */
int un_parse_bool(const char *s, bool *b);

#endif

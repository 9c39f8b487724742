/*
 * capture.h - the wire capture as bench evidence.
 *
 * RUN_DIR/wire.pcapng is what QEMU's cadence_gem `pcap` property wrote:
 * every frame on the board's cable, at the board's end, with its direction
 * (epb_flags inbound = to the board) and FCS state.  That is what a real
 * engineer gets from a mirror port or a tap on the cable, so the diagnosis
 * may read what this module derives from it:
 *
 *   - TCP retransmissions per direction: a segment carrying payload whose
 *     sequence number is below the highest one already sent (RFC 793 3.3
 *     sequence space, compared modulo 2^32 as in RFC 1982);
 *   - round-trip times measured at the board: a segment the board sent
 *     (SYN, SYN-ACK or data sent once: Karn's rule, RFC 6298 3) until the
 *     first frame back that acknowledges it; so an RTT needs the board to
 *     send something that is answered, which every TCP handshake does;
 *   - windows: the largest window each receiver advertised, scaled by the
 *     shift both SYNs announced (RFC 7323 2.2), zero-window advertisements,
 *     and the most bytes the sender had in flight: the board's, sent and
 *     not acked (the tap is at its end); the partner's, the most that
 *     arrived within one handshake RTT (at the receiver's end that is
 *     what a window-bound sender sends per round trip);
 *   - frames with a bad FCS (epb_flags bit 24);
 *   - the path into the board: how close together the partner's
 *     full-size frames arrive (packet dispersion), the rate of the
 *     narrowest hop they crossed.
 *
 * Segments are analysed in timestamp order, the order the tap saw, not in
 * the file's (QEMU writes a sent frame when the far end gets it).
 *
 * Errors: 0 or a negative errno, with a message naming the file on @err.
 */
#ifndef GEMLAB_RUNNER_CAPTURE_H
#define GEMLAB_RUNNER_CAPTURE_H

#include <stdio.h>

#include <cjson/cJSON.h>

#define CAP_FILE "wire.pcapng"
/* The bytes kept of each frame (pcap-snaplen), as `tcpdump -s 96` on a
 * mirror port: Ethernet 14 + IPv4 20 + TCP 60 (the longest header, RFC
 * 9293 3.1) = 94, so every TCP header and option is kept; an IPv6 one
 * (40) keeps its base header and the options a SYN carries.  Payload is
 * left out: nothing here reads it.  A full-size frame then takes 140
 * bytes of the file instead of 1560 (gl_pcapng_epb_size). */
#define CAP_SNAPLEN 96u
/* The capture's size cap (pcap-max-bytes).  With CAP_SNAPLEN, 64 MiB
 * holds about 4 s of a 1000 Mb/s TCP test (81k full-size frames and 40k
 * ACKs a second, at 140 and 112 bytes), 40 s at 100 Mb/s; frames past it
 * are not captured (the file stays valid, "truncated" in results.json). */
#define CAP_MAX_BYTES (64ull << 20)
#define CAP_MAX_FLOWS 32

/* Read @path and return the "capture" object of results.json
 * (emu/runner/RESULTS.md).  0, or a negative errno (message on @err);
 * *@out is NULL then. */
int cap_analyse(const char *path, cJSON **out, FILE *err);
/* The same on an open stream (read from its current position, not
 * closed); @name for messages.  The fuzz target's entry. */
int cap_analyse_stream(FILE *f, const char *name, cJSON **out, FILE *err);

#endif

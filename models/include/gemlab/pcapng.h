/*
 * gemlab/pcapng.h - a minimal pcapng writer: one section, one Ethernet
 * interface with nanosecond timestamps, one Enhanced Packet Block per
 * frame carrying its direction and CRC-error state in epb_flags.
 *
 * Format: the pcapng draft, draft-ietf-opsawg-pcapng (IETF OPSAWG):
 *   3.1   general block structure (type, length, body, length again; every
 *         block a multiple of 4 bytes)
 *   3.5   options (code, length, value padded to 32 bits; opt_comment = 1,
 *         opt_endofopt = 0)
 *   4.1   Section Header Block (byte-order magic 0x1A2B3C4D, v1.0,
 *         section length -1 = unknown)
 *   4.2   Interface Description Block (LINKTYPE_ETHERNET, snaplen,
 *         if_tsresol = 9: timestamps in units of 10^-9 s)
 *   4.3   Enhanced Packet Block (interface id, 64-bit timestamp split high
 *         and low, captured and original length, data padded to 32 bits)
 *   4.3.1 epb_flags word: bits 0-1 direction (1 inbound, 2 outbound),
 *         bits 24-31 link-layer-dependent errors, bit 24 = CRC error.
 * Everything is written little-endian (the SHB's magic tells readers).
 *
 * Like every model, the writer takes time as an argument and knows
 * nothing of QEMU: the caller opens the file (QEMU's cadence_gem uses
 * O_CREAT|O_EXCL|O_NOFOLLOW) and hands over a FILE*.  Errors follow
 * gemlab/err.h: 0 or a negative errno, with an optional message.
 */
#ifndef GEMLAB_PCAPNG_H
#define GEMLAB_PCAPNG_H

#include "gemlab/err.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Block types (4.1, 4.2, 4.3) and option codes (3.5, 4.3 Table 4). */
#define GL_PCAPNG_SHB 0x0A0D0D0Au
#define GL_PCAPNG_IDB 0x00000001u
#define GL_PCAPNG_EPB 0x00000006u
#define GL_PCAPNG_BOM 0x1A2B3C4Du
#define GL_PCAPNG_OPT_END 0
#define GL_PCAPNG_OPT_COMMENT 1
#define GL_PCAPNG_OPT_EPB_FLAGS 2
#define GL_PCAPNG_OPT_IF_TSRESOL 9
#define GL_PCAPNG_LINKTYPE_ETHERNET 1

/* epb_flags bits (4.3.1). */
#define GL_PCAPNG_FLAG_INBOUND 1u
#define GL_PCAPNG_FLAG_OUTBOUND 2u
#define GL_PCAPNG_FLAG_CRC_ERR (1u << 24)

/* The longest frame written (whole frames: the IDB's snaplen when no
 * shorter one is asked for); a longer frame is refused. */
#define GL_PCAPNG_SNAPLEN 65535u
/* Shortest snaplen accepted: the Ethernet, IPv4 and TCP headers without
 * options (14 + 20 + 20 = 54 bytes) fit, rounded up to 64. */
#define GL_PCAPNG_SNAPLEN_MIN 64u
/* Longest opt_comment (the option length is 16 bits). */
#define GL_PCAPNG_COMMENT_MAX 65532u

/* SHB + IDB, the bytes gl_pcapng_start() writes. */
#define GL_PCAPNG_HEADER_BYTES 60u

/* Range of the size cap (QEMU's cadence_gem pcap-max-bytes). */
#define GL_PCAPNG_MAX_MIN 4096ull
#define GL_PCAPNG_MAX_MAX (1ull << 40)
#define GL_PCAPNG_MAX_DEFAULT (1ull << 30)

struct gl_pcapng {
    FILE *f;              /* not owned: the caller closes it */
    uint64_t max_bytes;   /* the cap: the file never grows past it */
    uint32_t snaplen;     /* bytes kept of each frame (IDB snaplen) */
    uint64_t bytes;       /* written so far (headers included) */
    uint64_t frames;      /* EPBs written */
    uint64_t refused;     /* frames left out because of the cap */
    bool full;            /* a frame did not fit: every later one is refused */
};

/*
 * Check @max_bytes and @snaplen, then write the SHB and the IDB (with
 * @snaplen) to @f and flush.  Each frame keeps its first @snaplen bytes
 * (GL_PCAPNG_SNAPLEN: whole frames), as `tcpdump -s` does; its original
 * length is kept in the EPB (4.3).
 * -EINVAL (f NULL, the cap or the snaplen out of range, "pcap-max-bytes:
 * ..." or "pcap-snaplen: ...") or -EIO when the write fails.
 */
int gl_pcapng_start(struct gl_pcapng *p, FILE *f, uint64_t max_bytes,
                    uint32_t snaplen, struct gl_err *err);

/* Bytes one EPB takes for @len captured bytes (the frame's length, or the
 * snaplen when shorter) and a comment of @clen bytes (@has_comment false:
 * no opt_comment at all). */
uint32_t gl_pcapng_epb_size(uint32_t len, bool has_comment, uint32_t clen);

/*
 * Append one frame as an EPB at @t_ns (ns, interface 0) with epb_flags
 * inbound or outbound, plus the CRC-error bit when @bad_fcs, plus an
 * opt_comment when @comment is non-NULL; then flush.
 * Returns 0 when written;
 *   -ENOSPC when the EPB would take the file past max_bytes: nothing is
 *           written, p->full is set and every later frame is refused too,
 *           so the file stays a valid pcapng (p->refused counts them);
 *   -EINVAL for a frame longer than GL_PCAPNG_SNAPLEN, data NULL with a
 *           non-zero length, or a comment longer than GL_PCAPNG_COMMENT_MAX;
 *   -EIO    when the write fails.
 */
int gl_pcapng_frame(struct gl_pcapng *p, uint64_t t_ns, bool inbound,
                    const void *data, uint32_t len, bool bad_fcs,
                    const char *comment, struct gl_err *err);

/* ---- Reader ----
 * Reads any pcapng file of Ethernet interfaces (not only this writer's):
 * either byte order per section (4.1), several sections and interfaces,
 * if_tsresol in powers of 10 or 2 (4.2), Enhanced and Simple Packet
 * Blocks (4.3, 4.4); every other block type is skipped.  A malformed file
 * gets an error naming the block and its byte offset; nothing is read past
 * a block's stated length.  No allocation: the block buffer is in the
 * struct (allocate the reader itself on the heap). */

#define GL_PCAPNG_SPB 0x00000003u
#define GL_PCAPNG_READ_BLOCK_MAX (256u * 1024u) /* largest block accepted */
#define GL_PCAPNG_READ_IF_MAX 16u               /* interfaces per section */

struct gl_pcapng_reader {
    FILE *f;                  /* not owned */
    uint64_t offset;          /* of the next block */
    bool in_section, swap;
    uint32_t nif;
    struct {
        uint16_t linktype;
        uint32_t snaplen;
        uint8_t tsresol;      /* raw if_tsresol (default 6: microseconds) */
    } ifs[GL_PCAPNG_READ_IF_MAX];
    uint8_t blk[GL_PCAPNG_READ_BLOCK_MAX];
};

struct gl_pcapng_packet {
    uint64_t t_ns;            /* timestamp in ns (0 for an SPB, which has none) */
    uint32_t interface;
    uint32_t caplen, len;     /* captured and original length */
    uint32_t flags;           /* epb_flags, 0 when absent */
    const uint8_t *data;      /* caplen bytes, valid until the next call */
    /* the EPB's first opt_comment (UTF-8, not NUL-terminated), NULL with
     * 0 bytes when it has none; valid until the next call */
    const uint8_t *comment;
    uint16_t comment_len;
};

/* Start reading @f (at its beginning).  0 or -EINVAL. */
int gl_pcapng_read_open(struct gl_pcapng_reader *r, FILE *f, struct gl_err *err);

/* The next Ethernet packet: 1 and @pk filled, 0 at a clean end of file,
 * -EINVAL for a malformed file (message names the offset) or -EIO. */
int gl_pcapng_read_next(struct gl_pcapng_reader *r, struct gl_pcapng_packet *pk,
                        struct gl_err *err);

#endif /* GEMLAB_PCAPNG_H */

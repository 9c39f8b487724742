/*
 * test_pcapng.c - the pcapng writer (models/src/pcapng.c): the exact
 * header bytes QEMU's cadence_gem wrote before the writer moved to
 * models/, block lengths and 32-bit alignment, epb_flags, opt_comment,
 * the size cap, and the whole file read back by a minimal parser
 * (draft-ietf-opsawg-pcapng 3.1, 4.1-4.3) and by Wireshark's capinfos.
 */
#include "gemlab/pcapng.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

static uint32_t rd32(const uint8_t *b)
{
    return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint16_t rd16(const uint8_t *b)
{
    return (uint16_t)(b[0] | b[1] << 8);
}

/* What the parser found in one EPB. */
struct epb {
    uint64_t ts;
    uint32_t len, flags;
    const uint8_t *data;
    char comment[256];
    bool has_flags, has_comment;
};

/*
 * Minimal reader: SHB then IDB exactly as written, then EPBs; every block
 * length a multiple of 4, equal to its trailer, inside the file; options
 * inside the block and ended by opt_endofopt.  Returns the number of EPBs
 * or -1 (with a message on stderr) for a malformed file.
 */
static int parse(const uint8_t *b, size_t n, struct epb *out, int max)
{
    size_t o = 0;
    int k = 0;

    while (o < n) {
        if (n - o < 12) {
            fprintf(stderr, "parse: %zu trailing bytes at %zu\n", n - o, o);
            return -1;
        }
        uint32_t type = rd32(b + o), len = rd32(b + o + 4);
        if (len < 12 || len % 4 || len > n - o || rd32(b + o + len - 4) != len) {
            fprintf(stderr, "parse: bad block length %u at %zu\n", len, o);
            return -1;
        }
        if (o == 0 && (type != GL_PCAPNG_SHB || len != 28 ||
                       rd32(b + 8) != GL_PCAPNG_BOM)) {
            fprintf(stderr, "parse: no SHB first\n");
            return -1;
        }
        if (o == 28 && (type != GL_PCAPNG_IDB || len != 32)) {
            fprintf(stderr, "parse: no IDB second\n");
            return -1;
        }
        if (o >= 60) {
            if (type != GL_PCAPNG_EPB || len < 32) {
                fprintf(stderr, "parse: block 0x%x at %zu is no EPB\n", type, o);
                return -1;
            }
            struct epb e = { 0 };
            const uint8_t *p = b + o;
            e.ts = (uint64_t)rd32(p + 12) << 32 | rd32(p + 16);
            e.len = rd32(p + 20);
            if (rd32(p + 8) != 0 || rd32(p + 24) != e.len ||
                e.len > len - 32) {
                fprintf(stderr, "parse: bad EPB fields at %zu\n", o);
                return -1;
            }
            e.data = p + 28;
            size_t q = 28 + e.len + ((4 - (e.len & 3)) & 3);
            bool ended = false;
            while (q + 4 <= len - 4) {
                uint16_t code = rd16(p + q), olen = rd16(p + q + 2);
                if (code == GL_PCAPNG_OPT_END) {
                    ended = olen == 0 && q + 4 == len - 4;
                    break;
                }
                size_t step = 4 + olen + ((4 - (olen & 3)) & 3);
                if (q + step > len - 4) {
                    break;
                }
                if (code == GL_PCAPNG_OPT_EPB_FLAGS && olen == 4) {
                    e.flags = rd32(p + q + 4);
                    e.has_flags = true;
                } else if (code == GL_PCAPNG_OPT_COMMENT) {
                    size_t c = olen < sizeof(e.comment) - 1 ? olen
                                                            : sizeof(e.comment) - 1;
                    memcpy(e.comment, p + q + 4, c);
                    e.has_comment = true;
                }
                q += step;
            }
            if (!ended) {
                fprintf(stderr, "parse: options of the EPB at %zu not ended\n", o);
                return -1;
            }
            if (k < max) {
                out[k] = e;
            }
            k++;
        }
        o += len;
    }
    if (o < 60) {
        fprintf(stderr, "parse: no SHB+IDB\n");
        return -1;
    }
    return k;
}

/*
 * A writer into a tmpfile(); mem_read() loads what was written into
 * m->buf (static: under UNIT_TESTING cmocka checks every malloc, so no
 * libc-allocated open_memstream buffer here).
 */
static uint8_t file_buf[1u << 20];

struct mem {
    uint8_t *buf;
    size_t size;
    FILE *f;
    struct gl_pcapng p;
};

static void mem_start(struct mem *m, uint64_t cap)
{
    memset(m, 0, sizeof(*m));
    m->f = tmpfile();
    assert_non_null(m->f);
    m->buf = file_buf;
    assert_int_equal(gl_pcapng_start(&m->p, m->f, cap, GL_PCAPNG_SNAPLEN, NULL), 0);
}

static void mem_read(struct mem *m)
{
    long end;
    assert_int_equal(fflush(m->f), 0);
    end = ftell(m->f);
    assert_true(end >= 0 && (size_t)end <= sizeof(file_buf));
    rewind(m->f);
    m->size = fread(file_buf, 1, (size_t)end, m->f);
    assert_int_equal(m->size, (size_t)end);
    assert_int_equal(fseek(m->f, 0, SEEK_END), 0);
}

static void mem_end(struct mem *m)
{
    fclose(m->f);
}

/* The SHB + IDB bytes patch 0003's gem_pcap_open() wrote, verbatim. */
static const uint8_t qemu_hdr[] = {
    0x0A, 0x0D, 0x0D, 0x0A, 28, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A,
    1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    28, 0, 0, 0,
    1, 0, 0, 0, 32, 0, 0, 0, 1, 0, 0, 0,
    0xFF, 0xFF, 0, 0, 9, 0, 1, 0, 9, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0,
};

static void test_header_is_the_qemu_bytes(void **state)
{
    (void)state;
    struct mem m;
    mem_start(&m, GL_PCAPNG_MAX_DEFAULT);
    mem_read(&m);
    assert_int_equal(m.size, sizeof(qemu_hdr));
    assert_int_equal(m.size, GL_PCAPNG_HEADER_BYTES);
    assert_memory_equal(m.buf, qemu_hdr, sizeof(qemu_hdr));
    assert_int_equal(m.p.bytes, 60);
    mem_end(&m);
}

static void test_epb_bytes_outbound_with_comment(void **state)
{
    (void)state;
    static const uint8_t frame[5] = { 1, 2, 3, 4, 5 };
    /* header 28 + data 5 + pad 3 + flags 8 + comment 4+5+3 + end 4 + len 4 */
    static const uint8_t want[] = {
        6, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 0,
        0x01, 0, 0, 0, 0x88, 0x77, 0x66, 0x55,     /* ts hi, ts lo */
        5, 0, 0, 0, 5, 0, 0, 0,
        1, 2, 3, 4, 5, 0, 0, 0,
        2, 0, 4, 0, 2, 0, 0, 1,                    /* outbound | CRC error */
        1, 0, 5, 0, 'f', 'c', 's', ' ', 'x', 0, 0, 0,
        0, 0, 0, 0, 64, 0, 0, 0,
    };
    struct mem m;
    mem_start(&m, GL_PCAPNG_MAX_DEFAULT);
    assert_int_equal(gl_pcapng_frame(&m.p, 0x155667788ull, false, frame, 5,
                                     true, "fcs x", NULL), 0);
    mem_read(&m);
    assert_int_equal(m.size, 60 + sizeof(want));
    assert_memory_equal(m.buf + 60, want, sizeof(want));
    assert_int_equal(gl_pcapng_epb_size(5, true, 5), sizeof(want));
    assert_int_equal(m.p.bytes, 60 + sizeof(want));
    assert_int_equal(m.p.frames, 1);
    mem_end(&m);
}

static void test_lengths_aligned_for_every_size(void **state)
{
    (void)state;
    static uint8_t frame[1600];
    static const char *comments[] = { NULL, "", "a", "ab", "abc", "abcd",
                                      "dropped: link down" };
    struct epb got[1600 / 97 * 7 + 8];
    struct mem m;
    int n = 0;
    mem_start(&m, GL_PCAPNG_MAX_DEFAULT);
    for (uint32_t len = 0; len <= 1514; len += 97) {
        for (unsigned c = 0; c < 7; c++) {
            uint64_t before = m.p.bytes;
            frame[0] = (uint8_t)len;
            assert_int_equal(gl_pcapng_frame(&m.p, len * 1000 + c, c & 1,
                                             frame, len, c == 2, comments[c],
                                             NULL), 0);
            uint64_t sz = m.p.bytes - before;
            assert_int_equal(sz % 4, 0);
            assert_int_equal(sz, gl_pcapng_epb_size(len, comments[c] != NULL,
                comments[c] ? (uint32_t)strlen(comments[c]) : 0));
            n++;
        }
    }
    mem_read(&m);
    assert_int_equal(m.size, m.p.bytes);
    assert_int_equal(parse(m.buf, m.size, got, n), n);
    for (int i = 0; i < n; i++) {
        uint32_t len = (uint32_t)(i / 7) * 97;
        unsigned c = (unsigned)i % 7;
        assert_int_equal(got[i].len, len);
        assert_int_equal(got[i].ts, len * 1000 + c);
        assert_true(got[i].has_flags);
        assert_int_equal(got[i].flags,
                         ((c & 1) ? GL_PCAPNG_FLAG_INBOUND : GL_PCAPNG_FLAG_OUTBOUND) |
                         (c == 2 ? GL_PCAPNG_FLAG_CRC_ERR : 0));
        assert_int_equal(got[i].has_comment, comments[c] != NULL);
        if (comments[c]) {
            assert_string_equal(got[i].comment, comments[c]);
        }
        if (len) {
            assert_int_equal(got[i].data[0], (uint8_t)len);
        }
    }
    mem_end(&m);
}

static void test_cap_refuses_and_reports(void **state)
{
    (void)state;
    static uint8_t frame[1514];
    struct gl_err err = { "" };
    struct epb got[8];
    struct mem m;
    uint32_t sz = gl_pcapng_epb_size(1514, false, 0);      /* 1560 */
    int rc;

    mem_start(&m, 4096);
    /* 60 + 2 * 1560 = 3180 fits, a third would be 4740 > 4096 */
    assert_int_equal(gl_pcapng_frame(&m.p, 1, true, frame, 1514, false, NULL, &err), 0);
    assert_int_equal(gl_pcapng_frame(&m.p, 2, true, frame, 1514, false, NULL, &err), 0);
    assert_false(m.p.full);
    rc = gl_pcapng_frame(&m.p, 3, true, frame, 1514, false, NULL, &err);
    assert_int_equal(rc, -ENOSPC);
    assert_true(m.p.full);
    assert_non_null(strstr(err.msg, "pcap-max-bytes (4096)"));
    /* a small frame would fit, but the file stays cut at the first refusal */
    assert_int_equal(gl_pcapng_frame(&m.p, 4, true, frame, 60, false, NULL, NULL),
                     -ENOSPC);
    assert_int_equal(m.p.refused, 2);
    assert_int_equal(m.p.frames, 2);
    mem_read(&m);
    assert_int_equal(m.size, 60 + 2 * sz);
    assert_true(m.size <= 4096);
    assert_int_equal(parse(m.buf, m.size, got, 8), 2);
    mem_end(&m);
}

static void test_cap_exactly_full_is_accepted(void **state)
{
    (void)state;
    static uint8_t frame[4096];
    struct mem m;
    /* one frame that fills the cap to the byte: 60 + 28 + len + 16 = 4096 */
    uint32_t len = 4096 - 60 - 28 - 16;
    mem_start(&m, 4096);
    assert_int_equal(gl_pcapng_epb_size(len, false, 0) + 60, 4096);
    assert_int_equal(gl_pcapng_frame(&m.p, 0, false, frame, len, false, NULL, NULL), 0);
    assert_int_equal(m.p.bytes, 4096);
    assert_int_equal(gl_pcapng_frame(&m.p, 0, false, frame, 0, false, NULL, NULL),
                     -ENOSPC);
    mem_end(&m);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    static uint8_t frame[GL_PCAPNG_SNAPLEN + 1];
    char *big = malloc(GL_PCAPNG_COMMENT_MAX + 2);
    struct gl_err err = { "" };
    struct gl_pcapng p;
    struct mem m;

    assert_int_equal(gl_pcapng_start(&p, stdout, 4095, GL_PCAPNG_SNAPLEN, &err), -EINVAL);
    assert_string_equal(err.msg,
                        "pcap-max-bytes: 4095 is out of range [4096, 1099511627776] bytes");
    assert_int_equal(gl_pcapng_start(&p, stdout, (1ull << 40) + 1, GL_PCAPNG_SNAPLEN, NULL), -EINVAL);
    assert_int_equal(gl_pcapng_start(&p, NULL, 4096, GL_PCAPNG_SNAPLEN, &err), -EINVAL);
    assert_int_equal(gl_pcapng_start(&p, stdout, 4096, GL_PCAPNG_SNAPLEN_MIN - 1, &err), -EINVAL);
    assert_string_equal(err.msg, "pcap-snaplen: 63 is out of range [64, 65535] bytes");
    assert_int_equal(gl_pcapng_start(&p, stdout, 4096, GL_PCAPNG_SNAPLEN + 1, NULL), -EINVAL);

    mem_start(&m, GL_PCAPNG_MAX_DEFAULT);
    assert_int_equal(gl_pcapng_frame(&m.p, 0, true, frame, GL_PCAPNG_SNAPLEN + 1,
                                     false, NULL, &err), -EINVAL);
    assert_non_null(strstr(err.msg, "snaplen"));
    assert_int_equal(gl_pcapng_frame(&m.p, 0, true, NULL, 1, false, NULL, NULL),
                     -EINVAL);
    assert_non_null(big);
    memset(big, 'c', GL_PCAPNG_COMMENT_MAX + 1);
    big[GL_PCAPNG_COMMENT_MAX + 1] = 0;
    assert_int_equal(gl_pcapng_frame(&m.p, 0, true, frame, 1, false, big, &err),
                     -EINVAL);
    assert_non_null(strstr(err.msg, "comment"));
    /* refused calls wrote nothing; the longest legal ones are fine */
    assert_int_equal(m.p.bytes, 60);
    big[GL_PCAPNG_COMMENT_MAX] = 0;
    assert_int_equal(gl_pcapng_frame(&m.p, 0, true, frame, GL_PCAPNG_SNAPLEN,
                                     false, big, NULL), 0);
    assert_int_equal(gl_pcapng_frame(&m.p, 0, true, NULL, 0, false, NULL, NULL), 0);
    mem_read(&m);
    assert_int_equal(parse(m.buf, m.size, NULL, 0), 2);
    free(big);
    mem_end(&m);
}

static void test_write_error_is_eio(void **state)
{
    (void)state;
    static uint8_t frame[64];
    struct gl_err err = { "" };
    struct gl_pcapng p;
    FILE *f = fopen("/dev/full", "w");
    assert_non_null(f);
    setvbuf(f, NULL, _IONBF, 0);
    assert_int_equal(gl_pcapng_start(&p, f, 4096, GL_PCAPNG_SNAPLEN, &err), -EIO);
    assert_string_equal(err.msg, "pcap: write failed");
    assert_int_equal(gl_pcapng_frame(&p, 0, true, frame, 64, false, NULL, &err),
                     -EIO);
    fclose(f);
}

/*
 * Wireshark reads the file: capinfos (wireshark-common, pulled in by
 * tshark in scripts/deps/report.list) must count every packet.  Missing
 * capinfos is a failure, not a skip: deps.sh installs it.
 */
static void test_capinfos_reads_it(void **state)
{
    (void)state;
    static uint8_t frame[1514];
    char path[] = "/tmp/gemlab-pcapng-XXXXXX";
    char cmd[256], line[256];
    struct gl_pcapng p;
    int fd = mkstemp(path), packets = -1;
    FILE *f, *pp;

    assert_true(fd >= 0);
    f = fdopen(fd, "wb");
    assert_non_null(f);
    assert_int_equal(gl_pcapng_start(&p, f, GL_PCAPNG_MAX_DEFAULT, GL_PCAPNG_SNAPLEN, NULL), 0);
    for (unsigned i = 0; i < 37; i++) {
        memset(frame, (int)i, sizeof(frame));
        assert_int_equal(gl_pcapng_frame(&p, 1000000ull * i, i & 1, frame,
                                         60 + i * 37, i % 5 == 0,
                                         i % 3 ? NULL : "fcs error: corrupt",
                                         NULL), 0);
    }
    fclose(f);
    if (system("command -v capinfos >/dev/null 2>&1") != 0) {
        unlink(path);
        fail_msg("capinfos not found: install tshark (scripts/deps/report.list, "
                 "scripts/deps.sh)");
    }
    snprintf(cmd, sizeof(cmd), "capinfos -M -c -t '%s' 2>&1", path);
    pp = popen(cmd, "r");
    assert_non_null(pp);
    bool pcapng = false;
    while (fgets(line, sizeof(line), pp)) {
        fputs(line, stderr);
        sscanf(line, "Number of packets: %d", &packets);
        if (strstr(line, "pcapng")) {
            pcapng = true;
        }
    }
    int st = pclose(pp);
    unlink(path);
    assert_int_equal(st, 0);
    assert_true(pcapng);
    assert_int_equal(packets, 37);
}


/* ---- the reader (models/src/pcapng_read.c) ---- */

static struct gl_pcapng_reader rdr;   /* 256 KiB: not on the stack */

/* The writer's frames come back with their time, length, bytes and flags. */
static void test_reader_round_trips_the_writer(void **state)
{
    struct mem m;
    struct gl_pcapng_packet pk;
    uint8_t fr[1600];
    (void)state;
    mem_start(&m, GL_PCAPNG_MAX_DEFAULT);
    for (unsigned i = 0; i < 50; i++) {
        for (unsigned k = 0; k < sizeof(fr); k++)
            fr[k] = (uint8_t)(i * 7 + k);
        assert_int_equal(gl_pcapng_frame(&m.p, 1000000007ull * i + 3, i & 1, fr, 60 + i * 29,
                                         i % 5 == 0, i % 3 ? NULL : "why", NULL), 0);
    }
    rewind(m.f);
    assert_int_equal(gl_pcapng_read_open(&rdr, m.f, NULL), 0);
    for (unsigned i = 0; i < 50; i++) {
        assert_int_equal(gl_pcapng_read_next(&rdr, &pk, NULL), 1);
        assert_int_equal(pk.t_ns, 1000000007ull * i + 3);
        assert_int_equal(pk.len, 60 + i * 29);
        assert_int_equal(pk.caplen, pk.len);
        assert_int_equal(pk.flags, ((i & 1) ? GL_PCAPNG_FLAG_INBOUND : GL_PCAPNG_FLAG_OUTBOUND) |
                                       (i % 5 == 0 ? GL_PCAPNG_FLAG_CRC_ERR : 0));
        assert_int_equal(pk.data[0], (uint8_t)(i * 7));
        assert_int_equal(pk.data[pk.len - 1], (uint8_t)(i * 7 + pk.len - 1));
    }
    assert_int_equal(gl_pcapng_read_next(&rdr, &pk, NULL), 0);
    mem_end(&m);
}

/* A snaplen keeps each frame's first bytes and its original length, as
 * tcpdump -s does (EPB 4.3: captured and original packet length); the
 * IDB says the snaplen (4.2); the cap counts the bytes kept. */
static void test_snaplen_keeps_headers_and_original_length(void **state)
{
    struct mem m;
    struct gl_pcapng_packet pk;
    uint8_t fr[1514];
    (void)state;
    for (unsigned k = 0; k < sizeof(fr); k++)
        fr[k] = (uint8_t)(k * 3 + 1);
    memset(&m, 0, sizeof(m));
    m.f = tmpfile();
    assert_non_null(m.f);
    m.buf = file_buf;
    assert_int_equal(gl_pcapng_start(&m.p, m.f, 4096, 96, NULL), 0);
    assert_int_equal(gl_pcapng_frame(&m.p, 5, true, fr, 1514, false, NULL, NULL), 0);
    assert_int_equal(gl_pcapng_frame(&m.p, 6, false, fr, 60, false, "short", NULL), 0);
    assert_int_equal(gl_pcapng_frame(&m.p, 7, false, fr, 96, false, NULL, NULL), 0);
    assert_int_equal(m.p.bytes, 60 + gl_pcapng_epb_size(96, false, 0) +
                                gl_pcapng_epb_size(60, true, 5) +
                                gl_pcapng_epb_size(96, false, 0));
    mem_read(&m);
    assert_int_equal(m.size, m.p.bytes);
    assert_int_equal(rd32(m.buf + 40), 96);                 /* IDB snaplen */
    rewind(m.f);
    assert_int_equal(gl_pcapng_read_open(&rdr, m.f, NULL), 0);
    assert_int_equal(gl_pcapng_read_next(&rdr, &pk, NULL), 1);
    assert_int_equal(pk.caplen, 96);
    assert_int_equal(pk.len, 1514);
    assert_memory_equal(pk.data, fr, 96);
    assert_null(pk.comment);
    assert_int_equal(pk.comment_len, 0);
    assert_int_equal(gl_pcapng_read_next(&rdr, &pk, NULL), 1);
    assert_int_equal(pk.caplen, 60);
    assert_int_equal(pk.len, 60);
    assert_int_equal(pk.comment_len, 5);                    /* opt_comment */
    assert_memory_equal(pk.comment, "short", 5);
    assert_int_equal(gl_pcapng_read_next(&rdr, &pk, NULL), 1);
    assert_int_equal(pk.caplen, 96);
    assert_int_equal(pk.len, 96);
    assert_null(pk.comment);
    assert_int_equal(gl_pcapng_read_next(&rdr, &pk, NULL), 0);
    /* a 4096-byte cap holds 26 more headers of full-size frames (140 B
     * each) where whole frames (1560 B) would have fitted 2 */
    assert_int_equal(gl_pcapng_epb_size(96, false, 0), 140);
    for (unsigned i = 0; i < 26; i++)
        assert_int_equal(gl_pcapng_frame(&m.p, 8 + i, true, fr, 1514, false, NULL, NULL), 0);
    assert_int_equal(gl_pcapng_frame(&m.p, 99, true, fr, 1514, false, NULL, NULL), -ENOSPC);
    mem_end(&m);
}

static void be32w(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 24);
    b[1] = (uint8_t)(v >> 16);
    b[2] = (uint8_t)(v >> 8);
    b[3] = (uint8_t)v;
}

/* A big-endian file from another tool: microsecond-less 2^-10 s
 * timestamps, a name-resolution block to skip, a non-Ethernet interface,
 * and a Simple Packet Block. */
static void test_reader_big_endian_other_blocks_and_spb(void **state)
{
    uint8_t f[512];
    size_t n = 0;
    FILE *t = tmpfile();
    struct gl_pcapng_packet pk;
    (void)state;
#define W32(v) (be32w(f + n, (v)), n += 4)
    /* SHB: type, len 28, magic (big-endian), v1.0, section length -1 */
    W32(GL_PCAPNG_SHB); W32(28); W32(GL_PCAPNG_BOM); W32(0x00010000u); W32(0xFFFFFFFFu); W32(0xFFFFFFFFu); W32(28);
    /* IDB 0: Ethernet, snaplen 64, if_tsresol 0x8A (2^-10 s) */
    W32(GL_PCAPNG_IDB); W32(32); W32(0x00010000u); W32(64); W32(0x00090001u); W32(0x8A000000u); W32(0); W32(32);
    /* IDB 1: linktype 101 (raw IP): its packets are skipped */
    W32(GL_PCAPNG_IDB); W32(20); W32(0x00650000u); W32(0); W32(20);
    /* NRB (type 4): skipped */
    W32(4); W32(16); W32(0); W32(16);
    /* EPB on interface 1: skipped */
    W32(GL_PCAPNG_EPB); W32(36); W32(1); W32(0); W32(0); W32(4); W32(4); W32(0xAABBCCDDu); W32(36);
    /* EPB on interface 0: ts 2048 units = 2 s, 8 bytes captured of 100 */
    W32(GL_PCAPNG_EPB); W32(40); W32(0); W32(0); W32(2048); W32(8); W32(100);
    W32(0x01020304u); W32(0x05060708u); W32(40);
    /* SPB: original length 70, 64 bytes kept by the snaplen */
    W32(GL_PCAPNG_SPB); W32(16 + 64); W32(70);
    for (unsigned k = 0; k < 16; k++)
        W32(0x11111111u * (k & 15));
    W32(16 + 64);
#undef W32
    assert_int_equal(fwrite(f, 1, n, t), n);
    rewind(t);
    assert_int_equal(gl_pcapng_read_open(&rdr, t, NULL), 0);
    assert_int_equal(gl_pcapng_read_next(&rdr, &pk, NULL), 1);
    assert_int_equal(pk.t_ns, 2000000000ull);
    assert_int_equal(pk.caplen, 8);
    assert_int_equal(pk.len, 100);
    assert_int_equal(pk.data[0], 1);
    assert_int_equal(pk.data[7], 8);
    assert_int_equal(pk.flags, 0);
    assert_int_equal(gl_pcapng_read_next(&rdr, &pk, NULL), 1);
    assert_int_equal(pk.len, 70);
    assert_int_equal(pk.caplen, 64);
    assert_int_equal(gl_pcapng_read_next(&rdr, &pk, NULL), 0);
    fclose(t);
}

/* Malformed files: an error naming the offset, never a packet. */
static void test_reader_rejects_malformed_files(void **state)
{
    static const struct {
        const char *what;
        size_t cut;          /* truncate the good file here (0: no) */
        size_t at;           /* patch this byte offset ... */
        uint8_t val;         /* ... with this value */
        const char *msg;
    } bad[] = {
        { "not pcapng", 0, 0, 0x00, "not a pcapng file" },
        { "block length 13", 0, 60 + 4, 13, "has length" },
        { "trailer differs", 0, 60 + 8 + 20 + 60 + 8 + 8 + 4 - 4 - 4, 0x77, "trailing length" },
        { "interface 3", 0, 60 + 8, 3, "names interface 3" },
        { "caplen past the block", 0, 60 + 20, 0xFF, "captured bytes" },
        { "cut short", 100, 0, 0, "cut short" },
        { "cut header", 64, 0, 0, "truncated block header" },
    };
    uint8_t fr[60] = { 0 };
    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct mem m;
        struct gl_pcapng_packet pk;
        struct gl_err err = { "" };
        FILE *t = tmpfile();
        int rc;
        mem_start(&m, GL_PCAPNG_MAX_DEFAULT);
        assert_int_equal(gl_pcapng_frame(&m.p, 5, true, fr, 60, false, NULL, NULL), 0);
        mem_read(&m);
        if (bad[i].cut)
            m.size = bad[i].cut;
        else
            file_buf[bad[i].at] = bad[i].val;
        if (!strcmp(bad[i].what, "not pcapng"))
            file_buf[0] = 0x42;
        assert_int_equal(fwrite(file_buf, 1, m.size, t), m.size);
        rewind(t);
        assert_int_equal(gl_pcapng_read_open(&rdr, t, NULL), 0);
        rc = gl_pcapng_read_next(&rdr, &pk, &err);
        if (rc != -EINVAL || !strstr(err.msg, bad[i].msg))
            fail_msg("%s: rc %d, message '%s', want -EINVAL and '%s'", bad[i].what, rc, err.msg, bad[i].msg);
        fclose(t);
        mem_end(&m);
    }
}

/* A 2^-9 s clock whose count is past 2^64 ns saturates (the fuzzer found
 * the out-of-range float-to-integer conversion, C11 6.3.1.4). */
static void test_reader_huge_binary_timestamp_saturates(void **state)
{
    static const uint8_t f[] = {
        0x0A, 0x0D, 0x0D, 0x0A, 28, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A, 1, 0, 0, 0,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 28, 0, 0, 0,
        1, 0, 0, 0, 32, 0, 0, 0, 1, 0, 0, 0, 0xFF, 0xFF, 0, 0, 9, 0, 1, 0, 0x89, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0,
        6, 0, 0, 0, 36, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        4, 0, 0, 0, 4, 0, 0, 0, 1, 2, 3, 4, 36, 0, 0, 0,
    };
    struct gl_pcapng_packet pk;
    FILE *t = tmpfile();
    (void)state;
    assert_int_equal(fwrite(f, 1, sizeof(f), t), sizeof(f));
    rewind(t);
    assert_int_equal(gl_pcapng_read_open(&rdr, t, NULL), 0);
    assert_int_equal(gl_pcapng_read_next(&rdr, &pk, NULL), 1);
    assert_true(pk.t_ns == UINT64_MAX);
    assert_int_equal(pk.caplen, 4);
    fclose(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_is_the_qemu_bytes),
        cmocka_unit_test(test_epb_bytes_outbound_with_comment),
        cmocka_unit_test(test_lengths_aligned_for_every_size),
        cmocka_unit_test(test_cap_refuses_and_reports),
        cmocka_unit_test(test_cap_exactly_full_is_accepted),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_write_error_is_eio),
        cmocka_unit_test(test_capinfos_reads_it),
        cmocka_unit_test(test_reader_round_trips_the_writer),
        cmocka_unit_test(test_snaplen_keeps_headers_and_original_length),
        cmocka_unit_test(test_reader_big_endian_other_blocks_and_spb),
        cmocka_unit_test(test_reader_rejects_malformed_files),
        cmocka_unit_test(test_reader_huge_binary_timestamp_saturates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

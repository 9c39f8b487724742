/*
 * fuzz_capture.c - libFuzzer target: the wire capture's TCP analysis
 * (emu/runner/capture.c) on frames the guest controls.
 *
 * The input is a program of frames, written with the models' pcapng
 * writer (models/src/pcapng.c) into memory and read back by
 * cap_analyse_stream(): a record whose first byte has bit 7 set is a raw
 * Ethernet frame (its next byte the length, then the bytes: parse() on
 * anything); otherwise it is an IPv4/TCP segment between two endpoints
 * built from the record's fields (direction, flags, sequence, ACK,
 * window, payload length, IPv4 identification, time step, options), so
 * the classification of resent, spurious, reordered and copied segments
 * is reached at once.
 *
 * Checked besides "no crash, no ASan/UBSan report": the analysis
 * succeeds; the frame count is the number written; per direction, the
 * retransmissions, out-of-order and duplicate segments are each at most
 * the data segments and the spurious at most the retransmissions; the
 * totals are the sums of the directions.
 */
#define _GNU_SOURCE
#include "capture.h"
#include "gemlab/pcapng.h"

#include "../common/fuzz_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FRAMES 256

static void put16(uint8_t *b, uint16_t v) { b[0] = (uint8_t)(v >> 8); b[1] = (uint8_t)v; }
static void put32(uint8_t *b, uint32_t v) { put16(b, (uint16_t)(v >> 16)); put16(b + 2, (uint16_t)v); }

/* One IPv4/TCP segment from the input: returns its length in @f. */
static uint32_t tcp_frame(struct fz *in, uint8_t *f, bool *inbound)
{
    static const uint8_t a[4] = { 10, 0, 2, 15 }, b[4] = { 10, 0, 2, 2 };
    uint8_t dir = fz_u8(in), flags = fz_u8(in), opts = fz_u8(in);
    uint32_t seq = fz_u32(in), ack = fz_u32(in), len = fz_u16(in) % 1461u;
    uint16_t win = fz_u16(in), ipid = fz_u16(in), port = (uint16_t)(40000 + (dir >> 1) % 4);
    uint32_t thl = 20, o = 14 + 20 + 20, iplen;

    *inbound = dir & 1;
    memset(f, 0, 14 + 20 + 60);
    put16(f + 12, 0x0800);
    f[14] = 0x45;
    put16(f + 18, ipid);
    f[22] = 64;
    f[23] = 6;
    memcpy(f + 26, *inbound ? b : a, 4);
    memcpy(f + 30, *inbound ? a : b, 4);
    put16(f + 34, *inbound ? 5001 : port);
    put16(f + 36, *inbound ? port : 5001);
    put32(f + 38, seq);
    put32(f + 42, ack);
    f[47] = flags;
    put16(f + 48, win);
    if (opts & 1) {     /* MSS */
        f[o] = 2; f[o + 1] = 4; put16(f + o + 2, (uint16_t)(opts * 8));
        o += 4;
        thl += 4;
    }
    if (opts & 2) {     /* window scale (shift up to 15: the analysis caps it at 14) */
        f[o] = 1; f[o + 1] = 3; f[o + 2] = 3; f[o + 3] = (uint8_t)(opts >> 4);
        o += 4;
        thl += 4;
    }
    f[46] = (uint8_t)((thl / 4) << 4);
    iplen = 20 + thl + len;
    put16(f + 16, (uint16_t)iplen);
    for (uint32_t i = 0; i < len; i++)
        f[o + i] = (uint8_t)i;
    return 14 + iplen;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t frame[14 + 20 + 60 + 1460];
    struct gl_pcapng w;
    struct fz in;
    char *buf = NULL;
    size_t len = 0;
    uint64_t t = 0, written = 0;
    FILE *mem, *rd;
    cJSON *o = NULL;
    const cJSON *fl, *d;
    double sum[4] = { 0 };

    fz_init(&in, data, size);
    mem = open_memstream(&buf, &len);
    if (!mem || gl_pcapng_start(&w, mem, GL_PCAPNG_MAX_DEFAULT, GL_PCAPNG_SNAPLEN, NULL))
        fz_fail("cannot start a capture in memory");
    while (!fz_empty(&in) && written < MAX_FRAMES) {
        uint8_t h = fz_u8(&in);
        bool inbound = h & 1, bad = (h & 0x46) == 0x46;
        uint32_t n;
        t += fz_u16(&in) * 100ull;       /* up to 6.5 ms a step, in ns */
        if (h & 0x80) {
            n = fz_u8(&in);
            for (uint32_t i = 0; i < n; i++)
                frame[i] = fz_u8(&in);
        } else {
            n = tcp_frame(&in, frame, &inbound);
        }
        if (gl_pcapng_frame(&w, t, inbound, frame, n, bad, (h & 0x20) ? "duplicate" : NULL, NULL) == 0)
            written++;
    }
    fclose(mem);
    rd = fmemopen(buf, len, "rb");
    if (!rd)
        fz_fail("fmemopen");
    if (cap_analyse_stream(rd, "fuzz", &o, stderr) != 0 || !o)
        fz_fail("analysis of a well-formed capture failed");
    fclose(rd);
    free(buf);
    if (cJSON_GetObjectItemCaseSensitive(o, "frames")->valuedouble != (double)written)
        fz_fail("frames %g, written %llu", cJSON_GetObjectItemCaseSensitive(o, "frames")->valuedouble,
                (unsigned long long)written);
    cJSON_ArrayForEach(fl, cJSON_GetObjectItemCaseSensitive(o, "tcp_flows"))
        cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(fl, "directions")) {
            double seg = cJSON_GetObjectItemCaseSensitive(d, "segments")->valuedouble;
            double re = cJSON_GetObjectItemCaseSensitive(d, "retransmits")->valuedouble;
            double sp = cJSON_GetObjectItemCaseSensitive(d, "spurious_retransmits")->valuedouble;
            double oo = cJSON_GetObjectItemCaseSensitive(d, "out_of_order")->valuedouble;
            double du = cJSON_GetObjectItemCaseSensitive(d, "duplicates")->valuedouble;
            if (re > seg || oo > seg || du > seg || re + oo + du > seg || sp > re)
                fz_fail("direction: %g segments, %g resent (%g spurious), %g out of order, %g copies",
                        seg, re, sp, oo, du);
            sum[0] += re;
            sum[1] += sp;
            sum[2] += oo;
            sum[3] += du;
        }
    if (sum[0] != cJSON_GetObjectItemCaseSensitive(o, "tcp_retransmits")->valuedouble ||
        sum[1] != cJSON_GetObjectItemCaseSensitive(o, "tcp_spurious_retransmits")->valuedouble ||
        sum[2] != cJSON_GetObjectItemCaseSensitive(o, "tcp_out_of_order")->valuedouble ||
        sum[3] != cJSON_GetObjectItemCaseSensitive(o, "tcp_duplicates")->valuedouble)
        fz_fail("totals are not the sums of the directions");
    cJSON_Delete(o);
    return 0;
}

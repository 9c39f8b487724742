/*
 * fuzz_pcapng_read.c - libFuzzer target: the pcapng reader
 * (models/src/pcapng_read.c) on arbitrary bytes.
 *
 * Checked: every packet returned lies inside the reader's block buffer
 * (caplen bytes from data), caplen <= the block, the interface exists;
 * the loop ends (0 or an error) within as many calls as the input has
 * 12-byte steps, since every block is at least 12 bytes; an error always
 * carries a message.
 */
#include "gemlab/pcapng.h"

#include "../common/fuzz_input.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct gl_pcapng_reader r;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f;
    struct gl_pcapng_packet pk;
    struct gl_err err = { "" };
    size_t calls = 0;
    int rc;

    if (size == 0) {
        return 0;
    }
    f = fmemopen((void *)data, size, "rb");
    if (!f) {
        return 0;
    }
    if (gl_pcapng_read_open(&r, f, &err)) {
        fz_fail("open failed: %s", err.msg);
    }
    while ((rc = gl_pcapng_read_next(&r, &pk, &err)) == 1) {
        if (pk.data < r.blk || pk.data + pk.caplen > r.blk + sizeof(r.blk)) {
            fz_fail("packet data outside the block buffer");
        }
        if (pk.interface >= r.nif) {
            fz_fail("interface %u of %u", pk.interface, r.nif);
        }
        volatile uint8_t sink = 0;
        for (uint32_t i = 0; i < pk.caplen; i++) {
            sink ^= pk.data[i]; /* ASan checks every byte is readable */
        }
        if (pk.comment_len && !pk.comment) {
            fz_fail("comment of %u bytes at NULL", pk.comment_len);
        }
        if (pk.comment && (pk.comment < pk.data + pk.caplen ||
                           pk.comment + pk.comment_len > r.blk + sizeof(r.blk))) {
            fz_fail("comment outside the block after the packet data");
        }
        for (uint16_t i = 0; pk.comment && i < pk.comment_len; i++) {
            sink ^= pk.comment[i];
        }
        (void)sink;
        if (++calls > size / 12 + 1) {
            fz_fail("%zu packets from %zu bytes", calls, size);
        }
    }
    if (rc < 0 && !err.msg[0]) {
        fz_fail("error %d without a message", rc);
    }
    if (rc != 0 && rc != -EINVAL && rc != -EIO) {
        fz_fail("unexpected return %d", rc);
    }
    fclose(f);
    return 0;
}

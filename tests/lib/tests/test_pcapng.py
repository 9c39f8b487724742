"""gemlab_test.pcapng on files written by the C writer the QEMU patch uses
(models/src/pcapng.c), compiled here; cross-checked with tshark."""
import os
import shutil
import subprocess

import pytest

from gemlab_test import pcapng
from gemlab_test.paths import TOP

WRITER = r"""
#include "gemlab/pcapng.h"
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    struct gl_pcapng p;
    unsigned char f[1514];
    FILE *o = fopen(argv[1], "wb");
    (void)argc;
    for (unsigned i = 0; i < sizeof(f); i++)
        f[i] = (unsigned char)i;
    if (!o || gl_pcapng_start(&p, o, 1u << 20, GL_PCAPNG_SNAPLEN, NULL))
        return 1;
    gl_pcapng_frame(&p, 1000000001ull, true, f, 60, false, NULL, NULL);
    gl_pcapng_frame(&p, 2000000002ull, false, f, 1514, true, NULL, NULL);
    gl_pcapng_frame(&p, 3000000003ull, true, f, 61, false, "dropped: loss", NULL);
    gl_pcapng_frame(&p, 4000000004ull, false, f, 63, false, "duplicate", NULL);
    fclose(o);
    return 0;
}
"""


@pytest.fixture(scope="module")
def capture(tmp_path_factory):
    d = tmp_path_factory.mktemp("pcapng")
    (d / "w.c").write_text(WRITER)
    cc = os.environ.get("CC", "cc")
    r = subprocess.run([cc, "-std=c11", "-I", os.path.join(TOP, "models", "include"), "-o", str(d / "w"),
                        str(d / "w.c"), os.path.join(TOP, "models", "src", "pcapng.c"),
                        os.path.join(TOP, "models", "src", "err.c")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = d / "cap.pcapng"
    subprocess.run([str(d / "w"), str(out)], check=True)
    return str(out)


def test_reads_every_frame_with_direction_crc_and_comment(capture):
    p = pcapng.read(capture)
    assert [(len(x.data), x.direction, x.crc_error, x.comment) for x in p] == [
        (60, "in", False, ""), (1514, "out", True, ""), (61, "in", False, "dropped: loss"),
        (63, "out", False, "duplicate")]
    assert p[1].data == bytes(i & 0xFF for i in range(1514))
    assert [x.t_ns for x in p] == [1000000001, 2000000002, 3000000003, 4000000004]


def test_decisions_per_direction(capture):
    assert pcapng.decisions(pcapng.read(capture)) == {
        "in": ["60:ok", "61:dropped: loss"], "out": ["1514:fcs", "63:duplicate"]}


def test_a_block_still_being_written_ends_the_read(capture):
    data = open(capture, "rb").read()
    assert len(pcapng.parse(data[:-10])) == 3


def test_not_a_pcapng_file_is_an_error():
    with pytest.raises(ValueError, match="not a pcapng"):
        pcapng.parse(b"\xd4\xc3\xb2\xa1" + bytes(20))      # classic pcap


def test_agrees_with_tshark(capture):
    if not shutil.which("tshark"):
        pytest.skip("tshark not installed (scripts/deps/report.list installs it)")
    r = subprocess.run(["tshark", "-r", capture, "-T", "fields", "-e", "frame.len", "-e", "frame.comment"],
                       capture_output=True, text=True, check=True)
    rows = [ln.split("\t") for ln in r.stdout.splitlines()]
    assert [(int(a), b) for a, b in rows] == [(len(x.data), x.comment) for x in pcapng.read(capture)]

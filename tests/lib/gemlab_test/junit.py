"""JUnit XML for the suites that are not pytest.

tests/qemu/runner/qemu-test.sh stays shell: it drives `gemlab run` and
`gemlab diagnose`, in shard slices and parallel jobs. It used to write its
XML with echo. Now it writes one record per scenario, and this module
writes the file with xml.etree. The file has the shape pytest's
--junitxml writes and `gemlab merge` reads (emu/runner/merge.c): one
<testsuite> with tests/failures/skipped/time, and a <testcase> per
scenario with <failure> or <skipped>.

A record is a file DIR/I.case (I = 1..N, in the suite's order) of one
line, KIND TAB SECONDS TAB CLASSNAME TAB NAME TAB MESSAGE, where KIND is
pass, fail or skip. SECONDS may be empty. A failure's body, if any, is in
DIR/I.text.

    python3 -m gemlab_test.junit OUT SUITE SECONDS DIR N

XML 1.0 allows only certain characters (section 2.2, Char). The
messages quote the guest's console, so whatever is not a Char becomes
'?', and bytes that are not UTF-8 are dropped (docs/SECURITY.md R7). One
run then cannot make the file, and every shard's results with it,
unreadable.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

KINDS = ("pass", "fail", "skip")
_NOT_CHAR = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(s):
    """@s with every character XML 1.0 does not allow replaced by '?'."""
    return _NOT_CHAR.sub("?", s)


def read_case(path):
    """The record at @path as a dict (kind, time, classname, name,
    message, text); ValueError naming the file when it is malformed."""
    with open(path, "rb") as f:
        line = f.read().decode("utf-8", "ignore").rstrip("\n")
    parts = line.split("\t", 4)
    if len(parts) != 5 or parts[0] not in KINDS:
        raise ValueError("%s: expected KIND<TAB>SECONDS<TAB>CLASSNAME<TAB>NAME<TAB>MESSAGE, KIND one of %s"
                         % (path, "/".join(KINDS)))
    case = dict(zip(("kind", "time", "classname", "name", "message"), parts))
    text = os.path.splitext(path)[0] + ".text"
    case["text"] = ""
    if os.path.exists(text):
        with open(text, "rb") as f:
            case["text"] = f.read().decode("utf-8", "ignore")
    return case


def write(path, suite, cases, seconds):
    """Write @cases (dicts as read_case gives) as one testsuite @suite
    that took @seconds to @path, replacing it whole (a reader never sees
    half a file)."""
    root = ET.Element("testsuite", name=suite, tests=str(len(cases)),
                      failures=str(sum(c["kind"] == "fail" for c in cases)),
                      skipped=str(sum(c["kind"] == "skip" for c in cases)), time=str(seconds))
    for c in cases:
        e = ET.SubElement(root, "testcase", classname=xml_text(c["classname"]), name=xml_text(c["name"]))
        if c.get("time"):
            e.set("time", c["time"])
        if c["kind"] == "fail":
            f = ET.SubElement(e, "failure", message=xml_text(c["message"]))
            if c.get("text"):
                f.text = xml_text(c["text"])
        elif c["kind"] == "skip":
            ET.SubElement(e, "skipped", message=xml_text(c["message"]))
    tmp = path + ".tmp"
    ET.ElementTree(root).write(tmp, encoding="UTF-8", xml_declaration=True)
    os.replace(tmp, path)


def main(argv):
    if len(argv) != 6 or not argv[5].isdigit():
        print("usage: python3 -m gemlab_test.junit OUT SUITE SECONDS DIR N", file=sys.stderr)
        return 2
    out, suite, seconds, d, n = argv[1], argv[2], argv[3], argv[4], int(argv[5])
    try:
        cases = [read_case(os.path.join(d, "%d.case" % i)) for i in range(1, n + 1)]
        write(out, suite, cases, seconds)
    except (OSError, ValueError) as e:
        print("junit: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

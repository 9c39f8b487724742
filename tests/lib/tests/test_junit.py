"""gemlab_test.junit: the JUnit file of qemu-test.sh's records."""
import xml.etree.ElementTree as ET

import pytest

from gemlab_test import junit


def rec(d, i, line, text=None):
    (d / ("%d.case" % i)).write_bytes(line)
    if text is not None:
        (d / ("%d.text" % i)).write_bytes(text)


def test_records_become_one_suite_with_each_kind(tmp_path):
    rec(tmp_path, 1, b"pass\t12\tqemu-test.baremetal\tclean_1g\t\n")
    rec(tmp_path, 2, b"fail\t30\tqemu-test.linux\tno_cable\texit 1\n", b"PASS line\nnot ok: <speed> & \"up\"\n")
    rec(tmp_path, 3, b"skip\t1\tqemu-test.linux\tmethod_defaults\tTODO: noisy\n")
    rec(tmp_path, 4, b"fail\t\tqemu-test\tdied\tno result\n")
    out = tmp_path / "j.xml"
    assert junit.main(["junit", str(out), "qemu-test-1-of-2", "99", str(tmp_path), "4"]) == 0
    root = ET.parse(out).getroot()
    assert (root.tag, root.get("name"), root.get("tests"), root.get("failures"), root.get("skipped"),
            root.get("time")) == ("testsuite", "qemu-test-1-of-2", "4", "2", "1", "99")
    c = root.findall("testcase")
    assert [x.get("name") for x in c] == ["clean_1g", "no_cable", "method_defaults", "died"]
    assert c[0].get("time") == "12" and list(c[0]) == []
    assert c[1].find("failure").get("message") == "exit 1"
    assert c[1].find("failure").text == "PASS line\nnot ok: <speed> & \"up\"\n"
    assert c[2].find("skipped").get("message") == "TODO: noisy"
    assert c[3].get("time") is None and c[3].find("failure").get("message") == "no result"


def test_what_xml_cannot_hold_is_replaced_or_dropped(tmp_path):
    # a console's escape codes, a NUL and bytes that are not UTF-8
    rec(tmp_path, 1, b"fail\t3\tqemu-test.baremetal\tx\tbad \x1b[31m\x00\n", b"\x01a\xffb\xc3\xa9\x7f\n")
    out = tmp_path / "j.xml"
    assert junit.main(["junit", str(out), "s", "3", str(tmp_path), "1"]) == 0
    f = ET.parse(out).getroot().find("testcase/failure")
    assert f.get("message") == "bad ?[31m?"
    assert f.text == "?ab\u00e9\x7f\n"


def test_a_bad_or_missing_record_fails_naming_it(tmp_path, capsys):
    rec(tmp_path, 1, b"maybe\t1\tc\tn\tm\n")
    out = tmp_path / "j.xml"
    assert junit.main(["junit", str(out), "s", "1", str(tmp_path), "1"]) == 1
    assert "1.case" in capsys.readouterr().err and not out.exists()
    rec(tmp_path, 1, b"pass\t1\tc\tn\t\n")
    assert junit.main(["junit", str(out), "s", "1", str(tmp_path), "2"]) == 1
    assert "2.case" in capsys.readouterr().err
    assert junit.main(["junit", str(out), "s", "1"]) == 2


@pytest.mark.parametrize("ch", ["\x00", "\x08", "\x0b", "\ufffe", "\ud800"])
def test_xml_text_replaces_non_chars(ch):
    assert junit.xml_text("a%sb" % ch) == "a?b"

"""Every [link] key's QOM property (emu/runner/link_keys.h, the runner's
one description of the key) is a property of our QEMU's link model, the
GEM's child gemlab-link, as `-device gemlab-link,help` lists it
(emu/qemu/hw/net/gemlab/gemlab_props.c); the GEM has none of them.
At run time the runner reports a missing one as
unapplied and goes on; here a rename on either side fails.  Run by make
test-runner ("link-keys: N passed, M failed")."""
import os
import re

from gemlab_test import paths

LINK_KEYS = os.path.join(paths.TOP, "emu", "runner", "link_keys.h")
ROW = re.compile(r'X\(A, ([A-Z_]+), "([a-z_]+)",.*?\\\n\s+"([a-z0-9-]+)", (NULL|"[a-z0-9-]+"), LQ_', re.S)


def link_keys():
    """(scenario word, property) for every row and its second property."""
    with open(LINK_KEYS) as f:
        text = f.read()
    out = []
    for _, word, prop, prop2 in ROW.findall(text):
        out.append((word, prop))
        if prop2 != "NULL":
            out.append((word, prop2.strip('"')))
    return out


def gem_properties(qemu):
    text = paths.device_help(qemu, "gemlab-link")
    assert text, "%s -device gemlab-link,help printed nothing" % qemu
    return {m.group(1) for m in re.finditer(r"^\s+([a-z0-9-]+)=<", text, re.M)}


def test_every_link_key_row_is_read():
    # 22 [link] keys, the seed with two properties
    keys = link_keys()
    assert len(keys) == 23, keys
    assert ("seed", "phy-seed") in keys and ("partner", "partner-abilities") in keys


def test_every_link_key_has_its_property(our_qemu):
    props = gem_properties(our_qemu)
    assert "aneg-ns" in props and "pcap" in props, sorted(props)
    missing = ["%s -> %s" % (w, p) for w, p in link_keys() if p not in props]
    assert not missing, "gemlab-link lacks: %s" % ", ".join(missing)
    gem = paths.device_help(our_qemu, "cadence_gem")
    assert "gemlab=<" in gem, gem
    on_gem = [p for _, p in link_keys() if re.search(r"^\s+%s=<" % re.escape(p), gem, re.M)]
    assert not on_gem, "still on cadence_gem: %s" % ", ".join(on_gem)

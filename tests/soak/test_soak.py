"""make test-soak: the fault soak (soak.py, issue 8) as a pytest suite.
One soak of SOAK_SECONDS (default 120) on SOAK_FW (baremetal | linux,
default baremetal), then one test per verdict check of soak.json, so the
closing line counts them ("soak: N passed, M failed") and the JUnit names
them.  The run directory (soak.json, summary.txt, console.log, qemu.log)
stays under $O/test-results/soak/.  `make soak` (tests/soak/soak.sh)
runs the long soak with the same code."""
import os

import pytest

import soak
from gemlab_test import paths

FW = os.environ.get("SOAK_FW", "baremetal")
CHECKS = {
    "baremetal": ["stats_answered", "lwip_inuse_back_to_baseline", "firmware_serves_after", "counters_explained",
                  "rss_flat", "traffic_flowed", "faults_applied"],
    "linux": ["stats_answered", "agent_serves_after", "counters_explained", "rss_flat", "traffic_flowed",
              "faults_applied"],
}


@pytest.fixture(scope="module")
def result(tmp_path_factory, our_qemu):
    if FW not in CHECKS:
        pytest.fail("SOAK_FW=%r is not baremetal or linux" % FW, pytrace=False)
    img = paths.baremetal_elf() if FW == "baremetal" else os.path.join(paths.build_dir(), "linux")
    out = str(tmp_path_factory.mktemp(FW))
    rc, res, text = soak.run_soak(soak.parse_args([
        "--firmware", FW, "--qemu", our_qemu, "--fw", img, "--out", out,
        "--seconds", os.environ.get("SOAK_SECONDS", "120"), "--seed", os.environ.get("SOAK_SEED", "1")]))
    print(text)
    assert res is not None, text
    return res


def test_soak_ran_without_error(result):
    assert "error" not in result, result.get("error")


@pytest.mark.parametrize("check", CHECKS.get(FW, []))
def test_soak_check(result, check):
    c = result["checks"].get(check)
    assert c is not None, "soak.json has no check %s (the soak stopped early: %s)" % (check, result.get("error"))
    assert c["ok"], {k: v for k, v in c.items() if k != "rows"} if check != "counters_explained" else \
        [r for r in c["rows"] if not r["ok"]]

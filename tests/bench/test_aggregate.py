"""tests/bench/aggregate.py on synthetic bench outputs (no benchmark runs,
< 1 s): a good bench is aggregated with its figures, a failed one
(non-zero exit) and a missing one (exit 0, no JSON; or never run) are
listed as such, `finish` exits 1 for them and 0 without them, and the
machine description and load are recorded.  make test-runner runs it
("aggregate: N passed, M failed")."""
import json
import os
import subprocess
import sys
import time

import pytest

A = os.path.join(os.path.dirname(os.path.abspath(__file__)), "aggregate.py")


def agg(*args):
    r = subprocess.run([sys.executable, A] + [str(a) for a in args], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """(directory, exit status and output of `finish good broken silent never`)."""
    d = tmp_path_factory.mktemp("agg") / "bench"
    assert agg("start", d)[0] == 0
    t0 = "%.3f" % time.time()
    (d / "good.json").write_text(json.dumps({
        "bench": "good", "x": {"mpps_min": 1.5, "mpps_median": 2.5, "mpps_max": 3.5}, "ratio_a_over_b": 0.75,
        "ratio_c_over_d": {"tx_pps": 1.25}, "runs": [{"min": 9, "median": 9, "max": 9}]}))
    agg("status", d, "good", 0, t0)
    (d / "broken.json").write_text('{"partial":true}')
    agg("status", d, "broken", 3, t0)
    agg("status", d, "silent", 0, t0)          # exit 0, wrote nothing
    rc, out = agg("finish", d, "good", "broken", "silent", "never")
    return d, rc, out


def test_results_json_per_bench_status_machine_and_load(finished):
    d, rc, out = finished
    assert rc == 1, out
    r = json.loads((d / "results.json").read_text())
    b = r["benches"]
    assert r["schema"] == "gemlab-bench-results-1"
    assert b["good"]["status"] == "ok" and b["good"]["result"]["x"]["mpps_median"] == 2.5
    assert b["good"]["rc"] == 0 and b["good"]["wall_s"] >= 0
    assert b["broken"]["status"] == "failed" and b["broken"]["rc"] == 3
    assert b["silent"]["status"] == "missing" and "without writing" in b["silent"]["error"]
    assert b["never"]["status"] == "missing" and "never ran" in b["never"]["error"]
    m = r["machine"]
    assert all(m.get(k) for k in ("cpu_model", "cores", "ram_mib", "kernel", "date_start", "date_end")), m
    assert len(m["loadavg_start"]) == 3 and len(m["loadavg_end"]) == 3


def test_table_triples_ratios_failed_missing_no_per_run_rows(finished):
    out = finished[2]
    for want in ("x.mpps", "1.5", "2.5", "3.5", "ratio_a_over_b", "0.75", "ratio_c_over_d.tx_pps", "1.25",
                 "** FAILED ** exit 3", "** MISSING **"):
        assert want in out, out
    assert not [ln for ln in out.splitlines() if ln.startswith("good ") and "runs" in ln], out


def test_finish_exits_0_when_every_bench_produced_results(finished):
    assert agg("finish", finished[0], "good")[0] == 0


def test_table_md(finished):
    rc, md = agg("table", "--md", finished[0] / "results.json")
    assert "| good | x.mpps | 1.5 | 2.5 | 3.5 |" in md, md


def test_bad_input_exits_2_with_a_message(finished, tmp_path):
    rc, e = agg("status", finished[0], "good", "x", "0")
    assert rc == 2 and "must be numbers" in e, e
    rc, e = agg("table", tmp_path / "nope.json")
    assert rc == 2 and "nope.json" in e, e

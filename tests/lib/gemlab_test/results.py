"""Accessors for a run directory's results.json (emu/runner/RESULTS.md).

Every reader of results.json in the tests goes through here, so a change
of the schema is a change of this file only.  RESULTS.md "Evidence and
truth": what was asked for (`conditions`) and the model's internals
(`model`, the model's `link`) live under `truth`; a schema-1 file had
them at the top, where these accessors fall back to (as the runner's
runner_results_get does).  The evidence (`link`, `gem`, `sweep`, ...)
stays at the top.  Every member is optional: a missing one reads as
{} / [] / None, as RESULTS.md says readers must.
"""
import json
import os

from .console import parse_line


def load(run_dir, name="results.json"):
    """The parsed RUN_DIR/NAME (results.json, diagnosis.json, iperf.json);
    OSError / ValueError name the file."""
    path = os.path.join(run_dir, name)
    with open(path) as f:
        try:
            return json.load(f)
        except ValueError as e:
            raise ValueError("%s: %s" % (path, e)) from None


def codes(run_dir):
    """The codes diagnosis.json names, in its order."""
    return [x["code"] for x in load(run_dir, "diagnosis.json")["findings"]]


def messages(run_dir, name="console.log", **match):
    """The @gemlab messages of RUN_DIR/NAME (console.log, or a JSON-lines
    file such as peer.jsonl) whose members equal @match
    (type="result", test="iperf")."""
    with open(os.path.join(run_dir, name)) as f:
        ms = [json.loads(x) if name.endswith(".jsonl") else parse_line(x) for x in f]
    return [m for m in ms if m and all(m.get(k) == v for k, v in match.items())]


TRUTH_FIRST = ("conditions", "model")


def _section(res, key):
    truth = res.get("truth") if isinstance(res.get("truth"), dict) else {}
    if key in TRUTH_FIRST and truth.get(key) is not None:
        return truth[key]
    return res.get(key) if res.get(key) is not None else truth.get(key)


def _obj(res, key):
    v = _section(res, key)
    return v if isinstance(v, dict) else {}


def get(res, dotted, default=None):
    """A member by dotted path ("link.speed_mbps", "sweep.0.throughput_bps")."""
    o = res
    for i, k in enumerate(dotted.split(".")):
        try:
            o = (o[int(k)] if isinstance(o, list) else
                 (_section(o, k) if i == 0 else o[k]))
        except (KeyError, IndexError, ValueError, TypeError):
            return default
        if o is None:
            return default
    return o


def link(res):
    """The link as the board saw it (evidence)."""
    return _obj(res, "link")


def model_link(res):
    """The model's own link state (truth.link)."""
    t = res.get("truth")
    return t["link"] if isinstance(t, dict) and isinstance(t.get("link"), dict) else {}


def gem(res):
    return _obj(res, "gem")


def model(res):
    return _obj(res, "model")


def conditions(res):
    return _obj(res, "conditions")


def verdict(res):
    return _obj(res, "verdict")


def scenario(res):
    return _obj(res, "scenario")


def sweep(res):
    v = _section(res, "sweep")
    return v if isinstance(v, list) else []

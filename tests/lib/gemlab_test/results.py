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


def load(run_dir):
    """The parsed RUN_DIR/results.json; OSError / ValueError name the file."""
    path = os.path.join(run_dir, "results.json")
    with open(path) as f:
        try:
            return json.load(f)
        except ValueError as e:
            raise ValueError("%s: %s" % (path, e)) from None


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

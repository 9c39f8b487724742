"""Accessors for a run directory's results.json (emu/runner/RESULTS.md).

Every reader of results.json in the tests goes through here, so a change
of the schema (e.g. the scenario echo and model internals moving under
a `truth` key) is a change of this file only.  Every member is optional:
a missing one reads as {} / [] / None, as RESULTS.md says readers must.
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


def _section(res, key):
    v = res.get(key)
    if v is None and isinstance(res.get("truth"), dict):
        v = res["truth"].get(key)
    return v


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
    return _obj(res, "link")


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

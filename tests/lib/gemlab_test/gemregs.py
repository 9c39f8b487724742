"""The GEM register map for Python, read from the C header the device
tests use (tests/device/gem_regs.h, UG585 appendix B.18), so there is no
second copy to drift.  Object-like #defines whose value is an integer
expression (0x..u, BITU(n), <<, |, parentheses, earlier names) become
entries; function-like macros and strings are left out."""
import os
import re

from .paths import TOP

HEADER = os.path.join(TOP, "tests", "device", "gem_regs.h")
_DEFINE = re.compile(r"^#define\s+([A-Z][A-Z0-9_]*)\s+(.+?)\s*(?:/\*.*)?$")
_SAFE = re.compile(r"^[0-9A-Fa-fxX()<>|&~+\- ]*$")


def load(path=HEADER):
    """{name: int} of the header's integer constants; ValueError naming
    path:line for a define that looks numeric but does not evaluate."""
    regs = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            m = _DEFINE.match(line)
            if not m or "(" in m.group(1):
                continue
            expr = re.sub(r"\bBITU\(([^()]+)\)", r"(1 << (\1))", m.group(2))
            expr = re.sub(r"\b(0[xX][0-9A-Fa-f]+|\d+)[uU]\b", r"\1", expr)
            expr = re.sub(r"\b[A-Z][A-Z0-9_]*\b", lambda k: str(regs[k.group(0)]) if k.group(0) in regs
                          else k.group(0), expr)
            if not _SAFE.match(expr):
                continue            # a string, a cast, a function-like body
            try:
                regs[m.group(1)] = eval(expr, {"__builtins__": {}})    # digits and operators only
            except SyntaxError:
                raise ValueError("%s:%d: cannot evaluate %s" % (path, n, m.group(2))) from None
    return regs

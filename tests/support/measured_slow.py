"""The entries of tests/slow_tests.txt from measured runs: `python -m tests.support.measured_slow
REPORT.xml... [--threshold SECONDS]` prints, for each test function one of whose cases took
longer than the threshold (setup, call and teardown: a JUnit report of
`pytest --junitxml=REPORT.xml`), a line `tests/path.py::test_name  # N.N s`.

The first database test of a run also carries the creation of the test database; check a
test that is only slow there before listing it.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path


def slowest_cases(reports: list[Path]) -> dict[str, float]:
    """Test function (`path::name`, parameters dropped) -> its slowest case, in seconds."""
    slowest: dict[str, float] = {}
    for report in reports:
        # Our own pytest run's report, not untrusted input.
        for case in ElementTree.parse(report).iter("testcase"):  # noqa: S314
            module = case.get("classname", "").replace(".", "/")
            name = case.get("name", "").split("[")[0]
            # classname is `tests.a.test_b` or `tests.a.test_b.TestClass`
            path, _, klass = module.partition("/Test")
            key = f"{path}.py::{'Test' + klass + '::' if klass else ''}{name}"
            slowest[key] = max(slowest.get(key, 0.0), float(case.get("time", "0")))
    return slowest


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", type=Path)
    parser.add_argument("--threshold", type=float, default=0.5)
    arguments = parser.parse_args(argv)
    for key, seconds in sorted(slowest_cases(arguments.reports).items()):
        if seconds > arguments.threshold:
            print(f"{key}  # {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

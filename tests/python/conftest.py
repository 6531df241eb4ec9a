"""Known failures of the last integration, listed in known_failures.txt and marked xfail so the
rest of the suite gates CI. Each is a real bug recorded in the issue notes: fix it and remove the
line (not strict: some are flaky)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "unittest"))

_HERE = os.path.dirname(__file__)
with open(os.path.join(_HERE, "known_failures.txt")) as f:
    _KNOWN = {line.strip() for line in f if line.strip()}


def pytest_collection_modifyitems(config, items):
    for item in items:
        rel = os.path.relpath(str(item.fspath), os.path.dirname(_HERE) + "/..")
        nodeid = item.nodeid
        if nodeid in _KNOWN:
            item.add_marker(pytest.mark.xfail(reason="known failure after integration, see issue notes",
                                              strict=False))

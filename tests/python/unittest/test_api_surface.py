"""MXNet 1.9.1's public Python API, measured with the shared inventory (../shared/spec/surface,
present beside the checkout in development and CI; skipped where it is not): at least 99% of its
public definitions exist here, and the ones missing are exactly KNOWN_MISSING (each listed in
the README with a reason)."""
import os
import subprocess
import sys

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SURFACE = os.path.join(REPO, "..", "shared", "spec", "surface")

# Names still missing would be listed here and in README.md ("Compatibility with MXNet 1.9.1")
# with the reason; today there are none.
KNOWN_MISSING = set()


@pytest.mark.skipif(not os.path.isdir(SURFACE), reason="no ../shared/spec/surface beside the "
                    "checkout")
def test_public_api_covers_mxnet_191(tmp_path):
    dump = str(tmp_path / "surface.json")
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    subprocess.check_call([sys.executable, os.path.join(SURFACE, "dump_surface.py"), dump],
                          env=env, stdout=subprocess.DEVNULL, cwd=str(tmp_path))
    out = subprocess.check_output([sys.executable, os.path.join(SURFACE, "diff_surface.py"),
                                   os.path.join(SURFACE, "mxnet-1.9.1.json"), dump, "--list"],
                                  cwd=str(tmp_path)).decode()
    lines = out.splitlines()
    total, missing = [int(w.rstrip(";:")) for w in lines[0].replace(",", "").split()
                      if w.rstrip(";:").isdigit()][:2]
    assert missing / float(total) <= 0.01, out
    found = set()
    for line in lines[1:]:
        if ":" not in line:
            continue
        module, names = line.split(":", 1)
        module = module.split()[0]
        found.update((module, n) for n in names.split())
    assert found == KNOWN_MISSING, "missing now: %s; README lists: %s" % (
        sorted(found - KNOWN_MISSING), sorted(KNOWN_MISSING - found))

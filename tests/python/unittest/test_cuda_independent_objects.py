"""tools/cuda_independent_objects.py: which CPU objects a CUDA build may link unchanged.

A tiny real Ninja build (g++ with depfiles, as CMake writes them) gives the tool a deps log; the
units that read a CUDA (or NCCL) test directly, through a header's header, through an include probe that
finds a CUDA header, or through the precompiled header must be left out, the others reused."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SCRIPT = os.path.join(ROOT, "tools", "cuda_independent_objects.py")

pytestmark = pytest.mark.skipif(not (shutil.which("ninja") and shutil.which("g++")),
                                reason="needs ninja and g++")

FILES = {
    "include/plain.h": "#pragma once\ninline int plain() { return 1; }\n",
    # Only the default mxnet/base.h gives, and comments: no CUDA test.
    "include/base.h": ("#pragma once\n#ifndef MXNET_USE_CUDA\n#define MXNET_USE_CUDA 0\n#endif"
                       "  // MXNET_USE_CUDA\n/* #if MXNET_USE_CUDA */\n"),
    "include/gpu_bits.h": "#pragma once\n#if MXNET_USE_CUDA\nint gpu_bits();\n#endif\n",
    "include/via.h": '#pragma once\n#include "gpu_bits.h"\n',
    "include/probe.h": "#pragma once\n#if __has_include(<cuda_only.h>)\n#define P 1\n#endif\n",
    "include/probe_other.h": "#pragma once\n#if __has_include(<elsewhere.h>)\n#define Q 1\n#endif\n",
    "cuda_inc/cuda_only.h": "",
    "src/clean.cc": '#include "plain.h"\n#include "base.h"\nint clean() { return plain(); }\n',
    "src/direct.cc": "int direct() {\n#if MXNET_USE_CUDNN\n  return 1;\n#endif\n  return 0;\n}\n",
    # NCCL is found only by the CUDA configuration too.
    "src/nccl.cc": "int nccl() {\n#if MXNET_USE_NCCL\n  return 1;\n#endif\n  return 0;\n}\n",
    "src/indirect.cc": '#include "via.h"\nint indirect() { return 2; }\n',
    "src/probed.cc": '#include "probe.h"\nint probed() { return 3; }\n',
    "src/probed_elsewhere.cc": '#include "probe_other.h"\nint pe() { return 4; }\n',
    "src/gone.cc": "int gone() { return 5; }\n",
}

NINJA = """rule cxx
  command = g++ -std=c++17 -DMXNET_USE_CUDA=0 -Iinclude $extra -MD -MF $out.d -c $in -o $out
  depfile = $out.d
  deps = gcc
"""


def _make_build(tmp, pch_text=None):
    for path, text in FILES.items():
        full = tmp / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_text(text)
    rules = [NINJA]
    objs = "CMakeFiles/mxnet.dir/"
    extra = ""
    if pch_text is not None:
        (tmp / "pch.h").write_text(pch_text)
        rules.append("build %scmake_pch.hxx.gch: cxx pch.h\n  extra = -x c++-header\n" % objs)
        extra = "-include pch.h"
    for src in sorted(p for p in FILES if p.startswith("src/")):
        rules.append("build %s%s.o: cxx %s\n  extra = %s\n" % (objs, src, src, extra))
    (tmp / "build.ninja").write_text("".join(rules))
    subprocess.run(["ninja", "-C", str(tmp)], check=True, capture_output=True)
    (tmp / "src" / "gone.cc").unlink()  # an object whose source is gone is never reused


def _reusable(tmp, *extra):
    out = subprocess.run([sys.executable, SCRIPT, str(tmp), str(tmp), "--cuda-includes",
                          str(tmp / "cuda_inc")] + list(extra), check=True,
                         capture_output=True, text=True).stdout
    return out.split()


def test_units_reading_a_cuda_test_are_left_out(tmp_path):
    _make_build(tmp_path)
    assert _reusable(tmp_path) == ["src/clean.cc", "src/probed_elsewhere.cc"]


def test_precompiled_header_with_a_cuda_test_marks_every_unit(tmp_path):
    _make_build(tmp_path, pch_text='#include "via.h"\n')
    assert _reusable(tmp_path) == []


def test_check_fails_when_a_header_gains_a_cuda_test(tmp_path):
    _make_build(tmp_path)
    listed = tmp_path / "list.txt"
    listed.write_text("\n".join(_reusable(tmp_path)) + "\n")
    ok = subprocess.run([sys.executable, SCRIPT, str(tmp_path), str(tmp_path), "--cuda-includes",
                         str(tmp_path / "cuda_inc"), "--check", str(listed)])
    assert ok.returncode == 0
    (tmp_path / "include" / "plain.h").write_text(
        "#pragma once\ninline int plain() { return MXNET_USE_CUDA; }\n")
    changed = subprocess.run([sys.executable, SCRIPT, str(tmp_path), str(tmp_path),
                              "--cuda-includes", str(tmp_path / "cuda_inc"), "--check",
                              str(listed)], capture_output=True, text=True)
    assert changed.returncode == 1
    assert "src/clean.cc" in changed.stderr and "configure this build again" in changed.stderr

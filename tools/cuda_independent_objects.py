#!/usr/bin/env python3
"""Which C++ objects of a CPU build a CUDA build of the same sources can link unchanged.

A .cc unit compiles to the same object with MXNET_USE_CUDA=0 and =1 unless some file it reads
(itself, a header, the precompiled header) tests a CUDA build macro. The compiler's own record
of what each unit read is ninja's deps log of the CPU build, so the answer is exact, not a guess
from #include lines: a header included only under `#if MXNET_USE_CUDA` never shows up there, but
the file holding that #if does, and it marks the unit.

  cuda_independent_objects.py <cpu build dir> <source dir> --cuda-includes "dir;dir"
prints one source path per line (relative to <source dir>) whose object in
<cpu build dir>/CMakeFiles/mxnet.dir/ can be reused. CMake calls it when a CUDA build is given
MXNET_HOST_OBJECTS_DIR (see CMakeLists.txt); CI uses that to skip compiling the CPU units twice.
With --check LIST it instead exits 1 when the reusable set differs from LIST (a header gained or
lost a CUDA test since CMake ran: configure again).
"""
import argparse
import os
import re
import subprocess
import sys

# The macros the CUDA configuration sets differently (MXNET_USE_CUDA, _CUDNN, _NCCL).
# `#ifndef MXNET_USE_CUDA` + `#define MXNET_USE_CUDA 0` in mxnet/base.h only give the default
# that CMake always overrides, so those two forms do not count. `__has_include(<x>)` differs when x is in one of the include folders
# only the CUDA build has (--cuda-includes).
CUDA_MACRO = re.compile(r"\bMXNET_USE_(CUD\w*|NCCL)\b")
HAS_INCLUDE = re.compile(r"__has_include\s*\(\s*[<\"]([^>\"]+)[>\"]")
DEFAULT_ONLY = re.compile(r"^\s*#\s*(ifndef\s+MXNET_USE_CUDA|define\s+MXNET_USE_CUDA\s+0)\s*$")
COMMENT = re.compile(r"//.*?$|/\*.*?\*/", re.S | re.M)
OBJ_DIR = "CMakeFiles/mxnet.dir/"
PCH = OBJ_DIR + "cmake_pch.hxx.gch"

_tested = {}


def tests_cuda_build(path, cuda_includes):
    """True when the file's code (comments aside) reads differently in the CUDA build."""
    if path not in _tested:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = COMMENT.sub("", f.read())
        except OSError:  # cannot tell: keep the unit out
            _tested[path] = True
            return True
        macro = any(CUDA_MACRO.search(line) and not DEFAULT_ONLY.match(line)
                    for line in text.splitlines())
        probed = any(os.path.exists(os.path.join(d, name))
                     for name in HAS_INCLUDE.findall(text) for d in cuda_includes)
        _tested[path] = macro or probed
    return _tested[path]


def read_deps(build_dir):
    """{object: [files read]} for every object of the library, from `ninja -t deps`."""
    out = subprocess.run(["ninja", "-C", build_dir, "-t", "deps"], check=True,
                         capture_output=True, text=True).stdout
    deps, current = {}, None
    for line in out.splitlines():
        if not line.startswith(" ") and line.strip():
            target = line.split(":", 1)[0]
            current = None
            if target.startswith(OBJ_DIR):
                if "(VALID)" not in line:
                    sys.exit(f"{build_dir}: {target} is out of date; build it first")
                current = deps.setdefault(target, [])
        elif current is not None and line.strip():
            current.append(os.path.join(build_dir, line.strip()))  # relative to the build
    return deps


def reusable_sources(build_dir, source_dir, cuda_includes):
    source_dir = os.path.realpath(source_dir)
    deps = read_deps(build_dir)
    pch_files = deps.get(PCH, [])
    reusable = []
    for target, files in sorted(deps.items()):
        if not target.endswith(".cc.o"):
            continue
        source = target[len(OBJ_DIR):-len(".o")]
        if not os.path.isfile(os.path.join(source_dir, source)):
            continue  # an object of a source that is gone
        if not any(tests_cuda_build(f, cuda_includes) for f in files + pch_files):
            reusable.append(source)
    return reusable


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cpu_build_dir")
    parser.add_argument("source_dir")
    parser.add_argument("--cuda-includes", default="",
                        help="the include folders only the CUDA build has, ';'-separated")
    parser.add_argument("--check", metavar="LIST",
                        help="exit 1 when the reusable set differs from this file's")
    args = parser.parse_args(argv[1:])
    check = args.check
    reusable = reusable_sources(args.cpu_build_dir, args.source_dir,
                                [d for d in args.cuda_includes.split(";") if d])
    if check is None:
        print("\n".join(reusable))
        return 0
    with open(check) as f:
        expected = [l.strip() for l in f if l.strip()]
    if expected != reusable:
        changed = sorted(set(expected) ^ set(reusable))
        print(f"the CUDA-independent units changed since CMake ran ({', '.join(changed[:5])}"
              f"{' ...' if len(changed) > 5 else ''}): configure this build again",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

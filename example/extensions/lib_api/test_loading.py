#!/usr/bin/env python3
"""Load the operator-less example library twice (the second time quietly)."""
import os

import mxnet as mx

path = os.path.abspath(os.path.join(os.path.dirname(__file__), "libinit_lib.so"))
if not os.path.exists(path):
    raise SystemExit("build the library first: make -C %s" % os.path.dirname(path))
mx.library.load(path)
mx.library.load(path, verbose=False)
print("loaded %s twice" % path)

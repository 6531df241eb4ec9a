#!/usr/bin/env python3
"""MXNet 1.x's tools/launch.py: see python/mxnet/tools/launch.py (python -m mxnet.tools.launch)."""
import importlib.util
import os
import sys

# Loaded by path: the launcher itself needs neither the library nor mxnet on sys.path.
_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'python', 'mxnet', 'tools',
                     'launch.py')
_SPEC = importlib.util.spec_from_file_location('mxnet_launch', _PATH)
_LAUNCH = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_LAUNCH)

if __name__ == '__main__':
    sys.exit(_LAUNCH.main())

#!/usr/bin/env bash
# Sets up, builds, and runs the example (the bundled-data MNIST training once it exists).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
if [ -f example/image-classification/train_mnist.py ]; then
  exec "${PYTHON:-python3}" example/image-classification/train_mnist.py "$@"
fi
"${PYTHON:-python3}" -c "import mxnet as mx; print('mxnet', mx.__version__, 'loaded from', mx.base.libinfo.find_lib_path()[0])"

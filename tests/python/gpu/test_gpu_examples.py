"""The image-classification examples on gpu(0): train_mnist.py --gpus 0 (Module.fit on the GPU)
reaches the CPU run's accuracy after one epoch, and train_imagenet.py trains a ResNet on
synthetic data in float32 and float16 (the loss on the repeated batch falls)."""
import os
import re
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'unittest'))
from common import REPO, run_python_script  # noqa: E402

EXAMPLES = os.path.join(REPO, 'example', 'image-classification')


def test_train_mnist_lenet_on_gpu():
    proc = run_python_script(os.path.join(EXAMPLES, 'train_mnist.py'), '--network', 'lenet',
                             '--num-epochs', '1', '--gpus', '0')
    assert proc.returncode == 0, proc.stderr[-3000:]
    last = proc.stdout.strip().splitlines()[-1]
    assert last.startswith('final test accuracy (lenet, 1 epochs): '), last
    assert float(last.split()[-1]) > 0.9, last


@pytest.mark.parametrize('dtype', ['float32', 'float16'])
def test_train_imagenet_resnet50_on_gpu(dtype):
    proc = run_python_script(os.path.join(EXAMPLES, 'train_imagenet.py'), '--gpus', '0',
                             '--num-layers', '50', '--batch-size', '32', '--num-examples', '320',
                             '--num-epochs', '1', '--disp-batches', '1', '--dtype', dtype,
                             '--lr', '0.05')
    assert proc.returncode == 0, proc.stderr[-3000:]
    losses = [float(v) for v in re.findall(r'Speed: [0-9.]+ samples/sec loss=([0-9.]+)',
                                           proc.stderr)]
    assert len(losses) == 10, proc.stderr[-3000:]
    assert losses[-1] < losses[0], losses
    assert proc.stdout.strip().splitlines()[-1].startswith('resnet50 %s on gpu(0)' % dtype)

"""The image-classification examples run end to end: MNIST on the bundled data (one short epoch
each), the ImageNet-style ResNet on synthetic data."""
import os
import re

import pytest

import mxnet as mx

from common import REPO, run_python_script

EXAMPLES = os.path.join(REPO, "example", "image-classification")
HAS_MNIST = hasattr(getattr(mx, "io", None), "MNISTIter") and hasattr(mx, "sym")
HAS_AUTOGRAD = hasattr(getattr(mx, "autograd", None), "record") and \
    hasattr(getattr(mx, "io", None), "MNISTIter")


def _final_accuracy(proc, prefix):
    assert proc.returncode == 0, proc.stderr[-3000:]
    last = proc.stdout.strip().splitlines()[-1]
    assert last.startswith(prefix), last
    return float(last.split()[-1])


@pytest.mark.skipif(not HAS_MNIST, reason="needs mx.sym (branch graph) and mx.io.MNISTIter "
                                          "(branch io)")
def test_train_mnist_mlp_one_epoch(tmp_path):
    proc = run_python_script(os.path.join(EXAMPLES, "train_mnist.py"), "--network", "mlp",
                             "--num-epochs", "1", "--model-prefix", tmp_path / "m")
    assert _final_accuracy(proc, "final test accuracy (mlp, 1 epochs): ") > 0.85
    assert "Speed:" in proc.stderr and "Epoch[0] Validation-accuracy=" in proc.stderr
    assert os.path.exists(str(tmp_path / "m-0001.params"))
    assert os.path.exists(str(tmp_path / "m-symbol.json"))


@pytest.mark.skipif(not HAS_AUTOGRAD, reason="needs mx.autograd (branch autograd) and "
                                             "mx.io.MNISTIter (branch io)")
def test_train_mnist_autograd_mlp_one_epoch():
    proc = run_python_script(os.path.join(EXAMPLES, "train_mnist_autograd.py"), "--network",
                             "mlp", "--num-epochs", "1")
    assert _final_accuracy(proc, "final test accuracy (mlp, autograd, 1 epochs): ") > 0.85


def _logged_losses(proc):
    return [float(v) for v in re.findall(r"Speed: [0-9.]+ samples/sec loss=([0-9.]+)",
                                         proc.stderr)]


def test_train_imagenet_resnet_synthetic():
    # A small ResNet-18 on the synthetic batch: it trains (the loss on the repeated batch falls)
    # and reports its speed, as on a GPU with --gpus 0.
    proc = run_python_script(os.path.join(EXAMPLES, "train_imagenet.py"), "--num-layers", "18",
                             "--num-classes", "10", "--image-shape", "3,32,32", "--batch-size",
                             "8", "--num-examples", "64", "--num-epochs", "1", "--disp-batches",
                             "1", "--lr", "0.05")
    assert proc.returncode == 0, proc.stderr[-3000:]
    losses = _logged_losses(proc)
    assert len(losses) == 8, proc.stderr[-3000:]
    assert losses[-1] < 0.5 * losses[0], losses
    assert proc.stdout.strip().splitlines()[-1].startswith("resnet18 float32 on cpu(0)")

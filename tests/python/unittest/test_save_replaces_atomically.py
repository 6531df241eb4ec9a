"""Saving a checkpoint over an old one: the old one survives a failed save (issue 19)."""
import os

import pytest

import mxnet as mx


def test_failed_save_leaves_the_previous_checkpoint(tmp_path):
    # mx.nd.save writes next to the file and renames once complete: an array whose computation
    # failed (the error surfaces while saving) must not truncate the checkpoint already there.
    path = str(tmp_path / "model.params")
    mx.nd.save(path, {"w": mx.nd.ones(3)})
    before = open(path, "rb").read()
    failed = mx.nd.linalg.potrf(mx.nd.array([[-1.0]]))
    with pytest.raises(mx.base.MXNetError, match="potrf"):
        mx.nd.save(path, {"w": failed})
    assert open(path, "rb").read() == before
    assert os.listdir(str(tmp_path)) == ["model.params"]  # no temporary file left
    sym_path = str(tmp_path / "model.json")
    mx.sym.Variable("x").save(sym_path)
    assert mx.sym.load(sym_path).list_arguments() == ["x"]
    mx.nd.save(os.devnull, {"w": mx.nd.ones(2)})  # not a regular file: written in place
    assert not os.path.isfile(os.devnull)

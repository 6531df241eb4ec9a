"""Pieces shared by the model-zoo networks: a block that runs its children side by side and
concatenates their outputs, a pass-through block, and loading of pretrained weights."""
from ...block import HybridBlock
from ... import nn
from ..model_store import get_model_file


class HybridConcurrent(nn.HybridSequential):
    """Feeds the same input to every child and concatenates the outputs along `axis`
    (mx.gluon.contrib.nn.HybridConcurrent in MXNet 1.9.1)."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super(HybridConcurrent, self).__init__(prefix=prefix, params=params)
        self.axis = axis

    def hybrid_forward(self, F, x):
        outputs = [child(x) for child in self._children.values()]
        return F.concat(*outputs, dim=self.axis)


class Identity(HybridBlock):
    """Returns its input unchanged (the shortcut branch of a dense layer)."""

    def hybrid_forward(self, F, x):
        return x


def load_pretrained(net, model_name, ctx, root):
    """Loads the stored weights of `model_name` into `net` (see model_store.get_model_file)."""
    net.load_parameters(get_model_file(model_name, root=root), ctx=ctx)
    return net

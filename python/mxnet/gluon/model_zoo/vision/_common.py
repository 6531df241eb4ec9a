"""Shared by the model-zoo networks: loading of pretrained weights."""
from ..model_store import get_model_file


def load_pretrained(net, model_name, ctx, root):
    """Loads the stored weights of `model_name` into `net` (see model_store.get_model_file)."""
    net.load_parameters(get_model_file(model_name, root=root), ctx=ctx)
    return net

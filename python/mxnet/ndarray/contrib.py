"""Contributed operators (`_contrib_*` registered names, without the prefix).

Populated at import from the library registry.
"""
__all__ = []


def _get_rescale_grad(rescale_grad, ctx=None):
    from . import utils, NDArray  # pylint: disable=import-outside-toplevel
    if isinstance(rescale_grad, NDArray):
        return rescale_grad if ctx is None else rescale_grad.as_in_context(ctx)
    return utils.array([rescale_grad], ctx=ctx, dtype="float32")


def multi_adamw_update(weights, grads, mean, var, rescale_grad, lrs, wds, etas,
                       out=None, name=None, size=0, **kwargs):
    """AdamW update of several weights at once (_multi_adamw_update); `rescale_grad` is a
    number or a one-element NDArray (the update is skipped when it is NaN, Inf or 0)."""
    from . import _internal  # pylint: disable=import-outside-toplevel
    size = size or len(weights)
    rescale_grad = _get_rescale_grad(rescale_grad, ctx=weights[0].context)
    flat = [a for group in zip(weights, grads, mean, var) for a in group] + [rescale_grad]
    return _internal._multi_adamw_update(*flat, out=out, num_weights=size, lrs=lrs, wds=wds,
                                         etas=etas, name=name, **kwargs)


def multi_mp_adamw_update(weights, grads, mean, var, weights32, rescale_grad, lrs, wds, etas,
                          out=None, name=None, size=0, **kwargs):
    """Multi-precision AdamW update of several weights (_multi_mp_adamw_update): the float32
    master copies `weights32` are updated in place and cast into `weights`."""
    from . import _internal  # pylint: disable=import-outside-toplevel
    size = size or len(weights)
    rescale_grad = _get_rescale_grad(rescale_grad, ctx=weights[0].context)
    flat = [a for group in zip(weights, grads, mean, var, weights32) for a in group]
    return _internal._multi_mp_adamw_update(*(flat + [rescale_grad]), out=out, num_weights=size,
                                            lrs=lrs, wds=wds, etas=etas, name=name, **kwargs)


def multi_lamb_update(weights, grads, mean, var, step_count, lrs, wds, out=None, num_tensors=0,
                      **kwargs):
    """LAMB update of several tensors at once (_multi_lamb_update); `step_count`, `lrs` and
    `wds` give one value per tensor."""
    from . import _internal  # pylint: disable=import-outside-toplevel
    num_tensors = num_tensors or len(weights)
    flat = [a for group in zip(weights, grads, mean, var) for a in group]
    return _internal._multi_lamb_update(*flat, out=out, num_tensors=num_tensors,
                                        step_count=step_count, learning_rates=lrs, wds=wds,
                                        **kwargs)


def multi_mp_lamb_update(weights, grads, mean, var, weights32, step_count, lrs, wds, out=None,
                         num_tensors=0, **kwargs):
    """Multi-precision LAMB update of several tensors (_multi_mp_lamb_update): the float32
    master copies `weights32` are updated in place and cast into `weights`."""
    from . import _internal  # pylint: disable=import-outside-toplevel
    num_tensors = num_tensors or len(weights)
    flat = [a for group in zip(weights, grads, mean, var, weights32) for a in group]
    return _internal._multi_mp_lamb_update(*flat, out=out, num_tensors=num_tensors,
                                           step_count=step_count, learning_rates=lrs, wds=wds,
                                           **kwargs)


__all__ += ["multi_adamw_update", "multi_mp_adamw_update", "multi_lamb_update",
            "multi_mp_lamb_update"]

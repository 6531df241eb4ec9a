"""LogMetricsCallback: write training metrics as TensorBoard scalars."""
import importlib
import logging

__all__ = ['LogMetricsCallback']

# Packages providing a TensorBoard SummaryWriter, in order of preference.
_WRITER_MODULES = ('mxboard', 'tensorboardX', 'torch.utils.tensorboard')


class LogMetricsCallback(object):
    """A batch- or epoch-end callback (like callback.Speedometer) that adds each metric of
    `param.eval_metric` as a TensorBoard scalar, named '<prefix>-<metric>' when `prefix` is
    given, at step `param.epoch`, into event files under `logging_dir` (view them with
    ``tensorboard --logdir=logging_dir``). Needs mxboard (or tensorboardX)."""

    def __init__(self, logging_dir, prefix=None):
        self.prefix = prefix
        for name in _WRITER_MODULES:
            try:
                writer_cls = importlib.import_module(name).SummaryWriter
            except (ImportError, AttributeError):
                continue
            self.summary_writer = writer_cls(logging_dir)
            break
        else:
            logging.error('You can install mxboard via `pip install mxboard`.')
            raise ImportError('LogMetricsCallback needs a TensorBoard SummaryWriter: install '
                              'mxboard (or tensorboardX)')

    def __call__(self, param):
        """Log the current metrics of `param` (a BatchEndParam)."""
        if param.eval_metric is None:
            return
        for name, value in param.eval_metric.get_name_value():
            if self.prefix is not None:
                name = '%s-%s' % (self.prefix, name)
            self.summary_writer.add_scalar(name, value, global_step=param.epoch)

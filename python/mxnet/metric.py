"""`mx.metric`: evaluation metrics accumulated over batches.

``metric.update(labels, preds)`` takes lists of NDArrays (or NumPy arrays), one per output;
``metric.get()`` returns ``(name, value)``. Every metric keeps a local accumulator
(`sum_metric`/`num_inst`, cleared by `reset_local`, e.g. per logging interval) and a global one
(`global_sum_metric`/`global_num_inst`, cleared only by `reset`). Computation is in NumPy.
"""
import math
from collections import OrderedDict

import numpy

from . import registry
from .base import numeric_types
from .ndarray import NDArray
# Names MXNet 1.9.1's module also exposes (it imports them).
from .base import string_types  # noqa: F401

__all__ = ["EvalMetric", "CompositeEvalMetric", "Accuracy", "TopKAccuracy", "F1", "MCC",
           "Perplexity", "MAE", "MSE", "RMSE", "CrossEntropy", "NegativeLogLikelihood",
           "PearsonCorrelation", "PCC", "Loss", "Torch", "Caffe", "CustomMetric", "np",
           "create", "register", "alias", "check_label_shapes"]


def _as_numpy(x):
    return x.asnumpy() if hasattr(x, "asnumpy") else numpy.asarray(x)


def check_label_shapes(labels, preds, wrap=False, shape=False):
    """Raises ValueError unless labels and preds have the same length (or `shape`).

    With `wrap`, single arrays are wrapped into one-element lists.
    """
    if not shape:
        label_shape, pred_shape = len(labels), len(preds)
    else:
        label_shape, pred_shape = labels.shape, preds.shape
    if label_shape != pred_shape:
        raise ValueError("Shape of labels {} does not match shape of predictions {}"
                         .format(label_shape, pred_shape))
    if wrap:
        if isinstance(labels, (NDArray, numpy.ndarray)):
            labels = [labels]
        if isinstance(preds, (NDArray, numpy.ndarray)):
            preds = [preds]
    return labels, preds


class EvalMetric(object):
    """Base class of all metrics.

    name: the reported name. output_names / label_names: the outputs and labels
    `update_dict` selects (default: all, in order).
    """

    def __init__(self, name, output_names=None, label_names=None, **kwargs):
        self.name = str(name)
        self.output_names = output_names
        self.label_names = label_names
        self._has_global_stats = kwargs.pop("has_global_stats", False)
        self._kwargs = kwargs
        self.reset()

    def __str__(self):
        return "EvalMetric: {}".format(dict(self.get_name_value()))

    def get_config(self):
        """The constructor arguments, so `create(**config)` rebuilds the metric."""
        config = self._kwargs.copy()
        config.update({"metric": self.__class__.__name__, "name": self.name,
                       "output_names": self.output_names, "label_names": self.label_names})
        return config

    def update_dict(self, label, pred):
        """Updates from dicts name -> array, selecting `label_names` / `output_names`."""
        if self.output_names is not None:
            pred = [pred[name] for name in self.output_names]
        else:
            pred = list(pred.values())
        if self.label_names is not None:
            label = [label[name] for name in self.label_names]
        else:
            label = list(label.values())
        self.update(label, pred)

    def update(self, labels, preds):
        """Accumulates one batch: `labels` and `preds` are lists of arrays."""
        raise NotImplementedError()

    def _add(self, value, count):
        self.sum_metric += value
        self.global_sum_metric += value
        self.num_inst += count
        self.global_num_inst += count

    def reset(self):
        """Clears the local and the global accumulators."""
        self.num_inst = 0
        self.sum_metric = 0.0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0

    def reset_local(self):
        """Clears the local accumulator only."""
        self.num_inst = 0
        self.sum_metric = 0.0

    def get(self):
        """``(name, value)`` of the local accumulator; value is NaN before any update."""
        if self.num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, self.sum_metric / self.num_inst)

    def get_global(self):
        """``(name, value)`` since the last `reset`."""
        if not self._has_global_stats:
            return self.get()
        if self.global_num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, self.global_sum_metric / self.global_num_inst)

    @staticmethod
    def _pairs(name, value):
        if not isinstance(name, list):
            name = [name]
        if not isinstance(value, list):
            value = [value]
        return list(zip(name, value))

    def get_name_value(self):
        """List of ``(name, value)`` pairs (several for composite metrics)."""
        return self._pairs(*self.get())

    def get_global_name_value(self):
        """List of global ``(name, value)`` pairs."""
        return self._pairs(*self.get_global())


register = registry.get_register_func(EvalMetric, "metric")
alias = registry.get_alias_func(EvalMetric, "metric")
_create = registry.get_create_func(EvalMetric, "metric")


def create(metric, *args, **kwargs):
    """Creates a metric from a name, a callable ``feval(label, pred)``, a list or an instance."""
    if callable(metric):
        return CustomMetric(metric, *args, **kwargs)
    if isinstance(metric, list):
        composite_metric = CompositeEvalMetric()
        for child_metric in metric:
            composite_metric.add(create(child_metric, *args, **kwargs))
        return composite_metric
    return _create(metric, *args, **kwargs)


@register
@alias("composite")
class CompositeEvalMetric(EvalMetric):
    """Several metrics updated together; `get` returns lists of names and values."""

    def __init__(self, metrics=None, name="composite", output_names=None, label_names=None):
        super(CompositeEvalMetric, self).__init__(name, output_names=output_names,
                                                  label_names=label_names,
                                                  has_global_stats=True)
        self.metrics = [create(i) for i in (metrics or [])]

    def add(self, metric):
        """Adds a child metric (anything `create` accepts)."""
        self.metrics.append(create(metric))

    def get_metric(self, index):
        """The child metric at `index`."""
        try:
            return self.metrics[index]
        except IndexError:
            raise ValueError("Metric index {} is out of range 0 and {}"
                             .format(index, len(self.metrics)))

    def update_dict(self, labels, preds):
        if self.label_names is not None:
            labels = OrderedDict([i for i in labels.items() if i[0] in self.label_names])
        if self.output_names is not None:
            preds = OrderedDict([i for i in preds.items() if i[0] in self.output_names])
        for metric in self.metrics:
            metric.update_dict(labels, preds)

    def update(self, labels, preds):
        for metric in self.metrics:
            metric.update(labels, preds)

    def reset(self):
        for metric in getattr(self, "metrics", []):
            metric.reset()

    def reset_local(self):
        for metric in getattr(self, "metrics", []):
            metric.reset_local()

    def _collect(self, getter):
        names, values = [], []
        for metric in self.metrics:
            name, value = getter(metric)
            if isinstance(name, str):
                name = [name]
            if isinstance(value, numeric_types):
                value = [value]
            names.extend(name)
            values.extend(value)
        return (names, values)

    def get(self):
        return self._collect(lambda m: m.get())

    def get_global(self):
        return self._collect(lambda m: m.get_global())

    def get_config(self):
        config = super(CompositeEvalMetric, self).get_config()
        config.update({"metrics": [i.get_config() for i in self.metrics]})
        return config


@register
@alias("acc")
class Accuracy(EvalMetric):
    """Fraction of correct predictions; predictions are argmax'ed along `axis` unless they
    already have the label's shape."""

    def __init__(self, axis=1, name="accuracy", output_names=None, label_names=None):
        super(Accuracy, self).__init__(name, axis=axis, output_names=output_names,
                                       label_names=label_names, has_global_stats=True)
        self.axis = axis

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred_label in zip(labels, preds):
            pred_label = _as_numpy(pred_label)
            label = _as_numpy(label)
            if pred_label.shape != label.shape:
                pred_label = numpy.argmax(pred_label, axis=self.axis)
            pred_label = pred_label.astype("int32").ravel()
            label = label.astype("int32").ravel()
            check_label_shapes(label, pred_label)
            self._add(int((pred_label == label).sum()), len(pred_label))


@register
@alias("top_k_accuracy", "top_k_acc")
class TopKAccuracy(EvalMetric):
    """Fraction of samples whose label is among the `top_k` highest-scored classes."""

    def __init__(self, top_k=1, name="top_k_accuracy", output_names=None, label_names=None):
        super(TopKAccuracy, self).__init__(name, top_k=top_k, output_names=output_names,
                                           label_names=label_names, has_global_stats=True)
        self.top_k = top_k
        if self.top_k <= 1:
            raise ValueError("Please use Accuracy if top_k is no more than 1")
        self.name += "_%d" % self.top_k

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            pred = _as_numpy(pred).astype("float32")
            if pred.ndim > 2:
                raise ValueError("TopKAccuracy: predictions should be no more than 2 dims, "
                                 "got shape %s" % (pred.shape,))
            label = _as_numpy(label).astype("int32").ravel()
            check_label_shapes(label, pred)
            num_samples = pred.shape[0]
            if pred.ndim == 1:
                num_correct = int((pred.astype("int32") == label).sum())
            else:
                num_classes = pred.shape[1]
                top_k = min(num_classes, self.top_k)
                # argpartition: the order inside the top k does not matter.
                top = numpy.argpartition(pred, -top_k, axis=1)[:, num_classes - top_k:]
                num_correct = int((top == label[:, None]).any(axis=1).sum())
            self._add(num_correct, num_samples)


class _BinaryClassificationMetrics(object):
    """Confusion counts of a binary classifier, local and global (F1 and MCC)."""

    def __init__(self):
        self.reset_stats()

    def update_binary_stats(self, label, pred):
        pred = _as_numpy(pred)
        label = _as_numpy(label).astype("int32")
        pred_label = numpy.argmax(pred, axis=1)
        check_label_shapes(label, pred)
        if len(numpy.unique(label)) > 2:
            raise ValueError("%s currently only supports binary classification."
                             % self.__class__.__name__)
        pred_true = (pred_label == 1)
        label_true = (label.ravel() == 1)
        counts = (int((pred_true & label_true).sum()), int((pred_true & ~label_true).sum()),
                  int((~pred_true & label_true).sum()), int((~pred_true & ~label_true).sum()))
        self.local = [a + b for a, b in zip(self.local, counts)]
        self.globl = [a + b for a, b in zip(self.globl, counts)]

    @staticmethod
    def _fscore(counts):
        tp, fp, fn, _ = counts
        precision = tp / float(tp + fp) if tp + fp > 0 else 0.
        recall = tp / float(tp + fn) if tp + fn > 0 else 0.
        if precision + recall > 0:
            return 2 * precision * recall / (precision + recall)
        return 0.

    @staticmethod
    def _mcc(counts):
        tp, fp, fn, tn = counts
        denom = 1.
        for t in ((tp + fp), (tp + fn), (tn + fp), (tn + fn)):
            if t != 0:
                denom *= t
        return ((tp * tn) - (fp * fn)) / math.sqrt(denom)

    @property
    def fscore(self):
        return self._fscore(self.local)

    @property
    def global_fscore(self):
        return self._fscore(self.globl)

    def matthewscc(self, use_global=False):
        return self._mcc(self.globl if use_global else self.local)

    @property
    def total_examples(self):
        return sum(self.local)

    @property
    def global_total_examples(self):
        return sum(self.globl)

    def local_reset_stats(self):
        self.local = [0, 0, 0, 0]  # tp, fp, fn, tn

    def reset_stats(self):
        self.local_reset_stats()
        self.globl = [0, 0, 0, 0]


class _BinaryMetric(EvalMetric):
    """F1 / MCC: 'macro' averages the per-batch score, 'micro' scores all samples at once."""

    def __init__(self, name, output_names, label_names, average):
        self.average = average
        self.metrics = _BinaryClassificationMetrics()
        super(_BinaryMetric, self).__init__(name=name, output_names=output_names,
                                            label_names=label_names, has_global_stats=True)

    def _score(self, use_global):
        raise NotImplementedError()

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            self.metrics.update_binary_stats(label, pred)
        if self.average == "macro":
            self.sum_metric += self._score(False)
            self.global_sum_metric += self._score(True)
            self.num_inst += 1
            self.global_num_inst += 1
            self.metrics.reset_stats()
        else:
            self.sum_metric = self._score(False) * self.metrics.total_examples
            self.global_sum_metric = self._score(True) * self.metrics.global_total_examples
            self.num_inst = self.metrics.total_examples
            self.global_num_inst = self.metrics.global_total_examples

    def reset(self):
        self.sum_metric = 0.
        self.num_inst = 0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0
        self.metrics.reset_stats()

    def reset_local(self):
        self.sum_metric = 0.
        self.num_inst = 0
        self.metrics.local_reset_stats()


@register
class F1(_BinaryMetric):
    """F1 score of a binary classifier (class 1 positive; predictions argmax'ed on axis 1)."""

    def __init__(self, name="f1", output_names=None, label_names=None, average="macro"):
        super(F1, self).__init__(name, output_names, label_names, average)

    def _score(self, use_global):
        return self.metrics.global_fscore if use_global else self.metrics.fscore


@register
class MCC(_BinaryMetric):
    """Matthews correlation coefficient of a binary classifier."""

    def __init__(self, name="mcc", output_names=None, label_names=None, average="macro"):
        super(MCC, self).__init__(name, output_names, label_names, average)
        self._metrics = self.metrics
        self._average = average

    def _score(self, use_global):
        return self.metrics.matthewscc(use_global=use_global)


@register
class Perplexity(EvalMetric):
    """exp(mean negative log probability of the label), skipping `ignore_label`.

    Predictions hold probabilities along `axis`; labels have the other dimensions.
    """

    def __init__(self, ignore_label, axis=-1, name="perplexity", output_names=None,
                 label_names=None):
        super(Perplexity, self).__init__(name, ignore_label=ignore_label,
                                         output_names=output_names, label_names=label_names,
                                         has_global_stats=True)
        self.ignore_label = ignore_label
        self.axis = axis

    def update(self, labels, preds):
        if len(labels) != len(preds):
            raise ValueError("Perplexity: %d labels but %d predictions"
                             % (len(labels), len(preds)))
        loss = 0.
        num = 0
        for label, pred in zip(labels, preds):
            pred = _as_numpy(pred)
            label = _as_numpy(label)
            if label.size != pred.size / pred.shape[self.axis]:
                raise ValueError("shape mismatch: %s vs. %s" % (label.shape, pred.shape))
            probs = numpy.moveaxis(pred, self.axis, -1).reshape(-1, pred.shape[self.axis])
            label = label.reshape(-1).astype("int64")
            picked = probs[numpy.arange(label.size), numpy.clip(label, 0, probs.shape[1] - 1)]
            if self.ignore_label is not None:
                keep = label != self.ignore_label
                picked = picked[keep]
            loss -= float(numpy.sum(numpy.log(numpy.maximum(1e-10, picked))))
            num += picked.size
        self._add(loss, num)

    def get(self):
        if self.num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, math.exp(self.sum_metric / self.num_inst))

    def get_global(self):
        if self.global_num_inst == 0:
            return (self.name, float("nan"))
        return (self.name, math.exp(self.global_sum_metric / self.global_num_inst))


class _RegressionMetric(EvalMetric):
    """Mean over batches of a per-batch error of (label, pred) as 2-D arrays."""

    def __init__(self, name, output_names, label_names):
        super(_RegressionMetric, self).__init__(name, output_names=output_names,
                                                label_names=label_names, has_global_stats=True)

    @staticmethod
    def _error(label, pred):
        raise NotImplementedError()

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label = _as_numpy(label)
            pred = _as_numpy(pred)
            if label.ndim == 1:
                label = label.reshape(label.shape[0], 1)
            if pred.ndim == 1:
                pred = pred.reshape(pred.shape[0], 1)
            self._add(float(self._error(label, pred)), 1)


@register
class MAE(_RegressionMetric):
    """Mean absolute error (averaged per batch)."""

    def __init__(self, name="mae", output_names=None, label_names=None):
        super(MAE, self).__init__(name, output_names, label_names)

    @staticmethod
    def _error(label, pred):
        return numpy.abs(label - pred).mean()


@register
class MSE(_RegressionMetric):
    """Mean squared error (averaged per batch)."""

    def __init__(self, name="mse", output_names=None, label_names=None):
        super(MSE, self).__init__(name, output_names, label_names)

    @staticmethod
    def _error(label, pred):
        return ((label - pred) ** 2.0).mean()


@register
class RMSE(_RegressionMetric):
    """Root mean squared error (per batch, averaged over batches)."""

    def __init__(self, name="rmse", output_names=None, label_names=None):
        super(RMSE, self).__init__(name, output_names, label_names)

    @staticmethod
    def _error(label, pred):
        return numpy.sqrt(((label - pred) ** 2.0).mean())


class _LogLossMetric(EvalMetric):
    """Sum over samples of -log(pred[i, label[i]] + eps), divided by the sample count."""

    def __init__(self, eps, name, output_names, label_names):
        super(_LogLossMetric, self).__init__(name, eps=eps, output_names=output_names,
                                             label_names=label_names, has_global_stats=True)
        self.eps = eps

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label = _as_numpy(label).ravel()
            pred = _as_numpy(pred)
            num_examples = pred.shape[0]
            if label.shape[0] != num_examples:
                raise ValueError("%s: %d labels for %d predictions"
                                 % (self.name, label.shape[0], num_examples))
            prob = pred[numpy.arange(num_examples, dtype=numpy.int64), numpy.int64(label)]
            self._add(float((-numpy.log(prob + self.eps)).sum()), num_examples)


@register
@alias("ce")
class CrossEntropy(_LogLossMetric):
    """Cross entropy of predicted class probabilities against integer labels."""

    def __init__(self, eps=1e-12, name="cross-entropy", output_names=None, label_names=None):
        super(CrossEntropy, self).__init__(eps, name, output_names, label_names)


@register
@alias("nll_loss")
class NegativeLogLikelihood(_LogLossMetric):
    """Negative log likelihood of the labels under the predicted probabilities."""

    def __init__(self, eps=1e-12, name="nll-loss", output_names=None, label_names=None):
        super(NegativeLogLikelihood, self).__init__(eps, name, output_names, label_names)


@register
@alias("pearsonr")
class PearsonCorrelation(EvalMetric):
    """Pearson correlation of predictions and labels.

    'macro' averages the per-batch coefficient; 'micro' is the coefficient of all samples
    seen (from running float64 sums).
    """

    def __init__(self, name="pearsonr", output_names=None, label_names=None, average="macro"):
        self.average = average
        super(PearsonCorrelation, self).__init__(name, output_names=output_names,
                                                 label_names=label_names,
                                                 has_global_stats=True)

    def reset_micro(self):
        self._sums = numpy.zeros(6)  # n, sum p, sum l, sum p^2, sum l^2, sum p*l

    def reset(self):
        super(PearsonCorrelation, self).reset()
        self.reset_micro()

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label = _as_numpy(label)
            pred = _as_numpy(pred)
            check_label_shapes(label, pred, False, True)
            label = label.ravel().astype(numpy.float64)
            pred = pred.ravel().astype(numpy.float64)
            if self.average == "macro":
                self._add(float(numpy.corrcoef(pred, label)[0, 1]), 1)
            else:
                self._add(0.0, 1)
                self._sums += (label.size, pred.sum(), label.sum(), (pred * pred).sum(),
                               (label * label).sum(), (pred * label).sum())

    def _micro(self):
        n, sp, sl, spp, sll, spl = self._sums
        cov = spl - sp * sl / n
        return cov / math.sqrt((spp - sp * sp / n) * (sll - sl * sl / n))

    def get(self):
        if self.num_inst == 0:
            return (self.name, float("nan"))
        if self.average == "macro":
            return (self.name, self.sum_metric / self.num_inst)
        return (self.name, self._micro())

    def get_global(self):
        if self.average == "macro":
            return super(PearsonCorrelation, self).get_global()
        return self.get()


@register
class PCC(EvalMetric):
    """Multi-class Matthews correlation (Pearson correlation of the confusion matrix)."""

    def __init__(self, name="pcc", output_names=None, label_names=None, has_global_stats=True):
        self.k = 2
        super(PCC, self).__init__(name=name, output_names=output_names,
                                  label_names=label_names, has_global_stats=has_global_stats)

    def _grow(self, inc):
        self.lcm = numpy.pad(self.lcm, ((0, inc), (0, inc)), "constant", constant_values=(0))
        self.gcm = numpy.pad(self.gcm, ((0, inc), (0, inc)), "constant", constant_values=(0))
        self.k += inc

    @staticmethod
    def _calc_mcc(cmat):
        n = cmat.sum()
        x = cmat.sum(axis=1)
        y = cmat.sum(axis=0)
        cov_xx = numpy.sum(x * (n - x))
        cov_yy = numpy.sum(y * (n - y))
        if cov_xx == 0 or cov_yy == 0:
            return float("nan")
        i = cmat.diagonal()
        cov_xy = numpy.sum(i * n - x * y)
        return cov_xy / (cov_xx * cov_yy) ** 0.5

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            label = _as_numpy(label).astype("int32")
            pred = _as_numpy(pred)
            if pred.shape != label.shape:
                pred = pred.argmax(axis=1)
            else:
                pred = pred.astype("int32")
            n = max(pred.max(), label.max())
            if n >= self.k:
                self._grow(n + 1 - self.k)
            bcm = numpy.zeros((self.k, self.k))
            numpy.add.at(bcm, (pred.ravel(), label.ravel()), 1)
            self.lcm += bcm
            self.gcm += bcm
        self.num_inst += 1
        self.global_num_inst += 1

    @property
    def sum_metric(self):
        return self._calc_mcc(self.lcm) * self.num_inst

    @sum_metric.setter
    def sum_metric(self, _):
        pass  # derived from the confusion matrix

    @property
    def global_sum_metric(self):
        return self._calc_mcc(self.gcm) * self.global_num_inst

    @global_sum_metric.setter
    def global_sum_metric(self, _):
        pass

    def reset(self):
        self.global_num_inst = 0.
        self.gcm = numpy.zeros((self.k, self.k))
        self.reset_local()

    def reset_local(self):
        self.num_inst = 0.
        self.lcm = numpy.zeros((self.k, self.k))


@register
class Loss(EvalMetric):
    """Mean of the loss values the network outputs (labels are ignored)."""

    def __init__(self, name="loss", output_names=None, label_names=None):
        super(Loss, self).__init__(name, output_names=output_names, label_names=label_names,
                                   has_global_stats=True)

    def update(self, _, preds):
        if isinstance(preds, (NDArray, numpy.ndarray)):
            preds = [preds]
        for pred in preds:
            pred = _as_numpy(pred)
            self._add(float(pred.sum()), pred.size)


@register
class Torch(Loss):
    """Dummy metric for torch criterions."""

    def __init__(self, name="torch", output_names=None, label_names=None):
        super(Torch, self).__init__(name, output_names=output_names, label_names=label_names)


@register
class Caffe(Loss):
    """Dummy metric for caffe criterions."""

    def __init__(self, name="caffe", output_names=None, label_names=None):
        super(Caffe, self).__init__(name, output_names=output_names, label_names=label_names)


@register
class CustomMetric(EvalMetric):
    """A metric from ``feval(label, pred)`` on NumPy arrays.

    feval returns a value (counted as one instance) or ``(sum_metric, num_inst)``.
    """

    def __init__(self, feval, name=None, allow_extra_outputs=False, output_names=None,
                 label_names=None):
        if name is None:
            name = feval.__name__
            if name.find("<") != -1:
                name = "custom(%s)" % name
        super(CustomMetric, self).__init__(name, feval=feval,
                                           allow_extra_outputs=allow_extra_outputs,
                                           output_names=output_names, label_names=label_names,
                                           has_global_stats=True)
        self._feval = feval
        self._allow_extra_outputs = allow_extra_outputs

    def update(self, labels, preds):
        if not self._allow_extra_outputs:
            labels, preds = check_label_shapes(labels, preds, True)
        for pred, label in zip(preds, labels):
            reval = self._feval(_as_numpy(label), _as_numpy(pred))
            if isinstance(reval, tuple):
                sum_metric, num_inst = reval
                self._add(sum_metric, num_inst)
            else:
                self._add(reval, 1)

    def get_config(self):
        raise NotImplementedError("CustomMetric cannot be serialized")


def np(numpy_feval, name=None, allow_extra_outputs=False):
    """Wraps a NumPy function ``feval(label, pred) -> value`` as a CustomMetric."""
    def feval(label, pred):
        return numpy_feval(label, pred)
    feval.__name__ = numpy_feval.__name__
    return CustomMetric(feval, name, allow_extra_outputs)

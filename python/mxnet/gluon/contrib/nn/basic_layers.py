"""Blocks that run children side by side, a pass-through block, synchronized batch
normalization and sub-pixel upsampling (pixel shuffle), as in mx.gluon.contrib.nn of MXNet
1.9.1."""
from ... import nn
from ...block import Block, HybridBlock
from .... import context, ndarray

__all__ = ['Concurrent', 'HybridConcurrent', 'Identity', 'SparseEmbedding', 'SyncBatchNorm',
           'PixelShuffle1D', 'PixelShuffle2D', 'PixelShuffle3D']


class Concurrent(nn.Sequential):
    """Feeds the same input to every child and concatenates their outputs along `axis`."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super(Concurrent, self).__init__(prefix=prefix, params=params)
        self.axis = axis

    def forward(self, x):
        outputs = [child(x) for child in self._children.values()]
        return ndarray.concat(*outputs, dim=self.axis)


class HybridConcurrent(nn.HybridSequential):
    """Concurrent for hybrid blocks: the children's outputs concatenated along `axis`."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super(HybridConcurrent, self).__init__(prefix=prefix, params=params)
        self.axis = axis

    def hybrid_forward(self, F, x):
        outputs = [child(x) for child in self._children.values()]
        return F.concat(*outputs, dim=self.axis)


class Identity(HybridBlock):
    """Returns its input unchanged (e.g. the shortcut branch of a Concurrent)."""

    def hybrid_forward(self, F, x):
        return x


class SyncBatchNorm(nn.BatchNorm):
    """Batch normalization whose statistics are computed over the batch of all `num_devices`
    devices together (contrib.SyncBatchNorm, channel axis 1). `num_devices` defaults to the
    number of GPUs, and to 1 on a machine without any; this build computes num_devices=1 only.
    """

    def __init__(self, in_channels=0, num_devices=None, momentum=0.9, epsilon=1e-5,
                 center=True, scale=True, use_global_stats=False, beta_initializer='zeros',
                 gamma_initializer='ones', running_mean_initializer='zeros',
                 running_variance_initializer='ones', **kwargs):
        super(SyncBatchNorm, self).__init__(
            axis=1, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
            use_global_stats=use_global_stats, beta_initializer=beta_initializer,
            gamma_initializer=gamma_initializer,
            running_mean_initializer=running_mean_initializer,
            running_variance_initializer=running_variance_initializer,
            in_channels=in_channels, **kwargs)
        if num_devices is None:
            num_devices = max(context.num_gpus(), 1)
        self._kwargs = {'eps': epsilon, 'momentum': momentum, 'fix_gamma': not scale,
                        'use_global_stats': use_global_stats, 'ndev': num_devices,
                        'key': self.prefix}

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        return F.contrib.SyncBatchNorm(x, gamma, beta, running_mean, running_var, name='fwd',
                                       **self._kwargs)


def _factors(factor, ndim):
    try:
        factors = tuple(int(f) for f in factor)
    except TypeError:
        factors = (int(factor),) * ndim
    if len(factors) != ndim or any(f < 1 for f in factors):
        raise ValueError("PixelShuffle%dD: factor must be a positive int or %d positive ints, "
                         "got %r" % (ndim, ndim, factor))
    return factors


class PixelShuffle1D(HybridBlock):
    """(N, C*f, W) -> (N, C, W*f): channel c*f + i goes to position w*f + i."""

    def __init__(self, factor):
        super(PixelShuffle1D, self).__init__()
        self._factor = _factors(factor, 1)[0]

    def hybrid_forward(self, F, x):
        f = self._factor
        x = F.reshape(x, (0, -4, -1, f, 0))   # (N, C, f, W)
        x = F.transpose(x, (0, 1, 3, 2))      # (N, C, W, f)
        return F.reshape(x, (0, 0, -3))       # (N, C, W*f)

    def __repr__(self):
        return "%s(%s)" % (self.__class__.__name__, self._factor)


class PixelShuffle2D(HybridBlock):
    """(N, C*f1*f2, H, W) -> (N, C, H*f1, W*f2): channel c*f1*f2 + i*f2 + j goes to
    position (h*f1 + i, w*f2 + j)."""

    def __init__(self, factor):
        super(PixelShuffle2D, self).__init__()
        self._factors = _factors(factor, 2)

    def hybrid_forward(self, F, x):
        f1, f2 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2, 0, 0))  # (N, C, f1*f2, H, W)
        x = F.reshape(x, (0, 0, -4, f1, f2, 0, 0))    # (N, C, f1, f2, H, W)
        x = F.transpose(x, (0, 1, 4, 2, 5, 3))        # (N, C, H, f1, W, f2)
        return F.reshape(x, (0, 0, -3, -3))           # (N, C, H*f1, W*f2)

    def __repr__(self):
        return "%s(%s)" % (self.__class__.__name__, self._factors)


class PixelShuffle3D(HybridBlock):
    """(N, C*f1*f2*f3, D, H, W) -> (N, C, D*f1, H*f2, W*f3), the 3-D analogue of
    PixelShuffle2D."""

    def __init__(self, factor):
        super(PixelShuffle3D, self).__init__()
        self._factors = _factors(factor, 3)

    def hybrid_forward(self, F, x):
        f1, f2, f3 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2 * f3, 0, 0, 0))  # (N, C, f1*f2*f3, D, H, W)
        x = F.reshape(x, (0, 0, -4, f1, f2 * f3, 0, 0, 0))    # (N, C, f1, f2*f3, D, H, W)
        x = F.reshape(x, (0, 0, 0, -4, f2, f3, 0, 0, 0))      # (N, C, f1, f2, f3, D, H, W)
        x = F.transpose(x, (0, 1, 5, 2, 6, 3, 7, 4))          # (N, C, D, f1, H, f2, W, f3)
        return F.reshape(x, (0, 0, -3, -3, -3))               # (N, C, D*f1, H*f2, W*f3)

    def __repr__(self):
        return "%s(%s)" % (self.__class__.__name__, self._factors)


class SparseEmbedding(Block):
    """Embedding whose (input_dim, output_dim) weight is stored row_sparse and gets a
    row_sparse gradient: each forward pulls only the rows its indices use (through the
    Trainer's kvstore when there is one), so very large vocabularies stay cheap."""

    def __init__(self, input_dim, output_dim, dtype='float32', weight_initializer=None,
                 **kwargs):
        super(SparseEmbedding, self).__init__(**kwargs)
        self._kwargs = {'input_dim': input_dim, 'output_dim': output_dim, 'dtype': dtype,
                        'sparse_grad': True}
        self.weight = self.params.get('weight', shape=(input_dim, output_dim),
                                      init=weight_initializer, dtype=dtype,
                                      grad_stype='row_sparse', stype='row_sparse')

    def forward(self, x):  # pylint: disable=arguments-differ
        weight = self.weight.row_sparse_data(x)
        return ndarray.Embedding(x, weight, name='fwd', **self._kwargs)

    def __repr__(self):
        return '{block_name}({input_dim} -> {output_dim}, {dtype})'.format(
            block_name=self.__class__.__name__, **self._kwargs)

"""Gluon helpers: splitting batches over contexts, global-norm gradient clipping, file
checksums and downloads."""
import hashlib
import math
import os
import warnings

import numpy as np

from .. import ndarray
from ..ndarray import NDArray

__all__ = ["split_data", "split_and_load", "clip_global_norm", "check_sha1", "download",
           "shape_is_known", "replace_file", "HookHandle"]


def split_data(data, num_slice, batch_axis=0, even_split=True):
    """Splits `data` into `num_slice` slices along `batch_axis`."""
    size = data.shape[batch_axis]
    if even_split and size % num_slice != 0:
        raise ValueError(
            "data with shape %s cannot be evenly split into %d slices along axis %d. Use a "
            "batch size that's multiple of %d or set even_split=False to allow uneven "
            "partitioning of data." % (str(data.shape), num_slice, batch_axis, num_slice))
    n_each_section, extras = divmod(size, num_slice)
    section_sizes = [0] + (extras * [n_each_section + 1] +
                           (num_slice - extras) * [n_each_section])
    div_points = np.array(section_sizes).cumsum()
    if not even_split and size < num_slice:
        num_slice = size
        div_points = list(range(size + 1))
    slices = []
    for i in range(num_slice):
        st, end = int(div_points[i]), int(div_points[i + 1])
        if batch_axis == 0:
            slices.append(data[st:end])
        else:
            slices.append(ndarray.slice_axis(data, axis=batch_axis, begin=st, end=end))
    return slices


def split_and_load(data, ctx_list, batch_axis=0, even_split=True):
    """Splits `data` along `batch_axis` and loads each slice to one context of `ctx_list`."""
    if not isinstance(data, NDArray):
        data = ndarray.array(data, ctx=ctx_list[0])
    if len(ctx_list) == 1:
        return [data.as_in_context(ctx_list[0])]
    slices = split_data(data, len(ctx_list), batch_axis, even_split)
    return [i.as_in_context(ctx) for i, ctx in zip(slices, ctx_list)]


def clip_global_norm(arrays, max_norm, check_isfinite=True):
    """Rescales `arrays` in place so that their joint 2-norm is at most `max_norm`;
    returns the norm before clipping (a float, or an NDArray when check_isfinite=False)."""
    def _norm(array):
        x = array.reshape((-1,))
        return ndarray.dot(x, x)

    assert len(arrays) > 0
    ctx = arrays[0].context
    total_norm = ndarray.add_n(*[_norm(arr).as_in_context(ctx) for arr in arrays])
    total_norm = ndarray.sqrt(total_norm)
    if check_isfinite:
        if not np.isfinite(total_norm.asscalar()):
            warnings.warn(UserWarning("nan or inf is detected. Clipping results will be "
                                      "undefined."), stacklevel=2)
    scale = max_norm / (total_norm + 1e-8)
    scale = ndarray.minimum(scale, ndarray.ones((1,), dtype=scale.dtype, ctx=ctx))
    for arr in arrays:
        arr *= scale.as_in_context(arr.context)
    if check_isfinite:
        return total_norm.asscalar()
    return total_norm


def check_sha1(filename, sha1_hash):
    """True when the file's SHA-1 hex digest equals `sha1_hash`."""
    sha1 = hashlib.sha1()
    with open(filename, "rb") as f:
        while True:
            data = f.read(1048576)
            if not data:
                break
            sha1.update(data)
    return sha1.hexdigest() == sha1_hash


def download(url, path=None, overwrite=False, sha1_hash=None, retries=5, verify_ssl=True):
    """Downloads `url` to `path` (a file or directory); returns the file name. An existing
    file with the right checksum is reused without network access."""
    if path is None:
        fname = url.split("/")[-1]
        assert fname, "Can't construct file-name from this URL. Please set the `path` option " \
                      "manually."
    else:
        path = os.path.expanduser(path)
        if os.path.isdir(path):
            fname = os.path.join(path, url.split("/")[-1])
        else:
            fname = path
    assert retries >= 0, "Number of retries should be at least 0, currently it's {}".format(
        retries)
    if not overwrite and os.path.exists(fname) and (not sha1_hash or
                                                    check_sha1(fname, sha1_hash)):
        return fname
    dirname = os.path.dirname(os.path.abspath(os.path.expanduser(fname)))
    if not os.path.exists(dirname):
        os.makedirs(dirname)
    import urllib.request
    last_error = None
    for _ in range(retries + 1):
        try:
            with urllib.request.urlopen(url, timeout=30) as r, open(fname + ".part", "wb") as f:
                while True:
                    chunk = r.read(1 << 20)
                    if not chunk:
                        break
                    f.write(chunk)
            os.replace(fname + ".part", fname)
            if sha1_hash and not check_sha1(fname, sha1_hash):
                raise UserWarning("File {} is downloaded but the content hash does not match. "
                                  "The repo may be outdated or download may be incomplete. If "
                                  "the \"repo_url\" is overridden, consider switching to the "
                                  "default repo.".format(fname))
            return fname
        except Exception as e:  # pylint: disable=broad-except
            last_error = e
    raise RuntimeError("Failed downloading url %s to %s (no network access?): %s"
                       % (url, fname, last_error))


def shape_is_known(shape):
    """True when every dimension of `shape` is known (> 0)."""
    if shape is None:
        return False
    return all(d > 0 for d in shape)


def _indent(s_, num_spaces):
    """Indents every line but the first of `s_` by `num_spaces`."""
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [first] + [(num_spaces * " ") + line for line in s]
    return "\n".join(s)


def _brief_print_list(lst, limit=7):
    lst = list(lst)
    if len(lst) > limit:
        return _brief_print_list(lst[:limit // 2], limit) + ", ..., " + \
            _brief_print_list(lst[-limit // 2:], limit)
    return ", ".join(["'%s'" % str(i) for i in lst])


def replace_file(src, dst):
    """Move file `src` to `dst`, replacing `dst` if it exists, atomically where the system
    allows (the last step of a download)."""
    os.replace(src, dst)


# The default location of Gluon's pretrained weights and data sets; MXNET_GLUON_REPO
# overrides it.
_DEFAULT_REPO_URL = 'https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/'


def _get_repo_url():
    """The base URL of the Gluon repository ($MXNET_GLUON_REPO or the default), ending in
    '/'."""
    url = os.environ.get('MXNET_GLUON_REPO', _DEFAULT_REPO_URL)
    return url if url.endswith('/') else url + '/'


def _get_repo_file_url(namespace, filename):
    """The URL of `filename` in directory `namespace` of the Gluon repository."""
    return '{base}{namespace}/{filename}'.format(base=_get_repo_url(), namespace=namespace,
                                                 filename=filename)


class HookHandle(object):
    """The handle register_forward_hook / register_forward_pre_hook return: detach() (or
    leaving a `with` block) removes the hook."""
    _next_id = [0]

    def __init__(self):
        self._hooks_dict_ref = None
        self._id = None

    def attach(self, hooks_dict, hook):
        assert not self._hooks_dict_ref, "The same handle cannot be attached twice."
        self._id = HookHandle._next_id[0]
        HookHandle._next_id[0] += 1
        hooks_dict[self._id] = hook
        self._hooks_dict_ref = hooks_dict

    def detach(self):
        if self._hooks_dict_ref is not None and self._id in self._hooks_dict_ref:
            del self._hooks_dict_ref[self._id]

    def __enter__(self):
        return self

    def __exit__(self, ptype, value, trace):
        self.detach()

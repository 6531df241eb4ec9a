"""LibSVMIter: batches of sparse data read from LibSVM-format text files."""
import numpy as np

from .. import base
from .io import DataIter, DataBatch, DataDesc

__all__ = ['LibSVMIter']


def _read_libsvm(path, num_features, what):
    """(labels or None, values, column indices, row pointers) of a LibSVM file whose lines are
    '<label(s)> <index>:<value> ...' with zero-based indices. A malformed line raises
    mx.base.ValueError naming the file and the line."""
    labels, values, indices, indptr = [], [], [], [0]
    with open(path, 'rb') as f:
        for line_num, raw in enumerate(f, 1):
            def bad(why):
                return base.ValueError('LibSVMIter: %s file %s, line %d: %s' % (
                    what, path, line_num, why))
            try:
                fields = raw.decode('ascii').split()
            except UnicodeDecodeError as err:
                raise bad('not ASCII text (byte %d)' % err.start) from None
            if not fields:
                continue
            try:
                row_labels = []
                while fields and ':' not in fields[0]:
                    row_labels.append(float(fields.pop(0)))
                for field in fields:
                    index, value = field.split(':', 1)
                    index, value = int(index), float(value)
                    if not 0 <= index < num_features:
                        raise bad('feature index %d outside [0, %d)' % (index, num_features))
                    indices.append(index)
                    values.append(value)
            except ValueError as err:
                if isinstance(err, base.MXNetError):
                    raise
                raise bad('expected "<label> <index>:<value> ...", got %r' % (
                    raw[:80].decode('ascii'),)) from None
            labels.append(row_labels)
            indptr.append(len(indices))
    return labels, np.array(values, dtype=np.float32), np.array(indices, dtype=np.int64), \
        np.array(indptr, dtype=np.int64)


class LibSVMIter(DataIter):
    """Iterates over the rows of `data_libsvm` (LibSVM format: a label, then zero-based
    'index:value' pairs per line) in batches of `batch_size` CSR matrices of shape
    (batch_size,) + data_shape. Labels are the first column of the data file, or the rows of
    `label_libsvm` (CSR, of shape (batch_size,) + label_shape) when it is given. The rows are
    split into `num_parts` parts and part `part_index` is read. With `round_batch` the last
    batch is completed from the start of the data (its `pad` counts those rows); otherwise it
    is dropped."""

    def __init__(self, data_libsvm, data_shape, label_libsvm=None, label_shape=(1,),
                 num_parts=1, part_index=0, batch_size=1, round_batch=True,
                 data_name='data', label_name='softmax_label', **kwargs):  # pylint: disable=unused-argument
        super(LibSVMIter, self).__init__(batch_size)
        from ..ndarray import sparse
        self._sparse = sparse
        data_shape = tuple(data_shape) if not isinstance(data_shape, int) else (data_shape,)
        label_shape = tuple(label_shape) if not isinstance(label_shape, int) else (label_shape,)
        if len(data_shape) != 1:
            raise ValueError('LibSVMIter: data_shape must be 1-D, got %s' % (data_shape,))
        labels, values, indices, indptr = _read_libsvm(data_libsvm, data_shape[0], 'data')
        if label_libsvm is not None:
            _, lvalues, lindices, lindptr = _read_libsvm(label_libsvm, label_shape[0], 'label')
            self._label_csr = (lvalues, lindices, lindptr)
            self._dense_label = None
        else:
            self._label_csr = None
            self._dense_label = np.array([row[0] if row else 0.0 for row in labels],
                                         dtype=np.float32)
        rows = np.arange(len(indptr) - 1)
        self._rows = np.array_split(rows, num_parts)[part_index]
        self._data_csr = (values, indices, indptr)
        self._data_shape = data_shape
        self._label_shape = label_shape
        self._round_batch = round_batch
        self._data_name = data_name
        self._label_name = label_name
        self._cursor = 0

    @property
    def provide_data(self):
        return [DataDesc(self._data_name, (self.batch_size,) + self._data_shape)]

    @property
    def provide_label(self):
        shape = (self.batch_size,) if self._label_csr is None else \
            (self.batch_size,) + self._label_shape
        return [DataDesc(self._label_name, shape)]

    def reset(self):
        self._cursor = 0

    def _csr_rows(self, parts, rows, width):
        values, indices, indptr = parts
        take = [np.arange(indptr[r], indptr[r + 1]) for r in rows]
        flat = np.concatenate(take) if take else np.zeros(0, dtype=np.int64)
        counts = np.array([len(t) for t in take], dtype=np.int64)
        new_indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        return self._sparse.csr_matrix((values[flat], indices[flat], new_indptr),
                                       shape=(len(rows), width), dtype='float32')

    def next(self):
        total = len(self._rows)
        if self._cursor >= total:
            raise StopIteration
        rows = self._rows[self._cursor:self._cursor + self.batch_size]
        pad = self.batch_size - len(rows)
        if pad:
            if not self._round_batch:
                self._cursor = total
                raise StopIteration
            rows = np.concatenate([rows, np.resize(self._rows, pad)])
        self._cursor += self.batch_size
        data = self._csr_rows(self._data_csr, rows, self._data_shape[0])
        if self._label_csr is None:
            from ..ndarray import array
            label = array(self._dense_label[rows])
        else:
            label = self._csr_rows(self._label_csr, rows, self._label_shape[0])
        return DataBatch([data], [label], pad=pad, provide_data=self.provide_data,
                         provide_label=self.provide_label)

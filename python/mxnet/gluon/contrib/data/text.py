"""Language-modelling datasets of gluon.contrib.data: WikiText-2 and WikiText-103, read from
their token files in `root` (this build does not download data sets)."""
import io
import os

import numpy as np

from .... import ndarray as nd
from ....base import data_dir
from ....contrib import text
from ...data.dataset import Dataset

__all__ = ['WikiText2', 'WikiText103']

EOS_TOKEN = '<eos>'


class _WikiText(Dataset):
    """Tokens of one segment ('train', 'val' or 'test') with '<eos>' after every non-empty
    line, as integer ids of `vocab` (by default a vocabulary built from the segment, with
    '<eos>' reserved), cut into samples (data, label) of `seq_len` ids, label being data
    shifted by one token."""

    _files = {'train': 'wiki.train.tokens', 'val': 'wiki.valid.tokens',
              'test': 'wiki.test.tokens'}
    _folder = None

    def __init__(self, root, segment='train', vocab=None, seq_len=35):
        if segment not in self._files:
            raise ValueError('segment must be one of %s, got %r' % (sorted(self._files),
                                                                    segment))
        self._root = os.path.expanduser(root)
        self._segment = segment
        self._vocab = vocab
        self._counter = None
        self._seq_len = seq_len
        self._get_data()

    @property
    def vocabulary(self):
        return self._vocab

    @property
    def frequencies(self):
        return self._counter

    def _path(self):
        name = self._files[self._segment]
        for path in (os.path.join(self._root, name), os.path.join(self._root, self._folder,
                                                                  name)):
            if os.path.exists(path):
                return path
        raise OSError('%s: %s not found in %s, and this build does not download data sets; '
                      'extract the %s archive there' % (self.__class__.__name__, name,
                                                        self._root, self._folder))

    def _get_data(self):
        with io.open(self._path(), 'r', encoding='utf8') as fin:
            content = fin.read()
        self._counter = text.utils.count_tokens_from_str(content)
        if self._vocab is None:
            self._vocab = text.vocab.Vocabulary(counter=self._counter,
                                                reserved_tokens=[EOS_TOKEN])
        tokens = []
        for line in content.splitlines():
            words = line.split()
            if words:
                tokens.extend(words + [EOS_TOKEN])
        ids = np.array(self._vocab.to_indices(tokens), dtype=np.int32)
        count = (len(ids) - 1) // self._seq_len * self._seq_len
        self._data = nd.array(ids[:count], dtype=np.int32).reshape((-1, self._seq_len))
        self._label = nd.array(ids[1:count + 1], dtype=np.int32).reshape((-1, self._seq_len))

    def __getitem__(self, idx):
        return self._data[idx], self._label[idx]

    def __len__(self):
        return len(self._label)


class WikiText2(_WikiText):
    """WikiText-2 (Merity et al., 2016): wiki.{train,valid,test}.tokens in `root` (or in its
    wikitext-2 folder)."""
    _folder = 'wikitext-2'

    def __init__(self, root=os.path.join(data_dir(), 'datasets', 'wikitext-2'),
                 segment='train', vocab=None, seq_len=35):
        super(WikiText2, self).__init__(root, segment, vocab, seq_len)


class WikiText103(_WikiText):
    """WikiText-103: wiki.{train,valid,test}.tokens in `root` (or in its wikitext-103
    folder)."""
    _folder = 'wikitext-103'

    def __init__(self, root=os.path.join(data_dir(), 'datasets', 'wikitext-103'),
                 segment='train', vocab=None, seq_len=35):
        super(WikiText103, self).__init__(root, segment, vocab, seq_len)

"""Token embeddings: a vocabulary whose tokens each have a vector (idx_to_vec).

CustomEmbedding reads vectors from a text file of lines ``token v1 v2 ... vn``; GloVe and
FastText read the published pre-trained files (downloaded into `embedding_root` when
missing); CompositeEmbedding concatenates several embeddings over one vocabulary. Embedding
classes registered with `register` are created by name with `create`; those with a
`pretrained_file_name_sha1` table list their files in `get_pretrained_file_names`.
"""
import io
import logging
import os
import warnings
import zipfile

import numpy as np

from ... import ndarray as nd
from . import vocab
from ...base import data_dir

__all__ = ['register', 'create', 'get_pretrained_file_names', 'CustomEmbedding',
           'CompositeEmbedding', 'GloVe', 'FastText']

_REGISTRY = {}


def register(embedding_cls):
    """Class decorator: make a token-embedding class creatable by its lower-cased name."""
    if not issubclass(embedding_cls, _TokenEmbedding):
        raise TypeError('Only a _TokenEmbedding subclass can be registered, got %s'
                        % embedding_cls)
    name = embedding_cls.__name__.lower()
    if name in _REGISTRY:
        warnings.warn('New token embedding %s overrides the one registered under %s'
                      % (embedding_cls, name))
    _REGISTRY[name] = embedding_cls
    return embedding_cls


def create(embedding_name, **kwargs):
    """An instance of the token-embedding class registered as `embedding_name`."""
    name = embedding_name.lower()
    if name not in _REGISTRY:
        raise KeyError('Cannot find token embedding %s. Valid token embedding names: %s'
                       % (embedding_name, ', '.join(sorted(_REGISTRY))))
    return _REGISTRY[name](**kwargs)


def get_pretrained_file_names(embedding_name=None):
    """The pre-trained file names of the registered embedding `embedding_name` (a list), or of
    every registered embedding that has pre-trained files (a dict name -> list)."""
    if embedding_name is not None:
        name = embedding_name.lower()
        if name not in _REGISTRY:
            raise KeyError('Cannot find `embedding_name` %s. Use `get_pretrained_file_names('
                           'embedding_name=None).keys()` to get all the valid embedding '
                           'names.' % embedding_name)
        return list(getattr(_REGISTRY[name], 'pretrained_file_name_sha1', {}).keys())
    return {name: list(cls.pretrained_file_name_sha1.keys())
            for name, cls in _REGISTRY.items() if hasattr(cls, 'pretrained_file_name_sha1')}


class _TokenEmbedding(vocab.Vocabulary):
    """A vocabulary with a vector per token: idx_to_vec[i] is the vector of token i; the
    unknown token's vector stands for tokens outside the vocabulary."""

    def __init__(self, **kwargs):
        super(_TokenEmbedding, self).__init__(**kwargs)
        self._vec_len = 0
        self._idx_to_vec = None

    @property
    def vec_len(self):
        return self._vec_len

    @property
    def idx_to_vec(self):
        return self._idx_to_vec

    def _load_embedding(self, pretrained_file_path, elem_delim, init_unknown_vec,
                        encoding='utf8'):
        """Add the tokens and vectors of a text file to this (empty) embedding."""
        vectors = {}
        unknown_vec = None
        with io.open(pretrained_file_path, 'r', encoding=encoding) as f:
            for line_num, line in enumerate(f):
                elems = line.rstrip().split(elem_delim)
                if len(elems) < 2:
                    continue
                token, values = elems[0], elems[1:]
                if line_num == 0 and len(values) == 1:
                    continue   # a 'count dimension' header (fastText files)
                vec = np.array(values, dtype=np.float32)
                if self._vec_len == 0:
                    self._vec_len = len(vec)
                elif len(vec) != self._vec_len:
                    raise ValueError('At line %d of the pre-trained token embedding file: the '
                                     'vector of token %s has %d elements, expected %d.'
                                     % (line_num, token, len(vec), self._vec_len))
                if token == self.unknown_token:
                    unknown_vec = vec
                elif token in vectors:
                    logging.warning('At line %d of the pre-trained token embedding file: the '
                                    'embedding vector for token %s has been loaded and a '
                                    'duplicate embedding for the same token is seen and '
                                    'skipped.', line_num, token)
                else:
                    vectors[token] = vec
        if self._vec_len == 0:
            raise ValueError('No token vectors found in %s' % pretrained_file_path)
        for token in vectors:
            if token not in self._token_to_idx:
                self._token_to_idx[token] = len(self._idx_to_token)
                self._idx_to_token.append(token)
        table = np.zeros((len(self._idx_to_token), self._vec_len), dtype=np.float32)
        for token, vec in vectors.items():
            table[self._token_to_idx[token]] = vec
        if unknown_vec is None:
            unknown_vec = init_unknown_vec(shape=self._vec_len).asnumpy()
        table[0] = unknown_vec
        self._idx_to_vec = nd.array(table)

    def _restrict_to(self, vocabulary):
        """Keep only the tokens of `vocabulary`, in its order (vectors of tokens this embedding
        lacks are its unknown vector)."""
        table = self.get_vecs_by_tokens(vocabulary.idx_to_token)
        self._idx_to_token = list(vocabulary.idx_to_token)
        self._token_to_idx = dict(vocabulary.token_to_idx)
        self._unknown_token = vocabulary.unknown_token
        self._reserved_tokens = vocabulary.reserved_tokens
        self._idx_to_vec = table

    def get_vecs_by_tokens(self, tokens, lower_case_backup=False):
        """The vector of a token (shape (vec_len,)) or of each of a list of tokens (shape
        (len(tokens), vec_len)); unknown tokens get the unknown vector. With
        `lower_case_backup`, a token not found is looked up lower-cased."""
        single = not isinstance(tokens, list)
        tokens = [tokens] if single else tokens
        if lower_case_backup:
            indices = [self._token_to_idx.get(t, self._token_to_idx.get(t.lower(), 0))
                       for t in tokens]
        else:
            indices = [self._token_to_idx.get(t, 0) for t in tokens]
        vecs = nd.Embedding(nd.array(indices), self._idx_to_vec,
                            input_dim=self._idx_to_vec.shape[0], output_dim=self._vec_len)
        return vecs[0] if single else vecs

    def update_token_vectors(self, tokens, new_vectors):
        """Replace the vectors of known `tokens` (a token or a list) by `new_vectors` (an
        NDArray of shape (vec_len,) or (len(tokens), vec_len))."""
        single = not isinstance(tokens, list)
        tokens = [tokens] if single else tokens
        if single and new_vectors.ndim == 1:
            new_vectors = new_vectors.expand_dims(0)
        if new_vectors.shape != (len(tokens), self._vec_len):
            raise ValueError('new_vectors: expected shape %s, got %s'
                             % ((len(tokens), self._vec_len), new_vectors.shape))
        for row, token in enumerate(tokens):
            if token not in self._token_to_idx:
                raise ValueError('Token %s is unknown. To update the embedding vector for an '
                                 'unknown token, please specify it explicitly as the '
                                 '`unknown_token` %s in `tokens`.' % (token, self.unknown_token))
            self._idx_to_vec[self._token_to_idx[token]] = new_vectors[row]


@register
class CustomEmbedding(_TokenEmbedding):
    """Token vectors read from `pretrained_file_path` (lines of a token and its values,
    separated by `elem_delim`). A line for the unknown token sets its vector, otherwise it is
    init_unknown_vec(shape=vec_len). With `vocabulary`, the embedding covers exactly its
    tokens."""

    def __init__(self, pretrained_file_path, elem_delim=' ', encoding='utf8',
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        super(CustomEmbedding, self).__init__(**kwargs)
        self._load_embedding(pretrained_file_path, elem_delim, init_unknown_vec, encoding)
        if vocabulary is not None:
            self._restrict_to(vocabulary)


class CompositeEmbedding(_TokenEmbedding):
    """The tokens of `vocabulary`, each with the concatenation of its vectors in the given
    token embeddings (one or a list)."""

    def __init__(self, vocabulary, token_embeddings):
        if not isinstance(token_embeddings, list):
            token_embeddings = [token_embeddings]
        for embed in token_embeddings:
            if not isinstance(embed, _TokenEmbedding):
                raise TypeError('The parameter `token_embeddings` must be an instance or a '
                                'list of instances of _TokenEmbedding, got %s' % type(embed))
        super(CompositeEmbedding, self).__init__(unknown_token=vocabulary.unknown_token,
                                                 reserved_tokens=vocabulary.reserved_tokens)
        self._idx_to_token = list(vocabulary.idx_to_token)
        self._token_to_idx = dict(vocabulary.token_to_idx)
        parts = [embed.get_vecs_by_tokens(self._idx_to_token) for embed in token_embeddings]
        self._idx_to_vec = nd.concat(*parts, dim=1)
        self._vec_len = self._idx_to_vec.shape[1]


def _default_root():
    return os.path.join(data_dir(), 'embeddings')


class _PretrainedEmbedding(_TokenEmbedding):
    """An embedding loaded from `embedding_root`/<namespace>/<pretrained_file_name>, fetched
    from the Gluon repository (MXNET_GLUON_REPO) when missing. This build does not know the
    files' checksums: the table's values are None and downloads are not verified."""
    namespace = None
    pretrained_file_name_sha1 = {}

    @classmethod
    def _archive_of(cls, pretrained_file_name):
        return None

    def __init__(self, pretrained_file_name, embedding_root, init_unknown_vec, vocabulary,
                 **kwargs):
        if pretrained_file_name not in self.pretrained_file_name_sha1:
            raise KeyError('Cannot find pretrained file %s for token embedding %s. Valid '
                           'pretrained files for embedding %s: %s'
                           % (pretrained_file_name, self.__class__.__name__.lower(),
                              self.__class__.__name__.lower(),
                              ', '.join(sorted(self.pretrained_file_name_sha1))))
        super(_PretrainedEmbedding, self).__init__(**kwargs)
        path = self._get_pretrained_file(os.path.expanduser(embedding_root),
                                         pretrained_file_name)
        self._load_embedding(path, ' ', init_unknown_vec, 'utf8')
        if vocabulary is not None:
            self._restrict_to(vocabulary)

    def _get_pretrained_file(self, embedding_root, pretrained_file_name):
        from ...gluon.utils import download, _get_repo_file_url
        folder = os.path.join(embedding_root, self.namespace)
        path = os.path.join(folder, pretrained_file_name)
        if os.path.exists(path):
            return path
        os.makedirs(folder, exist_ok=True)
        archive = self._archive_of(pretrained_file_name)
        remote = archive or pretrained_file_name
        fetched = download(_get_repo_file_url('gluon/embeddings/' + self.namespace, remote),
                           path=os.path.join(folder, remote))
        if archive is not None:
            with zipfile.ZipFile(fetched) as zf:
                zf.extractall(folder)
        return path


_GLOVE_FILES = {
    'glove.42B.300d.txt': 'glove.42B.300d.zip',
    'glove.6B.50d.txt': 'glove.6B.zip', 'glove.6B.100d.txt': 'glove.6B.zip',
    'glove.6B.200d.txt': 'glove.6B.zip', 'glove.6B.300d.txt': 'glove.6B.zip',
    'glove.840B.300d.txt': 'glove.840B.300d.zip',
    'glove.twitter.27B.25d.txt': 'glove.twitter.27B.zip',
    'glove.twitter.27B.50d.txt': 'glove.twitter.27B.zip',
    'glove.twitter.27B.100d.txt': 'glove.twitter.27B.zip',
    'glove.twitter.27B.200d.txt': 'glove.twitter.27B.zip'}

_FASTTEXT_FILES = ['crawl-300d-2M.vec', 'wiki-news-300d-1M.vec',
                   'wiki-news-300d-1M-subword.vec', 'wiki.simple.vec'] + \
    ['wiki.%s.vec' % lang for lang in ('ar', 'de', 'en', 'es', 'fr', 'hi', 'it', 'ja', 'ko',
                                       'nl', 'pl', 'pt', 'ru', 'sv', 'tr', 'vi', 'zh')]


@register
class GloVe(_PretrainedEmbedding):
    """GloVe vectors (Pennington, Socher, Manning, 2014) from one of the published files
    (see get_pretrained_file_names('glove')), under `embedding_root`/glove."""
    namespace = 'glove'
    pretrained_file_name_sha1 = dict.fromkeys(_GLOVE_FILES)

    @classmethod
    def _archive_of(cls, pretrained_file_name):
        return _GLOVE_FILES[pretrained_file_name]

    def __init__(self, pretrained_file_name='glove.840B.300d.txt',
                 embedding_root=None, init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        super(GloVe, self).__init__(pretrained_file_name, embedding_root or _default_root(),
                                    init_unknown_vec, vocabulary, **kwargs)


@register
class FastText(_PretrainedEmbedding):
    """fastText vectors (Bojanowski et al., 2017) from one of the published .vec files (see
    get_pretrained_file_names('fasttext')), under `embedding_root`/fasttext."""
    namespace = 'fasttext'
    pretrained_file_name_sha1 = dict.fromkeys(_FASTTEXT_FILES)

    def __init__(self, pretrained_file_name='wiki.simple.vec', embedding_root=None,
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        super(FastText, self).__init__(pretrained_file_name, embedding_root or _default_root(),
                                       init_unknown_vec, vocabulary, **kwargs)

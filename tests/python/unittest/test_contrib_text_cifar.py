"""mx.contrib.text (count_tokens_from_str, Vocabulary, CustomEmbedding, CompositeEmbedding,
the embedding registry) and the CIFAR-10/100 datasets read from local binary files."""
import collections

import numpy as onp
import pytest

import mxnet as mx
from mxnet.contrib import text


def test_count_tokens():
    counter = text.utils.count_tokens_from_str('Life is great !\nlife is good .\n', to_lower=True)
    assert counter == collections.Counter({'life': 2, 'is': 2, 'great': 1, '!': 1, 'good': 1,
                                           '.': 1})
    updated = text.utils.count_tokens_from_str('a,b;a', token_delim=',', seq_delim=';',
                                               counter_to_update=collections.Counter({'a': 1}))
    assert updated == collections.Counter({'a': 3, 'b': 1})


def test_vocabulary():
    counter = collections.Counter(['c', 'c', 'c', 'b', 'b', 'a', 'a', 'd', 'some'])
    v = text.vocab.Vocabulary(counter, most_freq_count=3, min_freq=2,
                              reserved_tokens=['<pad>'])
    # unknown, reserved, then by frequency (ties alphabetically), cut to 3 and min_freq 2
    assert v.idx_to_token == ['<unk>', '<pad>', 'c', 'a', 'b']
    assert len(v) == 5 and v.token_to_idx['a'] == 3
    assert v.to_indices(['c', 'zzz', 'b']) == [2, 0, 4] and v.to_indices('a') == 3
    assert v.to_tokens([1, 4]) == ['<pad>', 'b'] and v.to_tokens(0) == '<unk>'
    with pytest.raises(ValueError):
        v.to_tokens(5)
    with pytest.raises(ValueError):
        text.vocab.Vocabulary(counter, reserved_tokens=['<unk>'])
    with pytest.raises(ValueError):
        text.vocab.Vocabulary(counter, min_freq=0)


def _write_vectors(path, lines):
    path.write_text('\n'.join(lines) + '\n', encoding='utf8')
    return str(path)


def test_custom_and_composite_embedding(tmp_path):
    first = _write_vectors(tmp_path / 'a.txt', ['hello 1 2 3', 'world 4 5 6', '<unk> 9 9 9'])
    second = _write_vectors(tmp_path / 'b.txt', ['2 2', 'hello,0.5,0.5', 'there,1,1'])
    emb = text.embedding.CustomEmbedding(first)
    assert emb.vec_len == 3 and emb.idx_to_token == ['<unk>', 'hello', 'world']
    onp.testing.assert_allclose(emb.get_vecs_by_tokens('world').asnumpy(), [4, 5, 6])
    onp.testing.assert_allclose(emb.get_vecs_by_tokens(['Hello', 'nope']).asnumpy(),
                                [[9, 9, 9], [9, 9, 9]])
    onp.testing.assert_allclose(
        emb.get_vecs_by_tokens(['Hello'], lower_case_backup=True).asnumpy(), [[1, 2, 3]])
    emb.update_token_vectors('hello', mx.nd.array([0, 0, 1]))
    onp.testing.assert_allclose(emb.idx_to_vec[1].asnumpy(), [0, 0, 1])
    with pytest.raises(ValueError):
        emb.update_token_vectors(['nope'], mx.nd.ones((1, 3)))
    other = text.embedding.create('customembedding', pretrained_file_path=second,
                                  elem_delim=',', init_unknown_vec=mx.nd.ones)
    onp.testing.assert_allclose(other.idx_to_vec[0].asnumpy(), [1, 1])   # header skipped
    voc = text.vocab.Vocabulary(collections.Counter(['hello', 'there', 'there']))
    comp = text.embedding.CompositeEmbedding(voc, [emb, other])
    assert comp.vec_len == 5 and comp.idx_to_token == voc.idx_to_token
    onp.testing.assert_allclose(comp.get_vecs_by_tokens('there').asnumpy(), [9, 9, 9, 1, 1])
    onp.testing.assert_allclose(comp.get_vecs_by_tokens('hello').asnumpy(),
                                [0, 0, 1, 0.5, 0.5])
    restricted = text.embedding.CustomEmbedding(first, vocabulary=voc)
    assert restricted.idx_to_token == voc.idx_to_token
    onp.testing.assert_allclose(restricted.idx_to_vec.asnumpy()[voc.to_indices('there')],
                                [9, 9, 9])
    assert 'customembedding' not in text.embedding.get_pretrained_file_names()
    assert text.embedding.get_pretrained_file_names('customembedding') == []
    with pytest.raises(KeyError):
        text.embedding.create('no-such-embedding')


def _cifar_records(label_bytes, count, rng):
    labels = rng.randint(0, 10, size=(count, label_bytes)).astype(onp.uint8)
    images = rng.randint(0, 256, size=(count, 3, 32, 32)).astype(onp.uint8)
    return labels, images, onp.concatenate([labels, images.reshape(count, -1)], axis=1)


def test_cifar_datasets(tmp_path):
    rng = onp.random.RandomState(0)
    folder = tmp_path / 'cifar-10-batches-bin'
    folder.mkdir()
    parts = [_cifar_records(1, 3, rng) for _ in range(6)]
    for i in range(5):
        parts[i][2].tofile(str(folder / ('data_batch_%d.bin' % (i + 1))))
    parts[5][2].tofile(str(folder / 'test_batch.bin'))
    train = mx.gluon.data.vision.CIFAR10(root=str(tmp_path))
    assert len(train) == 15
    image, label = train[4]
    assert image.shape == (32, 32, 3) and image.dtype == onp.uint8
    onp.testing.assert_array_equal(image.asnumpy(), parts[1][1][1].transpose(1, 2, 0))
    assert label == parts[1][0][1, 0]
    test = mx.gluon.data.vision.CIFAR10(root=str(tmp_path), train=False,
                                        transform=lambda d, l: (d.astype('float32') / 255, l))
    assert len(test) == 3 and float(test[0][0].max().asscalar()) <= 1.0
    labels, images, records = _cifar_records(2, 4, rng)
    folder = tmp_path / 'c100' / 'cifar-100-binary'
    folder.mkdir(parents=True)
    records.tofile(str(folder / 'train.bin'))
    coarse = mx.gluon.data.vision.CIFAR100(root=str(tmp_path / 'c100'))
    fine = mx.gluon.data.vision.CIFAR100(root=str(tmp_path / 'c100'), fine_label=True)
    assert [coarse[i][1] for i in range(4)] == labels[:, 0].tolist()
    assert [fine[i][1] for i in range(4)] == labels[:, 1].tolist()
    with pytest.raises(OSError):
        mx.gluon.data.vision.CIFAR100(root=str(tmp_path / 'c100'), train=False)


def test_wikitext(tmp_path):
    from mxnet.gluon.contrib.data.text import WikiText2, WikiText103
    lines = [' = Title = ', '', ' the cat sat on the mat . ', ' the dog sat . ']
    (tmp_path / 'wiki.train.tokens').write_text('\n'.join(lines) + '\n', encoding='utf8')
    data = WikiText2(root=str(tmp_path), seq_len=4)
    tokens = [w for line in lines if line.split() for w in line.split() + ['<eos>']]
    vocab = data.vocabulary
    assert vocab.idx_to_token[:3] == ['<unk>', '<eos>', 'the']
    assert data.frequencies['sat'] == 2
    ids = vocab.to_indices(tokens)
    count = (len(ids) - 1) // 4
    assert len(data) == count
    for i in range(count):
        sample, label = data[i]
        assert sample.asnumpy().tolist() == ids[4 * i:4 * i + 4]
        assert label.asnumpy().tolist() == ids[4 * i + 1:4 * i + 5]
    (tmp_path / 'wikitext-103').mkdir()
    (tmp_path / 'wikitext-103' / 'wiki.valid.tokens').write_text('a b a\n', encoding='utf8')
    val = WikiText103(root=str(tmp_path), segment='val', vocab=vocab, seq_len=2)
    assert val[0][0].asnumpy().tolist() == [0, 0]   # unknown to the training vocabulary
    with pytest.raises(OSError):
        WikiText2(root=str(tmp_path), segment='test')
    with pytest.raises(ValueError):
        WikiText2(root=str(tmp_path), segment='dev')


def test_pretrained_embeddings_from_local_files(tmp_path):
    names = text.embedding.get_pretrained_file_names()
    assert 'glove.6B.50d.txt' in names['glove'] and 'wiki.simple.vec' in names['fasttext']
    assert text.embedding.get_pretrained_file_names('GloVe') == names['glove']
    (tmp_path / 'glove').mkdir()
    (tmp_path / 'glove' / 'glove.6B.50d.txt').write_text('the 0.5 1\ncat 2 3\n',
                                                         encoding='utf8')
    glove = text.embedding.create('glove', pretrained_file_name='glove.6B.50d.txt',
                                  embedding_root=str(tmp_path))
    assert isinstance(glove, text.embedding.GloVe) and glove.vec_len == 2
    onp.testing.assert_allclose(glove.get_vecs_by_tokens(['cat', 'dog']).asnumpy(),
                                [[2, 3], [0, 0]])
    (tmp_path / 'fasttext').mkdir()
    (tmp_path / 'fasttext' / 'wiki.simple.vec').write_text('2 3\nhi 1 2 3\nyo 4 5 6\n',
                                                           encoding='utf8')
    voc = text.vocab.Vocabulary(collections.Counter(['yo']))
    fast = text.embedding.FastText(embedding_root=str(tmp_path), vocabulary=voc)
    assert fast.idx_to_token == ['<unk>', 'yo']
    onp.testing.assert_allclose(fast.idx_to_vec.asnumpy(), [[0, 0, 0], [4, 5, 6]])
    with pytest.raises(KeyError):
        text.embedding.GloVe(pretrained_file_name='glove.nope.txt', embedding_root=str(tmp_path))

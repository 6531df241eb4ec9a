"""Vocabulary: the map between tokens and integer indices."""
import collections

__all__ = ['Vocabulary']


class Vocabulary(object):
    """Indexes tokens: index 0 is `unknown_token`, then the `reserved_tokens` in order, then
    the tokens of `counter` (a collections.Counter) with at least `min_freq` occurrences, most
    frequent first (ties in token order), at most `most_freq_count` of them."""

    def __init__(self, counter=None, most_freq_count=None, min_freq=1, unknown_token='<unk>',
                 reserved_tokens=None):
        if min_freq <= 0:
            raise ValueError('`min_freq` must be set to a positive value.')
        if reserved_tokens is not None:
            reserved = set(reserved_tokens)
            if unknown_token in reserved:
                raise ValueError('`reserved_token` cannot contain `unknown_token`.')
            if len(reserved) != len(reserved_tokens):
                raise ValueError('`reserved_tokens` cannot contain duplicate reserved tokens.')
        self._unknown_token = unknown_token
        self._reserved_tokens = list(reserved_tokens) if reserved_tokens is not None else None
        self._idx_to_token = [unknown_token] + (self._reserved_tokens or [])
        self._token_to_idx = {token: i for i, token in enumerate(self._idx_to_token)}
        if counter is not None:
            self._index_counter_keys(counter, most_freq_count, min_freq)

    def _index_counter_keys(self, counter, most_freq_count, min_freq):
        if not isinstance(counter, collections.Counter):
            raise TypeError('`counter` must be an instance of collections.Counter, got %s'
                            % type(counter))
        special = set(self._idx_to_token)
        ordered = sorted(counter.items(), key=lambda kv: kv[0])
        ordered.sort(key=lambda kv: kv[1], reverse=True)
        limit = len(special) + (len(counter) if most_freq_count is None else most_freq_count)
        for token, freq in ordered:
            if freq < min_freq or len(self._idx_to_token) == limit:
                break
            if token not in special:
                self._token_to_idx[token] = len(self._idx_to_token)
                self._idx_to_token.append(token)

    def __len__(self):
        return len(self._idx_to_token)

    @property
    def token_to_idx(self):
        """dict token -> index."""
        return self._token_to_idx

    @property
    def idx_to_token(self):
        """list index -> token."""
        return self._idx_to_token

    @property
    def unknown_token(self):
        return self._unknown_token

    @property
    def reserved_tokens(self):
        return self._reserved_tokens

    def to_indices(self, tokens):
        """The index of a token, or the list of indices of a list of tokens (unknown tokens
        give the index of `unknown_token`, 0)."""
        single = not isinstance(tokens, list)
        tokens = [tokens] if single else tokens
        indices = [self._token_to_idx.get(t, 0) for t in tokens]
        return indices[0] if single else indices

    def to_tokens(self, indices):
        """The token of an index, or the tokens of a list of indices."""
        single = not isinstance(indices, list)
        indices = [indices] if single else indices
        tokens = []
        for idx in indices:
            if not isinstance(idx, int) or idx < 0 or idx >= len(self._idx_to_token):
                raise ValueError('Token index %s in the provided `indices` is invalid.' % idx)
            tokens.append(self._idx_to_token[idx])
        return tokens[0] if single else tokens

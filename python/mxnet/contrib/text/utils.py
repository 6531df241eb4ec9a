"""Token counting for building vocabularies."""
import collections
import re

__all__ = ['count_tokens_from_str']


def count_tokens_from_str(source_str, token_delim=' ', seq_delim='\n', to_lower=False,
                          counter_to_update=None):
    """A collections.Counter of the tokens of `source_str` (split on `token_delim` and
    `seq_delim`; empty tokens skipped), lower-cased with `to_lower`. When
    `counter_to_update` is given it is updated and returned."""
    source_str = [t for t in re.split(re.escape(token_delim) + '|' + re.escape(seq_delim),
                                      source_str) if t]
    if to_lower:
        source_str = [t.lower() for t in source_str]
    if counter_to_update is None:
        return collections.Counter(source_str)
    counter_to_update.update(source_str)
    return counter_to_update

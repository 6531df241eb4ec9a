"""Text utilities of mx.contrib: token counting, vocabularies and token embeddings."""
from . import utils
from . import vocab
from . import embedding

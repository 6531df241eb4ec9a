"""`mx.contrib`: experimental namespaces (contrib operators, the old autograd API, io)."""
from . import symbol  # noqa: F401
from . import ndarray  # noqa: F401
from . import symbol as sym  # noqa: F401
from . import ndarray as nd  # noqa: F401
from . import autograd  # noqa: F401
from . import io  # noqa: F401
from . import text  # noqa: F401

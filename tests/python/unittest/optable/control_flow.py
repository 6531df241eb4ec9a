"""Op table: the symbolic control-flow operators (_foreach, _while_loop, _cond).

Their bodies are subgraphs (attrs.subgraphs) built by mx.sym.contrib.foreach/while_loop/cond
from Python functions; the generic table, which calls mx.nd functions on random arrays, cannot
make them. test_control_flow.py tests them against NumPy, mx.nd.contrib, finite differences and
MXNet 1.9.1.
"""

ENTRIES = []

_WHY = ("takes a subgraph built by mx.sym.contrib.%s (not drivable with random arrays); tested "
        "in test_control_flow.py")

EXEMPT = {
    "_foreach": _WHY % "foreach",
    "_while_loop": _WHY % "while_loop",
    "_cond": _WHY % "cond",
}

"""Checks that imports and includes run down the layers, never up.

    python3 tools/check_layers.py        # exit 0 when clean; else 1, one line per offence

C++ (the `#include "..."` lines of src/; the layers of ARCHITECTURE.md in the spec),
top to bottom: C API (src/c_api) > front end (src/imperative, src/executor, src/kvstore,
src/io) > operators (src/operator, src/extension) > graph IR and registry (src/nnvm) >
runtime (src/engine, src/storage, src/resource*, src/ndarray, src/profiler). src/common is a
utility every layer may use. Besides "no include up", the front-end folders are siblings that
share only the execution core (src/executor/exec_core.h); only the runtime includes the
runtime's own headers (the others use include/mxnet/engine.h, storage.h); outside src/operator
(and above the C API's shims) code uses the operator-authoring helpers at src/operator/'s top,
not an operator family's headers; and tensor/, the base family, includes no other family.

Python (module-level imports of python/mxnet; an import inside a function runs late, on
purpose, and is not checked): no module imports a package above its own, and no two modules
import each other, directly or around a circle.
"""
import ast
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---------------------------------------------------------------------------------------------
# C++

CPP_LAYERS = [  # top first
    ("C API", ["c_api"]),
    ("front end", ["imperative", "executor", "kvstore", "io"]),
    ("operators", ["operator", "extension"]),
    ("graph IR and registry", ["nnvm"]),
    ("runtime", ["engine", "storage", "resource.cc", "resource_internal.h", "ndarray", "profiler"]),
]
SHARED_FOLDERS = {"common"}
FRONT_END_SHARED = {"src/executor/exec_core.h"}
RUNTIME_PRIVATE = ("engine", "storage")

# Offences known and accepted: (file, included path): why. Empty: every include runs down.
CPP_ALLOWED = {}


def _cpp_part(path):
    """(layer index, folder) of a path under src/, or (None, None) outside the map."""
    rel = os.path.relpath(path, os.path.join(ROOT, "src"))
    if rel.startswith(".."):
        return None, None
    head = rel.split(os.sep)[0]
    if head in SHARED_FOLDERS:
        return None, head
    for index, (_, folders) in enumerate(CPP_LAYERS):
        if head in folders:
            return index, head
    return None, None


def _cpp_rule(src, tgt):
    """The rule the include src -> tgt (paths relative to ROOT) breaks, or None."""
    s_layer, s_folder = _cpp_part(os.path.join(ROOT, src))
    t_layer, t_folder = _cpp_part(os.path.join(ROOT, tgt))
    if s_folder is None or t_folder is None or s_folder == t_folder:
        return _cpp_family_rule(src, tgt)
    if s_layer is None or t_layer is None:
        return None
    if t_layer < s_layer:
        return "includes up: %s (%s) -> %s (%s)" % (
            s_folder, CPP_LAYERS[s_layer][0], t_folder, CPP_LAYERS[t_layer][0])
    if s_layer == t_layer == 1 and tgt not in FRONT_END_SHARED:
        return "front-end folders are siblings: %s -> %s (only exec_core.h is shared)" % (
            s_folder, t_folder)
    if t_folder in RUNTIME_PRIVATE and s_layer != len(CPP_LAYERS) - 1:
        return "runtime internals: use include/mxnet/%s.h" % t_folder.rstrip("s")
    if t_folder == "operator" and s_layer > 0 and tgt.count("/") > 2:
        return "an operator family's header outside src/operator (use the registry)"
    return None


def _cpp_family_rule(src, tgt):
    if src.startswith("src/operator/tensor/") and tgt.startswith("src/operator/") \
            and tgt.count("/") > 2 and not tgt.startswith("src/operator/tensor/"):
        return "tensor/ is the base operator family: it includes no other family"
    return None


def check_cpp():
    offences, allowed_seen = [], set()
    src_root = os.path.join(ROOT, "src")
    for folder, _, files in os.walk(src_root):
        for name in sorted(files):
            if not name.endswith((".h", ".cc", ".cu", ".cuh")):
                continue
            path = os.path.join(folder, name)
            src = os.path.relpath(path, ROOT)
            with open(path, errors="replace") as handle:
                for lineno, line in enumerate(handle, 1):
                    match = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if not match:
                        continue
                    target = os.path.normpath(os.path.join(folder, match.group(1)))
                    if not os.path.exists(target):
                        target = os.path.join(src_root, match.group(1))  # a project path
                    if not os.path.exists(target):
                        continue
                    tgt = os.path.relpath(target, ROOT)
                    rule = _cpp_rule(src, tgt)
                    if rule and (src, tgt) in CPP_ALLOWED:
                        allowed_seen.add((src, tgt))
                    elif rule:
                        offences.append("%s:%d: %s (%s)" % (src, lineno, rule, tgt))
    for src, tgt in sorted(set(CPP_ALLOWED) - allowed_seen):
        offences.append("%s: allowed include of %s is gone: drop it from CPP_ALLOWED" % (src, tgt))
    return offences


# ---------------------------------------------------------------------------------------------
# Python

# Packages bottom up; a module may import its own package and those below it. Modules not
# named belong to the top (the application layer: gluon, module, model, contrib, ...).
PY_LAYERS = [
    ("foundation", ["mxnet.base", "mxnet.libinfo", "mxnet.error", "mxnet._enums",
                    "mxnet._nested", "mxnet.context", "mxnet.util", "mxnet.name",
                    "mxnet.attribute", "mxnet.log", "mxnet.runtime", "mxnet.engine"]),
    ("ndarray", ["mxnet.ndarray"]),
    ("symbol and autograd", ["mxnet.symbol", "mxnet.executor", "mxnet.autograd",
                             "mxnet.random"]),
    ("data", ["mxnet.io", "mxnet.recordio", "mxnet.image"]),
    ("numpy", ["mxnet.numpy", "mxnet.numpy_extension", "mxnet.ndarray.numpy",
               "mxnet.ndarray.numpy_extension", "mxnet.symbol.numpy",
               "mxnet.symbol.numpy_extension", "mxnet.numpy_dispatch_protocol"]),
]


def _py_layer(module):
    best, best_len = len(PY_LAYERS), 0
    for index, (_, prefixes) in enumerate(PY_LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    return best


def _py_modules():
    root = os.path.join(ROOT, "python")
    modules = {}
    for folder, _, files in os.walk(os.path.join(root, "mxnet")):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                module = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
                is_package = module.endswith(".__init__")
                if is_package:
                    module = module[:-len(".__init__")]
                modules[module] = (path, is_package)
    return modules


def _top_level_imports(module, path, is_package, modules):
    """(line, imported module) for each module-level import of an mxnet module."""
    tree = ast.parse(open(path).read(), path)
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)) and not in_function:
                for target in _targets(module, is_package, child, modules):
                    found.append((child.lineno, target))
            visit(child, in_function)
    visit(tree, False)
    return found


def _targets(module, is_package, node, modules):
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = module if is_package else module.rsplit(".", 1)[0]
        if node.level:
            parts = base.split(".")
            base = ".".join(parts[:len(parts) - (node.level - 1)])
            full = base + ("." + node.module if node.module else "")
        else:
            full = node.module
        names = [full + "." + a.name if full + "." + a.name in modules else full
                 for a in node.names]
    out = []
    for name in names:
        while name not in modules and "." in name:
            name = name.rsplit(".", 1)[0]
        if name in modules and name != module and name.startswith("mxnet"):
            out.append(name)
    return out


def check_python():
    modules = _py_modules()
    offences = []
    graph = {}
    for module, (path, is_package) in sorted(modules.items()):
        rel = os.path.relpath(path, ROOT)
        graph[module] = {}
        for lineno, target in _top_level_imports(module, path, is_package, modules):
            graph[module].setdefault(target, lineno)
            if _py_layer(target) > _py_layer(module) and target != "mxnet":
                offences.append("%s:%d: imports up: %s (%s) -> %s (%s)" % (
                    rel, lineno, module, _layer_name(module), target, _layer_name(target)))
    for cycle in _cycles(graph):
        first, second = cycle[0], cycle[1]
        rel = os.path.relpath(modules[first][0], ROOT)
        offences.append("%s:%d: import circle: %s" % (
            rel, graph[first][second], " -> ".join(cycle + [first])))
    return offences


def _layer_name(module):
    index = _py_layer(module)
    return PY_LAYERS[index][0] if index < len(PY_LAYERS) else "application"


def _cycles(graph):
    """One circle through each strongly connected group of modules (Tarjan)."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []
    counter = [0]

    def connect(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    for node in sorted(graph):
        if node not in index:
            connect(node)
    return [_circle_in(group, graph) for group in groups]


def _circle_in(group, graph):
    """A path from group[0] back to itself inside the group (breadth first)."""
    members, start = set(group), group[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node]):
            if nxt == start:
                return paths[node]
            if nxt in members and nxt not in paths:
                paths[nxt] = paths[node] + [nxt]
                queue.append(nxt)
    return group


def main():
    offences = check_cpp() + check_python()
    for line in offences:
        print(line)
    if offences:
        print("%d offence(s) against the layer map (tools/check_layers.py)" % len(offences))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

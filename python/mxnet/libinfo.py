"""Where the mxnet library and headers are, and the package version."""
import os

__version__ = "1.9.1"


def find_lib_path():
    """Return a list with the path of libmxnet.so.

    Search order: $MXNET_LIBRARY_PATH (a file or a folder), the package folder, then the
    build folder of a source checkout (../../build). Raises RuntimeError naming every place
    tried when the library is nowhere.
    """
    env = os.environ.get("MXNET_LIBRARY_PATH")
    if env:
        if os.path.isfile(env):
            return [env]
        candidate = os.path.join(env, "libmxnet.so")
        if os.path.isfile(candidate):
            return [candidate]
        raise RuntimeError("MXNET_LIBRARY_PATH=%s does not name libmxnet.so or a folder "
                           "holding it" % env)
    here = os.path.dirname(os.path.abspath(os.path.expanduser(__file__)))
    tried = [os.path.join(here, "libmxnet.so"),
             os.path.join(here, "..", "..", "build", "libmxnet.so")]
    for path in tried:
        if os.path.isfile(path):
            return [os.path.realpath(path)]
    raise RuntimeError("Cannot find libmxnet.so. Tried:\n  " + "\n  ".join(tried) +
                       "\nBuild it with tools/setup.sh or set MXNET_LIBRARY_PATH.")


def find_include_path():
    """Return the folder holding mxnet/lib_api.h (for building extension libraries; the
    library sources also need <that folder>/../src/lib_api.cc). $MXNET_INCLUDE_PATH wins."""
    env = os.environ.get("MXNET_INCLUDE_PATH")
    if env and os.path.isfile(os.path.join(env, "mxnet", "lib_api.h")):
        return os.path.realpath(env)
    here = os.path.dirname(os.path.abspath(os.path.expanduser(__file__)))
    for path in (os.path.join(here, "include"), os.path.join(here, "..", "..", "include")):
        if os.path.isfile(os.path.join(path, "mxnet", "lib_api.h")):
            return os.path.realpath(path)
    raise RuntimeError("Cannot find the mxnet include folder next to " + here)

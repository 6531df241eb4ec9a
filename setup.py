"""Builds libmxnet.so with CMake and installs the `mxnet` package with the library inside.

    pip install .            # build + install
    python setup.py build    # build only
"""
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))


class BuildWithCMake(build_py):
    """Run the CMake build, then ship libmxnet.so and the public headers in the package."""

    def run(self):
        build_dir = os.environ.get("MXNET_BUILD_DIR", os.path.join(ROOT, "build"))
        subprocess.check_call(["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja",
                               "-DMXNET_BUILD_TESTS=OFF"])
        subprocess.check_call(["ninja", "-C", build_dir, "mxnet",
                               "-j", os.environ.get("BUILD_JOBS", "2")])
        super().run()
        pkg = os.path.join(self.build_lib, "mxnet")
        shutil.copy2(os.path.join(build_dir, "libmxnet.so"), os.path.join(pkg, "libmxnet.so"))
        # Extension authors build against the installed package (mx.libinfo.find_include_path()).
        inc = os.path.join(pkg, "include")
        if os.path.isdir(inc):
            shutil.rmtree(inc)
        shutil.copytree(os.path.join(ROOT, "include"), inc)
        lib_api_cc = os.path.join(ROOT, "src", "lib_api.cc")
        if os.path.isfile(lib_api_cc):
            os.makedirs(os.path.join(pkg, "src"), exist_ok=True)
            shutil.copy2(lib_api_cc, os.path.join(pkg, "src", "lib_api.cc"))


def _packages():
    out = []
    for dirpath, _, files in os.walk(os.path.join(ROOT, "python", "mxnet")):
        if "__init__.py" in files:
            rel = os.path.relpath(dirpath, os.path.join(ROOT, "python"))
            out.append(rel.replace(os.sep, "."))
    return out


setup(
    name="mxnet",
    version="1.9.1",
    description="A from-scratch implementation of the MXNet 1.x deep-learning library",
    package_dir={"": "python"},
    packages=_packages(),
    package_data={"mxnet": ["*.pyi", "**/*.pyi", "py.typed"]},
    install_requires=["numpy"],
    python_requires=">=3.8",
    cmdclass={"build_py": BuildWithCMake},
    zip_safe=False,
)

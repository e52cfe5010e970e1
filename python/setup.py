"""Builds the depgraph wheel with the project's CMake (docs/python.md, "Installing").

Without DEPGRAPH_BUILD_DIR: configures and builds the module's targets in python/build/cmake
(Release, for this interpreter), offline. With DEPGRAPH_BUILD_DIR=<dir>: packages what that
already built CMake tree holds in <dir>/python/depgraph (for the interpreter it was configured
for), building nothing.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def has_bdist_wheel():
    """True when setuptools can build a wheel: its own bdist_wheel (setuptools >= 70.1) or the
    `wheel` package's."""
    for module in ("setuptools.command.bdist_wheel", "wheel.bdist_wheel"):
        try:
            __import__(module)
            return True
        except ImportError:
            pass
    return False


# pip builds a wheel through `setup.py dist_info` (its metadata, which setuptools writes with
# bdist_wheel's code) and `setup.py bdist_wheel`; without the `wheel` package setuptools would
# only say "invalid command 'bdist_wheel'".
if {"bdist_wheel", "dist_info"} & set(sys.argv[1:]) and not has_bdist_wheel():
    sys.exit(f"error: {sys.executable} has no `wheel` package, which building depgraph's wheel "
             "needs: install it into that Python (`python -m pip install wheel`), or use "
             "Debian's /usr/bin/python3 with python3-wheel (docs/python.md, \"Getting it\")")

HERE = pathlib.Path(__file__).resolve().parent
ROOT = pathlib.Path(os.environ.get("DEPGRAPH_SOURCE_DIR", HERE.parent))


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text() if (ROOT / "CMakeLists.txt").exists() else ""
    m = re.search(r"project\(depgraph VERSION ([0-9.]+)", text)
    return m.group(1) if m else "0"


class CMakeBuild(build_ext):
    """Copies the CMake-built extension and libpto_shim.so, which it loads from $ORIGIN."""

    def build_extension(self, ext):
        given = os.environ.get("DEPGRAPH_BUILD_DIR")
        build = pathlib.Path(given) if given else HERE / "build" / "cmake"
        if not given:
            if not (build / "CMakeCache.txt").exists():
                subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
                                "-DCMAKE_BUILD_TYPE=Release",
                                f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
            subprocess.run(["cmake", "--build", str(build), "--target", "depgraph_python"],
                           check=True)
        package = build / "python" / "depgraph"
        built = sorted(package.glob("_depgraph.*.so"))
        if not built:
            raise RuntimeError(f"no _depgraph module in {package}: build target depgraph_python")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)
        for shared in package.glob("lib*.so*"):  # libpto_shim.so
            shutil.copy2(shared, target.parent / shared.name)


setup(
    version=project_version(),
    packages=["depgraph"],
    # The type stubs and the PEP 561 marker (docs/python.md, "Types").
    package_data={"depgraph": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("depgraph._depgraph", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)

# SPDX-License-Identifier: Apache-2.0
"""Builds the Python package `kgroups`: setuptools hands the native module
kgroups._kgroups to this repository's CMake project (configured with
KGROUPS_BUILD_PYTHON and KGROUPS_BUILD_BROKER on, building the _kgroups target and
kgroups_python_kgroupsd, which copies the kgroupsd broker into the package as
kgroups/bin/kgroupsd for kgroups.Broker) and packages them with bindings/python/kgroups/.
Needs cmake, a C++20 compiler, python3-dev, pybind11 (Debian: python3-pybind11) and
kgroupsd's libraries (README.md, "Python"); nothing is downloaded. README.md, "Python",
has the commands: pip install into a venv, an sdist (MANIFEST.in lists its sources) and a
wheel; scripts/test-install runs them.
"""

import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).parent.resolve()


class CMakeExtension(Extension):
    """An extension built by the CMake project at `source_dir`, not by setuptools."""

    def __init__(self, name, source_dir):
        super().__init__(name, sources=[])
        self.source_dir = os.fspath(source_dir)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        package_dir = (pathlib.Path.cwd() / self.get_ext_fullpath(ext.name)).parent.resolve()
        # build/pip under the source tree, two levels down like the presets' build/install:
        # ccache is given paths relative to the source tree (cmake/kgroups_compiler_cache.cmake),
        # so pip's Release build reuses the objects of `cmake --preset install` and of earlier
        # pip builds, from this tree or another (an sdist that pip unpacked elsewhere).
        build_dir = ROOT / "build" / "pip"
        build_dir.mkdir(parents=True, exist_ok=True)
        configure = [
            "cmake", "-S", ext.source_dir, "-B", os.fspath(build_dir),
            f"-DCMAKE_BUILD_TYPE={'Debug' if self.debug else 'Release'}",
            f"-DPython_EXECUTABLE={sys.executable}",
            f"-DKGROUPS_PYTHON_PACKAGE_DIR={package_dir}",
            "-DKGROUPS_BUILD_PYTHON=ON",
            "-DKGROUPS_BUILD_TESTS=OFF",
            "-DKGROUPS_BUILD_BENCH=OFF",
            "-DKGROUPS_BUILD_CLI=OFF",
            "-DKGROUPS_BUILD_NODE=OFF",
            "-DKGROUPS_BUILD_BROKER=ON",
            "-DKGROUPS_INSTALL=OFF",
        ]
        if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").exists():
            configure += ["-G", "Ninja"]
        try:
            import pybind11  # Debian's python3-pybind11, if present: its CMake config

            configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass  # CMake searches its default prefixes (Debian's pybind11-dev)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(configure, check=True)
        subprocess.run(
            ["cmake", "--build", os.fspath(build_dir), "--target", "_kgroups",
             "kgroups_python_kgroupsd", "-j", jobs],
            check=True,
        )


setup(
    packages=["kgroups"],
    package_dir={"": "bindings/python"},
    # bin/kgroupsd is written into the build's package folder by CMake (not in the sources).
    package_data={"kgroups": ["__init__.pyi", "py.typed", "bin/kgroupsd"]},
    ext_modules=[CMakeExtension("kgroups._kgroups", ROOT)],
    cmdclass={"build_ext": CMakeBuild},
    # Everything setuptools builds goes under build/setuptools (build/ is git-ignored).
    options={"build": {"build_base": "build/setuptools"}},
    zip_safe=False,
)

"""Build step for the compiled fast path (pyproject.toml holds everything else).

The C generator is optional: where no compiler is present the build goes on without it and
meeple runs the pure-Python twin (same draws, same games)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("meeple.core._rng", ["src/meeple/core/_rng.c"], optional=True,
                             extra_compile_args=["-O3"])])

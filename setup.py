"""Build step for the compiled fast path (pyproject.toml holds everything else).

Where a C compiler is present, `pip install` compiles the random generator's C file and, with
mypyc, the modules listed under `[tool.meeple] compiled` in pyproject.toml. Every part is
optional: where the compiler is missing or a build fails, the install goes on and meeple runs the
pure-Python code, which gives the same results (meeple._native, tests/core/test_compiled_twins.py).
`src/meeple/_compiled.json` (meeple._manifest) lists the modules this build actually made, each
with its compiled file and its source, so no compiled file is ever run stale: one that is not
listed, or whose source changed since, makes meeple run the pure code and say so. Building in
place (an editable install), the compiled files of earlier builds that this one did not make are
removed."""

from __future__ import annotations

import importlib.util
import os
import tomllib
from pathlib import Path
from types import ModuleType

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
C_SOURCES = ["src/meeple/core/_rng.c"]


def load_manifest_module() -> ModuleType:
    """meeple._manifest, loaded from its file: meeple itself is not importable while it builds."""
    spec = importlib.util.spec_from_file_location("meeple_build_manifest", ROOT / "src" / "meeple" / "_manifest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


manifest = load_manifest_module()


def pure_requested() -> bool:
    return os.environ.get("MEEPLE_PURE", "") not in ("", "0")


def mypyc_sources() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as file:
        return list(tomllib.load(file)["tool"]["meeple"]["compiled"])


def module_name(source: str) -> str:
    return source.removeprefix("src/").rsplit(".", 1)[0].replace("/", ".")


def compiled_extensions(sources: list[str]) -> list[Extension]:
    """The mypyc-built modules, or none where mypyc is missing or fails (pure fallback)."""
    if pure_requested():
        return []
    try:
        from mypyc.build import mypycify

        # The build's own environment holds mypy but not numpy, Gymnasium or the other libraries
        # the compiled modules' packages import: they are typed as Any here (the project's mypy
        # run, which has them, checks them), and only the compiled modules' own errors count.
        extensions = mypycify(["--follow-imports=silent", "--ignore-missing-imports", *sources], opt_level="3",
                              group_name="meeple")
    except (Exception, SystemExit) as exc:  # no mypyc, or a module it refuses: the pure code runs
        print(f"meeple: not compiling with mypyc ({exc!r}); the pure-Python code will run")
        return []
    for extension in extensions:
        extension.optional = True  # no C compiler: skipped, and the .py files run
    return extensions


class RecordedBuild(build_ext):
    """build_ext that writes the manifest of what it built and, in place, removes what it did not.

    mypyc's modules are all or nothing: each imports the shared library, so if any of them failed
    none is listed (nor kept in place) and their `.py` twins run."""

    def run(self) -> None:
        self.built: set[str] = set()
        super().run()
        mypyc_names = {extension.name for extension in self.extensions} - {module_name(name) for name in C_SOURCES}
        if not mypyc_names <= self.built:
            self.built -= mypyc_names
        root = self.output_root()
        made = {name: Path(self.get_ext_fullpath(name)).resolve() for name in sorted(self.built)}
        if self.inplace:
            self.remove_earlier_builds(root, set(made.values()))
        records = {}
        for name, path in made.items():
            source, classes = SIGNED_SOURCES.get(name, (None, {}))
            records[name] = {"built": manifest.record_file(path, root), "source": source, "classes": classes}
        manifest.write(root / "meeple" / manifest.FILE_NAME, records)

    def build_extension(self, ext: Extension) -> None:
        super().build_extension(ext)  # a failure of an optional extension is raised past this line
        self.built.add(ext.name)

    def output_root(self) -> Path:
        """The directory holding the `meeple` package the extensions go to: the source tree's
        `src` in place, else the build directory."""
        if self.inplace:
            return Path(self.get_finalized_command("build_py").get_package_dir("meeple")).resolve().parent
        return Path(self.build_lib).resolve()

    def remove_earlier_builds(self, root: Path, made: set[Path]) -> None:
        for path in [*manifest.extension_files(root / "meeple"), *root.glob("meeple__mypyc.*")]:
            if path.resolve() not in made:
                print(f"meeple: removing {path.relative_to(root)}, left by an earlier build")
                path.unlink()


python_sources = mypyc_sources()
#: Each source signed (and its classes' fields read) before anything is compiled: a source edited
#: during the build then differs from its record, and the pure code runs until the next build.
SIGNED_SOURCES = {module_name(name): manifest.record_source(ROOT / name, ROOT / "src")
                  for name in C_SOURCES + python_sources}
extensions = [Extension("meeple.core._rng", C_SOURCES, optional=True, extra_compile_args=["-O3"]),
              *compiled_extensions(python_sources)]
# mypy (mypyc) is a build requirement only when compiling: pip asks for these before the build
# (PEP 517), so a pure install (MEEPLE_PURE=1, dev.py's first `serve`) does not fetch it.
setup(ext_modules=extensions, setup_requires=[] if pure_requested() else ["mypy>=1.13"],
      cmdclass={"build_ext": RecordedBuild})

"""Optional compiled search core (kamicp/_core/: header-only units and the binding module.cpp, one
extension kamicp._fastsearch). If it fails to build, kamicp falls back to the pure-Python search
(kamicp/prover/search.py). Built packages also carry the bundled levels (puzzles/*.json); everything
else is configured in pyproject.toml."""

from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py


class OptionalBuildExt(build_ext):
    def run(self):
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure: keep the pure-Python fallback
            print(f"kamicp: compiled search not built ({exc}); using the pure-Python search")

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            print(f"kamicp: compiled search not built ({exc}); using the pure-Python search")


class BuildPyWithLevels(build_py):
    """A built package carries the bundled levels (puzzles/*.json) as kamicp/play/levels, so that
    `kamicp play` without a level works outside a checkout (a checkout reads puzzles/ itself), and the
    Katamino example book (puzzles/katamino/book.json) as kamicp/katamino/books/sampler.json, which
    `kamicp katamino sampler` reads (docs/siblings.md)."""

    def run(self):
        super().run()
        target = Path(self.build_lib) / "kamicp" / "play" / "levels"
        self.mkpath(str(target))
        for level in sorted(Path("puzzles").glob("*.json")):
            self.copy_file(str(level), str(target / level.name))
        books = Path(self.build_lib) / "kamicp" / "katamino" / "books"
        self.mkpath(str(books))
        self.copy_file(str(Path("puzzles") / "katamino" / "book.json"), str(books / "sampler.json"))


setup(
    ext_modules=[
        Extension(
            "kamicp._fastsearch",
            sources=["kamicp/_core/module.cpp"],
            depends=sorted(str(p) for p in Path("kamicp/_core").glob("*.hpp")),  # rebuild when a unit changes
            language="c++",
            extra_compile_args=["-O2", "-std=c++17"],
            optional=True,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithLevels},
)

"""The package build: the message catalogs are compiled (.po → .mo), with the part of Babel's locale
data they read (bot/babel_data.py), whenever the package is built, and a built package carries the project's data (compiled catalogs, seeds, decks, card facts,
migrations) as bot/data, where bot.config finds it when there is no source tree around it."""
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        sys.path.insert(0, str(ROOT))
        from bot import babel_data
        from bot.i18n import compile_all
        if getattr(self, "editable_mode", False):
            compile_all()   # an editable install reads the source tree's data
            babel_data.compile_all()
            return
        target = Path(self.build_lib) / "bot" / "data"
        shutil.copytree(ROOT / "data", target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("*.po", "*.mo", "*.partial", babel_data.FILE_NAME))
        compile_all(ROOT / "data" / "locales", target / "locales")
        babel_data.compile_all(target / "locales")


setup(cmdclass={"build_py": BuildWithCatalogs})

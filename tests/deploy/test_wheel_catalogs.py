"""A wheel of the project carries the compiled document catalogs.

Without them (package data not declared) an installed service writes every document in
English without an error: gdpr.i18n.catalog finds no `.mo` and falls back to the msgids.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from gdpr.i18n.catalog import LOCALE_DIR, domains
from gdpr.i18n.extract import TRANSLATED_LANGUAGES
from tests.deploy.conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _source_copy(target: Path) -> None:
    """What setuptools reads, copied: building in the worktree would leave build/ there."""
    target.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, target / name)
    for pattern in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]:
        package = pattern.rstrip("*")
        shutil.copytree(ROOT / package, target / package, ignore=ignore)


@pytest.mark.live  # a pip process
def test_the_wheel_holds_every_compiled_catalog(tmp_path: Path) -> None:
    source = tmp_path / "source"
    _source_copy(source)
    result = subprocess.run(
        [
            sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
            "--disable-pip-version-check", "--quiet", "-w", str(tmp_path / "dist"), str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    (wheel,) = (tmp_path / "dist").glob("legaldocs-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    compiled = {path.relative_to(ROOT).as_posix() for path in sorted(LOCALE_DIR.glob("*/*.mo"))}
    assert len(compiled) == len(TRANSLATED_LANGUAGES) * len(domains())
    assert compiled <= shipped, sorted(compiled - shipped)

"""The project's packages are listed once (common/apps_list.py): the settings build
INSTALLED_APPS from it, and every list that cannot import Python (pyproject's package list,
import-linter's root packages, mypy's overrides, the image's .dockerignore) names the same
packages. A new app added in one place and forgotten in another fails here.

A package listed in common/apps_list.py but not on disk yet (one being added on another
branch) is left out of the comparison; every package on disk must be listed.
"""

from __future__ import annotations

import tomllib

from django.conf import settings

from common.apps_list import (
    COMPOSITION_ROOT,
    FRAMEWORK_FREE_PACKAGES,
    PROJECT_APPS,
    PROJECT_PACKAGES,
)
from tests.deploy.conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
NOT_SHIPPED = {"tests", "bench", "build"}


def _present(packages: tuple[str, ...]) -> set[str]:
    return {package for package in packages if (ROOT / package / "__init__.py").exists()}


def _contract(contract_id: str) -> dict:
    contracts = PYPROJECT["tool"]["importlinter"]["contracts"]
    return next(contract for contract in contracts if contract["id"] == contract_id)


def test_it_lists_every_package_on_disk():
    on_disk = {path.parent.name for path in ROOT.glob("*/__init__.py")} - NOT_SHIPPED
    assert on_disk == _present(PROJECT_PACKAGES)


def test_it_installs_the_project_apps_in_their_listed_order():
    ours = [app for app in settings.INSTALLED_APPS if "." not in app and app in PROJECT_PACKAGES]
    assert ours == list(PROJECT_APPS)
    assert not set(FRAMEWORK_FREE_PACKAGES) & set(settings.INSTALLED_APPS)


def test_it_ships_the_listed_packages():
    patterns = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    assert sorted(patterns) == sorted(f"{package}*" for package in _present(PROJECT_PACKAGES))


def test_it_gives_import_linter_the_listed_packages():
    roots = PYPROJECT["tool"]["importlinter"]["root_packages"]
    assert sorted(roots) == sorted(_present(PROJECT_PACKAGES))


def test_it_keeps_the_gdpr_rules_free_of_every_app():
    forbidden = set(_contract("gdpr-framework-free")["forbidden_modules"])
    assert {COMPOSITION_ROOT, *PROJECT_APPS} <= forbidden


def test_it_gives_mypy_the_listed_apps_to_read_silently():
    (override,) = [
        override
        for override in PYPROJECT["tool"]["mypy"]["overrides"]
        if override.get("follow_imports") == "silent"
    ]
    assert sorted(override["module"]) == sorted(
        f"{package}.*" for package in (COMPOSITION_ROOT, *PROJECT_APPS)
    )


def test_it_copies_every_listed_package_into_the_image():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "COPY --chown=root:root . /app" in dockerfile  # the whole tree, less .dockerignore
    ignored = {
        line.strip().strip("/").split("/")[0]
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith(("#", "!"))
    }
    assert not ignored & set(PROJECT_PACKAGES)

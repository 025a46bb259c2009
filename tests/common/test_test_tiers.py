"""The test tiers (tests/conftest.py): `make test-fast` needs no root, no tool, no server it
does not use; pytest run directly uses the test settings and starts servers only on need."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
MAKEFILE = ROOT / "Makefile"
# Helpers that run a Debian tool make test-fast depend on `make system-deps` (root).
TOOL_CALLS = {"require_debian_tool", "catalog_problems", "stale_compilations"}
COST_MARKS = {"tool", "slow", "live", "browser", "load", "model"}


def _make_target(name: str) -> tuple[str, str]:
    """The prerequisites and the recipe of a Makefile target."""
    text = MAKEFILE.read_text()
    match = re.search(rf"^{re.escape(name)}:([^\n]*)\n((?:\t[^\n]*\n)+)", text, re.MULTILINE)
    assert match, f"no target {name} in the Makefile"
    return match.group(1), match.group(2)


def test_make_test_fast_needs_no_system_deps_and_leaves_out_the_slow_tests() -> None:
    prerequisites, recipe = _make_target("test-fast")

    assert "system-deps" not in prerequisites.split()
    assert '-m "$(FAST_TIERS)"' in recipe
    assert re.search(r"^FAST_TIERS := not slow$", MAKEFILE.read_text(), re.MULTILINE)


def test_make_test_runs_every_test_after_the_system_deps() -> None:
    prerequisites, recipe = _make_target("test")

    assert "system-deps" in prerequisites.split()
    assert '-m "' not in recipe  # no marker selection


def _marks(decorators: list[ast.expr]) -> set[str]:
    """The names of `@pytest.mark.NAME` (called or not) among the decorators."""
    names = set()
    for decorator in decorators:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute):
            names.add(target.attr)
    return names


def _called_names(node: ast.AST) -> set[str]:
    return {
        call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
        for call in ast.walk(node)
        if isinstance(call, ast.Call)
    }


def test_every_test_running_a_debian_tool_is_left_out_of_test_fast() -> None:
    unmarked = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        module = ast.parse(path.read_text())
        module_marks = {
            mark
            for statement in module.body
            if isinstance(statement, ast.Assign)
            and any(getattr(target, "id", "") == "pytestmark" for target in statement.targets)
            for mark in _marks([statement.value])
        }
        for node in module.body:
            if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test_"):
                continue
            if _called_names(node) & TOOL_CALLS and not (
                (_marks(node.decorator_list) | module_marks) & COST_MARKS
            ):
                unmarked.append(f"{path.relative_to(ROOT)}::{node.name}")

    assert unmarked == [], "mark them @pytest.mark.tool"


@pytest.mark.live  # a pytest process of its own
def test_pytest_on_the_framework_free_tests_uses_the_test_settings_and_starts_no_server(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    unset = {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY"}
    env = {name: value for name, value in os.environ.items() if name not in unset}
    env["DATA_DIR"] = str(data_dir)

    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/gdpr/test_countries.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip

    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert not (data_dir / "postgres").exists()
    assert not (data_dir / "redis").exists()
    assert "settings: config.settings.test" in result.stdout
    servers = [
        process.info["cmdline"]
        for process in psutil.process_iter(["cmdline"])
        if str(data_dir) in " ".join(process.info["cmdline"] or [])
    ]
    assert servers == []


def _test_functions(path: Path) -> set[str]:
    """`name` and `Class::name` of the test functions defined in a test module."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names |= {
                f"{node.name}::{member.name}"
                for member in node.body
                if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef)
            }
    return {name for name in names if name.split("::")[-1].startswith("test_")}


def test_every_measured_slow_entry_names_an_existing_test() -> None:
    from tests.conftest import measured_slow

    stale = []
    defined: dict[str, set[str]] = {}
    for entry in sorted(measured_slow()):
        path, _, name = entry.partition("::")
        if path not in defined:
            module = ROOT / path
            defined[path] = _test_functions(module) if module.is_file() else set()
        if name not in defined[path]:
            stale.append(entry)

    assert measured_slow()
    assert stale == [], "remove or rename them in tests/slow_tests.txt"


def _collected(*arguments: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         *arguments],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    return result.stdout


@pytest.mark.slow  # a second pytest, Django and all: ~15 s, a tenth of test-fast's budget
def test_a_module_slow_to_collect_is_not_even_collected_when_slow_tests_are_left_out() -> None:
    output = _collected("-m", "not slow", "tests/reliability/test_schemathesis.py")

    assert "no tests collected" in output, output[-2000:]


@pytest.mark.slow  # collecting schemathesis' cases takes ~25 s
def test_a_module_slow_to_collect_is_collected_when_slow_tests_are_asked_for() -> None:
    output = _collected("-m", "reliability and slow", "tests/reliability/test_schemathesis.py")

    assert "tests/reliability/test_schemathesis.py::" in output, output[-2000:]

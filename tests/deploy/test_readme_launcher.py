"""The launcher as the README uses it: a second worker from a shell without the venv, and the
project's `.env` read by `make run` (and exec, bench) but never by the tests."""

from __future__ import annotations

import os
import subprocess
import sys

from config import launcher
from tests.deploy.conftest import ROOT

# Every variable the local stack would otherwise start a server or write a key for: with
# these set, `exec` starts nothing (nothing listens at these addresses; nothing connects).
NOTHING_TO_START = {
    "DATABASE_URL": "postgresql://nobody@127.0.0.1:9/nothing",
    "REDIS_URL": "redis://127.0.0.1:9/0",
    "SECRET_KEY": "not-used",
    "EVIDENCE_SIGNING_KEY": "not-used",
    "DJANGO_SETTINGS_MODULE": "config.settings.base",
}


def run_launcher(*arguments: str, **variables: str) -> subprocess.CompletedProcess[str]:
    env = {"HOME": os.environ.get("HOME", "/tmp"), **NOTHING_TO_START, **variables}
    return subprocess.run(
        [sys.executable, "-m", "config.launcher", *arguments],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_it_runs_the_venvs_celery_from_a_shell_whose_path_lacks_the_venv(tmp_path):
    # The README's second worker, typed in a terminal where the venv is not activated.
    result = run_launcher("exec", "celery", "--version", PATH="/usr/bin:/bin", ENV_FILE="")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip(), result.stderr


def test_it_reads_the_env_file_into_run_exec_and_bench_and_the_environment_wins(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# a comment\n"
        "\n"
        "LOG_LEVEL=DEBUG  # inline comment, as docker compose reads it\n"
        "export METRICS_TOKEN='a b#c'\n"
        'EVENTS_SERVICE_NAME="from-the-file"\n'
        "CHUNK_SIZE=1200\n"
    )
    show = "import os; print([os.environ.get(n) for n in ('LOG_LEVEL', 'METRICS_TOKEN', 'EVENTS_SERVICE_NAME', 'CHUNK_SIZE')])"  # noqa: E501
    result = run_launcher(
        "exec", sys.executable, "-c", show,
        PATH="/usr/bin:/bin", ENV_FILE=str(env_file), CHUNK_SIZE="900",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(["DEBUG", "a b#c", "from-the-file", "900"])


def test_the_tests_never_read_a_developers_env_file(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("DATABASE_URL=postgresql://a-developers-own@db/legaldocs\n")
    for command in ("run", "exec", "bench"):
        environ: dict[str, str] = {"ENV_FILE": str(env_file)}
        assert launcher.read_env_file(command=command, environ=environ) == env_file
        assert environ["DATABASE_URL"] == "postgresql://a-developers-own@db/legaldocs"
    environ = {"ENV_FILE": str(env_file)}
    assert launcher.read_env_file(command="test", environ=environ) is None
    assert "DATABASE_URL" not in environ


def test_the_env_file_is_the_projects_unless_env_file_names_another_or_none(tmp_path):
    assert launcher.env_file_path({}) == ROOT / ".env"
    assert launcher.env_file_path({"ENV_FILE": str(tmp_path / "x.env")}) == tmp_path / "x.env"
    assert launcher.env_file_path({"ENV_FILE": ""}) is None
    # A missing file is no error: a laptop needs no .env.
    environ = {"ENV_FILE": str(tmp_path / "missing.env")}
    assert launcher.read_env_file(command="run", environ=environ) is None

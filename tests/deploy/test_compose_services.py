"""docker-compose.yml's object store, backups, PostgreSQL tuning and GPU profile (issue 26)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.deploy.conftest import ROOT

COMPOSE_TEXT = (ROOT / "docker-compose.yml").read_text()
ENTRYPOINT = ROOT / "deploy" / "docker-entrypoint.sh"
SEAWEEDFS_ENTRYPOINT = ROOT / "deploy" / "seaweedfs-entrypoint.sh"


def _megabytes(size: str) -> float:
    """Compose's and PostgreSQL's sizes (2g, 1536m, 512MB) in MiB."""
    number, unit = re.fullmatch(r"(\d+)([kmg])?b?", size.lower()).groups()  # type: ignore[union-attr]
    return int(number) * {"k": 1 / 1024, "m": 1, "g": 1024}.get(unit, 1 / 1024 / 1024)


# --- Object store -------------------------------------------------------------------------


def test_the_object_store_is_seaweedfs_with_an_s3_health_check(services):
    seaweedfs = services["seaweedfs"]
    assert seaweedfs["image"].startswith("chrislusf/seaweedfs:")
    assert seaweedfs["healthcheck"]["test"] == [
        "CMD", "wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8333/healthz",
    ]  # fmt: skip
    assert "seaweedfs-data:/data" in seaweedfs["volumes"]


def test_the_application_and_seaweedfs_share_the_credentials_of_env(services):
    app = services["web"]["environment"]
    store = services["seaweedfs"]["environment"]
    assert app["AWS_S3_ENDPOINT_URL"] == "${AWS_S3_ENDPOINT_URL:-http://seaweedfs:8333}"
    assert app["AWS_ACCESS_KEY_ID"] == "${AWS_ACCESS_KEY_ID:-${S3_ACCESS_KEY:-legaldocs}}"
    assert app["AWS_SECRET_ACCESS_KEY"].startswith("${AWS_SECRET_ACCESS_KEY:-${S3_SECRET_KEY:?")
    assert store["S3_ACCESS_KEY"] == "${S3_ACCESS_KEY:-legaldocs}"
    assert store["S3_SECRET_KEY"].startswith("${S3_SECRET_KEY:?")


def test_seaweedfs_starts_through_the_repositorys_script(services):
    seaweedfs = services["seaweedfs"]
    mounted = {entry.split(":")[1]: entry.split(":")[0] for entry in seaweedfs["volumes"]}
    script = seaweedfs["entrypoint"][-1]
    assert seaweedfs["entrypoint"] == ["/bin/sh", script]
    assert (ROOT / mounted[script]).resolve() == SEAWEEDFS_ENTRYPOINT


def _run_seaweedfs_script(tmp_path: Path, **environment: str) -> subprocess.CompletedProcess:
    # A stand-in for the image's `weed`: prints its arguments and the identities file.
    fake = tmp_path / "bin" / "weed"
    fake.parent.mkdir()
    fake.write_text(
        '#!/bin/sh\nprintf "%s\\n" "$@"\nfor a in "$@"; do case "$a" in -s3.config=*) '
        'echo ---; cat "${a#-s3.config=}";; esac; done\n'
    )
    fake.chmod(0o755)
    return subprocess.run(
        ["sh", str(SEAWEEDFS_ENTRYPOINT)],
        env={
            "PATH": f"{fake.parent}:{os.environ['PATH']}",
            "S3_CONFIG_FILE": str(tmp_path / "s3.json"),
            **environment,
        },
        capture_output=True, text=True,
    )  # fmt: skip


def test_the_seaweedfs_script_gives_the_s3_gateway_the_applications_identity(tmp_path):
    result = _run_seaweedfs_script(tmp_path, S3_ACCESS_KEY="legaldocs", S3_SECRET_KEY="abc123")

    assert result.returncode == 0, result.stderr
    arguments, identities = result.stdout.split("---\n")
    assert arguments.split() == [
        "server", "-dir=/data", "-ip.bind=0.0.0.0", "-volume.max=0",
        "-master.volumeSizeLimitMB=1024", "-s3", "-s3.port=8333",
        f"-s3.config={tmp_path / 's3.json'}",
    ]  # fmt: skip
    [identity] = json.loads(identities)["identities"]
    assert identity["credentials"] == [{"accessKey": "legaldocs", "secretKey": "abc123"}]
    assert {"Admin", "Read", "Write", "List"} <= set(identity["actions"])
    assert oct((tmp_path / "s3.json").stat().st_mode & 0o777) == "0o600"


@pytest.mark.parametrize(
    ("environment", "message"),
    [
        ({"S3_ACCESS_KEY": "legaldocs"}, "set S3_SECRET_KEY in .env"),
        ({"S3_ACCESS_KEY": "legaldocs", "S3_SECRET_KEY": 'a"b'}, "letters, digits"),
    ],
)
def test_the_seaweedfs_script_refuses_a_missing_or_unsafe_secret(tmp_path, environment, message):
    result = _run_seaweedfs_script(tmp_path, **environment)

    assert result.returncode != 0
    assert message in result.stderr
    assert not (tmp_path / "s3.json").exists() or "b" not in (tmp_path / "s3.json").read_text()


def test_the_bucket_is_created_by_the_app_images_ensure_bucket(services):
    init = services["storage-init"]
    assert init["command"] == ["python", "manage.py", "ensure_bucket", "--wait", "60"]
    assert init["depends_on"] == {"seaweedfs": {"condition": "service_healthy"}}
    assert init["build"]["context"] == "."
    for name, service in services.items():
        if name.startswith("worker-") or name in {"web", "backup"}:
            assert service["depends_on"]["storage-init"] == {
                "condition": "service_completed_successfully"
            }, name


# --- PostgreSQL -----------------------------------------------------------------------------


def _postgres_settings(services) -> dict[str, str]:
    command = services["postgres"]["command"]
    assert command[0] == "postgres"
    pairs = command[1:]
    assert pairs[::2] == ["-c"] * (len(pairs) // 2)
    return dict(pair.split("=", 1) for pair in pairs[1::2])


def test_postgres_has_room_in_dev_shm_for_a_parallel_index_build(services):
    postgres = services["postgres"]
    tuned = _postgres_settings(services)
    memory = _megabytes(postgres["mem_limit"])
    shm = _megabytes(postgres["shm_size"])

    assert shm > 64  # Docker's default, where a parallel HNSW build fails
    assert _megabytes(tuned["maintenance_work_mem"]) < shm
    assert int(tuned["max_parallel_maintenance_workers"]) >= 1
    # The formula of the comment: a quarter of the memory limit each.
    assert _megabytes(tuned["shared_buffers"]) == memory // 4
    assert _megabytes(tuned["maintenance_work_mem"]) == memory // 4


def test_the_images_pg_dump_is_of_the_servers_major_version(services):
    server = re.search(r"-pg(\d+)$", services["postgres"]["image"]).group(1)
    dockerfile = (ROOT / "Dockerfile").read_text()
    final_stage = re.split(r"^FROM ", dockerfile, flags=re.MULTILINE)[-1]

    assert re.findall(r"\bpostgresql-client-(\d+)\b", final_stage) == [server]
    assert "apt.postgresql.org" in final_stage


# --- Backups --------------------------------------------------------------------------------


def test_the_backup_service_runs_the_backup_loop_of_the_entry_point(services):
    backup = services["backup"]
    assert backup["command"] == ["backup"]
    assert backup["environment"]["BACKUP_INTERVAL_SECONDS"] == "${BACKUP_INTERVAL_SECONDS:-86400}"
    text = ENTRYPOINT.read_text()
    role = text[text.index("    backup)") : text.index(";;", text.index("    backup)"))]
    assert "python manage.py backup_database" in role
    assert 'interval="${BACKUP_INTERVAL_SECONDS:-86400}"' in role
    # The health check reads the file each success touches.
    marker = re.search(r"touch (\S+)", role).group(1)
    assert marker in " ".join(backup["healthcheck"]["test"])


def test_the_backup_health_check_fails_without_a_recent_success(tmp_path, services):
    check = services["backup"]["healthcheck"]["test"]
    assert check[:3] == ["CMD", "python", "-c"]
    code = check[3].replace("/tmp/backup-succeeded", str(tmp_path / "ok"))

    def run() -> int:
        environment = {"BACKUP_INTERVAL_SECONDS": "60"}
        return subprocess.run(["python3", "-c", code], env=environment).returncode

    assert run() != 0  # never succeeded
    (tmp_path / "ok").touch()
    assert run() == 0
    os.utime(tmp_path / "ok", (0, 0))
    assert run() != 0  # the last success is too old


# --- Health, shutdown ---------------------------------------------------------------------


def test_the_web_health_check_is_readiness(services):
    assert services["web"]["healthcheck"]["test"][-1] == "http://127.0.0.1:8000/readyz"


def test_workers_are_given_longer_to_stop_than_their_soft_shutdown_takes(services):
    from django.conf import settings

    # docker stop waits stop_grace_period, then kills: a cold shutdown (SIGQUIT) must end
    # within it, and ingestions hand their asset back on SIGTERM (the comment says so).
    assert services["worker-ingestion"]["stop_grace_period"] == "2m"
    assert settings.CELERY_WORKER_SOFT_SHUTDOWN_TIMEOUT < 120
    assert "ingestions, which hand their asset" in COMPOSE_TEXT


# --- GPU profile ----------------------------------------------------------------------------


def test_the_gpu_embedding_server_starts_only_with_its_profile(services):
    embeddings = services["embeddings"]
    assert embeddings["profiles"] == ["gpu"]
    # The other profile-gated service is staging's mail catcher (tests/deploy/test_compose.py).
    in_profiles = {
        name: service["profiles"] for name, service in services.items() if service.get("profiles")
    }
    assert in_profiles == {"embeddings": ["gpu"], "mailpit": ["staging"]}
    for name, service in services.items():
        assert "embeddings" not in service.get("depends_on", {}), name


def test_the_gpu_embedding_server_reserves_the_gpus_and_serves_e5(services):
    embeddings = services["embeddings"]
    [device] = embeddings["deploy"]["resources"]["reservations"]["devices"]
    assert device["capabilities"] == ["gpu"] and device["driver"] == "nvidia"
    # The server takes requests as large as the client sends (text-embeddings-inference
    # refuses more than 32 inputs per request by default; the client sends 256).
    assert embeddings["command"] == [
        "--model-id", "intfloat/multilingual-e5-small", "--port", "80",
        "--max-client-batch-size", "${EMBEDDING_REQUEST_BATCH_SIZE:-256}",
    ]  # fmt: skip
    assert embeddings["image"].startswith("ghcr.io/huggingface/text-embeddings-inference:")
    for line in [
        "EMBEDDING_PROVIDER=openai",
        "EMBEDDING_BASE_URL=http://embeddings:80/v1",
        "EMBEDDING_MODEL=intfloat/multilingual-e5-small",
    ]:
        assert line in COMPOSE_TEXT
        assert line in (ROOT / "docs" / "DEPLOY.md").read_text()

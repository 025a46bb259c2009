"""docker-compose.yml: valid for Compose, and consistent with the settings it runs."""

from __future__ import annotations

import copy
import ipaddress
import re

import jsonschema
import pytest
from django.conf import settings

from tests.deploy.conftest import ROOT, is_one_shot

WORKER_SERVICES = {
    "worker-generation", "worker-ingestion", "worker-webhooks", "worker-packages",
    "worker-imports", "worker-staleness",
}  # fmt: skip


def test_the_compose_file_follows_the_compose_specification(compose, compose_schema):
    errors = sorted(
        jsonschema.Draft7Validator(compose_schema).iter_errors(compose), key=lambda e: e.path
    )
    assert [f"{list(error.path)}: {error.message}" for error in errors] == []


def test_the_schema_check_would_catch_a_misspelt_key(compose, compose_schema):
    broken = copy.deepcopy(compose)
    broken["services"]["web"]["healthcheck"]["intervall"] = "30s"
    assert not jsonschema.Draft7Validator(compose_schema).is_valid(broken)


def test_it_runs_the_whole_stack(services):
    assert set(services) >= {
        "postgres", "redis", "seaweedfs", "storage-init", "migrate", "web", "beat", "backup",
        "proxy", *WORKER_SERVICES,
    }  # fmt: skip


def test_every_long_running_service_has_a_health_check(services):
    for name, service in services.items():
        if is_one_shot(service):
            continue
        healthcheck = service.get("healthcheck", {})
        assert healthcheck.get("test") and not healthcheck.get("disable"), name
        assert {"interval", "timeout", "retries"} <= set(healthcheck), name


def test_one_shot_services_are_awaited_until_they_complete(services):
    one_shots = {name for name, service in services.items() if is_one_shot(service)}
    assert one_shots == {"migrate", "storage-init"}
    for name, service in services.items():
        for dependency, rule in service.get("depends_on", {}).items():
            expected = (
                "service_completed_successfully" if dependency in one_shots else "service_healthy"
            )
            assert rule["condition"] == expected, f"{name} -> {dependency}"


def test_no_application_process_starts_before_the_migrations(services):
    for name in ["web", "beat", "backup", *WORKER_SERVICES]:
        assert "migrate" in services[name]["depends_on"], name
    assert services["migrate"]["command"] == ["migrate"]
    assert set(services["migrate"]["depends_on"]) >= {"postgres"}


def test_each_celery_queue_has_its_own_worker_service(services):
    served = {services[name]["environment"]["WORKER_QUEUE"] for name in WORKER_SERVICES}
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert (
        served
        == set(settings.CELERY_WORKER_QUEUES)
        == routed | {settings.CELERY_TASK_DEFAULT_QUEUE}
    )
    for name in WORKER_SERVICES:
        assert services[name]["command"] == ["worker"]
        assert "CELERY_WORKER_CONCURRENCY" in services[name]["environment"]


def test_workers_and_web_can_be_scaled(services):
    # `--scale` needs containers without a fixed name or host port.
    for name in ["web", *WORKER_SERVICES]:
        assert "container_name" not in services[name], name
        assert "ports" not in services[name], name


def test_only_the_proxy_is_reachable_from_outside(services):
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy", "mailpit"}
    # The staging mail catcher's web page: on the host's loopback only.
    assert all(port.startswith("127.0.0.1:") for port in services["mailpit"]["ports"])


def test_the_mail_catcher_is_for_staging_and_takes_the_smtp_settings(services):
    mailpit = services["mailpit"]
    assert mailpit["profiles"] == ["staging"]
    assert mailpit["image"].startswith("axllent/mailpit:v")
    assert "1025" in mailpit["expose"]  # SMTP, inside the compose network
    example = (ROOT / ".env.example").read_text()
    assert "EMAIL_HOST=mailpit" in example and "EMAIL_PORT=1025" in example


def test_the_data_services_keep_their_data_in_volumes(compose, services):
    for name, mount in [
        ("postgres", "/var/lib/postgresql/data"),
        ("redis", "/data"),
        ("seaweedfs", "/data"),
        ("beat", "/app/data"),
    ]:
        volumes = {entry.split(":")[0]: entry.split(":")[1] for entry in services[name]["volumes"]}
        assert mount in volumes.values(), name
        named = {volume for volume in volumes if not volume.startswith("./")}  # not bind mounts
        assert named <= set(compose["volumes"]), name


def test_redis_requires_a_password(services):
    command = " ".join(services["redis"]["command"])
    assert '--requirepass "$$REDIS_PASSWORD"' in command
    assert services["redis"]["environment"]["REDIS_PASSWORD"].startswith("${REDIS_PASSWORD:?")
    assert "REDIS_PASSWORD" in services["redis"]["healthcheck"]["test"][1]


def test_application_containers_use_production_settings_and_the_env_file(services):
    for name in ["migrate", "storage-init", "web", "beat", "backup", *WORKER_SERVICES]:
        service = services[name]
        assert service["env_file"] == ".env", name
        assert service["environment"]["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
        assert service["environment"]["PROMETHEUS_MULTIPROC_DIR"], name


@pytest.mark.parametrize(
    "service", ["web", "worker-ingestion", "beat", "migrate", "storage-init", "backup"]
)
def test_application_services_build_the_project_image(services, service):
    assert services[service]["build"]["context"] == "."


def test_the_run_launcher_serves_every_queue():
    from config import launcher

    assert launcher.WORKER_QUEUES.split(",") == settings.CELERY_WORKER_QUEUES


def test_the_web_service_trusts_forwarded_addresses_from_the_proxy_only(compose, services):
    # X-Forwarded-For decides the client address of audit rows, of the key-guessing limit
    # and of the /metrics check: only the proxy, at its fixed address, may set it.
    trusted = services["web"]["environment"]["FORWARDED_ALLOW_IPS"]
    proxy_address = services["proxy"]["networks"]["default"]["ipv4_address"]
    assert trusted == f"${{FORWARDED_ALLOW_IPS:-{proxy_address}}}"
    subnet = compose["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(proxy_address) in ipaddress.ip_network(subnet)


def test_every_service_has_a_memory_limit(services):
    # A process that outgrows its limit is killed alone, not the host (hostile uploads).
    for name, service in services.items():
        limit = service.get("mem_limit") or (
            service.get("deploy", {}).get("resources", {}).get("limits", {}).get("memory")
        )
        assert limit, name
        assert re.fullmatch(r"\d+[kmg]?", str(limit)), (name, limit)

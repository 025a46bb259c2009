"""Fixtures of the deployment tests: the files an operator deploys with, parsed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def compose() -> dict:
    """docker-compose.yml as compose sees it (YAML anchors and merge keys resolved)."""
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="session")
def compose_schema() -> dict:
    """The Compose Specification's JSON schema, vendored in deploy/ (CI has no network)."""
    return json.loads((ROOT / "deploy" / "compose-spec.json").read_text())


@pytest.fixture(scope="session")
def services(compose: dict) -> dict[str, dict]:
    return compose["services"]


def is_one_shot(service: dict) -> bool:
    """A container that runs to completion (migrations, bucket creation) and is not restarted."""
    return service.get("restart") == "no"

"""Every image docker-compose.yml pulls is pinned and comes from a registry that serves it.

A fresh host pulls every image before it starts anything: one image that cannot be pulled
stops the whole stack (issue 26: minio/minio and minio/mc were withdrawn from Docker Hub).
"""

from __future__ import annotations

import re

import pytest

# Namespaces whose images are known to be gone from where compose would pull them.
GONE = {
    "minio/minio": "MinIO stopped publishing community images on Docker Hub in 2025",
    "minio/mc": "MinIO stopped publishing community images on Docker Hub in 2025",
    "bitnami/": "Bitnami moved its catalogue off docker.io/bitnami in 2025",
}
# name[:tag][@sha256:digest]; the registry host (with a port) may precede the name.
_REFERENCE = re.compile(
    r"^(?P<name>[a-z0-9]+(?:[._/-][a-z0-9]+)*(?::\d+/[a-z0-9._/-]+)?)"
    r"(?::(?P<tag>[\w][\w.-]{0,127}))?(?:@(?P<digest>sha256:[0-9a-f]{64}))?$"
)


def pulled_images(services: dict[str, dict]) -> dict[str, str]:
    """service -> image, for every service whose image compose pulls.

    A service with a `build:` section is exempt: compose builds its image locally from this
    repository (`${APP_IMAGE:-legaldocs:latest}` only names the result) and pulls nothing
    for it; what its Dockerfile pulls is pinned there (tests/deploy/test_image_and_proxy.py).
    """
    return {
        name: service.get("image", "")
        for name, service in services.items()
        if "build" not in service
    }


def problems(services: dict[str, dict]) -> list[str]:
    found = []
    for name, image in pulled_images(services).items():
        reference = _REFERENCE.match(image)
        if not reference:
            found.append(f"{name}: no image, or not an image reference: {image!r}")
            continue
        tag, digest = reference["tag"], reference["digest"]
        if not digest and (not tag or tag == "latest"):
            found.append(f"{name}: {image} is not pinned to a tag or digest")
        repository = reference["name"].removeprefix("docker.io/").removeprefix("library/")
        for gone, why in GONE.items():
            if repository == gone or (gone.endswith("/") and repository.startswith(gone)):
                found.append(f"{name}: {image} cannot be pulled ({why})")
    return found


def test_every_pulled_image_is_pinned_and_still_published(services):
    assert problems(services) == []


def test_profile_services_are_checked_too(services):
    # `docker compose --profile gpu` pulls them; the check must not skip them.
    assert "embeddings" in pulled_images(services)


@pytest.mark.parametrize(
    ("image", "complaint"),
    [
        ("minio/minio:RELEASE.2025-04-22T22-12-26Z", "cannot be pulled"),
        ("docker.io/minio/mc:RELEASE.2025-04-16T18-13-26Z", "cannot be pulled"),
        ("bitnami/postgresql:17.2.0", "cannot be pulled"),
        ("redis:latest", "not pinned"),
        ("redis", "not pinned"),
        ("", "no image"),
    ],
)
def test_the_check_catches_what_would_break_a_fresh_host(image, complaint):
    [found] = problems({"s3": {"image": image}})
    assert complaint in found


@pytest.mark.parametrize(
    "image",
    [
        "chrislusf/seaweedfs:4.47",
        "ghcr.io/huggingface/text-embeddings-inference:cuda-1.8.3",
        "registry.example.com:5000/team/tool:1.2",
        "caddy@sha256:" + "a" * 64,
    ],
)
def test_pinned_images_from_live_namespaces_pass(image):
    assert problems({"s3": {"image": image}}) == []


def test_a_locally_built_image_is_exempt(services):
    assert "build" in services["web"]
    assert services["web"]["image"] == "${APP_IMAGE:-legaldocs:latest}"
    assert "web" not in pulled_images(services)

"""The manifest of an inspection package is signed with the evidence key: a package whose
files and manifest were rewritten consistently fails `verify_package`."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from legal_documents.packages.manifest import sha256_bytes
from legal_documents.tasks import build_documentation_package_task
from tests.legal_documents.history_support import generated_document

pytestmark = pytest.mark.django_db

PACKAGES_URL = "/api/v1/documentation-packages"
OLD_KEY = "the-key-before-the-rotation-0123456789abcdef"
NEW_KEY = "the-key-after-the-rotation-fedcba9876543210"


@pytest.fixture(autouse=True)
def _media_in_tmp(settings, tmp_path: Path) -> None:
    """Packages are stored in the default storage; each test gets its own folder."""
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def package(dpo, tmp_path) -> Path:  # type: ignore[no-untyped-def]
    """A built package of one generated document, downloaded to a file."""
    generated_document(dpo, "DPIA")
    response = dpo.client.post(PACKAGES_URL, {}, format="json")
    assert response.status_code == 202, response.content
    build_documentation_package_task(response.json()["id"])
    download = dpo.client.get(f"{PACKAGES_URL}/{response.json()['id']}/download")
    assert download.status_code == 200
    target = tmp_path / "package.zip"
    target.write_bytes(b"".join(download.streaming_content))
    return target


def rewrite(source: Path, target: Path, *, change_markdown: bool, manifest_edit=None) -> Path:  # type: ignore[no-untyped-def]
    """A copy of the package with its Markdown changed and the manifest brought in line."""
    with zipfile.ZipFile(source) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    manifest = json.loads(files["manifest.json"])
    if change_markdown:
        for entry in manifest["files"]:
            if entry["path"].endswith(".md"):
                files[entry["path"]] = b"# A different document\n"
                entry["sha256"] = sha256_bytes(files[entry["path"]])
                entry["size"] = len(files[entry["path"]])
    if manifest_edit is not None:
        manifest_edit(manifest)
    files["manifest.json"] = json.dumps(manifest, indent=2, ensure_ascii=False).encode()
    with zipfile.ZipFile(target, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return target


def test_the_manifest_is_signed_and_the_package_verifies(package, capsys):
    with zipfile.ZipFile(package) as archive:
        manifest = json.loads(archive.read("manifest.json"))
    assert manifest["signature"]["algorithm"] == "HMAC-SHA256"
    assert manifest["signature"]["keyId"]
    call_command("verify_package", str(package))
    assert "signature verified" in capsys.readouterr().out


def test_files_and_manifest_rewritten_consistently_are_detected(package, tmp_path):
    forged = rewrite(package, tmp_path / "forged.zip", change_markdown=True)
    with pytest.raises(CommandError, match="signature does not match"):
        call_command("verify_package", str(forged))


def test_a_manifest_without_its_signature_is_not_valid(package, tmp_path):
    stripped = rewrite(
        package, tmp_path / "stripped.zip", change_markdown=True,
        manifest_edit=lambda manifest: manifest.pop("signature"),
    )  # fmt: skip
    with pytest.raises(CommandError, match="not signed"):
        call_command("verify_package", str(stripped))
    # A package from before manifests were signed can still have its files checked.
    call_command("verify_package", str(stripped), "--allow-unsigned")


def test_a_wrong_key_fails_verification(package, settings):
    settings.EVIDENCE_SIGNING_KEY = NEW_KEY
    with pytest.raises(CommandError, match="unknown key"):
        call_command("verify_package", str(package))


def test_after_a_rotation_the_old_key_still_verifies(dpo, tmp_path, settings):
    settings.EVIDENCE_SIGNING_KEY = OLD_KEY
    generated_document(dpo, "DPIA")
    response = dpo.client.post(PACKAGES_URL, {}, format="json")
    build_documentation_package_task(response.json()["id"])
    download = dpo.client.get(f"{PACKAGES_URL}/{response.json()['id']}/download")
    built = tmp_path / "built.zip"
    built.write_bytes(b"".join(download.streaming_content))
    settings.EVIDENCE_SIGNING_KEY = NEW_KEY
    settings.EVIDENCE_SIGNING_OLD_KEYS = [OLD_KEY]
    call_command("verify_package", str(built))
    settings.EVIDENCE_SIGNING_OLD_KEYS = []
    with pytest.raises(CommandError, match="unknown key"):
        call_command("verify_package", str(built))

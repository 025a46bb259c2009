"""Documentation index and inspection packages: contents, manifest, verify_package, download."""

from __future__ import annotations

import csv
import io
import json
import shutil
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from audit.models import AuditEvent
from audit.services import Actor, record_event
from common.background import sweeper
from legal_documents.models import DocumentationPackage, LegalDocument, Status
from legal_documents.packages.manifest import sha256_bytes
from legal_documents.tasks import build_documentation_package_task
from legal_documents.work import PACKAGE_BUILD
from tests.factories import LegalDocumentFactory
from tests.legal_documents.history_support import edit, generated_document

pytestmark = pytest.mark.django_db

INDEX_URL = "/api/v1/documentation-index"
PACKAGES_URL = "/api/v1/documentation-packages"


@pytest.fixture(autouse=True)
def _media_in_tmp(settings, tmp_path: Path) -> None:
    """Packages are stored in the default storage; each test gets its own folder."""
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def documents(dpo, org_admin) -> list[LegalDocument]:  # type: ignore[no-untyped-def]
    """Two generated documents of two members (one edited to v2) and one still processing."""
    dpia = generated_document(dpo, "DPIA")
    assert edit(dpo, dpia, dpia.content_markdown + "\nReviewed.", "Review").status_code == 200
    record = generated_document(org_admin, "RECORD_OF_PROCESSING")
    pending = LegalDocumentFactory(
        organization=dpo.organization, status=Status.PROCESSING, version=0, content_markdown=""
    )
    return [LegalDocument.objects.get(pk=dpia.pk), record, pending]


def request_package(caller, **filters):  # type: ignore[no-untyped-def]
    """POST a package request and build it in-process, as the worker would (failures included:
    `apply` runs the task's final-failure hook, a plain call would not)."""
    response = caller.client.post(PACKAGES_URL, filters, format="json")
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "processing"
    build_documentation_package_task.apply(args=[response.json()["id"]])
    return response.json()["id"]


def download(caller, package_id: str, target: Path) -> Path:  # type: ignore[no-untyped-def]
    response = caller.client.get(f"{PACKAGES_URL}/{package_id}/download")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"].startswith("attachment;")
    target.write_bytes(b"".join(response.streaming_content))
    return target


def test_the_index_lists_every_document_of_the_organization_for_every_role(dpo, auditor, documents):
    # A DPO lists only their own documents at /legal-documents; the index is organization-wide.
    body = auditor.client.get(INDEX_URL).json()
    assert body["totalCount"] == 3
    assert body["hasMore"] is False
    rows = {row["id"]: row for row in body["documents"]}
    dpia = rows[str(documents[0].pk)]
    assert dpia["version"] == 2
    assert dpia["contentSha256"] == documents[0].content_sha256
    assert dpia["complete"] is True
    assert dpia["missingItems"] == []
    assert rows[str(documents[2].pk)]["complete"] is None
    assert dpo.client.get(INDEX_URL).json()["totalCount"] == 3


def test_the_index_as_csv_has_the_same_rows(dpo, documents):
    response = dpo.client.get(f"{INDEX_URL}?format=csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8"))))
    assert {row["id"] for row in rows} == {str(document.pk) for document in documents}
    assert list(rows[0]) == [
        "id", "documentType", "stage", "status", "version", "createdAt", "updatedAt",
        "contentSha256", "complete", "missingItems",
    ]  # fmt: skip


def test_the_index_does_not_show_another_organizations_documents(outsider, documents):
    assert outsider.client.get(INDEX_URL).json()["totalCount"] == 0


def test_a_package_holds_each_completed_document_and_matches_its_manifest(dpo, documents, tmp_path):
    package_id = request_package(dpo)
    status = dpo.client.get(f"{PACKAGES_URL}/{package_id}").json()
    assert status["status"] == "completed", status
    assert status["documentCount"] == 2
    assert status["downloadUrl"].endswith(f"/api/v1/documentation-packages/{package_id}/download")
    zip_path = download(dpo, package_id, tmp_path / "package.zip")
    assert sha256_bytes(zip_path.read_bytes()) == status["sha256"]

    with zipfile.ZipFile(zip_path) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read("manifest.json"))
        listed = {entry["path"]: entry for entry in manifest["files"]}
        assert names == {*listed, "manifest.json"}
        for path, entry in listed.items():
            content = archive.read(path)
            assert sha256_bytes(content) == entry["sha256"], path
            assert len(content) == entry["size"], path
        dpia_folder = f"documents/dpia-{documents[0].pk}"
        assert archive.read(f"{dpia_folder}/dpia-v2.pdf").startswith(b"%PDF")
        assert archive.read(f"{dpia_folder}/dpia-v2.md").decode() == documents[0].content_markdown
        versions = json.loads(archive.read(f"{dpia_folder}/versions.json"))["versions"]
        assert [version["version"] for version in versions] == [1, 2]
        assert versions[1]["previousSha256"] == versions[0]["contentSha256"]
        index = json.loads(archive.read("index/documentation-index.json"))
        assert index["totalCount"] == 2
        assert "index/documentation-index.csv" in names
        events = [
            json.loads(line) for line in archive.read("audit/audit-events.jsonl").splitlines()
        ]
        assert any(event["action"] == "document.update" for event in events)
        assert {event["objectId"] for event in events} <= {str(d.pk) for d in documents[:2]}
        assert not any(str(documents[2].pk) in name for name in names)

    call_command("verify_package", str(zip_path))


@pytest.mark.parametrize(
    ("replacement", "problem"),
    [(b"Rejected.", r"\.md: SHA-256 differs"), (b"Never reviewed.", r"\.md: size")],
)
def test_verify_package_names_a_tampered_file(dpo, documents, tmp_path, replacement, problem):
    original = download(dpo, request_package(dpo), tmp_path / "package.zip")
    tampered = tmp_path / "tampered.zip"
    with zipfile.ZipFile(original) as source, zipfile.ZipFile(tampered, "w") as target:
        for info in source.infolist():
            content = source.read(info.filename)
            if info.filename.endswith(".md"):
                content = content.replace(b"Reviewed.", replacement)
            target.writestr(info, content)
    with pytest.raises(CommandError, match=problem):
        call_command("verify_package", str(tampered))


def test_verify_package_refuses_a_file_the_manifest_does_not_list(dpo, documents, tmp_path):
    extended = tmp_path / "extended.zip"
    shutil.copy(download(dpo, request_package(dpo), tmp_path / "package.zip"), extended)
    with zipfile.ZipFile(extended, "a") as archive:
        archive.writestr("documents/extra.md", "# Smuggled in\n")
    with pytest.raises(CommandError, match=r"documents/extra\.md: not listed"):
        call_command("verify_package", str(extended))


def test_filters_narrow_the_package_to_types_and_dates(dpo, documents, tmp_path):
    package_id = request_package(dpo, documentTypes=["RECORD_OF_PROCESSING"])
    with zipfile.ZipFile(download(dpo, package_id, tmp_path / "p.zip")) as archive:
        assert json.loads(archive.read("manifest.json"))["documentCount"] == 1
        assert not any(name.startswith("documents/dpia-") for name in archive.namelist())
    package_id = request_package(dpo, createdTo="2000-01-01")
    assert dpo.client.get(f"{PACKAGES_URL}/{package_id}").json()["documentCount"] == 0


def test_invalid_filters_are_validation_errors(dpo):
    response = dpo.client.post(
        PACKAGES_URL, {"createdFrom": "2026-02-01", "createdTo": "2026-01-01"}, format="json"
    )
    assert response.status_code == 400
    response = dpo.client.post(PACKAGES_URL, {"documentTypes": ["POEM"]}, format="json")
    assert response.status_code == 400


def test_the_download_is_audit_logged(dpo, auditor, documents, tmp_path):
    package_id = request_package(dpo)
    download(auditor, package_id, tmp_path / "package.zip")
    event = AuditEvent.objects.get(action="package.download", object_id=package_id)
    assert event.actor_user_id == auditor.membership.user.pk
    assert AuditEvent.objects.filter(action="package.create", object_id=package_id).exists()


def test_a_package_still_processing_cannot_be_downloaded(dpo):
    response = dpo.client.post(PACKAGES_URL, {}, format="json")
    download_response = dpo.client.get(f"{PACKAGES_URL}/{response.json()['id']}/download")
    assert download_response.status_code == 409
    assert dpo.client.get(PACKAGES_URL).json()["packages"][0]["downloadUrl"] is None


def test_a_failing_build_marks_the_package_failed_with_the_reason(dpo, documents, monkeypatch):
    from legal_documents.packages import services

    def broken(package, documents):  # type: ignore[no-untyped-def]
        raise RuntimeError("disk full")

    monkeypatch.setattr(services, "package_files", broken)
    package_id = request_package(dpo)
    body = dpo.client.get(f"{PACKAGES_URL}/{package_id}").json()
    assert body["status"] == "failed"
    assert "RuntimeError" in body["error"]


def test_an_auditor_cannot_request_a_package(auditor):
    assert auditor.client.post(PACKAGES_URL, {}, format="json").status_code == 403


def test_packages_of_another_organization_are_not_found(dpo, outsider, documents):
    package_id = request_package(dpo)
    for suffix in ("", "/download"):
        assert outsider.client.get(f"{PACKAGES_URL}/{package_id}{suffix}").status_code == 404
    assert outsider.client.get(PACKAGES_URL).json()["totalCount"] == 0
    assert DocumentationPackage.objects.get(pk=package_id).file_name.startswith(
        f"{dpo.organization.container_name}/packages/"
    )


def broker_down(*args, **kwargs):  # type: ignore[no-untyped-def]
    raise KombuOperationalError("Error 111 connecting to localhost:6379. Connection refused.")


def requested_minutes_ago(package_id: str, minutes: int) -> None:
    DocumentationPackage.objects.filter(pk=package_id).update(
        created_at=timezone.now() - timedelta(minutes=minutes),
        due_at=timezone.now() - timedelta(minutes=minutes),
    )


def sweep_packages() -> dict[str, int]:
    """The one sweeper of background work, on the package builds."""
    return sweeper.sweep(PACKAGE_BUILD)


def test_a_package_whose_build_was_never_enqueued_is_built_after_the_sweep(
    dpo, documents, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(build_documentation_package_task, "apply_async", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        response = dpo.client.post(PACKAGES_URL, {}, format="json")
    assert response.status_code == 202
    package_id = response.json()["id"]
    requested_minutes_ago(package_id, 6)
    enqueued: list[str] = []
    monkeypatch.setattr(
        build_documentation_package_task, "apply_async", lambda args, **_: enqueued.extend(args)
    )

    assert sweep_packages() == {"requeued": 0, "failed": 0, "resent": 1}
    assert enqueued == [package_id]
    build_documentation_package_task(package_id)

    assert dpo.client.get(f"{PACKAGES_URL}/{package_id}").json()["status"] == "completed"
    assert sweep_packages() == {"requeued": 0, "failed": 0, "resent": 0}  # built: not again
    assert enqueued == [package_id]


def test_the_sweep_does_not_enqueue_a_package_whose_build_is_under_way(dpo, documents, monkeypatch):
    from legal_documents.packages import services

    response = dpo.client.post(PACKAGES_URL, {}, format="json")  # queued, never run here
    package_id = response.json()["id"]
    requested_minutes_ago(package_id, 6)
    enqueued: list[str] = []
    monkeypatch.setattr(
        build_documentation_package_task, "apply_async", lambda args, **_: enqueued.extend(args)
    )
    write_zip = services.write_zip
    sweeps: list[dict[str, int]] = []

    def sweep_while_writing(files, buffer):  # type: ignore[no-untyped-def]
        sweeps.append(sweep_packages())
        write_zip(files, buffer)

    monkeypatch.setattr(services, "write_zip", sweep_while_writing)
    build_documentation_package_task(package_id)

    assert sweeps == [{"requeued": 0, "failed": 0, "resent": 0}]
    assert enqueued == []
    assert DocumentationPackage.objects.get(pk=package_id).status == "completed"


def test_a_package_processing_for_too_long_is_failed_with_a_reason(dpo):
    package_id = dpo.client.post(PACKAGES_URL, {}, format="json").json()["id"]
    requested_minutes_ago(package_id, 45)

    assert sweep_packages()["failed"] == 1

    body = dpo.client.get(f"{PACKAGES_URL}/{package_id}").json()
    assert body["status"] == "failed"
    assert body["error"] == "The package could not be built in time; request a new one."


def test_an_organization_builds_at_most_its_limit_of_packages_at_once(dpo, outsider, settings):
    # Builds share the workers of every organization: one organization cannot queue them all.
    settings.MAX_CONCURRENT_PACKAGE_BUILDS = 2
    first = [dpo.client.post(PACKAGES_URL, {}, format="json") for _ in range(2)]
    assert [response.status_code for response in first] == [202, 202]

    refused = dpo.client.post(PACKAGES_URL, {}, format="json")

    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "PACKAGE_LIMIT"
    assert refused.json()["error"]["details"] == {"running": 2, "limit": 2}
    assert refused["Retry-After"]
    assert DocumentationPackage.objects.filter(organization=dpo.organization).count() == 2
    assert outsider.client.post(PACKAGES_URL, {}, format="json").status_code == 202
    build_documentation_package_task(first[0].json()["id"])  # one finishes: a slot is free
    assert dpo.client.post(PACKAGES_URL, {}, format="json").status_code == 202


def test_package_builds_go_to_their_own_queue():
    from config.celery import app

    def queue_of(task_name: str) -> str:
        return app.amqp.router.route({}, task_name)["queue"].name

    assert queue_of(build_documentation_package_task.name) == "packages"
    assert queue_of("legal_documents.tasks.generate_document_task") == "generation"


def test_a_dpos_package_carries_only_the_packaged_documents_audit_events(dpo, documents, tmp_path):
    """Not the organization's trail: no key issued, no refused login (e-mails, addresses)."""
    record_event(
        organization=dpo.organization,
        actor=Actor(label="key:abc", ip="203.0.113.9"),
        action="auth.api_key",
        outcome="denied",
    )
    assert AuditEvent.objects.filter(organization=dpo.organization, object_type="api_key")
    zip_path = download(dpo, request_package(dpo), tmp_path / "package.zip")
    with zipfile.ZipFile(zip_path) as archive:
        lines = archive.read("audit/audit-events.jsonl").splitlines()
    events = [json.loads(line) for line in lines]
    assert events
    packaged = {str(document.pk) for document in documents[:2]}
    assert {(event["objectType"], event["objectId"]) for event in events} <= {
        ("document", document_id) for document_id in packaged
    }
    assert "203.0.113.9" not in b"\n".join(lines).decode()

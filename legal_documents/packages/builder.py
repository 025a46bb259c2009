"""The files of an inspection package and the ZIP that holds them.

Layout:
    manifest.json                                   SHA-256 and size of every other file
    index/documentation-index.json, .csv            the documentation index of the package
    audit/audit-events.jsonl                        audit events of the packaged documents
    documents/<type>-<id>/<type>-v<n>.pdf, .md      the current version, printable and source
    documents/<type>-<id>/versions.json             every version's hashes (the chain)
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterable, Mapping
from typing import IO, Any

from audit.models import AuditEvent
from legal_documents.exports import export_document
from legal_documents.models import DocumentationPackage, LegalDocument
from legal_documents.packages.index import index_csv, index_rows, iso
from legal_documents.packages.manifest import MANIFEST_NAME, build_manifest
from legal_documents.services.exporting import export_meta


def _json(value: Any) -> bytes:
    return json.dumps(value, indent=2, ensure_ascii=False).encode("utf-8")


def version_hashes(document: LegalDocument) -> list[dict[str, Any]]:
    """Every version's hashes, author and reason: enough to re-check the chain offline."""
    return [
        {
            "version": version.number,
            "createdAt": iso(version.created_at),
            "stage": version.stage,
            "author": version.author.email if version.author else None,
            "changeReason": version.change_reason,
            "contentSha256": version.content_sha256,
            "previousSha256": version.previous_sha256,
            "chainSha256": version.chain_sha256,
        }
        for version in document.versions.select_related("author").order_by("number")
    ]


def document_files(document: LegalDocument) -> dict[str, bytes]:
    """The PDF, the Markdown and versions.json of one document, under its own folder."""
    meta = export_meta(document)
    folder = f"documents/{document.document_type.lower()}-{document.pk}"
    files: dict[str, bytes] = {}
    for fmt in ("pdf", "md"):
        exported = export_document(document.content_markdown, meta, fmt)
        files[f"{folder}/{exported.filename}"] = exported.content
    files[f"{folder}/versions.json"] = _json(
        {"documentId": str(document.pk), "versions": version_hashes(document)}
    )
    return files


def audit_event_lines(document_ids: Iterable[str], organization_id: Any) -> bytes:
    """The organization's audit events about these documents, oldest first, one JSON a line."""
    events = AuditEvent.objects.filter(
        organization_id=organization_id, object_id__in=list(document_ids)
    ).order_by("id")
    lines = [
        json.dumps(
            {
                "id": event.id,
                "at": iso(event.at),
                "actor": event.actor,
                "action": event.action,
                "objectType": event.object_type,
                "objectId": event.object_id,
                "outcome": event.outcome,
                "ip": event.ip,
                "details": event.details,
                "hash": event.hash,
                "previousHash": event.previous_hash,
            },
            ensure_ascii=False,
        )
        for event in events.iterator(chunk_size=2000)
    ]
    return ("\n".join(lines) + "\n" if lines else "").encode("utf-8")


def package_files(
    package: DocumentationPackage, documents: list[LegalDocument]
) -> dict[str, bytes]:
    """Every file of the package, `manifest.json` last (it covers all the others)."""
    files: dict[str, bytes] = {}
    for document in documents:
        files.update(document_files(document))
    rows = index_rows(documents)
    files["index/documentation-index.json"] = _json({"documents": rows, "totalCount": len(rows)})
    files["index/documentation-index.csv"] = index_csv(rows).encode("utf-8")
    files["audit/audit-events.jsonl"] = audit_event_lines(
        (str(document.pk) for document in documents), package.organization_id
    )
    files[MANIFEST_NAME] = build_manifest(
        files,
        about={
            "packageId": str(package.pk),
            "organization": {
                "id": str(package.organization_id),
                "name": package.organization.name,
            },
            "createdAt": iso(package.created_at),
            "filters": package.filters,
            "documentCount": len(documents),
        },
    )
    return files


def write_zip(files: Mapping[str, bytes], target: IO[bytes]) -> None:
    """Write `files` into `target` as a deflated ZIP, in the given order."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, content in files.items():
            archive.writestr(path, content)

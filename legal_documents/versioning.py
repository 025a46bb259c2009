"""Content versions of a document, chained by SHA-256, and the check of that chain.

Each version stores the SHA-256 of its Markdown (`content_sha256`), the content hash of the
version before it (`previous_sha256`, 64 zeros for the first), and `chain_sha256` over both
plus its number, stage, author, reason and time — so that editing a version's text or its
metadata, or removing a version, is detected by `verify_document_chain`.

Those hashes can be recomputed by anyone who can write to the database, so each version
also carries an HMAC of its chain hash with the evidence key, which the database never
sees (common/evidence.py): a chain rewritten consistently fails at the first version whose
signature no longer matches.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from common.canonical import canonical_sha256
from common.evidence import DOCUMENT_VERSION, Signature, sign, signature_problem
from legal_documents.models import DocumentVersion, LegalDocument

GENESIS_SHA256 = "0" * 64


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def chain_hash(
    *,
    number: int,
    content_sha256: str,
    previous_sha256: str,
    previous_chain_sha256: str,
    stage: str,
    author_id: int | None,
    change_reason: str,
    created_at: datetime,
) -> str:
    payload = {
        "number": number,
        "contentSha256": content_sha256,
        "previousSha256": previous_sha256,
        "previousChainSha256": previous_chain_sha256,
        "stage": stage,
        "authorId": author_id,
        "changeReason": change_reason,
        "createdAt": created_at.isoformat(),
    }
    return canonical_sha256(payload, compact=False, ascii_only=True)


def _signed_payload(*, document_id: Any, number: int, chain_sha256: str) -> dict[str, Any]:
    return {"documentId": str(document_id), "number": number, "chainSha256": chain_sha256}


def version_signature(*, document_id: Any, number: int, chain_sha256: str) -> Signature:
    """The signature of one version: its chain hash, bound to its document and number."""
    return sign(
        purpose=DOCUMENT_VERSION,
        payload=_signed_payload(document_id=document_id, number=number, chain_sha256=chain_sha256),
    )


def version_signature_problem(version: DocumentVersion) -> str | None:
    return signature_problem(
        purpose=DOCUMENT_VERSION,
        payload=_signed_payload(
            document_id=version.document_id,
            number=version.number,
            chain_sha256=version.chain_sha256,
        ),
        signature=Signature(key_id=version.signature_key_id, value=version.signature),
    )


def record_version(
    *, document: LegalDocument, author_id: int | None, reason: str
) -> DocumentVersion:
    """Append the document's current content as version `document.version`.

    Call inside the transaction that saved the document (the caller holds its row lock).
    """
    previous = document.versions.order_by("-number").first()
    created_at = timezone.now()
    content_sha256 = sha256_text(document.content_markdown)
    previous_sha256 = previous.content_sha256 if previous else GENESIS_SHA256
    chain_sha256 = chain_hash(
        number=document.version,
        content_sha256=content_sha256,
        previous_sha256=previous_sha256,
        previous_chain_sha256=previous.chain_sha256 if previous else GENESIS_SHA256,
        stage=document.stage,
        author_id=author_id,
        change_reason=reason,
        created_at=created_at,
    )
    signature = version_signature(
        document_id=document.pk, number=document.version, chain_sha256=chain_sha256
    )
    return DocumentVersion.objects.create(
        document=document,
        number=document.version,
        content_markdown=document.content_markdown,
        content_sha256=content_sha256,
        previous_sha256=previous_sha256,
        chain_sha256=chain_sha256,
        signature=signature.value,
        signature_key_id=signature.key_id,
        stage=document.stage,
        author_id=author_id,
        change_reason=reason,
        created_at=created_at,
    )


@dataclass(frozen=True)
class ChainCheck:
    valid: bool
    versions: int
    broken_at: int | None
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"valid": self.valid, "versions": self.versions, "brokenAt": self.broken_at}


def verify_document_chain(document: LegalDocument) -> ChainCheck:
    """Walk the versions in order; the first version whose hashes or signature do not hold
    breaks the chain.

    Also compares the version history kept by django-simple-history: the historical row of
    each version must carry the same content.
    """
    versions = list(document.versions.order_by("number"))
    history = _historical_content_by_version(document)
    previous_content = previous_chain = GENESIS_SHA256
    for expected_number, version in enumerate(versions, start=1):
        problems = []
        if version.number != expected_number:
            problems.append("a version is missing")
        if sha256_text(version.content_markdown) != version.content_sha256:
            problems.append("content does not match its hash")
        if version.previous_sha256 != previous_content:
            problems.append("previous hash does not match the version before")
        recomputed = chain_hash(
            number=version.number,
            content_sha256=version.content_sha256,
            previous_sha256=version.previous_sha256,
            previous_chain_sha256=previous_chain,
            stage=version.stage,
            author_id=version.author_id,
            change_reason=version.change_reason,
            created_at=version.created_at,
        )
        if recomputed != version.chain_sha256:
            problems.append("version metadata does not match its hash")
        signature_problem_of_version = version_signature_problem(version)
        if signature_problem_of_version is not None:
            problems.append(f"signature: {signature_problem_of_version}")
        historical = history.get(version.number)
        if historical is not None and sha256_text(historical) != version.content_sha256:
            problems.append("the history row of this version was changed")
        if problems:
            return ChainCheck(False, len(versions), version.number, "; ".join(problems))
        previous_content, previous_chain = version.content_sha256, version.chain_sha256
    if versions and versions[-1].content_sha256 != sha256_text(document.content_markdown):
        return ChainCheck(False, len(versions), versions[-1].number, "current content differs")
    return ChainCheck(True, len(versions), None)


def _historical_content_by_version(document: LegalDocument) -> dict[int, str]:
    """The content of the last historical row of each version number."""
    rows = (
        document.history.filter(version__gt=0)
        .order_by("version", "history_id")
        .values_list("version", "content_markdown")
    )
    return dict(rows)

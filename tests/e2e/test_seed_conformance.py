"""A client written from the published specification (docs/SEED.md) alone, end to end.

The service runs as it does under `make run`: uvicorn serving HTTP and WebSocket, a Celery
worker, PostgreSQL and Redis, all real processes on loopback. The client speaks plain HTTP
(httpx) and a real WebSocket (websockets), knows nothing of the project's code, and sends
only what the specification's tables name. Each assertion says which table of SEED.md it
comes from; where the specification leaves a thing open ("not shown"), the client follows
docs/API.md and says so.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.conf import settings
from websockets.sync.client import connect

from tests.conftest import Caller, make_caller
from tests.support.corpus import corpus_file
from tests.support.live_stack import (
    RedisServer,
    WebServer,
    Worker,
    database_url_for,
    stack_environment,
    wait_until,
)

pytestmark = pytest.mark.django_db(transaction=True)

DOCUMENT_TYPES = [
    "DPIA",
    "RECORD_OF_PROCESSING",
    "PRIVACY_POLICY",
    "DATA_PROCESSING_AGREEMENT",
    "BREACH_NOTIFICATION",
    "DATA_SUBJECT_REQUEST_FORM",
]
# "Create request body": companyDetails is an object, "inner fields vary".
COMPANY = {
    "companyName": "Nordlicht Logistik GmbH",
    "companyDetails": {
        "address": "Speicherstadt 7, 20457 Hamburg, Germany",
        "email": "privacy@nordlicht.example",
        "registrationNumber": "HRB 123456",
        "dpo": {"name": "Ingrid Sommer", "email": "dpo@nordlicht.example"},
        "fleetSize": 140,
    },
}
# "Asset supported formats": one real file per format, with a phrase it contains.
UPLOADS = {
    "PDF": ("pdf/google-doc-document.pdf", "application/pdf"),
    "DOCX": (
        "docx/handbook-1p.docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ),
    "XLSX": (
        "xlsx/stanley-cups.xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ),
    "PPTX": (
        "pptx/simple.pptx",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ),
    "CSV": ("csv/stanley-cups.csv", "text/csv"),
    "TXT": ("txt/fake-text.txt", "text/plain"),
    "MD": ("md/simple-table.md", "text/markdown"),
    "HTML": ("html/ideas-page.html", "text/html"),
}
CONVERTED_FORMATS = {"XLSX", "HTML"}  # "Asset supported formats": automatic conversion
ISO_UTC = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|\+00:00)$")


def is_iso_utc(value: object) -> bool:
    return isinstance(value, str) and bool(ISO_UTC.match(value))


@dataclass
class Service:
    """The running service as a client sees it: a base address and an API key."""

    http: httpx.Client
    websocket_base: str
    key: str


@pytest.fixture
def service(transactional_db, tmp_path: Path) -> Iterator[Service]:  # type: ignore[no-untyped-def]
    """Web server and worker as `make run` starts them, on a Redis of the test's own."""
    redis = RedisServer(tmp_path / "redis").start()
    environment = stack_environment(
        database_url=database_url_for(settings.DATABASES["default"]),
        redis_url=redis.url,
        # The seed's 10 writes per minute would make this walk-through last minutes.
        RATE_LIMIT_WRITES="1000/min",
    )
    web = WebServer(env=environment, log_path=tmp_path / "web.log")
    worker = Worker(env=environment, log_path=tmp_path / "worker.log")
    caller: Caller = make_caller()
    try:
        web.start()
        worker.start()
        with httpx.Client(
            base_url=web.base_url,
            headers={"Authorization": f"Bearer {caller.key}"},
            timeout=30,
        ) as http:
            yield Service(
                http=http,
                websocket_base=web.base_url.replace("http://", "ws://"),
                key=caller.key,
            )
    finally:
        worker.stop()
        web.stop()
        redis.stop()


def poll_document(service: Service, document_id: str, *, timeout: float = 90) -> dict[str, Any]:
    """SEED "Rules" 1: the client polls the get endpoint until the document leaves processing."""

    def settled() -> dict[str, Any] | None:
        response = service.http.get(f"/api/v1/legal-documents/{document_id}")
        assert response.status_code == 200, response.text
        body = response.json()
        return None if body["status"] == "processing" else body

    return wait_until(settled, timeout=timeout, interval=0.25)  # type: ignore[return-value]


def poll_asset(service: Service, asset_id: str, *, timeout: float = 90) -> dict[str, Any]:
    """SEED "Asset status values": a client polling an asset treats COMPLETED as the end."""

    def settled() -> dict[str, Any] | None:
        response = service.http.get(f"/assets/{asset_id}")
        assert response.status_code == 200, response.text
        body = response.json()
        return body if body["status"] not in {"UPLOADED", "PROCESSING"} else None

    return wait_until(settled, timeout=timeout, interval=0.25)  # type: ignore[return-value]


def string_answer(question: dict[str, Any]) -> str:
    """An answer a person would type, as the string SEED's answer body holds."""
    kind = question["answerType"]
    if kind == "boolean":
        return "yes"
    if kind in {"choice", "multiChoice"}:
        return question["options"][0]
    if kind == "date":
        return "2026-12-01"
    return "Cameras cover the loading docks only."


def create(service: Service, document_type: str) -> dict[str, Any]:
    response = service.http.post(
        "/api/v1/legal-documents", json={"documentType": document_type, **COMPANY}
    )
    assert response.status_code == 201, response.text
    return response.json()


def assert_get_response(body: dict[str, Any], document_type: str) -> None:
    """SEED "Legal document (get response)"."""
    assert body["documentType"] == document_type
    assert body["status"] == "completed", body
    assert is_iso_utc(body["createdAt"]) and is_iso_utc(body["completedAt"])
    content = body["content"]
    assert isinstance(content, dict)
    assert {"html", "text", "markdown"} <= set(content)
    assert all(isinstance(content[part], str) and content[part] for part in content)
    assert "<html" in content["html"].lower()  # "html (string, full HTML page)"


def test_a_seed_client_creates_polls_and_lists_every_document_type(service: Service) -> None:
    created = {}
    for document_type in DOCUMENT_TYPES:
        body = create(service, document_type)
        # SEED "Legal document (create response)": exactly these fields, status processing.
        assert {"id", "documentType", "status", "createdAt", "estimatedCompletionTime"} <= set(body)
        assert isinstance(body["id"], str) and body["id"]
        assert body["documentType"] == document_type
        assert body["status"] == "processing"
        assert is_iso_utc(body["createdAt"]) and is_iso_utc(body["estimatedCompletionTime"])
        assert datetime.fromisoformat(body["estimatedCompletionTime"]) >= datetime.fromisoformat(
            body["createdAt"]
        )
        created[document_type] = body["id"]

    for document_type, document_id in created.items():
        document = poll_document(service, document_id)
        assert_get_response(document, document_type)
        # "Create request body": companyDetails' inner fields reach the document.
        markdown = document["content"]["markdown"]
        assert "Nordlicht Logistik GmbH" in markdown
        assert "Speicherstadt 7" in markdown, document_type

    # SEED "Document list envelope" and the list query parameters.
    listed = service.http.get("/api/v1/legal-documents", params={"limit": 4, "offset": 0})
    assert listed.status_code == 200, listed.text
    envelope = listed.json()
    assert set(envelope) >= {"documents", "totalCount", "hasMore"}
    assert envelope["totalCount"] == len(DOCUMENT_TYPES)
    assert envelope["hasMore"] is True
    assert len(envelope["documents"]) == 4
    for summary in envelope["documents"]:
        # "Legal document summary": id, documentType, status, createdAt, completedAt; no content.
        assert {"id", "documentType", "status", "createdAt", "completedAt"} <= set(summary)
        assert "content" not in summary
    rest = service.http.get("/api/v1/legal-documents", params={"limit": 4, "offset": 4}).json()
    assert rest["hasMore"] is False
    assert {item["id"] for item in envelope["documents"] + rest["documents"]} == set(
        created.values()
    )
    only_dpias = service.http.get(
        "/api/v1/legal-documents", params={"documentType": "DPIA", "status": "completed"}
    ).json()
    assert [item["id"] for item in only_dpias["documents"]] == [created["DPIA"]]
    # "List query parameters": limit "max 100".
    assert service.http.get("/api/v1/legal-documents", params={"limit": 101}).status_code == 400


def test_a_seed_client_runs_the_guided_flow_and_follows_the_iteration(service: Service) -> None:
    document_id = create(service, "DPIA")["id"]
    poll_document(service, document_id)

    # "Questionnaire answer body" {questionId, answer}. The question records' fields are
    # "not shown" in SEED; the client reads the ids from docs/API.md's questionnaire GET.
    questions = service.http.get(f"/api/v1/legal-documents/{document_id}/questionnaire")
    assert questions.status_code == 200, questions.text
    # SEED types `answer` as a string, whatever the question: one answer per question here.
    for question in questions.json()["questions"]:
        response = service.http.post(
            f"/legal-documents/{document_id}/questionnaire/answers",
            json={"questionId": question["id"], "answer": string_answer(question)},
        )
        assert response.status_code in {200, 201}, (question["id"], response.text)
    progress = service.http.get(f"/api/v1/legal-documents/{document_id}/questionnaire").json()
    assert progress["answered"] >= len(questions.json()["questions"])

    # Draft: "no body".
    drafted = service.http.post(f"/legal-documents/{document_id}/draft")
    assert drafted.status_code in {200, 202}, drafted.text
    assert poll_document(service, document_id)["status"] == "completed"

    # "Finalize body": questionsToFinalize, objects of {question, answer}, free text.
    finalized = service.http.post(
        f"/legal-documents/{document_id}/generate",
        json={
            "questionsToFinalize": [
                {
                    "question": "Who signs off the DPIA for the board?",
                    "answer": "Dr. Klara Weiss, Chief Operating Officer",
                },
                {
                    "question": "When is the next review due?",
                    "answer": "Before the second warehouse opens in Bremen",
                },
            ]
        },
    )
    assert finalized.status_code in {200, 202}, finalized.text
    final = poll_document(service, document_id)
    assert_get_response(final, "DPIA")
    section = re.findall(r"^## (.+)$", final["content"]["markdown"], flags=re.MULTILINE)[1]
    for part in ("markdown", "html", "text"):
        assert "Dr. Klara Weiss, Chief Operating Officer" in final["content"][part], part
        assert "Before the second warehouse opens in Bremen" in final["content"][part], part

    # "WebSocket events": iterate, and follow its events on the document's socket. The
    # address and handshake are "not shown" in SEED: docs/API.md gives them.
    frames: list[dict[str, Any]] = []
    socket = connect(
        f"{service.websocket_base}/ws/legal-documents/{document_id}/",
        additional_headers={"Authorization": f"Bearer {service.key}"},
        open_timeout=10,
    )
    listening = threading.Event()

    def listen() -> None:
        listening.set()
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            frame = json.loads(socket.recv(timeout=max(0.1, deadline - time.monotonic())))
            frames.append(frame)
            if frame["event"].endswith(".event.message-response-finished"):
                return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    listening.wait(5)
    with socket:
        # "Iterate body": {message}.
        iterated = service.http.post(
            f"/legal-documents/{document_id}/iterate",
            json={"message": f'add to section "{section}": Dock footage is kept for 48 hours.'},
        )
        assert iterated.status_code in {200, 202}, iterated.text
        listener.join(timeout=100)
    assert frames and frames[-1]["event"].endswith(".event.message-response-finished"), frames

    responses = [f for f in frames if f["event"].endswith(".event.message-response")]
    assert responses, [f["event"] for f in frames]
    for frame in frames:
        # Event names "begin with a segment naming the service".
        service_segment, _, rest = frame["event"].partition(".event.")
        assert service_segment and rest, frame["event"]
        # Every event's threadId is "the document ID".
        assert frame["data"]["threadId"] == document_id, frame
    for frame in responses:
        # "service.event.message-response" payload.
        payload = frame["data"]
        assert isinstance(payload["content"], str)
        assert isinstance(payload["messageId"], str) and payload["messageId"]
        assert isinstance(payload["name"], str) and payload["name"]
        assert payload["type"] in {"ai", "tool"}
        if "toolName" in payload:
            assert isinstance(payload["toolName"], str)
    assert (
        "Dock footage is kept for 48 hours."
        in poll_document(service, document_id)["content"]["markdown"]
    )


def test_a_seed_client_uploads_every_format_and_reads_back_the_asset_fields(
    service: Service,
) -> None:
    for format_name, (relative, media_type) in UPLOADS.items():
        path = corpus_file(relative)
        # "Assets" endpoints: multipart/form-data with one form part `file`.
        response = service.http.post(
            "/assets/upload", files={"file": (path.name, path.read_bytes(), media_type)}
        )
        assert response.status_code in {200, 201}, (format_name, response.text)
        uploaded = response.json()
        # SEED "Asset (upload response)".
        for field in ("id", "originalFileUrl", "originalFileName", "status", "containerName",
                      "organizationId", "dpoUserId"):  # fmt: skip
            assert isinstance(uploaded.get(field), str) and uploaded[field], (format_name, field)
        assert uploaded["originalFileName"] == path.name
        assert uploaded["status"] in {"UPLOADED", "PROCESSING", "COMPLETED"}
        for optional in ("convertedFileUrl", "convertedFileName"):
            assert optional not in uploaded or isinstance(uploaded[optional], str)

        found = poll_asset(service, uploaded["id"])
        # SEED "Asset (find response)": no organizationId, no dpoUserId.
        assert found["status"] == "COMPLETED", (format_name, found)
        for field in ("id", "originalFileUrl", "originalFileName", "status", "containerName"):
            assert isinstance(found.get(field), str) and found[field], (format_name, field)
        assert "organizationId" not in found and "dpoUserId" not in found
        assert found["id"] == uploaded["id"]
        assert found["containerName"] == uploaded["containerName"]
        # "Asset supported formats": XLSX converts to CSV, HTML to plain text; others none.
        if format_name in CONVERTED_FORMATS:
            assert found["convertedFileUrl"] and found["convertedFileName"], format_name
            converted = service.http.get(found["convertedFileUrl"])
            assert converted.status_code == 200 and converted.content, format_name
        else:
            assert "convertedFileUrl" not in found, format_name
        original = service.http.get(found["originalFileUrl"])
        assert original.status_code == 200, format_name
        assert original.content == path.read_bytes()

        # DELETE /assets/:id "deletes the asset and its associated files".
        assert service.http.delete(f"/assets/{found['id']}").status_code in {200, 202, 204}
        assert service.http.get(f"/assets/{found['id']}").status_code == 404


def test_a_seed_client_gets_the_error_envelope_and_codes_of_the_specification(
    service: Service,
) -> None:
    def assert_error(response: httpx.Response, status: int, code: str | None = None) -> None:
        # SEED "Errors": status codes and the body {error: {message, code, details?}}.
        assert response.status_code == status, response.text
        error = response.json()["error"]
        assert isinstance(error["message"], str) and error["message"]
        assert isinstance(error["code"], str) and error["code"]
        if code is not None:
            assert error["code"] == code

    # "Authentication" 1: a request without it is answered with 401.
    assert_error(httpx.get(f"{service.http.base_url}/api/v1/legal-documents"), 401)
    unknown = "/api/v1/legal-documents/00000000-0000-0000-0000-000000000000"
    assert_error(service.http.get(unknown), 404)
    assert_error(
        service.http.post("/api/v1/legal-documents", json={"documentType": "POEM", **COMPANY}),
        400,
    )
    # "Asset error codes": INVALID_FILE_TYPE for a type outside the accepted list.
    assert_error(
        service.http.post(
            "/assets/upload",
            files={"file": ("tool.exe", b"MZ\x90\x00" + bytes(200), "application/octet-stream")},
        ),
        415,
        "INVALID_FILE_TYPE",
    )

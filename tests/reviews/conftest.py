"""Fixtures of the reviews tests: assets uploaded through the API, the review task run here.

No worker runs in these tests: the review's task (`run_review_task`) runs in this process
through Celery (`apply`, its error raised) when it is sent, which the lease does once the
transaction commits (the tests run the commit hooks with django_capture_on_commit_callbacks).
A task sent with a countdown (a review waiting for its asset) is only recorded.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from assets.ingestion import asset_process
from assets.models import Asset
from reviews.models import Review
from reviews.tasks import run_review_task
from tests.reviews.samples import DPA_TEXT

URL = "/api/v1/reviews"
UPLOAD_URL = "/api/v1/assets/upload"


@pytest.fixture(autouse=True)
def _generous_write_limit(settings) -> None:  # type: ignore[no-untyped-def]
    """Uploads and reviews are writes (10 a minute by default); these tests make many."""
    settings.RATE_LIMIT_WRITES = "10000/min"


@dataclass
class ReviewWorker:
    """What was sent to the review queue: run at once (once `running`), else kept pending;
    a task with a countdown is recorded in `delayed`. Never the real broker."""

    running: bool = False
    sent: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    delayed: list[tuple[str, float]] = field(default_factory=list)

    def apply_async(self, args: tuple[str, ...], countdown: float | None = None, **_: Any) -> None:
        (review_id,) = json.loads(json.dumps(args))  # through JSON, as through the broker
        if countdown:
            self.delayed.append((review_id, countdown))
            return
        self.sent.append(review_id)
        if self.running:
            self._run(review_id)
        else:
            self.pending.append(review_id)

    def _run(self, review_id: str) -> None:
        self.ran.append(review_id)
        run_review_task.apply(args=[review_id], throw=True)

    def run_sent(self) -> None:
        """The tasks sent and not run yet arrive at a worker."""
        pending, self.pending = self.pending, []
        for review_id in pending:
            self._run(review_id)

    def run_delayed(self) -> None:
        """The delayed tasks arrive (their countdown passed)."""
        delayed, self.delayed = self.delayed, []
        for review_id, _countdown in delayed:
            self._run(review_id)


@pytest.fixture(autouse=True)
def review_queue(monkeypatch: pytest.MonkeyPatch) -> ReviewWorker:
    """The review queue of every test here: what is sent is recorded, not run."""
    queue = ReviewWorker()
    monkeypatch.setattr(run_review_task, "apply_async", queue.apply_async)
    return queue


@pytest.fixture
def worker(review_queue: ReviewWorker) -> ReviewWorker:
    """A worker on the review queue: a task sent without countdown runs at once, here."""
    review_queue.running = True
    return review_queue


@pytest.fixture
def committed(django_capture_on_commit_callbacks) -> Callable[..., Any]:  # type: ignore[no-untyped-def]
    """Run `action()` and then its commit hooks (and theirs), as a committed request would."""

    def run(action: Callable[[], Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return action()

    return run


def upload(caller, name: str, content: bytes) -> str:  # type: ignore[no-untyped-def]
    """POST one file through the real upload path; its asset id (not processed yet)."""
    file = SimpleUploadedFile(name, content, content_type="application/octet-stream")
    response = caller.client.post(UPLOAD_URL, {"file": file}, format="multipart")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def process(asset_id: str) -> Asset:
    """The asset's processing, as its worker runs it (the ingestion claims its lease)."""
    asset_process(asset_id=asset_id)
    return Asset.objects.get(pk=asset_id)


@pytest.fixture
def dpa_asset(dpo, committed) -> str:  # type: ignore[no-untyped-def]
    """The sample DPA uploaded as Markdown by `dpo` and processed (COMPLETED)."""
    asset_id = upload(dpo, "cloudmail-dpa.md", DPA_TEXT.encode())
    committed(lambda: process(asset_id))
    return asset_id


def start(caller, committed, **body: Any):  # type: ignore[no-untyped-def]
    """POST /api/v1/reviews and run the commit hooks (the task is sent then)."""
    return committed(lambda: caller.client.post(URL, body, format="json"))


def review_of(response) -> Review:  # type: ignore[no-untyped-def]
    assert response.status_code == 202, response.content
    return Review.objects.get(pk=response.json()["id"])

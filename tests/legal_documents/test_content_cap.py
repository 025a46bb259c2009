"""The content cap holds on every path that writes a document's content, and the XLSX
record export reads sections in one pass (issue 25, item 5).

A whole-register record refreshed after a large register import used to grow past the
100,000-character cap (`refresh` wrote through `set_content` unchecked); the XLSX export
then spent time quadratic in the number of activities (`_section_of` scanned every section
for every item block) and the synchronous PDF export minutes of web CPU on a GET.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import UTC, datetime
from types import FrameType
from typing import Any

import pytest

from common.domain import ContentTooLong
from legal_documents.exports import ExportMeta, xlsx
from legal_documents.models import LegalDocument, Status
from legal_documents.services import jobs
from register.models import ProcessingActivity
from register.services import record_change
from tests.legal_documents.test_register_documents import ACTOR, URL, create, seed_register


@pytest.mark.django_db
@pytest.mark.usefixtures("staleness_task_here")
def test_it_refuses_a_refresh_over_the_content_cap_and_leaves_the_document_as_it_was(
    dpo, settings, django_capture_on_commit_callbacks
):
    seed_register(dpo.organization)
    whole = create(dpo, "RECORD_OF_PROCESSING")
    before = LegalDocument.objects.get(pk=whole.pk)
    # Room for the record as written, not for 30 more activities.
    settings.DOCUMENT_MAX_CONTENT_CHARS = len(before.content_markdown) + 2_000
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(30):
            added = ProcessingActivity.objects.create(
                organization=dpo.organization, name=f"Imported activity {number}",
                description="Imported from the department's spreadsheet. " * 10,
                purposes=[f"Purpose {number} of the imported activity"],
            )  # fmt: skip
            record_change(entry=added, actor=ACTOR, action="created")
    stale_since = LegalDocument.objects.get(pk=whole.pk).stale_since
    assert stale_since is not None

    response = dpo.client.post(f"{URL}/{whole.pk}/refresh")

    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "CONTENT_TOO_LONG"
    assert str(settings.DOCUMENT_MAX_CONTENT_CHARS) in str(error["details"])
    after = LegalDocument.objects.get(pk=whole.pk)
    # Nothing half-written: same version, same content, still completed and still stale.
    assert after.version == before.version
    assert after.content_markdown == before.content_markdown
    assert after.status == Status.COMPLETED
    assert after.stale_since == stale_since
    assert after.register_sources == before.register_sources
    assert after.versions.count() == 1


@pytest.mark.django_db
def test_it_bounds_the_content_in_set_content_itself(dpo, settings):
    seed_register(dpo.organization)
    document = create(dpo, "RECORD_OF_PROCESSING")
    settings.DOCUMENT_MAX_CONTENT_CHARS = 5_000
    version = document.version
    with pytest.raises(ContentTooLong):
        jobs.set_content(document, "# Record\n\n" + "x" * 5_000)
    assert document.version == version
    jobs.set_content(document, "# Record\n\n" + "x" * 4_000)
    assert document.version == version + 1


@pytest.mark.django_db
def test_it_refuses_a_manual_edit_over_a_lowered_cap(dpo, settings):
    seed_register(dpo.organization)
    document = create(dpo, "RECORD_OF_PROCESSING")
    settings.DOCUMENT_MAX_CONTENT_CHARS = 5_000
    response = dpo.client.patch(
        f"{URL}/{document.pk}",
        {"markdown": "# Record\n\n" + "x" * 5_000, "changeReason": "Too long"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "CONTENT_TOO_LONG"
    assert LegalDocument.objects.get(pk=document.pk).version == document.version


def _register_markdown(activities: int) -> str:
    """A whole-register record's shape: a level-2 section per activity with its items."""
    parts = ["# Record of processing activities", "", "## 1. Controller", "",
             "### Controller {#a-controller}", "", "Acme GmbH", ""]  # fmt: skip
    for number in range(activities):
        parts += [f"## {number + 2}. Processing activity: Activity {number}", ""]
        for item in ("b-purposes", "purpose-basis", "c-categories", "d-recipients",
                     "e-transfers", "f-erasure", "g-security"):  # fmt: skip
            parts += [f"### {item} {{#{item}}}", "", f"Text of {item} for activity {number}.", ""]
    return "\n".join(parts)


def _lines_run(call: Callable[[], object], *module_files: str) -> int:
    """Lines of `module_files` executed by `call()`: an operation count, the same on every
    machine (no clock)."""
    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if frame.f_code.co_filename not in module_files:
            return None
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(None)
    return count


def _lines_run_in_the_export(markdown: str) -> int:
    """Lines of legal_documents/exports/xlsx.py executed to read the rows."""
    return _lines_run(lambda: xlsx.activity_rows(markdown, "Record"), xlsx.__file__)


def test_it_reads_the_record_sections_in_work_linear_in_the_activities():
    small = _lines_run_in_the_export(_register_markdown(50))
    large = _lines_run_in_the_export(_register_markdown(200))
    # Four times the activities: about four times the work (quadratic would be sixteen).
    assert large <= 5 * small, (small, large)


def test_it_still_finds_every_activity_of_a_large_record():
    rows, _processors = xlsx.activity_rows(_register_markdown(300), "Record")
    assert [row[0] for row in rows] == [f"Activity {number}" for number in range(300)]
    assert all(row[1] == "Acme GmbH" for row in rows)
    assert rows[7][2] == "Text of b-purposes for activity 7."


def test_it_writes_the_record_workbook_in_work_linear_in_the_activities():
    from openpyxl.worksheet import worksheet

    meta = ExportMeta(
        organization_name="Acme", document_title="Record", document_type="RECORD_OF_PROCESSING",
        version=1, stage="final", created_at=datetime(2025, 1, 6, tzinfo=UTC),
        updated_at=datetime(2025, 1, 6, tzinfo=UTC), content_sha256="3f" * 32,
        ruleset_version="2025.1",
    )  # fmt: skip

    def lines(activities: int) -> int:
        markdown = _register_markdown(activities)
        return _lines_run(
            lambda: xlsx.render_xlsx(markdown, meta), xlsx.__file__, worksheet.__file__
        )

    small, large = lines(50), lines(200)
    # The sheet's size was recomputed over every cell for each row written (max_row).
    assert large <= 5 * small, (small, large)

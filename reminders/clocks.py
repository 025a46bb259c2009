"""The organization's legal clocks, each with the reminders it owes, as seen at `now`.

Nothing here is computed anew: the open breaches, their awareness and the DPIAs' review
dates are the register report's (`compliance.report_cache.cached_report_basis`: a breach is
open while its notification is neither final nor `notifiedAt`), a request's Art. 12(3) due
date is its assessment's (`legal_document_assessment`: `responseDue`, or
`extendedResponseDue` when the extension is invoked, with the controller's holidays), stale
documents are `legal_documents.selectors.stale_documents`, and the vendor DPAs pending are
the report's own findings (no DPA signed yet, a review that found gaps).

A clock is a `Clock`: its subject, its deadline and its `Step`s, each one reminder with the
moment it falls due. At any `now` at most one step is current (the latest that fell due,
while the clock has not ended): a run that missed a step (beat down, a breach entered late)
sends the latest one only, never a burst of stale ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from compliance.report_cache import cached_report_basis
from legal_documents.models import LegalDocument
from legal_documents.selectors import legal_document_assessment, stale_documents
from legal_documents.services.closing import CLOSING_INPUTS
from reminders.models import ReminderKind

BREACH_HOURS = (24, 48, 66)
BREACH_DEADLINE_HOURS = 72
# A breach's last reminder is still sent this long after its 72 hours (a run that was down).
BREACH_GRACE = timedelta(hours=24)
REQUEST_DAYS_BEFORE = 7
# An overdue request is reminded once, if found within this many days after its due date.
REQUEST_OVERDUE_DAYS = 30
DPIA_REVIEW_DAYS_AHEAD = 30
REQUEST_TYPE = "DATA_SUBJECT_REQUEST_FORM"
# Vendor findings of the register report the weekly digest lists.
VENDOR_CHECKS = ("processors_without_dpa", "vendor_dpa_missing_items")


@dataclass(frozen=True, slots=True)
class Step:
    """One reminder of a clock: its name (part of the once-only key) and when it falls due."""

    occurrence: str
    due_at: datetime


@dataclass(frozen=True, slots=True)
class Clock:
    kind: str
    subject_id: str
    steps: tuple[Step, ...]
    # No reminder of the clock is sent at or after this moment.
    ends_at: datetime
    deadline: datetime | None = None  # a breach's 72 hours
    due_date: date | None = None  # a request's or a review's day
    facts: dict[str, Any] = field(default_factory=dict)

    def current(self, now: datetime) -> Step | None:
        """The step to send at `now`: the latest that fell due, while the clock runs."""
        if now >= self.ends_at:
            return None
        passed = [step for step in self.steps if step.due_at <= now]
        return passed[-1] if passed else None

    def upcoming(self, now: datetime) -> Step | None:
        """The next step after `now`, if the clock still owes one."""
        return next((step for step in self.steps if now < step.due_at < self.ends_at), None)


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def breach_clocks(*, basis: Any) -> Iterator[Clock]:
    for breach in basis.breaches:
        aware = breach.aware_at.astimezone(UTC)
        deadline = aware + timedelta(hours=BREACH_DEADLINE_HOURS)
        yield Clock(
            kind=ReminderKind.BREACH,
            subject_id=breach.document.id,
            steps=tuple(
                Step(f"{hours}h", aware + timedelta(hours=hours)) for hours in BREACH_HOURS
            ),
            ends_at=deadline + BREACH_GRACE,
            deadline=deadline,
            facts={"aware_at": aware},
        )


def _open_requests(organization_id: Any) -> Iterator[LegalDocument]:
    # The answered ones (their closing input set) are closed: no clock.
    yield from (
        LegalDocument.objects.filter(
            organization_id=organization_id,
            document_type=REQUEST_TYPE,
            inputs__has_key="receivedAt",
        )
        .exclude(inputs__has_key=CLOSING_INPUTS[REQUEST_TYPE])
        .only("id", "organization_id", "document_type", "inputs", "answers", "finalize_answers")
        .order_by("created_at", "pk")
    )


def request_clocks(*, organization_id: Any, now: datetime) -> Iterator[Clock]:
    for document in _open_requests(organization_id):
        assessment = legal_document_assessment(document=document, now=now) or {}
        deadlines = assessment.get("deadlines") or {}
        extended = bool((assessment.get("decisions") or {}).get("extensionInvoked"))
        due_text = deadlines.get("extendedResponseDue" if extended else "responseDue")
        if not due_text:
            continue
        due = date.fromisoformat(due_text)
        yield Clock(
            kind=ReminderKind.REQUEST,
            subject_id=str(document.pk),
            steps=(
                Step(f"7-days-before:{due}", _midnight(due - timedelta(days=REQUEST_DAYS_BEFORE))),
                Step(f"due-date:{due}", _midnight(due)),
                Step(f"overdue:{due}", _midnight(due + timedelta(days=1))),
            ),
            ends_at=_midnight(due + timedelta(days=1 + REQUEST_OVERDUE_DAYS)),
            due_date=due,
            facts={
                "received": date.fromisoformat(deadlines["requestReceived"]),
                "extended": extended,
            },
        )


def dpia_review_clocks(*, basis: Any) -> Iterator[Clock]:
    for review in basis.reviews:
        for day in sorted(set(review.dates)):
            yield Clock(
                kind=ReminderKind.DPIA_REVIEW,
                subject_id=review.document.id,
                steps=(
                    Step(
                        f"30-days-before:{day}",
                        _midnight(day - timedelta(days=DPIA_REVIEW_DAYS_AHEAD)),
                    ),
                ),
                ends_at=_midnight(day + timedelta(days=1)),
                due_date=day,
                facts={"activities": [activity.name for activity in review.activities]},
            )


def _week(now: datetime) -> tuple[str, datetime, datetime]:
    monday = now.date() - timedelta(days=now.weekday())
    year, week, _weekday = monday.isocalendar()
    return f"{year}-W{week:02d}", _midnight(monday), _midnight(monday + timedelta(days=7))


def digest_clocks(*, organization_id: Any, basis: Any, now: datetime) -> Iterator[Clock]:
    """The weekly digests: one step a week, while there is something to list."""
    occurrence, monday, next_monday = _week(now)
    stale = [
        {"id": str(d.pk), "type": d.document_type, "created": d.created_at, "since": d.stale_since}
        for d in stale_documents(organization_id=organization_id)
    ]
    if stale:
        yield Clock(
            kind=ReminderKind.STALE_DOCUMENTS,
            subject_id=str(organization_id),
            steps=(Step(occurrence, monday),),
            ends_at=next_monday,
            facts={"documents": stale},
        )
    vendors = [
        {"id": obj.id, "name": obj.name, "finding": item.kind}
        for check in VENDOR_CHECKS
        for item in basis.findings.get(check, ())
        for obj in item.objects
        if obj.type == "vendor"
    ]
    if vendors:
        yield Clock(
            kind=ReminderKind.VENDOR_DPAS,
            subject_id=str(organization_id),
            steps=(Step(occurrence, monday),),
            ends_at=next_monday,
            facts={"vendors": sorted(vendors, key=lambda vendor: vendor["name"])},
        )


def organization_clocks(*, organization_id: Any, now: datetime) -> list[Clock]:
    """Every clock of the organization at `now` that owes or will owe a reminder."""
    basis = cached_report_basis(organization_id=organization_id, now=now)
    return [
        *breach_clocks(basis=basis),
        *request_clocks(organization_id=organization_id, now=now),
        *dpia_review_clocks(basis=basis),
        *digest_clocks(organization_id=organization_id, basis=basis, now=now),
    ]

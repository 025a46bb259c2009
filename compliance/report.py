"""The register's consistency report: contradictions and gaps across the register and documents.

Each check is one function returning `ReportItem`s; `register_report` runs them all. The
GDPR rules come from `gdpr` (the DPIA screening, the Art. 9 check, the 72-hour deadline), the
register's facts from `register.selectors`, documents from `legal_documents.selectors`: the
report reads, it never writes. Every item names the article, the objects involved and what
to do, so that a DPO can act on it without reading the rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.utils import translation
from django.utils.dateparse import parse_date

from gdpr.composition.assessments.breach_deadline import NotificationDeadline, notification_deadline
from gdpr.composition.transfers import covering_adequacy
from gdpr.composition.writers.breach_communication import as_datetime
from legal_documents.models import LegalDocument, Stage, Status
from legal_documents.naming import document_name
from legal_documents.selectors import documents_of_types
from register.models import DpaStatus, ProcessingActivity, Transfer, Vendor, VendorRole
from register.selectors import (
    activity_sensitive_data,
    dpia_screening,
    relies_on_consent,
)

SEVERITIES = ("high", "medium", "low")
PROCESSOR_ROLES = (VendorRole.PROCESSOR, VendorRole.SUB_PROCESSOR)


@dataclass(frozen=True, slots=True)
class ReportObject:
    type: str  # processing_activity, vendor, transfer, document, review
    id: str
    name: str

    def as_dict(self) -> dict[str, str]:
        return {"type": self.type, "id": self.id, "name": self.name}


@dataclass(frozen=True, slots=True)
class ReportItem:
    kind: str
    severity: str
    article: str
    objects: tuple[ReportObject, ...]
    message: str
    suggested_action: str
    # When the item falls due (an open breach's deadline): shown on the start page.
    due_at: datetime | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "severity": self.severity,
            "article": self.article,
            "objects": [obj.as_dict() for obj in self.objects],
            "message": self.message,
            "suggestedAction": self.suggested_action,
        }


@dataclass(slots=True)
class RegisterFacts:
    """What the checks read, loaded once per report, indexed once (by id, by type): a check
    over the documents looks up the activities each names instead of scanning them all."""

    organization_id: Any
    now: datetime
    activities: list[ProcessingActivity]
    vendors: list[Vendor]
    transfers: list[Transfer]
    documents: list[LegalDocument]
    _positions: dict[str, int] = field(init=False, repr=False, compare=False)
    _by_type: dict[str, list[LegalDocument]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._positions = {str(a.pk): index for index, a in enumerate(self.activities)}
        self._by_type = {}
        for document in self.documents:
            self._by_type.setdefault(document.document_type, []).append(document)

    @property
    def today(self) -> date:
        return self.now.date()

    def activities_named_by(self, document: LegalDocument) -> list[ProcessingActivity]:
        """The register's activities the document names, in the register's order."""
        named = (document.register_sources or {}).get("activities", {}) or {}
        found = sorted(self._positions[key] for key in map(str, named) if key in self._positions)
        return [self.activities[index] for index in found]

    def documents_of(self, document_type: str) -> list[LegalDocument]:
        return list(self._by_type.get(document_type, ()))


def _activity(activity: ProcessingActivity) -> ReportObject:
    return ReportObject("processing_activity", str(activity.pk), activity.name)


def _vendor(vendor: Vendor) -> ReportObject:
    return ReportObject("vendor", str(vendor.pk), vendor.name)


def _document(document: LegalDocument) -> ReportObject:
    # The report's words are the API's English, whoever's request computed (and cached) it.
    with translation.override("en"):
        return ReportObject("document", str(document.pk), document_name(document))


# -- the checks ------------------------------------------------------------------------------------
def processors_without_dpa(facts: RegisterFacts) -> Iterable[ReportItem]:
    for vendor in facts.vendors:
        if vendor.role not in PROCESSOR_ROLES or vendor.dpa_status not in (
            DpaStatus.NONE, DpaStatus.REQUESTED,
        ):  # fmt: skip
            continue
        requested = vendor.dpa_status == DpaStatus.REQUESTED
        yield ReportItem(
            kind="processor-without-dpa",
            severity="medium" if requested else "high",
            article="Art. 28(3)",
            objects=(_vendor(vendor),),
            message=f"{vendor.name} processes personal data on your behalf"
            + (
                " and its DPA is requested but not signed."
                if requested
                else " with no DPA on file."
            ),
            suggested_action="Sign a data processing agreement with the Art. 28(3) terms"
            " (create a DATA_PROCESSING_AGREEMENT for the vendor) and record its date.",
        )


def _dpa_review(vendor: Vendor) -> ReportObject:
    reviewed = f"{vendor.dpa_reviewed_at:%Y-%m-%d}" if vendor.dpa_reviewed_at else ""
    return ReportObject("review", str(vendor.dpa_review_id), f"DPA review of {reviewed}")


def vendor_dpa_missing_items(facts: RegisterFacts) -> Iterable[ReportItem]:
    # The vendor keeps its DPA's last review (register.services.vendor_record_dpa_review):
    # an item the review found missing is a term the contract lacks, whatever dpa_status says.
    for vendor in facts.vendors:
        missing = [str(item) for item in vendor.dpa_review_missing_items or []]
        if vendor.dpa_review_id is None or not missing:
            continue
        yield ReportItem(
            kind="vendor-dpa-missing-items",
            severity="high",
            article="Art. 28(3)",
            objects=(_vendor(vendor), _dpa_review(vendor)),
            message=f"The review of {vendor.name}'s DPA found "
            + (f"{len(missing)} items" if len(missing) > 1 else "an item")
            + " missing: "
            + ", ".join(missing)
            + ".",
            suggested_action="Ask the vendor for an amended DPA with the missing terms (the"
            " review suggests a clause for each), then review the signed version again.",
        )


def transfers_without_mechanism(facts: RegisterFacts) -> Iterable[ReportItem]:
    vendors: dict[Any, Vendor] = {v.pk: v for v in facts.vendors}
    activities: dict[Any, ProcessingActivity] = {a.pk: a for a in facts.activities}
    for transfer in facts.transfers:
        # An adequacy decision covering every recipient in the country is the mechanism
        # (Art. 45(1)), whatever language the country is named in.
        if transfer.mechanism or covering_adequacy(transfer.country):
            continue
        owner: Vendor | ProcessingActivity | None = vendors.get(
            transfer.vendor_id
        ) or activities.get(transfer.activity_id)
        owner_object = (
            _vendor(owner) if isinstance(owner, Vendor)
            else _activity(owner) if owner is not None else None
        )  # fmt: skip
        objects = (
            ReportObject(
                "transfer", str(transfer.pk), f"{transfer.recipient} ({transfer.country})"
            ),
            *((owner_object,) if owner_object else ()),
        )
        yield ReportItem(
            kind="transfer-without-mechanism",
            severity="high",
            article="Art. 44-46",
            objects=objects,
            message=f"Personal data goes to {transfer.recipient} in {transfer.country}, outside"
            " the EEA, with no transfer mechanism identified.",
            suggested_action="Record the Chapter V mechanism (adequacy decision, standard"
            " contractual clauses, binding corporate rules...) or stop the transfer.",
        )


def _normalised(text: str) -> str:
    return " ".join(re.sub(r"[^\w§]+", " ", text.lower()).split())


def _retention_texts(entries: Iterable[Any]) -> list[str]:
    texts: list[str] = []
    for entry in entries:
        if isinstance(entry, Mapping):
            texts.extend(str(entry[k]) for k in ("period", "criteria") if entry.get(k))
        elif str(entry).strip():
            texts.append(str(entry))
    return texts


def privacy_policy_retention(facts: RegisterFacts) -> Iterable[ReportItem]:
    # Each activity's retention normalised once, not once per policy naming it.
    retention: dict[Any, list[tuple[str, str]]] = {}
    for document in facts.documents_of("PRIVACY_POLICY"):
        if document.content_markdown:
            stated, where = _normalised(document.content_markdown), "text"
        else:
            stated = _normalised(" ".join(_retention_texts(
                (document.inputs or {}).get("retentionPeriods") or []
            )))  # fmt: skip
            where = "inputs"
        for activity in facts.activities_named_by(document):
            if activity.pk not in retention:
                retention[activity.pk] = [
                    (t, _normalised(t)) for t in _retention_texts(activity.retention)
                ]
            missing = [t for t, normalised in retention[activity.pk] if normalised not in stated]
            if not missing:
                continue
            yield ReportItem(
                kind="privacy-policy-retention-differs",
                severity="medium",
                article="Art. 13(2)(a)",
                objects=(_document(document), _activity(activity)),
                message=f"The privacy policy's {where} does not state the retention the"
                f" register gives for {activity.name}: " + "; ".join(missing) + ".",
                suggested_action="Refresh the privacy policy from the register, or correct the"
                " register's retention if the policy is right.",
            )


def _completed_dpias(facts: RegisterFacts) -> list[LegalDocument]:
    return [d for d in facts.documents_of("DPIA") if d.status == Status.COMPLETED]


def dpia_missing(facts: RegisterFacts) -> Iterable[ReportItem]:
    covered = {a.pk for d in _completed_dpias(facts) for a in facts.activities_named_by(d)}
    for activity in facts.activities:
        if activity.pk in covered:
            continue
        screening = dpia_screening(activity)
        if not screening.required:
            continue
        reasons = [c.label for c in (*screening.criteria, *screening.mandatory_cases) if c.met]
        yield ReportItem(
            kind="dpia-missing",
            severity="high",
            article="Art. 35(1)",
            objects=(_activity(activity),),
            message=f"The screening of {activity.name} requires a DPIA ("
            + "; ".join(reasons)
            + "), and no completed DPIA names it.",
            suggested_action="Carry out a DPIA of the activity (create a DPIA from the"
            " register) before the processing starts.",
        )


def _as_date(value: Any) -> date | None:
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return parse_date(value.strip()[:10])
        except ValueError:
            return None
    return None


def _own_review_date(document: LegalDocument) -> date | None:
    finalize = (document.finalize_answers or {}).get("nextReviewDate")
    answer = (document.answers or {}).get("nextReviewDate") or {}
    answered = answer.get("answer") if isinstance(answer, Mapping) else answer
    for value in (finalize, answered, (document.inputs or {}).get("nextReviewDate")):
        found = _as_date(value)
        if found is not None:
            return found
    return None


@dataclass(frozen=True, slots=True)
class DpiaReview:
    """A completed DPIA's review dates: its own, else those of the activities it names."""

    document: ReportObject
    activities: tuple[ReportObject, ...]
    dates: tuple[date, ...]


def dpia_reviews(facts: RegisterFacts) -> list[DpiaReview]:
    reviews = []
    for document in _completed_dpias(facts):
        activities = facts.activities_named_by(document)
        own = _own_review_date(document)
        dates = [own] if own else [a.next_review_date for a in activities if a.next_review_date]
        reviews.append(
            DpiaReview(_document(document), tuple(map(_activity, activities)), tuple(dates))
        )
    return reviews


def dpia_review_overdue(facts: RegisterFacts) -> Iterable[ReportItem]:
    return reviews_overdue(reviews=dpia_reviews(facts), today=facts.today)


def reviews_overdue(*, reviews: Iterable[DpiaReview], today: date) -> Iterable[ReportItem]:
    for review in reviews:
        passed = [d for d in review.dates if d < today]
        if not passed:
            continue
        yield ReportItem(
            kind="dpia-review-overdue",
            severity="medium",
            article="Art. 35(11)",
            objects=(review.document, *review.activities),
            message=f"The DPIA was due for review on {min(passed):%Y-%m-%d}.",
            suggested_action="Review the DPIA against the processing as it is now, record"
            " the outcome and set the next review date.",
        )


def special_categories_without_condition(facts: RegisterFacts) -> Iterable[ReportItem]:
    for activity in facts.activities:
        found = activity_sensitive_data(activity)
        if not found.special_without_condition:
            continue
        yield ReportItem(
            kind="special-category-without-condition",
            severity="high",
            article="Art. 9",
            objects=(_activity(activity),),
            message=f"{activity.name} processes special-category data ("
            + ", ".join(found.special)
            + ") with no Art. 9(2) condition.",
            suggested_action="Record the Art. 9(2) condition relied on (e.g. 'Art. 9(2)(b)"
            " employment law'), or stop processing these data.",
        )


def data_categories_needing_classification(facts: RegisterFacts) -> Iterable[ReportItem]:
    # A category no data-category concept names ("Xylophon-Notizen") may be Art. 9 data:
    # one item per category, so that the report never treats it as ordinary by default.
    for activity in facts.activities:
        for category in activity_sensitive_data(activity).unclassified:
            yield ReportItem(
                kind="data-category-needs-classification",
                severity="medium",
                article="Art. 9(1)",
                objects=(_activity(activity),),
                message=f'{activity.name} lists the data category "{category}", which is not'
                " classified: it may be special-category data (Art. 9(1)).",
                suggested_action="Classify the category (give it a data-category concept, or"
                " list it among the special categories with its Art. 9(2) condition), or"
                " record that the activity processes no special categories.",
            )


def consent_without_withdrawal(facts: RegisterFacts) -> Iterable[ReportItem]:
    for activity in facts.activities:
        if not relies_on_consent(activity) or activity.consent_withdrawal.strip():
            continue
        yield ReportItem(
            kind="consent-without-withdrawal",
            severity="medium",
            article="Art. 7(3)",
            objects=(_activity(activity),),
            message=f"{activity.name} relies on consent but records no way to withdraw it.",
            suggested_action="Describe how consent is withdrawn (as easily as it was given)"
            " and tell the data subjects before they consent.",
        )


def _breach_awareness(document: LegalDocument) -> datetime | None:
    inputs = document.inputs or {}
    given = inputs.get("breach")
    breach: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    for value in (inputs.get("awareAt"), inputs.get("discoveredAt"), breach.get("discoveredAt")):
        found = as_datetime(value)
        if found is not None:
            return found
    return None


def open_breaches(facts: RegisterFacts) -> list[tuple[LegalDocument, NotificationDeadline]]:
    """(document, deadline) of every breach notification not finalized or sent."""
    found = []
    for document in facts.documents_of("BREACH_NOTIFICATION"):
        if document.stage == Stage.FINAL or (document.inputs or {}).get("notifiedAt"):
            continue
        aware = _breach_awareness(document)
        if aware is not None:
            found.append((document, notification_deadline(aware, facts.now)))
    return found


@dataclass(frozen=True, slots=True)
class OpenBreach:
    """An open breach notification and when the controller became aware of the breach."""

    document: ReportObject
    aware_at: datetime


def breach_awareness(facts: RegisterFacts) -> list[OpenBreach]:
    return [
        OpenBreach(_document(document), deadline.aware_at)
        for document, deadline in open_breaches(facts)
    ]


def breach_deadlines(
    *, breaches: Iterable[OpenBreach], now: datetime
) -> list[tuple[OpenBreach, NotificationDeadline]]:
    """Each open breach with its Art. 33(1) deadline as seen at `now`."""
    return [(breach, notification_deadline(breach.aware_at, now)) for breach in breaches]


def breaches_open_past_deadline(facts: RegisterFacts) -> Iterable[ReportItem]:
    return breaches_overdue(breaches=breach_awareness(facts), now=facts.now)


def breaches_overdue(*, breaches: Iterable[OpenBreach], now: datetime) -> Iterable[ReportItem]:
    for breach, deadline in breach_deadlines(breaches=breaches, now=now):
        if not deadline.passed:
            continue
        yield ReportItem(
            kind="breach-notification-overdue",
            severity="high",
            article="Art. 33(1)",
            objects=(breach.document,),
            message=f"The breach notification is still open {deadline.hours_overdue:.0f} h"
            f" after the 72 hours ended ({deadline.deadline:%Y-%m-%d %H:%M} UTC).",
            suggested_action="Notify the supervisory authority now, with the reasons for the"
            " delay (Art. 33(1)), then finalize the notification.",
            due_at=deadline.deadline,
        )


CHECKS: tuple[Callable[[RegisterFacts], Iterable[ReportItem]], ...] = (
    processors_without_dpa,
    vendor_dpa_missing_items,
    transfers_without_mechanism,
    privacy_policy_retention,
    dpia_missing,
    dpia_review_overdue,
    special_categories_without_condition,
    data_categories_needing_classification,
    consent_without_withdrawal,
    breaches_open_past_deadline,
)
KINDS = (
    "processor-without-dpa", "transfer-without-mechanism", "privacy-policy-retention-differs",
    "dpia-missing", "dpia-review-overdue", "special-category-without-condition",
    "consent-without-withdrawal", "breach-notification-overdue",
    "data-category-needs-classification", "vendor-dpa-missing-items",
)  # fmt: skip


# The documents the checks read.
REPORT_DOCUMENT_TYPES = ("PRIVACY_POLICY", "DPIA", "BREACH_NOTIFICATION")


def register_facts(*, organization_id: Any, now: datetime) -> RegisterFacts:
    """The organization's register and the documents the checks read, loaded once."""
    return RegisterFacts(
        organization_id=organization_id,
        now=now,
        activities=list(ProcessingActivity.objects.filter(organization_id=organization_id)),
        vendors=list(Vendor.objects.filter(organization_id=organization_id)),
        transfers=list(Transfer.objects.filter(organization_id=organization_id)),
        documents=list(
            documents_of_types(
                organization_id=organization_id,
                document_types=REPORT_DOCUMENT_TYPES,
            )
        ),
    )


# The checks whose findings move with the clock alone: the basis keeps what they read.
CLOCK_CHECKS = (dpia_review_overdue, breaches_open_past_deadline)


@dataclass(frozen=True, slots=True)
class ReportBasis:
    """What the report is made of, given the register and the documents alone (so it can be
    kept while they do not change, compliance.report_cache): the findings of every check
    but the clock's, by check name, and what the clock's checks read."""

    findings: dict[str, tuple[ReportItem, ...]]
    reviews: tuple[DpiaReview, ...]
    breaches: tuple[OpenBreach, ...]


def report_basis(*, facts: RegisterFacts) -> ReportBasis:
    return ReportBasis(
        findings={
            check.__name__: tuple(check(facts)) for check in CHECKS if check not in CLOCK_CHECKS
        },
        reviews=tuple(dpia_reviews(facts)),
        breaches=tuple(breach_awareness(facts)),
    )


def items_at(*, basis: ReportBasis, now: datetime) -> list[ReportItem]:
    """Every item of the report at `now`, most severe first (stable order: CHECKS's)."""
    clock = {
        dpia_review_overdue.__name__: lambda: reviews_overdue(
            reviews=basis.reviews, today=now.date()
        ),
        breaches_open_past_deadline.__name__: lambda: breaches_overdue(
            breaches=basis.breaches, now=now
        ),
    }
    items: list[ReportItem] = []
    for check in CHECKS:
        name = check.__name__
        items.extend(clock[name]() if name in clock else basis.findings[name])
    return sorted(items, key=lambda item: SEVERITIES.index(item.severity))


def report_items(*, facts: RegisterFacts) -> list[ReportItem]:
    """Every item of the report over facts already loaded, most severe first (stable order)."""
    return items_at(basis=report_basis(facts=facts), now=facts.now)


def register_report(*, organization_id: Any, now: datetime) -> list[ReportItem]:
    """Every item of the report for the organization, most severe first (stable order)."""
    return report_items(facts=register_facts(organization_id=organization_id, now=now))


def severity_counts(*, items: Iterable[ReportItem]) -> dict[str, int]:
    """`{severity: count}` for every severity (0 when none)."""
    # A loop, not pandas' value_counts: 7x the CPU on 2,000 items, and 0.46 s to import pandas
    # on a web request (bench/bench_tabular_pandas.py).
    counts = dict.fromkeys(SEVERITIES, 0)
    for item in items:
        counts[item.severity] += 1
    return counts


def narrowed(
    *, items: Iterable[ReportItem], severity: str | None = None, kind: str | None = None
) -> list[ReportItem]:
    """The items of `severity` and `kind` (either left empty: any)."""
    return [
        item for item in items
        if severity in (None, "", item.severity) and kind in (None, "", item.kind)
    ]  # fmt: skip

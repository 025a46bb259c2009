"""Writes to the register: every change moves the entry's revision, is audited, and is told.

Views, the admin and the import all write through these functions, so that the revision a
document records (staleness) and the audit trail can never be bypassed. The create, update
and delete functions also keep the `Transfer` rows in step: a vendor, a vendor's
sub-processor or an activity's recipient outside the EEA has exactly one Transfer, carrying
its Chapter V mechanism ("" when none is identified, which the consistency report shows).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F

from audit.services import Actor, record_event
from gdpr.composition.recognition import is_in_eea, recognise_safeguard
from organizations.models import Organization
from register.bases import basis_entries
from register.exceptions import DuplicateName, ForeignVendor
from register.models import ProcessingActivity, RegisterEntry, Transfer, Vendor
from register.signals import register_changed

_OBJECT_TYPES: dict[type[RegisterEntry], str] = {
    ProcessingActivity: "processing_activity",
    Vendor: "vendor",
}


def object_type(entry: RegisterEntry) -> str:
    return _OBJECT_TYPES[type(entry)]


@dataclass
class _ChangeSet:
    organization_id: Any
    activities: set[Any] = field(default_factory=set)
    vendors: set[Any] = field(default_factory=set)


_change_set: ContextVar[_ChangeSet | None] = ContextVar("register_change_set", default=None)


@contextmanager
def one_change_set(*, organization_id: Any) -> Iterator[None]:
    """Inside the block, the writes of the organization are announced once, together.

    For a write of many entries in one transaction (an import): one `register_changed`
    (one staleness task) for all of them, not one per entry. Enter it inside the
    transaction; the announcement is sent when that transaction commits, as always.
    """
    changes = _ChangeSet(organization_id=organization_id)
    token = _change_set.set(changes)
    try:
        yield
    finally:
        _change_set.reset(token)
    if changes.activities or changes.vendors:
        _announce(
            organization_id=organization_id,
            activities=changes.activities,
            vendors=changes.vendors,
        )


def _announce(*, organization_id: Any, activities: set[Any], vendors: set[Any]) -> None:
    changes = _change_set.get()
    if changes is not None and changes.organization_id == organization_id:
        changes.activities |= activities
        changes.vendors |= vendors
        return
    transaction.on_commit(
        lambda: register_changed.send(
            sender=RegisterEntry,
            organization_id=organization_id,
            activity_ids=frozenset(activities),
            vendor_ids=frozenset(vendors),
        )
    )


@transaction.atomic
def record_change(
    *,
    entry: RegisterEntry,
    actor: Actor,
    action: str,
    changed_fields: Iterable[str] = (),
) -> RegisterEntry:
    """Bump `entry`'s revision after a write, audit it as `<type>.<action>`, announce it.

    The caller has saved the entry (and its links) inside the same transaction. A vendor's
    change also concerns the activities linked to it: their documents describe the vendor.
    """
    type(entry)._default_manager.filter(pk=entry.pk).update(revision=F("revision") + 1)
    entry.refresh_from_db(fields=["revision"])
    record_event(
        organization=entry.organization,
        actor=actor,
        action=f"{object_type(entry)}.{action}",
        object_type=object_type(entry),
        object_id=entry.pk,
        details={"name": entry.name, "revision": entry.revision, "fields": sorted(changed_fields)},
    )
    if isinstance(entry, Vendor):
        linked = set(entry.activities.values_list("pk", flat=True))
        _announce(organization_id=entry.organization_id, activities=linked, vendors={entry.pk})
    else:
        _announce(organization_id=entry.organization_id, activities={entry.pk}, vendors=set())
    return entry


# -- activities and vendors: create, update, delete ---------------------------------------------
ACTIVITY_FIELDS = frozenset(
    field.name
    for field in ProcessingActivity._meta.get_fields()
    if getattr(field, "editable", False)
    and field.name not in {"id", "organization", "revision", "created_at", "updated_at"}
)
BASIS_FIELDS = frozenset({"legal_bases", "art9_conditions"})
VENDOR_FIELDS = frozenset(
    field.name
    for field in Vendor._meta.get_fields()
    if getattr(field, "editable", False)
    and field.name not in {"id", "organization", "revision", "created_at", "updated_at"}
)


def _check_name(*, entry: RegisterEntry, kind: str) -> None:
    others = type(entry)._default_manager.filter(
        organization_id=entry.organization_id, name=entry.name
    )
    if others.exclude(pk=entry.pk).exists():
        raise DuplicateName(kind=kind, name=entry.name)


def save_entry(entry: RegisterEntry, *, kind: str) -> None:
    """Save; a concurrent writer that took the name first is a conflict too, not a 500."""
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError as error:
        if "_org_name" not in str(error):
            raise
        raise DuplicateName(kind=kind, name=entry.name) from error


def _assign(entry: RegisterEntry, data: Mapping[str, Any], allowed: frozenset[str]) -> list[str]:
    """Set the given fields (unknown keys are a programming error); return the changed ones."""
    unknown = set(data) - allowed
    if unknown:
        raise TypeError(f"Not fields of {type(entry).__name__}: {sorted(unknown)}")
    changed = []
    for name, value in data.items():
        if name == "vendors":
            continue
        if name in BASIS_FIELDS:  # texts from an import become {code, wording} as well
            value = basis_entries(value, condition_first=name == "art9_conditions")
        if getattr(entry, name) != value:
            setattr(entry, name, value)
            changed.append(name)
    return changed


def _set_vendors(activity: ProcessingActivity, vendors: Iterable[Vendor]) -> bool:
    wanted = list(vendors)
    foreign = [str(v.pk) for v in wanted if v.organization_id != activity.organization_id]
    if foreign:
        raise ForeignVendor(foreign)
    before = set(activity.vendors.values_list("pk", flat=True))
    if before == {v.pk for v in wanted}:
        return False
    activity.vendors.set(wanted)
    return True


@transaction.atomic
def activity_create(
    *, organization: Organization, actor: Actor, data: Mapping[str, Any]
) -> ProcessingActivity:
    """A new processing activity from `data` (model field names; `vendors`: Vendor rows).

    Refuses a name the organization already uses (DuplicateName) and vendors of another
    organization (ForeignVendor); audited as `processing_activity.created`.
    """
    activity = ProcessingActivity(organization=organization)
    changed = _assign(activity, data, ACTIVITY_FIELDS)
    _check_name(entry=activity, kind="processing activity")
    save_entry(activity, kind="processing activity")
    if data.get("vendors"):
        _set_vendors(activity, data["vendors"])
        changed.append("vendors")
    sync_activity_transfers(activity=activity)
    record_change(entry=activity, actor=actor, action="created", changed_fields=changed)
    return activity


@transaction.atomic
def activity_update(
    *, activity: ProcessingActivity, actor: Actor, data: Mapping[str, Any]
) -> ProcessingActivity:
    """Change the fields given in `data` (a partial update); the others keep their values.

    A write that changes nothing moves no revision and records nothing: documents written
    from the activity stay current. Transfers out of step with the fields are brought in step
    (recorded as a change of "transfers").
    """
    activity = ProcessingActivity.objects.select_for_update().get(pk=activity.pk)
    changed = _assign(activity, data, ACTIVITY_FIELDS)
    _check_name(entry=activity, kind="processing activity")
    if changed:
        save_entry(activity, kind="processing activity")
    if "vendors" in data and _set_vendors(activity, data["vendors"]):
        changed.append("vendors")
    if sync_activity_transfers(activity=activity) and not changed:
        changed.append("transfers")  # out of step before (a rule or a Transfer changed)
    if not changed:
        return activity
    record_change(entry=activity, actor=actor, action="updated", changed_fields=changed)
    return activity


@transaction.atomic
def activity_delete(*, activity: ProcessingActivity, actor: Actor) -> None:
    """Delete the activity (its transfers go with it); audited and announced first, so that
    the documents written from it are told."""
    record_change(entry=activity, actor=actor, action="deleted")
    activity.delete()


@transaction.atomic
def vendor_create(*, organization: Organization, actor: Actor, data: Mapping[str, Any]) -> Vendor:
    """A new vendor from `data` (model field names); DuplicateName for a name in use."""
    vendor = Vendor(organization=organization)
    changed = _assign(vendor, data, VENDOR_FIELDS)
    _check_name(entry=vendor, kind="vendor")
    save_entry(vendor, kind="vendor")
    sync_vendor_transfers(vendor=vendor)
    record_change(entry=vendor, actor=actor, action="created", changed_fields=changed)
    return vendor


@transaction.atomic
def vendor_update(*, vendor: Vendor, actor: Actor, data: Mapping[str, Any]) -> Vendor:
    """Change the fields given in `data`; the activities linked to the vendor are announced
    as changed too (their documents describe it). Nothing changed, nothing recorded; Transfers
    out of step with the fields are brought in step (recorded as a change of "transfers")."""
    vendor = Vendor.objects.select_for_update().get(pk=vendor.pk)
    changed = _assign(vendor, data, VENDOR_FIELDS)
    _check_name(entry=vendor, kind="vendor")
    if changed:
        save_entry(vendor, kind="vendor")
    if sync_vendor_transfers(vendor=vendor) and not changed:
        changed.append("transfers")  # out of step before (a rule or a Transfer changed)
    if not changed:
        return vendor
    record_change(entry=vendor, actor=actor, action="updated", changed_fields=changed)
    return vendor


@transaction.atomic
def vendor_delete(*, vendor: Vendor, actor: Actor) -> None:
    """Delete the vendor (its links and transfers go with it), announced with its activities."""
    record_change(entry=vendor, actor=actor, action="deleted")
    vendor.delete()


# -- a review of the vendor's DPA, kept on the vendor ---------------------------------------------
DPA_REVIEW_FIELDS = (
    "dpa_review_id", "dpa_review_has_gaps", "dpa_review_missing_items", "dpa_reviewed_at",
)  # fmt: skip


@transaction.atomic
def vendor_record_dpa_review(
    *,
    vendor: Vendor,
    review_id: Any,
    has_gaps: bool,
    missing_items: Iterable[str],
    reviewed_at: datetime,
    actor: Actor | None = None,
) -> Vendor:
    """Keep a completed review of the vendor's DPA on the vendor (the reviews app calls it).

    The last review wins: a review completed before the one already recorded (a late retry)
    changes nothing. The revision does not move and no change is announced: documents are
    written from what the register states about the vendor, not from what its DPA lacks, so
    none becomes stale. `updated_at` moves, which is what makes the consistency report
    (compliance.report_cache) read the vendor again. Audited as `vendor.dpa_reviewed`.
    """
    vendor = Vendor.objects.select_for_update().get(pk=vendor.pk)
    if vendor.dpa_reviewed_at is not None and reviewed_at < vendor.dpa_reviewed_at:
        return vendor
    vendor.dpa_review_id = review_id
    vendor.dpa_review_has_gaps = has_gaps
    vendor.dpa_review_missing_items = list(dict.fromkeys(str(item) for item in missing_items))
    vendor.dpa_reviewed_at = reviewed_at
    vendor.save(update_fields=[*DPA_REVIEW_FIELDS, "updated_at"])
    record_event(
        organization=vendor.organization,
        actor=actor or Actor(label="system"),
        action="vendor.dpa_reviewed",
        object_type="vendor",
        object_id=vendor.pk,
        details={
            "name": vendor.name,
            "reviewId": str(review_id),
            "hasGaps": has_gaps,
            "missingItems": vendor.dpa_review_missing_items,
        },
    )
    return vendor


# -- transfers: kept in step with vendors and recipients -----------------------------------------
def _mechanism(wording: Any) -> tuple[str, str]:
    """(code, wording) of a safeguard as written; "" as code when none is identified."""
    text = str(wording or "").strip()
    code = recognise_safeguard(text) if text else None
    return ("" if code in (None, "none") else str(code)), text


def _wanted(recipient: Any, country: Any, safeguard: Any, code: str = "") -> dict[str, str] | None:
    """A transfer's fields when `country` is outside the EEA, else None."""
    name, place = str(recipient or "").strip(), str(country or "").strip()
    if not name or not place or is_in_eea(place):
        return None
    mechanism, wording = _mechanism(safeguard)
    if code:  # a code stored already recognised (a vendor's transfer_mechanism)
        mechanism = "" if code == "none" else code
    return {"recipient": name, "country": place, "mechanism": mechanism,
            "mechanism_wording": wording}  # fmt: skip


def wanted_transfers(entry: RegisterEntry) -> dict[tuple[str, str], dict[str, str]]:
    """The Transfers an entry's fields call for, by (recipient, country), the first kept.

    A vendor: itself and each sub-processor outside the EEA. An activity: each recipient
    outside the EEA (the vendors linked to it have their own). Pure: the import plans with
    it on an entry it has not saved (register.importing.planning).
    """
    if isinstance(entry, Vendor):
        candidates = [
            _wanted(entry.name, entry.country, entry.transfer_mechanism_wording,
                    code=entry.transfer_mechanism),
            *(_wanted(sub.get("name"), sub.get("country"), sub.get("safeguard"))
              for sub in entry.sub_processors if isinstance(sub, Mapping)),
        ]  # fmt: skip
    else:
        assert isinstance(entry, ProcessingActivity)
        candidates = [
            _wanted(recipient.get("name"), recipient.get("country"),
                    recipient.get("safeguard") or recipient.get("mechanism"))
            for recipient in entry.recipients
            if isinstance(recipient, Mapping)
        ]  # fmt: skip
    wanted: dict[tuple[str, str], dict[str, str]] = {}
    for fields in candidates:
        if fields:
            wanted.setdefault((fields["recipient"], fields["country"]), fields)
    return wanted


def transfers_owner(entry: RegisterEntry) -> dict[str, Any]:
    """The Transfer filter of an entry's own transfers."""
    if isinstance(entry, Vendor):
        return {"vendor": entry, "activity": None}
    return {"activity": entry, "vendor": None}


def sync_transfers(*, entry: RegisterEntry) -> bool:
    """Create, update and delete the entry's Transfers to match `wanted_transfers`; whether
    any Transfer was written."""
    owner = transfers_owner(entry)
    wanted = wanted_transfers(entry)
    existing = {(t.recipient, t.country): t for t in Transfer.objects.filter(**owner)}
    written = False
    for key, fields in wanted.items():
        transfer = existing.get(key)
        if transfer is None:
            Transfer.objects.create(organization_id=entry.organization_id, **owner, **fields)
            written = True
        elif any(getattr(transfer, name) != value for name, value in fields.items()):
            for name, value in fields.items():
                setattr(transfer, name, value)
            transfer.save()
            written = True
    for key, transfer in existing.items():
        if key not in wanted:
            transfer.delete()
            written = True
    return written


def sync_vendor_transfers(*, vendor: Vendor) -> bool:
    """The vendor (and each sub-processor) outside the EEA as a Transfer of the vendor."""
    return sync_transfers(entry=vendor)


def sync_activity_transfers(*, activity: ProcessingActivity) -> bool:
    """Each recipient of the activity outside the EEA as a Transfer of the activity.

    Vendors linked to the activity have their own transfers (sync_vendor_transfers).
    """
    return sync_transfers(entry=activity)

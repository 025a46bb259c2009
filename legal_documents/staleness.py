"""Documents go stale when the register entries they were written from change.

`register.signals.register_changed` (sent on commit of every register write, connected in
`LegalDocumentsConfig.ready`) names the organization and the activities and vendors whose
revision moved. Its receiver only enqueues `legal_documents.tasks.mark_stale_task` (ids as
strings): the register write's request never waits for the marking, and a lost enqueue is
logged without failing the write. The task runs `mark_stale`.

A document is stale when its `register_sources` name one of them with a revision older than
the current one (read when the task runs); a whole-register record (`"wholeRegister": true`)
is stale on any change of its organization's register, additions and deletions included.
Documents without register sources never go stale. Each document newly marked gets one
`document.stale` webhook event; one already stale keeps its first `stale_since`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from legal_documents import events
from legal_documents.models import LegalDocument
from register.models import ProcessingActivity, Vendor
from webhooks.events import DOCUMENT_STALE

logger = logging.getLogger(__name__)


def _older_than_current(key: str, model: Any, ids: Iterable[Any]) -> Q:
    """Documents recording one of `ids` under `key` with a revision below the current one.

    A deleted entry has no current revision: any document naming it is stale.
    """
    wanted = [str(value) for value in ids]
    current = {
        str(pk): revision
        for pk, revision in model.objects.filter(pk__in=wanted).values_list("pk", "revision")
    }
    condition = Q()
    for entry_id in wanted:
        lookup = f"register_sources__{key}__{entry_id}"
        if entry_id in current:
            condition |= Q(**{f"{lookup}__lt": current[entry_id]})
        else:
            condition |= Q(**{f"register_sources__{key}__has_key": entry_id})
    return condition


def mark_stale(
    *, organization_id: Any, activity_ids: Iterable[Any] = (), vendor_ids: Iterable[Any] = ()
) -> list[str]:
    """Set `stale_since` on the organization's documents the change concerns (one UPDATE).

    Documents already stale keep their first `stale_since` and get no second event.
    Returns the ids newly marked.
    """
    concerned = Q(register_sources__wholeRegister=True)
    concerned |= _older_than_current("activities", ProcessingActivity, activity_ids)
    concerned |= _older_than_current("vendors", Vendor, vendor_ids)
    with transaction.atomic():
        candidates = LegalDocument.objects.filter(
            concerned, organization_id=organization_id, stale_since__isnull=True
        )
        ids = list(candidates.select_for_update().values_list("pk", flat=True))
        if not ids:
            return []
        now = timezone.now()
        LegalDocument.objects.filter(pk__in=ids).update(stale_since=now)
        for document in LegalDocument.objects.filter(pk__in=ids).only(
            "pk", "organization_id", "document_type", "status", "stage", "version"
        ):
            events.notify_webhooks(document=document, event=DOCUMENT_STALE)
    logger.info("%d document(s) of organization %s marked stale", len(ids), organization_id)
    return [str(pk) for pk in ids]


def on_register_changed(
    sender: Any,
    *,
    organization_id: Any,
    activity_ids: Iterable[Any] = (),
    vendor_ids: Iterable[Any] = (),
    **kwargs: Any,
) -> None:
    """Receiver of `register_changed` (sent once the register write has committed): enqueue
    `mark_stale_task`, nothing else.

    Never fails the register write that sent it: the write is done, so a broker that refuses
    the task is logged (the documents then stay fresh until the entries change again).
    """
    # Imported here: the tasks module imports this one.
    from legal_documents.tasks import mark_stale_task

    try:
        mark_stale_task.delay(
            str(organization_id),
            sorted(str(activity_id) for activity_id in activity_ids),
            sorted(str(vendor_id) for vendor_id in vendor_ids),
        )
    except Exception:
        logger.exception(
            "could not enqueue marking the documents of organization %s stale", organization_id
        )

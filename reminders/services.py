"""Sending the reminders due at `now`: once per member, kind, subject and occurrence.

For each organization, its clocks (reminders.clocks) at `now`; for each clock's current step
and each member who wants that kind, one transaction: insert the `SentReminder` row (unique
per member, kind, subject, occurrence), append the audit event, send the mail. The row is
the decision: a second run finds it and sends nothing; a concurrent run's insert waits on
the unique index until the first commits, then fails and sends nothing. A mail that cannot
be sent (SMTP down) rolls its row and event back: the next run tries again. The one case
that can mail twice is a commit failing after the SMTP server took the mail.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction

from audit.services import Actor, record_event
from organizations.models import Membership, Organization
from reminders.clocks import Clock, Step, organization_clocks
from reminders.messages import reminder_mail
from reminders.models import ReminderPreference, SentReminder

logger = logging.getLogger(__name__)

REMINDERS_ACTOR = Actor(label="reminders (scheduled)")


@dataclass(frozen=True, slots=True)
class Recipient:
    membership: Membership
    preference: ReminderPreference


def _recipients(organization: Organization) -> list[Recipient]:
    memberships = (
        Membership.objects.filter(organization=organization, user__is_active=True)
        .exclude(user__email="")
        .select_related("user")
        .order_by("pk")
    )
    saved = {
        preference.user_id: preference
        for preference in ReminderPreference.objects.filter(
            user__in=[membership.user for membership in memberships]
        )
    }
    return [
        Recipient(m, saved.get(m.user_id) or ReminderPreference(user=m.user)) for m in memberships
    ]


def _send_once(
    *, organization: Organization, recipient: Recipient, clock: Clock, step: Step, now: datetime
) -> bool:
    user = recipient.membership.user
    language = recipient.preference.language
    mail = reminder_mail(clock=clock, step=step, now=now, language=language)
    try:
        with transaction.atomic():
            row = SentReminder.objects.create(
                organization=organization,
                user=user,
                kind=clock.kind,
                subject_id=clock.subject_id,
                occurrence=step.occurrence,
                deadline=clock.deadline,
                due_date=clock.due_date,
                language=language,
                recipient=user.email,
                subject=mail.subject,
                body=mail.body,
                sent_at=now,
            )
            record_event(
                organization=organization,
                actor=REMINDERS_ACTOR,
                action="reminder.sent",
                object_type="reminder",
                object_id=row.pk,
                details={
                    "kind": str(clock.kind),
                    "subject": clock.subject_id,
                    "occurrence": step.occurrence,
                    "recipientUserId": user.pk,
                    "language": language,
                },
            )
            EmailMessage(
                subject=mail.subject,
                body=mail.body,
                from_email=settings.DEFAULT_FROM_EMAIL,
                to=[user.email],
            ).send(fail_silently=False)
    except IntegrityError:
        return False  # sent already, by an earlier or a concurrent run
    return True


def _already_sent(
    organization: Organization, clocks: Iterable[Clock]
) -> set[tuple[int, str, str, str]]:
    subjects = {clock.subject_id for clock in clocks}
    return set(
        SentReminder.objects.filter(organization=organization, subject_id__in=subjects).values_list(
            "user_id", "kind", "subject_id", "occurrence"
        )
    )


def send_organization_reminders(*, organization: Organization, now: datetime) -> int:
    """Send the organization's reminders due at `now`; the number sent."""
    recipients = _recipients(organization)
    if not recipients:
        return 0
    due = [
        (clock, step)
        for clock in organization_clocks(organization_id=organization.pk, now=now)
        if (step := clock.current(now)) is not None
    ]
    if not due:
        return 0
    sent_before = _already_sent(organization, (clock for clock, _step in due))
    sent = 0
    for clock, step in due:
        for recipient in recipients:
            user_id = recipient.membership.user_id
            key = (user_id, str(clock.kind), clock.subject_id, step.occurrence)
            if key in sent_before or not recipient.preference.wants(clock.kind):
                continue
            sent += _send_once(
                organization=organization, recipient=recipient, clock=clock, step=step, now=now
            )
    return sent


def send_due_reminders(*, now: datetime) -> int:
    """Send every organization's reminders due at `now`; the number sent.

    An organization whose reminders fail (a mail server down) is logged and left for the
    next run; the others are still sent.
    """
    total = 0
    for organization in Organization.objects.order_by("pk"):
        try:
            total += send_organization_reminders(organization=organization, now=now)
        except Exception:
            logger.exception("reminders of organization %s not sent", organization.pk)
    return total

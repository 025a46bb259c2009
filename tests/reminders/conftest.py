"""Fixtures of the reminder tests: an organization's member with preferences, and a clock.

No clock is mocked: the services take `now`, and each test passes the moments it checks.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core import mail

from organizations.models import Membership, Organization
from reminders.models import ReminderPreference
from reminders.services import send_due_reminders
from tests.factories import LegalDocumentFactory, MembershipFactory, OrganizationFactory


def at(text: str) -> datetime:
    """A moment in UTC: at("2026-03-02 08:00")."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def member(organization: Organization, *, language: str | None = None, **kinds: bool) -> Membership:
    """A member of `organization`; with `language` or kinds, their saved preferences."""
    membership = MembershipFactory(organization=organization)
    if language is not None or kinds:
        ReminderPreference.objects.create(user=membership.user, language=language or "en", **kinds)
    return membership


def document(organization: Organization, document_type: str, **inputs: Any) -> Any:
    """A document of `organization` written by its first member (no member is added)."""
    return LegalDocumentFactory(
        organization=organization,
        creator=Membership.objects.filter(organization=organization).earliest("pk").user,
        document_type=document_type,
        inputs={"companyName": "Acme GmbH", **inputs},
    )


@pytest.fixture
def organization(db) -> Organization:  # type: ignore[no-untyped-def]
    """An organization of its own (no other member gets its reminders)."""
    return OrganizationFactory()


@pytest.fixture
def run() -> Callable[[str], list[mail.EmailMessage]]:
    """Run the reminders at a moment; the mails that run sent."""

    def run_at(moment: str) -> list[mail.EmailMessage]:
        before = len(mail.outbox)
        send_due_reminders(now=at(moment))
        return list(mail.outbox[before:])

    return run_at

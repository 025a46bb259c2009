"""Fixtures of the admin tests: staff members of two organizations, logged in."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client

from audit.services import Actor
from legal_documents.models import LegalDocument
from organizations.admin_access import admin_access_grant
from organizations.models import Membership, Role
from tests.conftest import Caller, make_caller
from tests.legal_documents.history_support import generated_document
from tests.support.second_factor import verified_login


@dataclass
class StaffMember:
    """A member with admin access (staff + the group of their role) and a logged-in client."""

    membership: Membership
    client: Client

    @property
    def organization(self):  # type: ignore[no-untyped-def]
        return self.membership.organization


def staff(caller: Caller) -> StaffMember:
    """Grant admin access the documented way (`grant_admin_access`) and log the member in,
    second factor included (an enrolled authenticator, a verified session)."""
    admin_access_grant(membership=caller.membership, actor=Actor(label="test"))
    client = verified_login(Client(), caller.membership.user)
    return StaffMember(membership=caller.membership, client=client)


@pytest.fixture
def dpo_staff(dpo: Caller) -> StaffMember:
    """The `dpo` fixture's member, logged in to the admin as a DPO."""
    return staff(dpo)


@pytest.fixture
def auditor_staff(auditor: Caller) -> StaffMember:
    """An auditor of the DPO's organization, logged in to the admin."""
    return staff(auditor)


@pytest.fixture
def outsider_staff(outsider: Caller) -> StaffMember:
    """A DPO of another organization, logged in to the admin."""
    return staff(outsider)


@pytest.fixture
def document(dpo: Caller) -> LegalDocument:
    """A DPIA of the DPO's organization, generated (version 1, with content)."""
    return generated_document(dpo)


def other_member(organization, role: str = Role.DPO) -> StaffMember:  # type: ignore[no-untyped-def]
    return staff(make_caller(role, organization=organization))

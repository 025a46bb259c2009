"""Writes for organizations, members, client companies and API keys."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from audit.services import Actor, record_event
from organizations.keys import hash_key, new_raw_key
from organizations.models import ApiKey, ClientCompany, Membership, Organization, Plan, Role


@dataclass(frozen=True)
class IssuedKey:
    api_key: ApiKey
    raw_key: str  # shown once, never stored


@transaction.atomic
def organization_create(
    *, name: str, slug: str | None = None, plan: str = Plan.FREE
) -> Organization:
    return Organization.objects.create(name=name, slug=slug or slugify(name), plan=plan)


@transaction.atomic
def member_create(
    *, organization: Organization, email: str, role: str = Role.DPO, password: str | None = None
) -> Membership:
    """Create the user (by e-mail, also its username) and its membership."""
    user_model = get_user_model()
    user = user_model.objects.create_user(username=email, email=email, password=password)
    return Membership.objects.create(user=user, organization=organization, role=role)


@transaction.atomic
def api_key_create(
    *, membership: Membership, name: str = "", actor: Actor | None = None
) -> IssuedKey:
    """Issue a key for a member; the raw key is returned once and only its hash is kept."""
    prefix, raw_key = new_raw_key()
    api_key = ApiKey.objects.create(
        membership=membership, name=name, prefix=prefix, key_hash=hash_key(raw_key)
    )
    record_event(
        organization=membership.organization,
        actor=actor or Actor(label="system"),
        action="api_key.create",
        object_type="api_key",
        object_id=api_key.pk,
        details={"prefix": prefix, "member": membership.user.email},
    )
    return IssuedKey(api_key=api_key, raw_key=raw_key)


@transaction.atomic
def api_key_revoke(*, api_key: ApiKey, actor: Actor | None = None) -> ApiKey:
    if api_key.revoked_at is None:
        api_key.revoked_at = timezone.now()
        api_key.save(update_fields=["revoked_at"])
        record_event(
            organization=api_key.membership.organization,
            actor=actor or Actor(label="system"),
            action="api_key.revoke",
            object_type="api_key",
            object_id=api_key.pk,
            details={"prefix": api_key.prefix},
        )
    return api_key


@transaction.atomic
def client_company_create(
    *, organization: Organization, name: str, details: str | dict[str, Any]
) -> ClientCompany:
    return ClientCompany.objects.create(organization=organization, name=name, details=details)

"""Who the caller is within an organization: one place that every API view asks."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from rest_framework.request import Request

from audit.services import Actor
from organizations.authentication import client_ip
from organizations.models import ApiKey, Membership, Organization


def request_membership(request: Request) -> Membership | None:
    cached = getattr(request, "_membership", None)
    if cached is not None:
        return cached
    membership = None
    if isinstance(request.auth, ApiKey):
        membership = request.auth.membership
    elif request.user is not None and request.user.is_authenticated:
        try:
            membership = Membership.objects.select_related("organization", "user").get(
                user=request.user
            )
        except ObjectDoesNotExist:
            membership = None
    request._membership = membership  # type: ignore[attr-defined]
    return membership


def request_organization(request: Request) -> Organization | None:
    membership = request_membership(request)
    return membership.organization if membership else None


def request_actor(request: Request) -> Actor:
    user = request.user if request.user is not None and request.user.is_authenticated else None
    label = (user.email or user.get_username()) if user else "anonymous"
    key_prefix = request.auth.prefix if isinstance(request.auth, ApiKey) else None
    if key_prefix:
        label = f"{label} (key {key_prefix})"
    return Actor(
        label=label, user_id=user.pk if user else None, ip=client_ip(request), key_prefix=key_prefix
    )

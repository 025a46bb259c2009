"""What an API key resolves to (key, member, user, organization), cached for a few seconds.

Every API request authenticates; resolving the key from Redis instead of a four-table join
keeps reads fast. Any change to a key, a membership, a user or an organization forgets the
affected entries at once (signals below), so a revoked key, a deactivated user or a new role
takes effect on the next request; the short time to live bounds anything else.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Model
from django.db.models.signals import post_delete, post_save

from organizations.models import ApiKey, Membership, Organization

logger = logging.getLogger(__name__)

TIME_TO_LIVE_SECONDS = 30
_USER_FIELDS = ("id", "username", "email", "is_active", "is_staff", "is_superuser")
_MEMBERSHIP_FIELDS = ("id", "user_id", "organization_id", "role", "created_at")
_ORGANIZATION_FIELDS = ("id", "name", "slug", "plan", "container_name", "created_at")
_KEY_FIELDS = (
    "id", "membership_id", "name", "prefix", "key_hash", "created_at", "last_used_at",
    "revoked_at",
)  # fmt: skip


def _cache_key(prefix: str) -> str:
    return f"api-key:{prefix}"


def _in_model_order(model: type[Model], fields: tuple[str, ...]) -> list[str]:
    # Model.from_db pairs values with the model's concrete fields in their declared order.
    return [field.attname for field in model._meta.concrete_fields if field.attname in fields]


def _values(instance: Model, fields: tuple[str, ...]) -> list[Any]:
    return [getattr(instance, name) for name in _in_model_order(type(instance), fields)]


def _rebuild(model: type[Model], fields: tuple[str, ...], values: list[Any]) -> Any:
    # from_db: the other fields are deferred, so an accidental save() writes only these.
    return model.from_db("default", _in_model_order(model, fields), values)


def remember(api_key: ApiKey) -> None:
    membership = api_key.membership
    snapshot = {
        "key": _values(api_key, _KEY_FIELDS),
        "membership": _values(membership, _MEMBERSHIP_FIELDS),
        "user": _values(membership.user, _USER_FIELDS),
        "organization": _values(membership.organization, _ORGANIZATION_FIELDS),
    }
    try:
        cache.set(_cache_key(api_key.prefix), snapshot, TIME_TO_LIVE_SECONDS)
    except Exception:  # the cache is an optimisation; the database stays the truth
        logger.warning("could not cache API key %s", api_key.prefix, exc_info=True)


def api_key_by_prefix(prefix: str) -> ApiKey | None:
    """The key with its membership, user and organization (from the cache when fresh)."""
    try:
        snapshot = cache.get(_cache_key(prefix))
    except Exception:
        snapshot = None
    if snapshot is None:
        api_key = (
            ApiKey.objects.select_related("membership__user", "membership__organization")
            .filter(prefix=prefix)
            .first()
        )
        if api_key is not None:
            remember(api_key)
        return api_key
    user = _rebuild(get_user_model(), _USER_FIELDS, snapshot["user"])
    organization = _rebuild(Organization, _ORGANIZATION_FIELDS, snapshot["organization"])
    membership = _rebuild(Membership, _MEMBERSHIP_FIELDS, snapshot["membership"])
    membership.user = user
    membership.organization = organization
    api_key = _rebuild(ApiKey, _KEY_FIELDS, snapshot["key"])
    api_key.membership = membership
    return api_key


def forget(prefixes: list[str]) -> None:
    if not prefixes:
        return
    try:
        cache.delete_many([_cache_key(prefix) for prefix in prefixes])
    except Exception:
        logger.warning("could not forget cached API keys %s", prefixes, exc_info=True)


def _forget_key(sender: type[Model], instance: ApiKey, **kwargs: Any) -> None:
    forget([instance.prefix])


def _forget_membership(sender: type[Model], instance: Membership, **kwargs: Any) -> None:
    forget(list(ApiKey.objects.filter(membership_id=instance.pk).values_list("prefix", flat=True)))


def _forget_user(sender: type[Model], instance: Model, **kwargs: Any) -> None:
    forget(
        list(
            ApiKey.objects.filter(membership__user_id=instance.pk).values_list("prefix", flat=True)
        )
    )


def _forget_organization(sender: type[Model], instance: Organization, **kwargs: Any) -> None:
    forget(
        list(
            ApiKey.objects.filter(membership__organization_id=instance.pk).values_list(
                "prefix", flat=True
            )
        )
    )


def connect_signals() -> None:
    """Forget cached keys whenever what they resolve to changes (called from AppConfig)."""
    for model, receiver in (
        (ApiKey, _forget_key),
        (Membership, _forget_membership),
        (get_user_model(), _forget_user),
        (Organization, _forget_organization),
    ):
        post_save.connect(receiver, sender=model, dispatch_uid=f"key-cache-{model.__name__}")
        post_delete.connect(receiver, sender=model, dispatch_uid=f"key-cache-del-{model.__name__}")

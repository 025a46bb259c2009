"""What an API key resolves to (key, member, user, organization), cached for a few seconds.

Every API request authenticates; resolving the key from Redis instead of a four-table join
keeps reads fast. Any change to a key, a membership, a user or an organization forgets the
affected entries at once (signals below), so a revoked key, a deactivated user or a new role
takes effect on the next request; the short time to live bounds anything else.

A request that read a key just before its revocation must not write it back into the cache
after the revocation forgot it. Each prefix has a generation counter: forgetting bumps it
(at once, and again when the transaction commits, since a request in between still reads the
old row), a snapshot records the generation read before the database was, and a snapshot of
an older generation is ignored.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models import Model
from django.db.models.signals import post_delete, post_save

from organizations.models import ApiKey, Membership, Organization

logger = logging.getLogger(__name__)

TIME_TO_LIVE_SECONDS = 30
# Far longer than a snapshot lives: a counter expiring resets to 0 only once every snapshot
# written under an older value has expired too.
GENERATION_TIME_TO_LIVE_SECONDS = 24 * 3600
_USER_FIELDS = ("id", "username", "email", "is_active", "is_staff", "is_superuser")
_MEMBERSHIP_FIELDS = ("id", "user_id", "organization_id", "role", "created_at")
_ORGANIZATION_FIELDS = ("id", "name", "slug", "plan", "container_name", "created_at")
_KEY_FIELDS = (
    "id", "membership_id", "name", "prefix", "key_hash", "created_at", "last_used_at",
    "revoked_at",
)  # fmt: skip


def _cache_key(prefix: str) -> str:
    return f"api-key:{prefix}"


def _generation_key(prefix: str) -> str:
    return f"api-key-generation:{prefix}"


def current_generation(prefix: str) -> int | None:
    """The prefix's generation (0 if never forgotten); None when the cache cannot say."""
    try:
        return int(cache.get(_generation_key(prefix), 0))
    except Exception:
        return None


def _in_model_order(model: type[Model], fields: tuple[str, ...]) -> list[str]:
    # Model.from_db pairs values with the model's concrete fields in their declared order.
    return [field.attname for field in model._meta.concrete_fields if field.attname in fields]


def _values(instance: Model, fields: tuple[str, ...]) -> list[Any]:
    return [getattr(instance, name) for name in _in_model_order(type(instance), fields)]


def _rebuild(model: type[Model], fields: tuple[str, ...], values: list[Any]) -> Any:
    # from_db: the other fields are deferred, so an accidental save() writes only these.
    return model.from_db("default", _in_model_order(model, fields), values)


def remember(api_key: ApiKey) -> None:
    """Cache what `api_key_by_prefix` returned, unless the key was forgotten since it was read.

    Keys not read through `api_key_by_prefix` carry no generation and are not cached.
    """
    generation = getattr(api_key, "_cache_generation", None)
    if generation is None:
        return
    membership = api_key.membership
    snapshot = {
        "generation": generation,
        "key": _values(api_key, _KEY_FIELDS),
        "membership": _values(membership, _MEMBERSHIP_FIELDS),
        "user": _values(membership.user, _USER_FIELDS),
        "organization": _values(membership.organization, _ORGANIZATION_FIELDS),
    }
    try:
        cache.set(_cache_key(api_key.prefix), snapshot, TIME_TO_LIVE_SECONDS)
    except Exception:  # the cache is an optimisation; the database stays the truth
        logger.warning("could not cache API key %s", api_key.prefix, exc_info=True)


def api_key_by_prefix(
    prefix: str, *, before_database: Callable[[], None] | None = None
) -> ApiKey | None:
    """The key with its membership, user and organization (from the cache when fresh).

    `before_database` runs only when the database must be asked (a cache miss); it may
    raise to refuse the lookup (the caller's limit on failed keys).
    """
    try:
        found = cache.get_many([_cache_key(prefix), _generation_key(prefix)])
        snapshot = found.get(_cache_key(prefix))
        generation: int | None = int(found.get(_generation_key(prefix), 0))
    except Exception:
        snapshot, generation = None, None
    if snapshot is None or snapshot.get("generation") != generation:
        if before_database is not None:
            before_database()
        # The generation is read before the row: a revocation committed after this read
        # bumps it, so what is cached below is ignored from then on.
        api_key = (
            ApiKey.objects.select_related("membership__user", "membership__organization")
            .filter(prefix=prefix)
            .first()
        )
        if api_key is not None:
            api_key._cache_generation = generation  # type: ignore[attr-defined]
            remember(api_key)
        return api_key
    user = _rebuild(get_user_model(), _USER_FIELDS, snapshot["user"])
    organization = _rebuild(Organization, _ORGANIZATION_FIELDS, snapshot["organization"])
    membership = _rebuild(Membership, _MEMBERSHIP_FIELDS, snapshot["membership"])
    membership.user = user
    membership.organization = organization
    api_key = _rebuild(ApiKey, _KEY_FIELDS, snapshot["key"])
    api_key.membership = membership
    api_key._cache_generation = generation  # type: ignore[attr-defined]
    return api_key


def _forget_now(prefixes: list[str]) -> None:
    try:
        for prefix in prefixes:
            key = _generation_key(prefix)
            if not cache.add(key, 1, timeout=GENERATION_TIME_TO_LIVE_SECONDS):
                cache.incr(key)
        cache.delete_many([_cache_key(prefix) for prefix in prefixes])
    except Exception:
        logger.warning("could not forget cached API keys %s", prefixes, exc_info=True)


def forget(prefixes: list[str]) -> None:
    """Invalidate the entries now and again once the current transaction commits."""
    if not prefixes:
        return
    _forget_now(prefixes)
    # Until the commit, other connections still read the old rows and may cache them.
    transaction.on_commit(lambda: _forget_now(prefixes), robust=True)


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

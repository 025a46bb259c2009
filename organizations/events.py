"""What goes to WebSocket groups when a member's access ends: close their open sockets.

Every document socket joins the group of its member and, when opened with an API key, the
group of that key (legal_documents/consumers.py). Revoking or deleting the key, deactivating
the user, changing or removing the membership sends `access.ended` to the group once the
transaction commits; the consumer then closes with 4401, and the client must reconnect with
what it is allowed now. The receivers below only enqueue that message.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Model
from django.db.models.signals import post_delete, post_save, pre_save

from common.channel_groups import send_to_group
from organizations.models import ApiKey, Membership

logger = logging.getLogger(__name__)

ACCESS_ENDED = "access.ended"


def member_group(membership_id: Any) -> str:
    return f"member.{membership_id}"


def api_key_group(api_key_id: Any) -> str:
    return f"api-key.{api_key_id}"


def send_access_ended(*, groups: list[str]) -> None:
    """After commit, tell the sockets of `groups` to close (best effort: logged on failure)."""

    def send() -> None:
        for group in groups:
            try:
                send_to_group(group, {"type": ACCESS_ENDED})
            except Exception:
                logger.warning("could not close the sockets of %s", group, exc_info=True)

    if groups:
        transaction.on_commit(send, robust=True)


def _api_key_saved(sender: type[Model], instance: ApiKey, **kwargs: Any) -> None:
    if instance.revoked_at is not None:
        send_access_ended(groups=[api_key_group(instance.pk)])


def _api_key_deleted(sender: type[Model], instance: ApiKey, **kwargs: Any) -> None:
    send_access_ended(groups=[api_key_group(instance.pk)])


def _membership_before_save(sender: type[Model], instance: Membership, **kwargs: Any) -> None:
    if instance._state.adding:
        return
    instance._role_before_save = (  # type: ignore[attr-defined]
        Membership.objects.filter(pk=instance.pk).values_list("role", flat=True).first()
    )


def _membership_saved(sender: type[Model], instance: Membership, **kwargs: Any) -> None:
    before = getattr(instance, "_role_before_save", None)
    if before is not None and before != instance.role:
        send_access_ended(groups=[member_group(instance.pk)])


def _membership_deleted(sender: type[Model], instance: Membership, **kwargs: Any) -> None:
    send_access_ended(groups=[member_group(instance.pk)])


def _user_saved(sender: type[Model], instance: Any, **kwargs: Any) -> None:
    if not instance.is_active:
        memberships = Membership.objects.filter(user_id=instance.pk).values_list("pk", flat=True)
        send_access_ended(groups=[member_group(pk) for pk in memberships])


def connect_signals() -> None:
    """Called from AppConfig.ready."""
    user_model = get_user_model()
    for signal, receiver, model in (
        (post_save, _api_key_saved, ApiKey),
        (post_delete, _api_key_deleted, ApiKey),
        (pre_save, _membership_before_save, Membership),
        (post_save, _membership_saved, Membership),
        (post_delete, _membership_deleted, Membership),
        (post_save, _user_saved, user_model),
    ):
        signal.connect(receiver, sender=model, dispatch_uid=f"sockets-{receiver.__name__}")

"""The admin's second factor: who must use one, enrolment, recovery codes, reset (services).

A member proves a second factor with a TOTP authenticator app (django-otp's TOTPDevice) or,
once each, one of their recovery codes (a StaticDevice's tokens, deleted when used). Who must:

- superusers, and staff without an organization (nothing narrower can be said of them);
- members whose role is in ADMIN_OTP_REQUIRED_ROLES (organization admins and auditors by
  default: they hold the API keys and read every record);
- anyone who enrolled, whatever their role (a DPO who chose a second factor gets asked for it:
  a factor that could be skipped would protect nothing).

The admin site (organizations/admin_site.py) refuses every page to a session of such a user
until it is verified, and the API and WebSocket refuse such a session as credentials
(organizations/authentication.py, organizations/websocket_auth.py); API keys are unaffected.
Enrolment, regenerated codes, a used recovery code and a reset are audited in the member's
organization (`member.second_factor`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from audit.services import Actor, record_event
from organizations.models import Membership, Role

RECOVERY_CODES = 10
TOTP_DEVICE_NAME = "Authenticator app"
RECOVERY_DEVICE_NAME = "Recovery codes"
SETTING = "ADMIN_OTP_REQUIRED_ROLES"


def required_roles() -> frozenset[str]:
    """The roles of ADMIN_OTP_REQUIRED_ROLES; ImproperlyConfigured for an unknown role."""
    roles = frozenset(role.strip().lower() for role in settings.ADMIN_OTP_REQUIRED_ROLES)
    roles -= {""}
    unknown = roles - set(Role.values)
    if unknown:
        raise ImproperlyConfigured(
            f"{SETTING}: unknown role(s) {', '.join(sorted(unknown))}; "
            f"known roles: {', '.join(Role.values)}."
        )
    return roles


def second_factor_required(*, user: Any) -> bool:
    """Whether the user's role obliges them to a second factor (enrolled or not)."""
    if user.is_superuser:
        return True
    membership = Membership.objects.filter(user=user).only("role").first()
    if membership is None:
        # Staff made by hand, outside any organization: the strict rule. A user with neither
        # staff status nor an organization has nothing to protect (refused everywhere).
        return bool(user.is_staff)
    return membership.role in required_roles()


def totp_device(*, user: Any, confirmed: bool = True) -> TOTPDevice | None:
    return TOTPDevice.objects.filter(user=user, confirmed=confirmed).first()


def has_second_factor(*, user: Any) -> bool:
    """Whether the user enrolled an authenticator app."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def second_factor_needed(*, user: Any) -> bool:
    """Whether a session of this user must be verified: required, or enrolled by choice."""
    return second_factor_required(user=user) or has_second_factor(user=user)


def session_verified(*, user: Any, session: SessionBase) -> bool:
    """Whether the session passed the second factor with a device of this user that is still
    there (a reset deletes the devices, which unverifies every session at once)."""
    persistent_id = session.get(DEVICE_ID_SESSION_KEY)
    if not persistent_id:
        return False
    device = Device.from_persistent_id(persistent_id)
    return device is not None and device.user_id == user.pk and device.confirmed


def session_passes(*, user: Any, session: SessionBase) -> bool:
    """Whether a logged-in session may act: verified, or its user needs no second factor."""
    return session_verified(user=user, session=session) or not second_factor_needed(user=user)


def _organization(user: Any) -> Any:
    membership = Membership.objects.select_related("organization").filter(user=user).first()
    return membership.organization if membership else None


def _audit(*, user: Any, actor: Actor, event: str, **details: Any) -> None:
    record_event(
        organization=_organization(user),
        actor=actor,
        action="member.second_factor",
        object_type="user",
        object_id=user.pk,
        details={"event": event, "member": user.email or user.get_username(), **details},
    )


def enrolment_device(*, user: Any) -> TOTPDevice:
    """The authenticator device being enrolled: the pending one, or a new secret.

    Refused (ValueError) once an app is enrolled: replacing it takes a reset, so a stolen
    password alone can never swap the member's second factor.
    """
    if has_second_factor(user=user):
        raise ValueError("an authenticator app is already enrolled")
    pending = totp_device(user=user, confirmed=False)
    if pending is not None:
        return pending
    return TOTPDevice.objects.create(user=user, name=TOTP_DEVICE_NAME, confirmed=False)


def _new_recovery_codes(*, user: Any) -> list[str]:
    device, _ = StaticDevice.objects.get_or_create(
        user=user, defaults={"name": RECOVERY_DEVICE_NAME, "confirmed": True}
    )
    device.token_set.all().delete()
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


@transaction.atomic
def enrolment_confirm(*, user: Any, token: str, actor: Actor) -> tuple[TOTPDevice, list[str]]:
    """Confirm the pending authenticator with a code it shows; returns the device and the new
    recovery codes (shown once: only they exist in clear). ValueError for a wrong code."""
    device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=False).first()
    if device is None or not device.verify_token(token.strip()):
        raise ValueError("wrong code")
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    codes = _new_recovery_codes(user=user)
    _audit(user=user, actor=actor, event="enrolled", recoveryCodes=len(codes))
    return device, codes


@transaction.atomic
def recovery_codes_regenerate(*, user: Any, actor: Actor) -> list[str]:
    """Replace the member's recovery codes (the old ones stop working); shown once."""
    if not has_second_factor(user=user):
        raise ValueError("no second factor enrolled")
    codes = _new_recovery_codes(user=user)
    _audit(user=user, actor=actor, event="recovery_codes_regenerated", recoveryCodes=len(codes))
    return codes


def recovery_codes_left(*, user: Any) -> int:
    return StaticToken.objects.filter(device__user=user).count()


def _looks_like_app_code(token: str) -> bool:
    return token.isdigit() and len(token) in (6, 8)


@transaction.atomic
def second_factor_verify(*, user: Any, token: str, actor: Actor) -> Device | None:
    """The device that accepts the code: the authenticator app (6 digits) or a recovery code,
    which is deleted as it is used (audited). None when no device accepts it (each device
    also counts its failures and delays the next try: django-otp's throttling)."""
    token = "".join(token.split()).lower()
    if not token:
        return None
    if _looks_like_app_code(token):
        device: Device | None = totp_device(user=user)
    else:
        device = StaticDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        return None
    locked = type(device).objects.select_for_update().get(pk=device.pk)
    if not locked.verify_token(token):
        return None
    if isinstance(locked, StaticDevice):
        _audit(
            user=user,
            actor=actor,
            event="recovery_code_used",
            recoveryCodesLeft=recovery_codes_left(user=user),
        )
    return locked


@transaction.atomic
def second_factor_reset(*, user: Any, actor: Actor) -> bool:
    """Delete the member's authenticator and recovery codes (a lost phone); their sessions stop
    being verified at once and their next admin visit enrols again. Audited in the member's
    organization; False when there was nothing to reset."""
    deleted = 0
    for model in (TOTPDevice, StaticDevice):
        deleted += model.objects.filter(user=user).delete()[0]
    _audit(user=user, actor=actor, event="reset")
    return deleted > 0

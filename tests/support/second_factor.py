"""The admin's second factor in tests: an enrolled authenticator and a verified session."""

from __future__ import annotations

import time
from typing import Any

from django.test import Client
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice


def enrolled_device(user: Any) -> TOTPDevice:
    """The user's confirmed authenticator app (made once)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device or TOTPDevice.objects.create(user=user, name="test app", confirmed=True)


def code(key: bytes, *, steps_ahead: int = 0, step: int = 30, digits: int = 6) -> str:
    """The code an authenticator app shows for the secret `key` now (or `steps_ahead` later:
    a code is accepted once, and the next time step's is accepted too)."""
    value = totp(key, step=step, t0=0, digits=digits, drift=steps_ahead)
    return str(value).zfill(digits)


def device_code(device: TOTPDevice, *, steps_ahead: int = 0) -> str:
    return code(device.bin_key, steps_ahead=steps_ahead, step=device.step, digits=device.digits)


def time_step(*, step: int = 30) -> int:
    """The TOTP time step of now."""
    return int(time.time() // step)


def code_after(key: bytes, *, last_step: int, step: int = 30) -> tuple[str, int]:
    """A code the server accepts after the code of `last_step` was used (each code works once;
    the next step's is accepted too), and its step."""
    now = time_step(step=step)
    chosen = max(now, last_step + 1)
    return code(key, steps_ahead=chosen - now, step=step), chosen


def fresh_device_code(device: TOTPDevice) -> str:
    """A code of the device that it has not accepted yet."""
    device.refresh_from_db()
    return code_after(device.bin_key, last_step=device.last_t, step=device.step)[0]


def verified_login(client: Client, user: Any) -> Client:
    """Log the user in as the admin's two steps would: password, then their authenticator
    (enrolled for the occasion), without going through the forms."""
    device = enrolled_device(user)
    client.force_login(user)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return client

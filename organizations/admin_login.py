"""The admin's login form, with failed attempts bounded per user name and per address.

Counted in the shared Redis (common/throttling.py), so every web process counts together.
A blocked name or address is refused before the password is checked, with a message on the
login page; other names from other addresses log in as usual. A successful login clears the
name's count.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

from common.throttling import count_in_window, reset_window

logger = logging.getLogger(__name__)

MAX_FAILURES_PER_USERNAME = 5
MAX_FAILURES_PER_ADDRESS = 20
WINDOW_SECONDS = 15 * 60


def _counters(username: str, address: str) -> tuple[str, str]:
    return (
        f"admin-login-failures:name:{username.strip().lower()}",
        f"admin-login-failures:address:{address}",
    )


class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "throttled": gettext_lazy(
            "Too many failed logins for this account or from this address. "
            "Try again in %(minutes)s minutes."
        ),
    }

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        address = (self.request.META.get("REMOTE_ADDR") if self.request else None) or "unknown"
        by_name, by_address = _counters(username, address)
        wait = self._blocked_for(by_name, by_address)
        if wait:
            raise ValidationError(
                self.error_messages["throttled"],
                code="throttled",
                params={"minutes": max(1, math.ceil(wait / 60))},
            )
        try:
            cleaned = super().clean()
        except ValidationError:
            self._count_failure(by_name, by_address)
            raise
        reset_window(by_name)
        return cleaned

    @staticmethod
    def _blocked_for(by_name: str, by_address: str) -> int:
        """Seconds until the name or address may try again; 0 when it may now."""
        try:
            name_failures, name_wait = count_in_window(by_name, WINDOW_SECONDS, increment=0)
            address_failures, address_wait = count_in_window(
                by_address, WINDOW_SECONDS, increment=0
            )
        except Exception:  # Redis down: the login still works, like the API's throttles
            logger.warning("could not read the admin login failures", exc_info=True)
            return 0
        waits = []
        if name_failures >= MAX_FAILURES_PER_USERNAME:
            waits.append(name_wait)
        if address_failures >= MAX_FAILURES_PER_ADDRESS:
            waits.append(address_wait)
        return max(waits, default=0)

    @staticmethod
    def _count_failure(by_name: str, by_address: str) -> None:
        try:
            count_in_window(by_name, WINDOW_SECONDS)
            count_in_window(by_address, WINDOW_SECONDS)
        except Exception:
            logger.warning("could not count a failed admin login", exc_info=True)

"""Rate limits per user, on the shared cache (Redis), so every web process counts together.

Writes (POST, PATCH, PUT, DELETE) and reads have separate budgets: polling a document
must not use up the budget for starting work. Rates come from settings at request time,
so a test can change them with override_settings.
"""

from __future__ import annotations

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


class _UserRateThrottle(SimpleRateThrottle):
    setting_name = ""

    def __init__(self) -> None:
        # SimpleRateThrottle reads THROTTLE_RATES at import time; ours are read per request.
        pass

    def applies_to(self, request: Request) -> bool:
        raise NotImplementedError

    def allow_request(self, request: Request, view: object) -> bool:
        if not self.applies_to(request):
            return True
        self.rate = getattr(settings, self.setting_name)
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request: Request, view: object) -> str | None:
        user = request.user
        ident = user.pk if user is not None and user.is_authenticated else self.get_ident(request)
        return f"throttle:{self.scope}:{ident}"


class WriteRateThrottle(_UserRateThrottle):
    scope = "writes"
    setting_name = "RATE_LIMIT_WRITES"

    def applies_to(self, request: Request) -> bool:
        return request.method not in SAFE_METHODS


class ReadRateThrottle(_UserRateThrottle):
    scope = "reads"
    setting_name = "RATE_LIMIT_READS"

    def applies_to(self, request: Request) -> bool:
        return request.method in SAFE_METHODS

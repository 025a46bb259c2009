"""Keep the error envelope on API paths for what DRF never sees.

Unknown URLs, Django's own 404/500 pages and exceptions outside DRF views would otherwise
answer HTML (with a stack trace when DEBUG is on). On API paths this middleware answers the
envelope instead; the rest of the site (admin) is untouched.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from common.api_paths import is_api_path
from common.errors import envelope_for_exception, error_response

logger = logging.getLogger(__name__)

_STATUS_CODES = {
    400: ("VALIDATION_ERROR", "Bad request."),
    403: ("PERMISSION_DENIED", "Forbidden."),
    404: ("NOT_FOUND", "Not found."),
    405: ("METHOD_NOT_ALLOWED", "Method not allowed."),
    413: ("FILE_TOO_LARGE", "The request body is too large."),
    500: ("INTERNAL_ERROR", "An internal error occurred."),
    503: ("SERVICE_UNAVAILABLE", "A backing service is unavailable; retry shortly."),
}


class ApiErrorEnvelopeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not is_api_path(request.path) or response.status_code < 400:
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        code, message = _STATUS_CODES.get(
            response.status_code, ("INTERNAL_ERROR", "An internal error occurred.")
        )
        replacement = error_response(response.status_code, code, message)
        for header in ("Allow", "Retry-After", "WWW-Authenticate"):
            if header in response:
                replacement[header] = response[header]
        return replacement

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_api_path(request.path):
            return None
        return envelope_for_exception(exception)

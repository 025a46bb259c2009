"""One error envelope for the whole API: `{"error": {"message", "code", "details"}}`.

Services raise `ApiError` (or DRF's own exceptions); `api_exception_handler` turns every
exception into the envelope, and `common.middleware` does the same for what never reaches
DRF (unknown URLs, Django's own 404/500).
"""

from __future__ import annotations

import logging
from typing import Any

import redis.exceptions
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import DatabaseError, DataError, InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

logger = logging.getLogger(__name__)


class ApiError(exceptions.APIException):
    """An error with an API code from docs/API.md; raise it from services and views."""

    def __init__(
        self, code: str, message: str, *, status_code: int = 400, details: Any = None,
        headers: dict[str, str] | None = None,
    ) -> None:  # fmt: skip
        super().__init__(detail=message, code=code)
        self.code = code
        self.message = message
        self.status_code = status_code
        self.details = details
        self.headers = headers or {}


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {"error": {"message": message, "code": code, "details": details}}


def error_response(status_code: int, code: str, message: str, details: Any = None) -> JsonResponse:
    """The envelope as a plain Django response, for code outside DRF views."""
    return JsonResponse(error_body(code, message, details), status=status_code)


# Errors of the infrastructure a request depends on: the client can retry later.
UNAVAILABLE_ERRORS = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    OperationalError,
    InterfaceError,
)


def _contains_code(detail: Any, code: str) -> bool:
    if isinstance(detail, dict):
        return any(_contains_code(value, code) for value in detail.values())
    if isinstance(detail, list):
        return any(_contains_code(value, code) for value in detail)
    return getattr(detail, "code", None) == code


def _describe(exc: Exception) -> tuple[int, str, str, Any, dict[str, str]]:
    """Map an exception to (status, code, message, details, headers)."""
    if isinstance(exc, ApiError):
        return exc.status_code, exc.code, exc.message, exc.details, exc.headers
    if isinstance(exc, exceptions.ValidationError):
        if _contains_code(exc.detail, "CONTENT_TOO_LONG"):
            return (
                400,
                "CONTENT_TOO_LONG",
                "A text field is over 100,000 characters.",
                exc.detail,
                {},
            )
        return 400, "VALIDATION_ERROR", "The request is not valid.", exc.detail, {}
    if isinstance(exc, exceptions.ParseError):
        return 400, "VALIDATION_ERROR", f"Malformed request body: {exc.detail}", None, {}
    if isinstance(exc, exceptions.NotAuthenticated):
        return (
            401,
            "AUTHENTICATION_REQUIRED",
            "Authentication credentials were not provided.",
            None,
            {"WWW-Authenticate": "Bearer"},
        )
    if isinstance(exc, exceptions.AuthenticationFailed):
        return 401, "INVALID_API_KEY", str(exc.detail), None, {"WWW-Authenticate": "Bearer"}
    if isinstance(exc, exceptions.PermissionDenied | DjangoPermissionDenied):
        detail = getattr(exc, "detail", "You do not have permission to perform this action.")
        return 403, "PERMISSION_DENIED", str(detail), None, {}
    if isinstance(exc, exceptions.NotFound | Http404):
        return 404, "NOT_FOUND", "Not found.", None, {}
    if isinstance(exc, exceptions.MethodNotAllowed):
        return 405, "METHOD_NOT_ALLOWED", str(exc.detail), None, {}
    if isinstance(exc, exceptions.NotAcceptable):
        return 406, "NOT_ACCEPTABLE", str(exc.detail), None, {}
    if isinstance(exc, exceptions.UnsupportedMediaType):
        # docs/API.md has one 415 code: the body's type is not one the endpoint accepts.
        return 415, "INVALID_FILE_TYPE", str(exc.detail), None, {}
    if isinstance(exc, RequestDataTooBig):
        message = "The request body is too large; send files with POST /api/v1/assets/upload."
        return 413, "FILE_TOO_LARGE", message, None, {}
    if isinstance(exc, SuspiciousOperation):
        # TooManyFieldsSent, TooManyFilesSent, bad Host... : the client's request, not a bug.
        logger.warning("Suspicious request refused: %s", exc)
        return 400, "VALIDATION_ERROR", "The request was refused as malformed.", None, {}
    if isinstance(exc, exceptions.Throttled):
        wait = max(1, int(exc.wait or 1))
        message = f"Too many requests; retry in {wait} seconds."
        return 429, "RATE_LIMITED", message, {"retryAfter": wait}, {"Retry-After": str(wait)}
    if isinstance(exc, UNAVAILABLE_ERRORS):
        logger.warning("Service unavailable: %s", exc)
        message = "A backing service is unavailable; retry shortly."
        return 503, "SERVICE_UNAVAILABLE", message, None, {"Retry-After": "5"}
    if isinstance(exc, exceptions.APIException):
        return exc.status_code, str(exc.default_code).upper(), str(exc.detail), None, {}
    if isinstance(exc, DataError):
        # A value the serializers let through but the column refuses (too long, out of
        # range): the client's input, not our outage. Logged, since a serializer is too lax.
        logger.warning("Input refused by the database: %s", exc)
        message = "A value is too long or out of range."
        return 400, "VALIDATION_ERROR", message, None, {}
    if isinstance(exc, DatabaseError):
        logger.exception("Database error")
    else:
        logger.exception("Unhandled error")
    return 500, "INTERNAL_ERROR", "An internal error occurred.", None, {}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF's EXCEPTION_HANDLER: every exception of a view becomes the envelope."""
    status_code, code, message, details, headers = _describe(exc)
    if status_code >= status.HTTP_500_INTERNAL_SERVER_ERROR:
        set_rollback()
    return Response(error_body(code, message, details), status=status_code, headers=headers)


def envelope_for_exception(exc: Exception) -> JsonResponse:
    """The envelope for an exception raised outside DRF (middleware, plain views)."""
    status_code, code, message, details, headers = _describe(exc)
    response = error_response(status_code, code, message, details)
    for name, value in headers.items():
        response[name] = value
    return response

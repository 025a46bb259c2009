"""One error envelope for the whole API: `{"error": {"message", "code", "details"}}`.

Services raise domain errors (`common.domain.DomainError` subclasses, framework-free);
views may raise `ApiError` for what is HTTP-level. `HTTP_ERRORS` is the one table from an
exception type to (status, code, message, details, headers): `api_exception_handler` (DRF)
and `common.middleware` (what never reaches DRF: unknown URLs, Django's own 404/500) both
answer from it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import redis.exceptions
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import DatabaseError, DataError, InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from common.domain import (
    Conflict,
    DomainError,
    InvalidInput,
    LimitReached,
    NotFound,
    PermissionRefused,
    TooLarge,
    Unavailable,
    Unprocessable,
    UnsupportedType,
)

logger = logging.getLogger(__name__)


class ApiError(exceptions.APIException):
    """An HTTP-level error with an API code from docs/API.md, raised by a view.

    Services raise `common.domain.DomainError` subclasses instead.
    """

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


class Described(NamedTuple):
    """What the client is told about an exception."""

    status: int
    code: str
    message: str
    details: Any = None
    headers: Mapping[str, str] = {}


Rule = Callable[[Any], Described]

# The status of each kind of domain error; a situation (GenerationLimitReached...) derives
# from one kind, so its status follows from its place in the hierarchy.
DOMAIN_STATUS: dict[type[DomainError], int] = {
    InvalidInput: 400,
    PermissionRefused: 403,
    NotFound: 404,
    Conflict: 409,
    TooLarge: 413,
    UnsupportedType: 415,
    Unprocessable: 422,
    LimitReached: 429,
    Unavailable: 503,
}

BEARER = {"WWW-Authenticate": "Bearer"}
RETRY_AFTER_OUTAGE_SECONDS = 5
INTERNAL = Described(500, "INTERNAL_ERROR", "An internal error occurred.")


def _contains_code(detail: Any, code: str) -> bool:
    if isinstance(detail, dict):
        return any(_contains_code(value, code) for value in detail.values())
    if isinstance(detail, list):
        return any(_contains_code(value, code) for value in detail)
    return getattr(detail, "code", None) == code


def _domain(exc: DomainError) -> Described:
    status_code = next((DOMAIN_STATUS[k] for k in type(exc).__mro__ if k in DOMAIN_STATUS), None)
    if status_code is None:
        # A situation outside every kind: a programming error, not the client's.
        logger.error("Domain error %s has no kind in DOMAIN_STATUS", type(exc).__name__)
        return INTERNAL
    headers = {} if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
    return Described(status_code, exc.code, exc.message, exc.details, headers)


def _api_error(exc: ApiError) -> Described:
    return Described(exc.status_code, exc.code, exc.message, exc.details, exc.headers)


def _validation(exc: exceptions.ValidationError) -> Described:
    if _contains_code(exc.detail, "CONTENT_TOO_LONG"):
        message = "A text field is over 100,000 characters."
        return Described(400, "CONTENT_TOO_LONG", message, exc.detail)
    return Described(400, "VALIDATION_ERROR", "The request is not valid.", exc.detail)


def _parse(exc: exceptions.ParseError) -> Described:
    return Described(400, "VALIDATION_ERROR", f"Malformed request body: {exc.detail}")


def _not_authenticated(exc: exceptions.NotAuthenticated) -> Described:
    message = "Authentication credentials were not provided."
    return Described(401, "AUTHENTICATION_REQUIRED", message, headers=BEARER)


def _authentication_failed(exc: exceptions.AuthenticationFailed) -> Described:
    return Described(401, "INVALID_API_KEY", str(exc.detail), headers=BEARER)


def _permission_denied(exc: Exception) -> Described:
    detail = getattr(exc, "detail", "You do not have permission to perform this action.")
    return Described(403, "PERMISSION_DENIED", str(detail))


def _not_found(exc: Exception) -> Described:
    return Described(404, "NOT_FOUND", "Not found.")


def _with_detail(status_code: int, code: str) -> Rule:
    """The status and code given, DRF's own message."""

    def rule(exc: exceptions.APIException) -> Described:
        return Described(status_code, code, str(exc.detail))

    return rule


def _request_too_big(exc: RequestDataTooBig) -> Described:
    message = "The request body is too large; send files with POST /api/v1/assets/upload."
    return Described(413, "FILE_TOO_LARGE", message)


def _suspicious(exc: SuspiciousOperation) -> Described:
    # TooManyFieldsSent, TooManyFilesSent, bad Host... : the client's request, not a bug.
    logger.warning("Suspicious request refused: %s", exc)
    return Described(400, "VALIDATION_ERROR", "The request was refused as malformed.")


def _throttled(exc: exceptions.Throttled) -> Described:
    wait = max(1, int(exc.wait or 1))
    message = f"Too many requests; retry in {wait} seconds."
    return Described(429, "RATE_LIMITED", message, {"retryAfter": wait}, {"Retry-After": str(wait)})


def _unavailable(exc: Exception) -> Described:
    # Errors of the infrastructure a request depends on: the client can retry later.
    logger.warning("Service unavailable: %s", exc)
    message = "A backing service is unavailable; retry shortly."
    headers = {"Retry-After": str(RETRY_AFTER_OUTAGE_SECONDS)}
    return Described(503, "SERVICE_UNAVAILABLE", message, headers=headers)


def _other_api_exception(exc: exceptions.APIException) -> Described:
    return Described(exc.status_code, str(exc.default_code).upper(), str(exc.detail))


def _data_error(exc: DataError) -> Described:
    # A value the serializers let through but the column refuses (too long, out of
    # range): the client's input, not our outage. Logged, since a serializer is too lax.
    logger.warning("Input refused by the database: %s", exc)
    return Described(400, "VALIDATION_ERROR", "A value is too long or out of range.")


def _database_error(exc: DatabaseError) -> Described:
    logger.exception("Database error")
    return INTERNAL


def _unhandled(exc: BaseException) -> Described:
    logger.exception("Unhandled error")
    return INTERNAL


# The one table: the most specific class of the exception's MRO found here decides.
HTTP_ERRORS: dict[type[BaseException], Rule] = {
    DomainError: _domain,
    ApiError: _api_error,
    exceptions.ValidationError: _validation,
    exceptions.ParseError: _parse,
    exceptions.NotAuthenticated: _not_authenticated,
    exceptions.AuthenticationFailed: _authentication_failed,
    exceptions.PermissionDenied: _permission_denied,
    DjangoPermissionDenied: _permission_denied,
    exceptions.NotFound: _not_found,
    Http404: _not_found,
    exceptions.MethodNotAllowed: _with_detail(405, "METHOD_NOT_ALLOWED"),
    exceptions.NotAcceptable: _with_detail(406, "NOT_ACCEPTABLE"),
    # docs/API.md has one 415 code: the body's type is not one the endpoint accepts.
    exceptions.UnsupportedMediaType: _with_detail(415, "INVALID_FILE_TYPE"),
    RequestDataTooBig: _request_too_big,
    SuspiciousOperation: _suspicious,
    exceptions.Throttled: _throttled,
    redis.exceptions.ConnectionError: _unavailable,
    redis.exceptions.TimeoutError: _unavailable,
    OperationalError: _unavailable,
    InterfaceError: _unavailable,
    exceptions.APIException: _other_api_exception,
    DataError: _data_error,
    DatabaseError: _database_error,
}


def describe(exc: BaseException) -> Described:
    """What the client is told about `exc`, from `HTTP_ERRORS`."""
    for cls in type(exc).__mro__:
        rule = HTTP_ERRORS.get(cls)
        if rule is not None:
            return rule(exc)
    return _unhandled(exc)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF's EXCEPTION_HANDLER: every exception of a view becomes the envelope."""
    status_code, code, message, details, headers = describe(exc)
    if status_code >= status.HTTP_500_INTERNAL_SERVER_ERROR:
        set_rollback()
    return Response(error_body(code, message, details), status=status_code, headers=dict(headers))


def envelope_for_exception(exc: Exception) -> JsonResponse:
    """The envelope for an exception raised outside DRF (middleware, plain views)."""
    status_code, code, message, details, headers = describe(exc)
    response = error_response(status_code, code, message, details)
    for name, value in headers.items():
        response[name] = value
    return response

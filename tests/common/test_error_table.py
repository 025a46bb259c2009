"""The one table from exception type to HTTP answer (common.errors.HTTP_ERRORS).

Every domain error of every app is answered with its kind's status, its own code and
message, its details, and Retry-After when waiting is the remedy. Pure unit tests: no
request is made, the handler is called as DRF calls it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import redis.exceptions
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import DatabaseError, DataError, OperationalError
from django.http import Http404
from rest_framework import exceptions

import assets.exceptions
import common.domain
import legal_documents.exceptions
import register.exceptions
import register.importing.errors
import reviews.exceptions
import webhooks.exceptions
from common.domain import ContentTooLong, DomainError
from common.errors import (
    DOMAIN_STATUS,
    ApiError,
    api_exception_handler,
    describe,
    envelope_for_exception,
)

# Each situation of the apps, built as its service builds it: (error, status, code, headers).
SITUATIONS = [
    (legal_documents.exceptions.GenerationLimitReached(running=3, limit=3), 429,
     "GENERATION_LIMIT", {"Retry-After": "5"}),
    (legal_documents.exceptions.PackageLimitReached(running=1, limit=1), 429,
     "PACKAGE_LIMIT", {"Retry-After": "10"}),
    (register.exceptions.ImportLimitReached(running=2, limit=2), 429, "IMPORT_LIMIT",
     {"Retry-After": "10"}),
    (legal_documents.exceptions.IterationLimitReached(iterations=50, limit=50), 429,
     "ITERATION_LIMIT", {}),
    (legal_documents.exceptions.DocumentBusy("Busy."), 409, "CONFLICT", {}),
    (legal_documents.exceptions.DocumentHasNoContent("Empty."), 409, "CONFLICT", {}),
    (legal_documents.exceptions.PackageNotReady("Building."), 409, "CONFLICT", {}),
    (legal_documents.exceptions.DocumentNotFound(), 404, "NOT_FOUND", {}),
    (legal_documents.exceptions.VersionNotFound(7), 404, "NOT_FOUND", {}),
    (legal_documents.exceptions.UnknownClientCompany(), 400, "VALIDATION_ERROR", {}),
    (legal_documents.exceptions.UnsupportedFormat("No."), 400, "VALIDATION_ERROR", {}),
    (legal_documents.exceptions.UnknownRegisterEntries(field="vendorId", ids=["x"]), 400,
     "VALIDATION_ERROR", {}),
    (legal_documents.exceptions.NotFromRegister("Body only."), 409, "CONFLICT", {}),
    (legal_documents.exceptions.RegisterEntryGone("Deleted.", details={"vendorId": ["x"]}), 409,
     "CONFLICT", {}),
    (legal_documents.exceptions.InvalidAnswers("Bad.", details={"q1": ["x"]}), 400,
     "VALIDATION_ERROR", {}),
    (legal_documents.exceptions.ExportFailed("Broken.", details={"targetFormat": "pdf"}), 422,
     "CONVERSION_FAILED", {}),
    (ContentTooLong("Long.", details={"markdown": ["At most 100000 characters."]}), 400,
     "CONTENT_TOO_LONG", {}),
    (webhooks.exceptions.PlanRequired(plan="free", required_plans=["business"]), 403,
     "PLAN_REQUIRED", {}),
    (webhooks.exceptions.InvalidEndpoint({"url": ["Not https."]}), 400, "VALIDATION_ERROR", {}),
    (assets.exceptions.UnsupportedFileType("An executable."), 415, "INVALID_FILE_TYPE", {}),
    (assets.exceptions.StorageUnavailable(), 503, "SERVICE_UNAVAILABLE", {"Retry-After": "5"}),
    (assets.exceptions.EmbeddingUnavailable(), 503, "SERVICE_UNAVAILABLE",
     {"Retry-After": "5"}),
    (assets.exceptions.FileTooLarge(10 * 1024 * 1024), 413, "FILE_TOO_LARGE", {}),
    (assets.exceptions.SearchTimedOut(5000), 503, "SEARCH_TIMEOUT", {"Retry-After": "5"}),
    (register.exceptions.DuplicateName(kind="vendor", name="Acme"), 409, "CONFLICT", {}),
    (register.exceptions.ForeignVendor(["0"]), 400, "VALIDATION_ERROR", {}),
    (register.importing.errors.RegisterFileUnreadable("The file is empty."), 400,
     "VALIDATION_ERROR", {}),
    (register.importing.errors.RegisterFileType("Neither XLSX nor CSV."), 415,
     "INVALID_FILE_TYPE", {}),
    (register.importing.errors.RegisterFileTooLarge("Too large."), 413, "FILE_TOO_LARGE", {}),
    (reviews.exceptions.UnknownReviewInput(field="assetId", message="No asset."), 400,
     "VALIDATION_ERROR", {}),
]  # fmt: skip


def _subclasses(cls: type) -> set[type]:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def _answer(exc: Exception) -> tuple[int, dict, dict[str, str]]:
    response = api_exception_handler(exc, {})
    headers = {name: value for name, value in response.items() if name == "Retry-After"}
    return response.status_code, response.data, headers


@pytest.mark.parametrize(("error", "status", "code", "headers"), SITUATIONS)
def test_each_domain_error_answers_its_status_code_and_envelope(error, status, code, headers):
    answered_status, body, answered_headers = _answer(error)
    assert answered_status == status
    assert body == {"error": {"message": error.message, "code": code, "details": error.details}}
    assert answered_headers == headers


@pytest.mark.parametrize(("error", "status", "code", "headers"), SITUATIONS)
def test_the_middleware_answers_a_domain_error_alike(error, status, code, headers):
    response = envelope_for_exception(error)
    assert response.status_code == status
    assert json.loads(response.content)["error"]["code"] == code
    assert {k: v for k, v in response.items() if k == "Retry-After"} == headers


def test_every_domain_error_of_the_apps_has_a_kind_and_is_tested():
    kinds = set(DOMAIN_STATUS)
    situations = {
        cls for cls in _subclasses(DomainError) - kinds if not cls.__module__.startswith("tests.")
    }
    for situation in situations:
        assert any(issubclass(situation, kind) for kind in kinds), situation
    tested = {type(error) for error, *_ in SITUATIONS}
    assert situations <= tested, situations - tested


def test_the_limit_errors_say_how_many_run():
    error = legal_documents.exceptions.GenerationLimitReached(running=3, limit=3)
    assert error.details == {"running": 3, "limit": 3}
    assert "At most 3 documents" in error.message


def test_a_domain_error_outside_every_kind_is_an_internal_error():
    class Stray(DomainError):  # noqa: N818
        code = "STRAY"

    assert describe(Stray("?")).status == 500
    assert describe(Stray("?")).code == "INTERNAL_ERROR"


def test_the_domain_module_is_framework_free():
    source = Path(common.domain.__file__).read_text(encoding="utf-8")
    assert "django" not in source
    assert "rest_framework" not in source


# The framework's own exceptions keep the answers they had.
@pytest.mark.parametrize(
    ("exc", "status", "code", "headers"),
    [
        (ApiError("CONFLICT", "Taken.", status_code=409, headers={"Retry-After": "2"}), 409,
         "CONFLICT", {"Retry-After": "2"}),
        (exceptions.ValidationError({"name": ["Required."]}), 400, "VALIDATION_ERROR", {}),
        (exceptions.ValidationError({"text": [exceptions.ErrorDetail("x", "CONTENT_TOO_LONG")]}),
         400, "CONTENT_TOO_LONG", {}),
        (exceptions.ParseError("bad json"), 400, "VALIDATION_ERROR", {}),
        (exceptions.NotAuthenticated(), 401, "AUTHENTICATION_REQUIRED", {}),
        (exceptions.AuthenticationFailed("Invalid key."), 401, "INVALID_API_KEY", {}),
        (exceptions.PermissionDenied(), 403, "PERMISSION_DENIED", {}),
        (DjangoPermissionDenied(), 403, "PERMISSION_DENIED", {}),
        (exceptions.NotFound(), 404, "NOT_FOUND", {}),
        (Http404(), 404, "NOT_FOUND", {}),
        (exceptions.MethodNotAllowed("PUT"), 405, "METHOD_NOT_ALLOWED", {}),
        (exceptions.NotAcceptable(), 406, "NOT_ACCEPTABLE", {}),
        (exceptions.UnsupportedMediaType("text/csv"), 415, "INVALID_FILE_TYPE", {}),
        (RequestDataTooBig(), 413, "FILE_TOO_LARGE", {}),
        (SuspiciousOperation(), 400, "VALIDATION_ERROR", {}),
        (exceptions.Throttled(wait=7), 429, "RATE_LIMITED", {"Retry-After": "7"}),
        (redis.exceptions.ConnectionError(), 503, "SERVICE_UNAVAILABLE", {"Retry-After": "5"}),
        (redis.exceptions.TimeoutError(), 503, "SERVICE_UNAVAILABLE", {"Retry-After": "5"}),
        (OperationalError(), 503, "SERVICE_UNAVAILABLE", {"Retry-After": "5"}),
        (exceptions.APIException(), 500, "ERROR", {}),
        (DataError(), 400, "VALIDATION_ERROR", {}),
        (DatabaseError(), 500, "INTERNAL_ERROR", {}),
        (RuntimeError("secret"), 500, "INTERNAL_ERROR", {}),
    ],
)  # fmt: skip
def test_framework_and_infrastructure_errors_keep_their_answers(exc, status, code, headers):
    answered_status, body, answered_headers = _answer(exc)
    assert (answered_status, body["error"]["code"]) == (status, code)
    assert answered_headers == headers

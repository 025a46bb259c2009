"""Errors of the domain: what went wrong in a service, said without HTTP.

Services raise a `DomainError` subclass; the API's exception handler (`common.errors`) maps
its kind to a status code in one table, and the admin shows its `message`. A subclass is one
situation (a limit reached, a document busy...) with a stable `code` (docs/API.md's codes:
clients branch on them), and derives from one of the kinds below, which say what the client
can do about it. Framework-free on purpose: nothing here knows Django or DRF.
"""

from __future__ import annotations

from typing import Any, ClassVar


class DomainError(Exception):
    """A refusal a service explains to its caller: `code`, `message`, `details`.

    `retry_after` (seconds) is set when waiting is the remedy (a limit, an outage).
    """

    code: ClassVar[str] = "ERROR"

    def __init__(
        self, message: str, *, details: Any = None, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.details = details
        self.retry_after = retry_after


# -- the kinds: one per remedy; the API maps each to its status code -----------------------------
class InvalidInput(DomainError):
    """The caller's input is refused; `details` names the fields (400)."""

    code = "VALIDATION_ERROR"


class PermissionRefused(DomainError):
    """The caller may not do this (403)."""

    code = "PERMISSION_DENIED"


class NotFound(DomainError):
    """What the caller names does not exist for them (404)."""

    code = "NOT_FOUND"


class Conflict(DomainError):
    """The object's current state does not allow this now (409)."""

    code = "CONFLICT"


class TooLarge(DomainError):
    """The input is over a size limit (413)."""

    code = "FILE_TOO_LARGE"


class UnsupportedType(DomainError):
    """The input's type is not one this accepts (415)."""

    code = "INVALID_FILE_TYPE"


class Unprocessable(DomainError):
    """Valid input that could not be processed (422)."""

    code = "CONVERSION_FAILED"


class LimitReached(DomainError):
    """A quota is used up; retry later (429)."""

    code = "RATE_LIMITED"


class Unavailable(DomainError):
    """A backing service is down; retry shortly (503)."""

    code = "SERVICE_UNAVAILABLE"


# -- situations shared by several apps ------------------------------------------------------------
class ContentTooLong(InvalidInput):
    """A text is over the 100,000 characters a document or answer may hold."""

    code = "CONTENT_TOO_LONG"

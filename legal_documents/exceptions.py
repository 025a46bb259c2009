"""What the document services refuse, one class per situation (see common.domain).

The API maps each kind to its status code (common.errors); the admin shows the message.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from common.domain import Conflict, InvalidInput, LimitReached, NotFound, Unprocessable

# How long a client should wait before claiming a job slot again.
GENERATION_RETRY_SECONDS = 5
PACKAGE_RETRY_SECONDS = 10


class GenerationLimitReached(LimitReached):
    """The organization already runs its maximum of generation jobs."""

    code = "GENERATION_LIMIT"

    def __init__(self, *, running: int, limit: int) -> None:
        super().__init__(
            f"At most {limit} documents can be generated at once per organization; "
            "retry when one has finished.",
            details={"running": running, "limit": limit},
            retry_after=GENERATION_RETRY_SECONDS,
        )


class PackageLimitReached(LimitReached):
    """The organization already builds its maximum of inspection packages."""

    code = "PACKAGE_LIMIT"

    def __init__(self, *, running: int, limit: int) -> None:
        super().__init__(
            f"At most {limit} inspection packages can be built at once per organization; "
            "retry when one has finished.",
            details={"running": running, "limit": limit},
            retry_after=PACKAGE_RETRY_SECONDS,
        )


class IterationLimitReached(LimitReached):
    """The document was iterated the most times a document may be."""

    code = "ITERATION_LIMIT"

    def __init__(self, *, iterations: int, limit: int) -> None:
        super().__init__(
            f"A document can be iterated at most {limit} times.",
            details={"iterations": iterations, "limit": limit},
        )


class DocumentBusy(Conflict):
    """A job runs on the document; the message says when to come back."""


class DocumentHasNoContent(Conflict):
    """The document was never generated; the message says what to do first."""


class PackageNotReady(Conflict):
    """The inspection package is still being built (or failed)."""


class DocumentNotFound(NotFound):
    """No such document in the caller's organization."""

    def __init__(self) -> None:
        super().__init__(gettext_noop("Not found."))


class VersionNotFound(NotFound):
    """The document has no version with this number."""

    def __init__(self, number: int) -> None:
        super().__init__(f"The document has no version {number}.")


class UnknownClientCompany(InvalidInput):
    """The client company named is not one of the caller's organization."""

    def __init__(self) -> None:
        super().__init__(
            gettext_noop("The request is not valid."),
            details={
                "clientCompanyId": [
                    gettext_noop("No client company with this id in your organization.")
                ]
            },
        )


class UnsupportedFormat(InvalidInput):
    """An export format the renderers do not offer."""


class InvalidAnswers(InvalidInput):
    """Questionnaire answers refused; `details` holds every error at once."""


class ExportFailed(Unprocessable):
    """A renderer could not produce the file (CONVERSION_FAILED, 422)."""

    def __init__(self, message: str, *, details: Any) -> None:
        super().__init__(message, details=details)


class UnknownRegisterEntries(InvalidInput):
    """Register ids that are not entries of the caller's organization (never says whose)."""

    def __init__(self, *, field: str, ids: list[str], references: tuple[Any, ...] = ()) -> None:
        # organizations.foreign_ids.UnknownReference: the view records, in the owner's
        # trail, the ids that are another organization's entries.
        self.unknown_references = references
        super().__init__(
            "The request is not valid.",
            details={
                field: [
                    f"No entry of your organization's register with id {value}." for value in ids
                ]
            },
        )


class NotFromRegister(Conflict):
    """Refresh of a document that was not written from the register."""


class RegisterEntryGone(Conflict):
    """Refresh of a document naming a register entry that was deleted since."""

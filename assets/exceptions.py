"""What the asset services refuse (see common.domain)."""

from __future__ import annotations

from django.core.exceptions import SuspiciousOperation
from django.utils.translation import gettext_noop

from common.domain import TooLarge, Unavailable, UnsupportedType

# How long a client should wait before retrying after an outage of a backing service.
RETRY_AFTER_OUTAGE_SECONDS = 5


class UnsupportedFileType(UnsupportedType):
    """The file's content is not a supported type, or disagrees with its name and type."""


class StorageUnavailable(Unavailable):
    """The storage refused or failed a write (503 SERVICE_UNAVAILABLE; retry later)."""

    def __init__(self) -> None:
        super().__init__(
            gettext_noop("The file storage is unavailable; retry shortly."),
            retry_after=RETRY_AFTER_OUTAGE_SECONDS,
        )


class EmbeddingUnavailable(Unavailable):
    """The search query could not be embedded (provider misconfigured or unreachable)."""

    def __init__(self) -> None:
        super().__init__(
            gettext_noop("The embedding service is unavailable; retry shortly."),
            retry_after=RETRY_AFTER_OUTAGE_SECONDS,
        )


class FileTooLarge(TooLarge, SuspiciousOperation):
    """The upload is larger than ``ASSET_MAX_UPLOAD_BYTES`` (413 FILE_TOO_LARGE).

    Also a SuspiciousOperation: raised by the upload handler while Django parses the body,
    where Django answers it with 400 outside the API.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"The file is larger than the limit of {limit} bytes ({limit // (1024 * 1024)} MiB).",
            details={"maxBytes": limit},
        )


class SearchTimedOut(Unavailable):
    """The search statement ran past ``SEARCH_STATEMENT_TIMEOUT_MS`` and was cancelled
    (503 SEARCH_TIMEOUT): the database was busy, or the query too costly to finish."""

    code = "SEARCH_TIMEOUT"

    def __init__(self, timeout_ms: int) -> None:
        super().__init__(
            f"The search took longer than {timeout_ms} ms and was stopped; search with fewer "
            "or more specific words, or retry shortly.",
            details={"timeoutMs": timeout_ms},
            retry_after=RETRY_AFTER_OUTAGE_SECONDS,
        )

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

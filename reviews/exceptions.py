"""What the review services refuse (see common.domain)."""

from __future__ import annotations

from typing import Any

from common.domain import InvalidInput


class UnknownReviewInput(InvalidInput):
    """An id that is not the caller's organization's (never says whose), or a value a review
    does not take; `details` names the field."""

    def __init__(self, *, field: str, message: str, references: tuple[Any, ...] = ()) -> None:
        # organizations.foreign_ids.UnknownReference: the view records, in the owner's
        # trail, the ids that are another organization's objects.
        self.unknown_references = references
        super().__init__("The request is not valid.", details={field: [message]})

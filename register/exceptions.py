"""What the register services refuse (see common.domain)."""

from __future__ import annotations

from common.domain import Conflict, InvalidInput, LimitReached


class DuplicateName(Conflict):
    """Another activity or vendor of the organization already has this name (409 CONFLICT)."""

    def __init__(self, *, kind: str, name: str) -> None:
        super().__init__(
            f"A {kind} named {name!r} already exists in your register.",
            details={"name": [f"A {kind} with this name already exists."]},
        )


class ForeignVendor(InvalidInput):
    """A vendor id that is not a vendor of the organization (400 VALIDATION_ERROR)."""

    def __init__(self, vendor_ids: list[str]) -> None:
        super().__init__(
            "Unknown vendor id(s) for your organization.",
            details={
                "vendorIds": [
                    f"No vendor {vendor_id} in your register." for vendor_id in vendor_ids
                ]
            },
        )


class ImportLimitReached(LimitReached):
    """The organization already has its maximum of imports queued or running (429)."""

    code = "IMPORT_LIMIT"

    def __init__(self, *, running: int, limit: int) -> None:
        super().__init__(
            f"At most {limit} register imports can run at once per organization; "
            "retry when one has finished.",
            details={"running": running, "limit": limit},
            retry_after=10,
        )

"""What makes a whole register file unusable (a row's problem is reported on the row instead)."""

from __future__ import annotations

from common.domain import InvalidInput, TooLarge, UnsupportedType


class RegisterFileUnreadable(InvalidInput):
    """The file cannot be read as a register: corrupt, empty, too big, or no header row."""

    code = "VALIDATION_ERROR"


class RegisterFileType(UnsupportedType):
    """Neither an XLSX workbook nor a CSV file."""

    code = "INVALID_FILE_TYPE"


class RegisterFileTooLarge(TooLarge):
    """Over the size a register import reads (a register is kilobytes, not megabytes)."""

    code = "FILE_TOO_LARGE"


def over_limit(message: str, *, problem: str, setting: str, maximum: int) -> RegisterFileUnreadable:
    """The refusal of a file over one of the import's bounds: `details.limit` names the
    setting that moves it, so that an administrator knows what to raise."""
    return RegisterFileUnreadable(
        message,
        details={"file": [problem], "limit": {"setting": setting, "maximum": maximum}},
    )

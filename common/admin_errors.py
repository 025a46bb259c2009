"""Domain errors in the admin: the same exceptions the API maps to statuses, as messages.

The API's messages are English (its contract, docs/API.md); the admin speaks the user's
language. A service's message is shown translated when the catalog has it (static messages
are marked with `gettext_noop` where they are raised), rebuilt from `details` for the limits
whose numbers vary, and otherwise introduced by a translated sentence for its kind, the
English message following as the technical detail.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib import messages
from django.http import Http404, HttpRequest
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, gettext_lazy

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

# Messages with numbers: rebuilt from the error's details in the user's language.
BY_CODE: dict[str, Promise] = {
    "GENERATION_LIMIT": gettext_lazy(
        "At most %(limit)s documents can be generated at once per organization; "
        "retry when one has finished."
    ),
    "PACKAGE_LIMIT": gettext_lazy(
        "At most %(limit)s inspection packages can be built at once per organization; "
        "retry when one has finished."
    ),
    "ITERATION_LIMIT": gettext_lazy("A document can be iterated at most %(limit)s times."),
    "FILE_TOO_LARGE": gettext_lazy("The file is larger than the limit of %(maxBytes)s bytes."),
    "SEARCH_TIMEOUT": gettext_lazy(
        "The search took longer than %(timeoutMs)s ms and was stopped; search with fewer "
        "or more specific words, or retry shortly."
    ),
}

# The first kind an error is an instance of introduces its (English) message.
BY_KIND: tuple[tuple[type[DomainError], Promise], ...] = (
    (Unavailable, gettext_lazy("A service is unavailable; retry shortly")),
    (LimitReached, gettext_lazy("A limit is reached")),
    (Conflict, gettext_lazy("Not possible in the current state")),
    (TooLarge, gettext_lazy("Too large")),
    (UnsupportedType, gettext_lazy("This type of file is not accepted")),
    (Unprocessable, gettext_lazy("This could not be processed")),
    (InvalidInput, gettext_lazy("The input is not valid")),
    (PermissionRefused, gettext_lazy("Not allowed")),
    (NotFound, gettext_lazy("Not found")),
    (DomainError, gettext_lazy("Refused")),
)


def admin_message(error: DomainError) -> str:
    """`error` said in the active language (the admin's user's)."""
    template = BY_CODE.get(error.code)
    if template is not None and isinstance(error.details, Mapping):
        try:
            return str(template) % error.details
        except (KeyError, TypeError, ValueError):
            pass  # details without the numbers: fall through to the message
    translated = gettext(error.message)
    if translated != error.message or (get_language() or "en").startswith("en"):
        return translated
    lead = next(text for kind, text in BY_KIND if isinstance(error, kind))
    return f"{lead}: {error.message}"


def report_domain_error(
    request: HttpRequest,
    error: DomainError,
    *,
    level: int = messages.ERROR,
    with_code: bool = False,
) -> None:
    """Show `error` on the next page; what does not exist is the admin's 404 instead.

    `with_code` appends the API code, for the DPO's flow where it names the limit reached.
    """
    if isinstance(error, NotFound):
        raise Http404(error.message) from error
    text = admin_message(error)
    if with_code:
        text = f"{text} ({error.code})"
    messages.add_message(request, level, text)

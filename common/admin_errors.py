"""Domain errors in the admin: the same exceptions the API maps to statuses, as messages."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest

from common.domain import DomainError, NotFound


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
    text = f"{error.message} ({error.code})" if with_code else error.message
    messages.add_message(request, level, text)

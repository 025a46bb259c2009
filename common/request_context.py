"""A request id on every request, its log lines and its response; the organization when known.

The id comes from the `X-Request-ID` header when the caller (or a proxy in front) sends a
sane one, otherwise it is generated. It is returned in the response's `X-Request-ID` header
so that a user reporting a problem can quote it, and bound to the logging context so that
every line written while serving the request carries it. One line per request
(`request.finished`) records method, path, status and duration.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from config.logging import bind_context, clear_context

REQUEST_ID_HEADER = "X-Request-ID"
# Anything else is replaced, so that a caller cannot inject text into the logs.
_ACCEPTABLE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

logger = logging.getLogger("legaldocs.request")


def request_id_for(request: HttpRequest) -> str:
    offered = request.headers.get(REQUEST_ID_HEADER, "")
    if _ACCEPTABLE_REQUEST_ID.match(offered):
        return offered
    return uuid.uuid4().hex


def bind_organization(organization_id: object) -> None:
    """Add the organization to every later log line of this request (or task)."""
    if organization_id is not None:
        bind_context(organization_id=str(organization_id))


def organization_id_of(request: HttpRequest) -> object | None:
    """The organization of the API key that authenticated the request, if any.

    DRF copies `auth` onto the Django request once a view has authenticated it.
    """
    api_key = getattr(request, "auth", None)
    membership = getattr(api_key, "membership", None)
    return getattr(membership, "organization_id", None)


class RequestContextMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        clear_context()
        request_id = request_id_for(request)
        request.request_id = request_id  # type: ignore[attr-defined]
        bind_context(request_id=request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            bind_organization(organization_id_of(request))
            response[REQUEST_ID_HEADER] = request_id
            logger.info(
                "request.finished",
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                },
            )
            return response
        finally:
            clear_context()

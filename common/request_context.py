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

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

from common.log_context import bind_context, clear_context

REQUEST_ID_HEADER = "X-Request-ID"
# Anything else is replaced, so that a caller cannot inject text into the logs.
_ACCEPTABLE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

logger = logging.getLogger("legaldocs.request")
_PROBE_PATHS = {"/livez", "/readyz", "/healthz", "/metrics"}


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
        response = self.get_response(request)
        bind_organization(organization_id_of(request))
        response[REQUEST_ID_HEADER] = request_id
        # Health checks and scrapes come every few seconds; they are not worth a line each.
        level = logging.DEBUG if request.path in _PROBE_PATHS else logging.INFO
        logger.log(
            level,
            "request.finished",
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 1),
            },
        )
        # The context stays bound until the response is closed: Django logs errors
        # ("Not Found", "Internal Server Error") after the middleware has returned.
        return response


def _clear_context_after_response(**_: object) -> None:
    clear_context()


request_finished.connect(_clear_context_after_response, dispatch_uid="request-context-clear")

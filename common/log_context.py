"""The log context of the current request or task: values on every line written meanwhile.

Bound by the request middleware (`common.request_context`) and by the Celery signals that
`config.logging` connects; structlog's `merge_contextvars` (configured in `config.logging`)
adds them to each record. Here, below every app, so that `common` never imports `config`.
"""

from __future__ import annotations

from typing import Any

import structlog


def bind_context(**values: object) -> None:
    """Add values (request id, organization id, task id) to every later line of this context."""
    structlog.contextvars.bind_contextvars(**values)


def clear_context() -> None:
    structlog.contextvars.clear_contextvars()


def current_context() -> dict[str, Any]:
    return structlog.contextvars.get_contextvars()

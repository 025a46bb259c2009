"""Content negotiation for endpoints where `?format=` names a file format, not a renderer."""

from __future__ import annotations

from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class FileFormatParameter(DefaultContentNegotiation):
    """Always the view's first (JSON) renderer; request bodies are parsed as by default.

    DRF reads `?format=` as a renderer name and answers 404 when none matches; here the
    parameter selects an export format, and the files are sent as plain Django responses.
    """

    def select_renderer(
        self, request: Request, renderers: list[BaseRenderer], format_suffix: Any = None
    ) -> tuple[BaseRenderer, str]:
        return renderers[0], renderers[0].media_type

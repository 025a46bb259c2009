"""Strict reading of the environment: a bad value names its variable instead of being guessed.

django-environ parses URLs; the scalar helpers here refuse what they do not understand
(`DEBUG=yes please` is an error, not False).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping

import environ
from django.core.exceptions import ImproperlyConfigured

_RATE = re.compile(r"[1-9][0-9]*/(s|sec|second|m|min|minute|h|hour|d|day)")
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class Environment:
    """Typed access to a mapping of variables (os.environ by default, a dict in tests)."""

    def __init__(self, variables: Mapping[str, str] | None = None) -> None:
        self.variables = os.environ if variables is None else variables

    def str(self, name: str, default: str | None = None) -> str | None:
        value = self.variables.get(name)
        return default if value is None or value == "" else value

    def bool(self, name: str, default: bool) -> bool:
        raw = self.variables.get(name)
        if raw is None:
            return default
        lowered = raw.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")

    def int(
        self, name: str, default: int, *, minimum: int | None = None, maximum: int | None = None
    ) -> int:
        raw = self.variables.get(name)
        if raw is None or raw == "":
            return default
        try:
            value = int(raw)
        except ValueError:
            raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None
        if minimum is not None and value < minimum:
            raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value}")
        if maximum is not None and value > maximum:
            raise ImproperlyConfigured(f"{name} must be at most {maximum}, not {value}")
        return value

    def float(self, name: str, default: float, *, minimum: float | None = None) -> float:
        raw = self.variables.get(name)
        if raw is None or raw == "":
            return default
        try:
            value = float(raw)
        except ValueError:
            raise ImproperlyConfigured(f"{name} must be a number, not {raw!r}") from None
        if not math.isfinite(value) or (minimum is not None and value < minimum):
            raise ImproperlyConfigured(f"{name} must be a number of at least {minimum}, not {raw}")
        return value

    def list(self, name: str, default: list[str]) -> list[str]:
        raw = self.variables.get(name)
        if raw is None:
            return default
        return [item.strip() for item in raw.split(",") if item.strip()]

    def choice(self, name: str, default: str, choices: set[str]) -> str:
        value = self.str(name, default) or default
        if value not in choices:
            raise ImproperlyConfigured(f"{name} must be one of {sorted(choices)}, not {value!r}")
        return value

    def rate(self, name: str, default: str) -> str:
        """A rate such as "10/min" (periods: s, min, h, day)."""
        value = self.str(name, default) or default
        if not _RATE.fullmatch(value):
            raise ImproperlyConfigured(f"{name} must look like 10/min or 300/h, not {value!r}")
        return value

    def database(self, name: str) -> dict | None:
        raw = self.str(name)
        if raw is None:
            return None
        try:
            return environ.Env.db_url_config(raw)
        except Exception as error:  # django-environ raises several types for bad URLs
            raise ImproperlyConfigured(f"{name} is not a valid database URL: {error}") from None

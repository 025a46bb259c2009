"""Bench only: the project's settings with `bench.urls_bare` as URL conf, which adds the bare
reference views next to the real API (one server process serves both)."""

from config.settings.base import *  # noqa: F403

ROOT_URLCONF = "bench.urls_bare"

"""The project's packages, listed once.

`PROJECT_APPS` are the Django apps, in the order INSTALLED_APPS loads them
(config.settings.base builds INSTALLED_APPS from it; common.model_labels names them in the
admin). `FRAMEWORK_FREE_PACKAGES` are packages but not apps: pure Python that imports no app
and no framework (gdpr: the GDPR rules; formats: the file-format readers), each kept so by an
import-linter contract. `config` is the composition root. The lists that cannot import Python
(pyproject's package list, import-linter's root packages, mypy's overrides, the image's
.dockerignore) are checked against these by tests/deploy/test_apps_list.py.
"""

from __future__ import annotations

PROJECT_APPS: tuple[str, ...] = (
    "common",
    "organizations",
    "audit",
    "register",
    "legal_documents",
    "compliance",
    "assets",
    "webhooks",
    "reviews",
    "reminders",
)
FRAMEWORK_FREE_PACKAGES: tuple[str, ...] = ("gdpr", "formats")
COMPOSITION_ROOT = "config"
PROJECT_PACKAGES: tuple[str, ...] = (COMPOSITION_ROOT, *PROJECT_APPS, *FRAMEWORK_FREE_PACKAGES)

"""The language of a request: the user's for the admin, English for everything else.

Django's `LocaleMiddleware` picks the language from the `django_language` cookie (set by the
admin's language switcher through `set_language`) or the browser's `Accept-Language`. That
is what the admin and its DPO console need; the API's error messages are a contract in
English (docs/API.md), and DRF would translate its own ones ("This field is required.") for
any client sending `Accept-Language`. So only the admin and the i18n views negotiate.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

# The admin (config/urls.py) and the switcher/JavaScript catalog views (common/urls.py).
TRANSLATED_PATH_PREFIXES = ("/admin/", "/i18n/")


def is_translated_path(path: str) -> bool:
    return path.startswith(TRANSLATED_PATH_PREFIXES)


class AdminLocaleMiddleware(LocaleMiddleware):
    """`LocaleMiddleware` on the admin's paths; `LANGUAGE_CODE` (English) on the others."""

    def process_request(self, request: HttpRequest) -> None:
        if is_translated_path(request.path_info):
            super().process_request(request)
            return
        translation.activate(settings.LANGUAGE_CODE)
        request.LANGUAGE_CODE = settings.LANGUAGE_CODE  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if is_translated_path(request.path_info):
            return super().process_response(request, response)
        return response

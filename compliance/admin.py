"""The DPO's start page and the register report join the admin's own URLs.

compliance has no model to register; its two pages are added to `admin.site`'s URLs (in the
`admin` namespace, behind `admin_view`'s staff login) when Django's autodiscovery imports this
module, before config/urls.py reads `admin.site.urls`. The admin index links the start page
first (templates/admin/index.html).
"""

from __future__ import annotations

from django.contrib import admin
from django.urls import URLPattern, URLResolver, path

from compliance.admin_views import register_report_view, start_page_view

_admin_urls = admin.site.get_urls


def _urls_with_compliance_pages() -> list[URLPattern | URLResolver]:
    pages = [
        path("compliance/start/", admin.site.admin_view(start_page_view), name="compliance_start"),
        path(
            "compliance/register-report/",
            admin.site.admin_view(register_report_view),
            name="compliance_register_report",
        ),
    ]
    return [*pages, *_admin_urls()]


admin.site.get_urls = _urls_with_compliance_pages  # type: ignore[method-assign]

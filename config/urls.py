"""URLs: the admin, health, the OpenAPI schema, and the API under /api/v1 (and unprefixed)."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from common.health import healthz, livez, readyz
from common.metrics import metrics_view

api_patterns = [
    path("", include("organizations.urls")),
    path("", include("audit.urls")),
    path("", include("webhooks.urls")),
    path("", include("legal_documents.urls")),
    path("", include("register.urls")),
    path("", include("assets.urls")),
    path("", include("compliance.urls")),
    path("", include("reviews.urls")),
]

urlpatterns = [
    # Before the admin's own URLs, which would read "import" as an object id.
    path("admin/register/processingactivity/import/", include("register.admin_urls")),
    path("admin/", admin.site.urls),
    # The admin's language switcher (`set_language`) and its scripts' translations; the
    # language is negotiated only here and in the admin (common/locale.py).
    path("i18n/", include("django.conf.urls.i18n")),
    path("i18n/catalog.js", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    # Liveness and readiness (common/health.py); /healthz: readiness, for earlier probes.
    path("livez", livez, name="livez"),
    path("readyz", readyz, name="readyz"),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),  # internal network or token only
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script from this URL (?script=): no inline script,
    # as the Content-Security-Policy requires (common/content_security.py).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include(api_patterns)),
    # docs/API.md: every path is also served without the prefix, with the same behaviour.
    # Its own namespace, so that reverse("asset-download", ...) names the canonical path.
    path("", include((api_patterns, "unprefixed"))),
]

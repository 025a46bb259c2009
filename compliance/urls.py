from django.urls import re_path

from compliance.views import RegisterReportViewSet

# docs/API.md writes paths without a trailing slash; both are served (common.routers).
urlpatterns = [
    re_path(
        r"^compliance/register-report/?$",
        RegisterReportViewSet.as_view({"get": "report"}),
        name="register-report",
    ),
]

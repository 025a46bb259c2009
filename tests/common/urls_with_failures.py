"""The project's URLs plus views that fail, to test the error envelope of unexpected errors."""

from django.urls import path
from rest_framework.decorators import api_view, authentication_classes, permission_classes

from config.urls import urlpatterns as project_urlpatterns


@api_view(["GET"])
@authentication_classes([])
@permission_classes([])
def failing_api_view(request):  # type: ignore[no-untyped-def]
    raise RuntimeError("secret internal detail")


def failing_plain_view(request):  # type: ignore[no-untyped-def]
    raise RuntimeError("secret internal detail")


urlpatterns = [
    path("api/v1/test-failure", failing_api_view),
    path("api/v1/test-plain-failure", failing_plain_view),
    *project_urlpatterns,
]

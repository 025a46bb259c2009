from django.urls import re_path

from common.routers import ApiRouter
from register.import_views import RegisterImportStatusViewSet, RegisterImportViewSet
from register.views import ProcessingActivityViewSet, TransferViewSet, VendorViewSet

router = ApiRouter()
router.register("processing-activities", ProcessingActivityViewSet, basename="processing-activity")
router.register("vendors", VendorViewSet, basename="vendor")
router.register("transfers", TransferViewSet, basename="transfer")

# The import before any detail route: "import" must never be read as an entry's id (the
# detail routes only match a UUID as well).
urlpatterns = [
    re_path(
        r"^processing-activities/import/?$",
        RegisterImportViewSet.as_view({"post": "create"}),
        name="processing-activity-import",
    ),
    re_path(
        r"^processing-activities/imports/(?P<pk>[0-9a-fA-F-]{36})/?$",
        RegisterImportStatusViewSet.as_view({"get": "retrieve"}),
        name="processing-activity-import-status",
    ),
    *router.urls,
]

from django.urls import re_path

from register.import_views import RegisterImportViewSet

# The import before any detail route: "import" must never be read as an entry's id.
urlpatterns = [
    re_path(
        r"^processing-activities/import/?$",
        RegisterImportViewSet.as_view({"post": "create"}),
        name="processing-activity-import",
    ),
]

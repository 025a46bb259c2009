"""The admin pages of the register that are not a ModelAdmin's (config/urls.py mounts them)."""

from django.contrib import admin
from django.urls import path

from register.import_admin import register_import_admin_view

urlpatterns = [
    path(
        "",
        admin.site.admin_view(register_import_admin_view),
        name="register_processingactivity_import",
    ),
]

"""Django's admin app, with `admin.site` the site that asks for the second factor
(organizations/admin_site.py). Its own module: INSTALLED_APPS imports it before any model."""

from django.contrib.admin.apps import AdminConfig


class SecondFactorAdminConfig(AdminConfig):
    default_site = "organizations.admin_site.SecondFactorAdminSite"

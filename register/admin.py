"""The register's admin pages (Django's autodiscovery imports this module)."""

from register import admin_entries as admin_entries  # registers the admins

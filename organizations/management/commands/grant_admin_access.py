"""`grant_admin_access --email EMAIL [--revoke]`: staff status and the role's admin group.

DPOs get the "DPOs" group, organization admins also "Organization admins", auditors the
read-only "Auditors" group. Rows are always limited to the member's organization.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.services import Actor
from organizations.admin_access import admin_access_grant, admin_access_revoke
from organizations.models import Membership


class Command(BaseCommand):
    help = "Let a member log in to the admin with the permissions of their role (or revoke it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--email", required=True, help="the member's e-mail")
        parser.add_argument("--revoke", action="store_true", help="remove admin access")

    def handle(self, *args: Any, **options: Any) -> None:
        email = options["email"].strip().lower()
        membership = (
            Membership.objects.select_related("user", "organization")
            .filter(user__email__iexact=email)
            .first()
        )
        if membership is None:
            raise CommandError(f"No member {email}; create one with create_api_key --create.")
        actor = Actor(label="grant_admin_access (command line)")
        if options["revoke"]:
            admin_access_revoke(membership=membership, actor=actor)
            self.stdout.write(f"{email}: admin access removed.")
            return
        groups = admin_access_grant(membership=membership, actor=actor)
        self.stdout.write(
            f"{email} ({membership.get_role_display()}, {membership.organization.slug}) may now"
            f" log in to /admin/ with the group(s): {', '.join(groups)}."
            " Set a password with `manage.py changepassword` if the user has none."
        )

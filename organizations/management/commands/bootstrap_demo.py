"""Demo data for `make run`: an organization, a DPO with an API key, an admin superuser.

Secrets are printed once, when they are created; later runs print only where to log in.
"""

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from organizations import services
from organizations.models import Membership, Organization, Plan, Role

DEMO_SLUG = "demo"
DEMO_DPO_EMAIL = "dpo@demo.example"
DEMO_ADMIN_USERNAME = "admin"


class Command(BaseCommand):
    help = "Create the demo organization, DPO, API key and admin user if missing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", default="8000")

    @transaction.atomic
    def handle(self, *args: Any, host: str, port: str, **options: Any) -> None:
        base_url = f"http://{host}:{port}"
        organization = Organization.objects.filter(slug=DEMO_SLUG).first()
        if organization is None:
            organization = services.organization_create(
                name="Demo Organization", slug=DEMO_SLUG, plan=Plan.BUSINESS
            )
        lines = []
        if not Membership.objects.filter(user__email=DEMO_DPO_EMAIL).exists():
            membership = services.member_create(
                organization=organization, email=DEMO_DPO_EMAIL, role=Role.DPO
            )
            issued = services.api_key_create(membership=membership, name="demo")
            lines.append(f"  API key of {DEMO_DPO_EMAIL} (shown once): {issued.raw_key}")
        user_model = get_user_model()
        if not user_model.objects.filter(username=DEMO_ADMIN_USERNAME).exists():
            password = secrets.token_urlsafe(12)
            admin = user_model.objects.create_superuser(
                username=DEMO_ADMIN_USERNAME, email="admin@demo.example", password=password
            )
            Membership.objects.create(user=admin, organization=organization, role=Role.ADMIN)
            lines.append(f"  Admin login (shown once): {DEMO_ADMIN_USERNAME} / {password}")
        self.stdout.write("")
        self.stdout.write(f"Legal Documents and Assets Service on {base_url}")
        self.stdout.write(f"  Admin: {base_url}/admin/   API docs: {base_url}/api/docs/")
        for line in lines:
            self.stdout.write(line)
        if not lines:
            self.stdout.write("  Demo data exists; its secrets were printed on the first run.")
        self.stdout.write("")

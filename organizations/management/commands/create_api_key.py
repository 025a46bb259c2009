"""`create_api_key --org SLUG --email EMAIL [--role ROLE] [--plan PLAN] [--create]`.

Prints the new key alone on the last line of stdout (scripts take `tail -n 1`).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from organizations import services
from organizations.models import Membership, Organization, Plan, Role


class Command(BaseCommand):
    help = "Create an API key for a member of an organization and print it once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--org", required=True, help="organization slug")
        parser.add_argument("--email", required=True, help="the member's e-mail")
        parser.add_argument(
            "--role", choices=Role.values, default=None, help="role (new members: dpo)"
        )
        parser.add_argument(
            "--plan", choices=Plan.values, default=None, help="plan of a new organization"
        )
        parser.add_argument("--name", default="", help="a label for the key")
        parser.add_argument(
            "--create", action="store_true",
            help="create the organization and the user if they do not exist",
        )  # fmt: skip

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        slug, email = options["org"], options["email"].strip().lower()
        organization = Organization.objects.filter(slug=slug).first()
        if organization is None:
            if not options["create"]:
                raise CommandError(f"No organization {slug!r}; pass --create to create it.")
            organization = services.organization_create(
                name=slug.replace("-", " ").title(), slug=slug, plan=options["plan"] or Plan.FREE
            )
            self.stderr.write(f"Created organization {slug} ({organization.plan}).")
        elif options["plan"] and options["plan"] != organization.plan:
            organization.plan = options["plan"]
            organization.save(update_fields=["plan"])

        membership = (
            Membership.objects.select_related("organization", "user")
            .filter(user__email__iexact=email)
            .first()
        )
        if membership is None:
            if get_user_model().objects.filter(email__iexact=email).exists():
                raise CommandError(f"{email} exists but is not a member of any organization.")
            if not options["create"]:
                raise CommandError(f"No member {email}; pass --create to create the user.")
            membership = services.member_create(
                organization=organization, email=email, role=options["role"] or Role.DPO
            )
            self.stderr.write(f"Created user {email} ({membership.role}).")
        elif membership.organization_id != organization.pk:
            raise CommandError(
                f"{email} is a member of {membership.organization.slug}, not {slug}."
            )
        elif options["role"] and options["role"] != membership.role:
            membership.role = options["role"]
            membership.save(update_fields=["role"])

        issued = services.api_key_create(membership=membership, name=options["name"])
        self.stdout.write(issued.raw_key)

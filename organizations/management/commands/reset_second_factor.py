"""`reset_second_factor --username NAME`: remove a user's authenticator app and recovery codes.

For whoever has no organization admin to reset it in the admin (a superuser such as
`make run`'s `admin`, or the last organization admin); the user enrols again at their next
admin login. Audited (`member.second_factor`, event `reset`).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.services import Actor
from organizations.second_factor import second_factor_reset


class Command(BaseCommand):
    help = "Reset a user's second factor for the admin (they enrol again at the next login)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", required=True, help="the user name (or e-mail)")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["username"].strip()
        user_model = get_user_model()
        user = (
            user_model.objects.filter(username=name).first()
            or user_model.objects.filter(email__iexact=name).first()
        )
        if user is None:
            raise CommandError(f"No user {name}.")
        reset = second_factor_reset(
            user=user, actor=Actor(label="reset_second_factor (command line)")
        )
        self.stdout.write(
            f"{name}: second factor reset; they set up an authenticator app at the next login."
            if reset
            else f"{name}: had no second factor; nothing to reset."
        )

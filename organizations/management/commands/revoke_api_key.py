from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from organizations import services
from organizations.keys import parse_key
from organizations.models import ApiKey


class Command(BaseCommand):
    help = "Revoke an API key, given the key itself or its prefix."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("key_or_prefix")

    def handle(self, *args: Any, key_or_prefix: str, **options: Any) -> None:
        parsed = parse_key(key_or_prefix)
        prefix = parsed.prefix if parsed else key_or_prefix.strip()
        api_key = (
            ApiKey.objects.select_related("membership__organization").filter(prefix=prefix).first()
        )
        if api_key is None:
            raise CommandError(f"No API key with prefix {prefix!r}.")
        services.api_key_revoke(api_key=api_key)
        self.stdout.write(f"Revoked key {prefix}.")

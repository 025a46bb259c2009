"""`manage.py ensure_bucket`: create the default storage's bucket (private) if it is missing.

Idempotent: run at every start by the compose one-shot `storage-init`, before the web
processes and workers (docs/DEPLOY.md). Exits non-zero, saying where and why, when the S3
server cannot be reached or refuses the credentials.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.object_store import BucketError, default_bucket, ensure_bucket


class Command(BaseCommand):
    help = "Create the S3 bucket of the default storage if it does not exist (private)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--wait",
            type=float,
            default=0,
            metavar="SECONDS",
            help="Retry for this long while the S3 server cannot be reached (it may be "
            "starting). Wrong credentials fail at once.",
        )

    def handle(self, *args: Any, wait: float = 0, **options: Any) -> None:
        target = default_bucket()
        if target is None:
            self.stdout.write(
                "The default storage is the local file system (AWS_STORAGE_BUCKET_NAME is "
                "unset): no bucket to create."
            )
            return
        try:
            created = ensure_bucket(target, wait_seconds=wait)
        except BucketError as error:
            raise CommandError(f"Cannot ensure the bucket: {error}") from error
        state = "created (private)" if created else "exists"
        self.stdout.write(f"Bucket {target.name!r} at {target.endpoint}: {state}.")

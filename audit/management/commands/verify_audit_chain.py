from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.models import AuditEvent
from audit.services import verify_chain
from organizations.models import Organization


class Command(BaseCommand):
    help = (
        "Check the hash chain of the audit trail and its signed head (EVIDENCE_SIGNING_KEY, "
        "or one of EVIDENCE_SIGNING_OLD_KEYS); report the first broken link."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--org", help="only this organization (slug)")

    def handle(self, *args: Any, **options: Any) -> None:
        organizations = Organization.objects.all()
        if options["org"]:
            organizations = organizations.filter(slug=options["org"])
        chains: list[tuple[str, Any]] = [(org.slug, org.pk) for org in organizations]
        if not options["org"]:
            chains.append(("(unattributed events)", None))
        broken = False
        for label, organization_id in chains:
            count = AuditEvent.objects.filter(organization_id=organization_id).count()
            chain_break = verify_chain(organization_id=organization_id)
            if chain_break is None:
                self.stdout.write(f"{label}: {count} events, chain intact, signed head verified")
            else:
                broken = True
                where = f" at event {chain_break.event_id}" if chain_break.event_id else ""
                self.stdout.write(f"{label}: BROKEN{where}: {chain_break.reason}")
        if broken:
            raise CommandError("The audit chain is broken.")

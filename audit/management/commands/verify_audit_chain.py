from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.models import AuditEvent
from audit.services import verify_chain
from organizations.models import Organization


class Command(BaseCommand):
    help = "Check the hash chain of the audit trail; report the first broken link."

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
                self.stdout.write(f"{label}: {count} events, chain intact")
            else:
                broken = True
                self.stdout.write(
                    f"{label}: BROKEN at event {chain_break.event_id}: {chain_break.reason}"
                )
        if broken:
            raise CommandError("The audit chain is broken.")

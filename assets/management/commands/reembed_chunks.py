"""Re-embed every chunk with another model in the background (assets.reembedding).

    manage.py reembed_chunks --model e5-small   # start (or resume the run to e5-small)
    manage.py reembed_chunks --status           # done/total, percent, ETA
    manage.py reembed_chunks --resume           # after a failure or a lost task chain
    manage.py reembed_chunks --cancel

The work runs in the ingestion workers; searches use the old vectors until the new ones are
complete. Set EMBEDDING_PROVIDER/EMBEDDING_LOCAL_MODEL to the new model too, so that the
settings agree with the chunks (the active model is the chunks' until the swap either way).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from assets import reembedding
from assets.embedding import MODELS, active_model, configured_model
from assets.processing.errors import EmbeddingProviderUnavailable


class Command(BaseCommand):
    help = "Re-embed every chunk with another embedding model, in the background."

    def add_arguments(self, parser: CommandParser) -> None:
        action = parser.add_mutually_exclusive_group(required=True)
        action.add_argument("--model", choices=MODELS, help="the model to move to")
        action.add_argument("--status", action="store_true", help="progress of the last run")
        action.add_argument("--resume", action="store_true", help="continue a failed run")
        action.add_argument("--cancel", action="store_true", help="stop the running one")
        parser.add_argument("--batch-size", type=int, default=64, help="chunks per batch")

    def handle(self, *args: Any, **options: Any) -> None:
        from assets.tasks import reembed_chunks_task

        try:
            if options["status"]:
                self._print_status()
                return
            if options["cancel"]:
                job = reembedding.reembed_cancel()
                self.stdout.write(f"Cancelled the re-embedding to {job.target_model}.")
                return
            if options["resume"]:
                job = reembedding.reembed_resume()
            else:
                job = reembedding.reembed_start(
                    model=options["model"], batch_size=options["batch_size"]
                )
        except (reembedding.ReembedError, EmbeddingProviderUnavailable) as error:
            raise CommandError(str(error)) from error
        reembed_chunks_task.delay(str(job.pk))
        self.stdout.write(
            f"Re-embedding from {job.source_model} to {job.target_model} in the background "
            f"(job {job.pk}); follow it with --status."
        )

    def _print_status(self) -> None:
        active, configured = active_model(), configured_model()
        self.stdout.write(f"Active model: {active} (settings: {configured})")
        progress = reembedding.reembed_status()
        if progress is None:
            self.stdout.write("No re-embedding has run.")
            return
        eta = "-" if progress.eta_seconds is None else f"{progress.eta_seconds} s"
        self.stdout.write(
            f"{progress.source_model} -> {progress.target_model}: {progress.status} "
            f"({progress.phase}), {progress.chunks_done}/{progress.chunks_total} chunks, "
            f"{progress.percent}%, ETA {eta}"
        )
        if progress.error:
            self.stdout.write(f"Error: {progress.error}")

import logging
from pathlib import Path

from django.apps import AppConfig
from django.conf import settings


class AssetsConfig(AppConfig):
    name = "assets"

    def ready(self) -> None:
        # Uploads and conversions are written here. Created when the app starts (every web,
        # worker and manage.py process; Django's checks require it), not by the settings,
        # which only read the environment.
        Path(settings.FILE_UPLOAD_TEMP_DIR).mkdir(parents=True, exist_ok=True)
        # An ingestion worker loads its embedding model as its processes start; a Celery
        # worker sets Django up before it sends these signals (assets/worker.py).
        from assets import worker

        worker.connect_celery_signals()
        # The one sweeper of background work finds the asset's processing here.
        from assets.work import ASSET_PROCESSING
        from common.background import kinds

        kinds.register(ASSET_PROCESSING)
        # Production on the lexical embeddings, allowed by EMBEDDING_ALLOW_HASHING: said at
        # every start of every process (config/settings/production.py).
        problem = getattr(settings, "EMBEDDING_STARTUP_ERROR", "")
        if problem:
            logging.getLogger("assets.embedding").error(problem)

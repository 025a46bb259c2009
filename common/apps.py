from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class CommonConfig(AppConfig):
    name = "common"
    verbose_name = gettext_lazy("Service infrastructure")

    def ready(self) -> None:
        from common.model_labels import apply_labels

        # Every app's models are loaded before any ready(): the names of all of them.
        apply_labels()

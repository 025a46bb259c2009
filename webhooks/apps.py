from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"

    def ready(self) -> None:
        # The one sweeper of background work finds the delivery attempts through the registry.
        from common.background.kinds import register
        from webhooks.work import KIND

        register(KIND)

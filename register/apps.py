from django.apps import AppConfig


class RegisterConfig(AppConfig):
    name = "register"
    verbose_name = "Processing register"

    def ready(self) -> None:
        # The one sweeper of background work finds the register import through the registry.
        from common.background.kinds import register
        from register.work import KIND

        register(KIND)

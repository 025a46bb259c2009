from django.apps import AppConfig


class BackgroundAppConfig(AppConfig):
    """A test-only app: one kind of background work, to test the lease without an app's."""

    name = "tests.background_app"
    label = "background_app"
    default_auto_field = "django.db.models.BigAutoField"

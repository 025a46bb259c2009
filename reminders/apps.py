from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class RemindersConfig(AppConfig):
    name = "reminders"
    verbose_name = gettext_lazy("Reminders")
